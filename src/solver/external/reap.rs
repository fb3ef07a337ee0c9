//! Waiting for a child and reaping it with the kernel's account of it. [`has_exited`] asks
//! (`waitid` with WNOWAIT) without reaping, so the pid and the process group id stay
//! reserved while the rest of the run is killed; [`reap`] then collects it with `wait4`,
//! which returns the wait status and the resource usage (CPU time, peak RSS) in one call.
//! Both are retried when a signal interrupts them. Shared by bench's process runner and by `bench-exec`, which includes this file on
//! its own (it uses nothing but std and libc).

use std::io;

/// Reaps `pid`, returning its wait status and the kernel's resource usage for it.
pub fn reap(pid: libc::pid_t) -> io::Result<(libc::c_int, libc::rusage)> {
    loop {
        let mut status: libc::c_int = 0;
        // SAFETY: rusage is plain data; wait4 only writes into it.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: plain syscall on our own child.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            return Ok((status, usage));
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// Whether `pid` has exited, leaving it a zombie (WNOWAIT) until [`reap`]; with `block`,
/// waits until it has.
pub fn has_exited(pid: libc::pid_t, block: bool) -> io::Result<bool> {
    let flags = libc::WEXITED | libc::WNOWAIT | if block { 0 } else { libc::WNOHANG };
    loop {
        // SAFETY: siginfo_t is plain data; waitid only writes into it.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: plain syscall on our own child.
        let r = unsafe { libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, flags) };
        if r == 0 {
            // SAFETY: si_pid is set when waitid found a child (0 when WNOHANG found none).
            return Ok(unsafe { info.si_pid() } == pid);
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}
