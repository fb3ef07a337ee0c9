//! A solver child's life at the kernel: its limits before exec, and waiting for it and
//! reaping it with the kernel's account of it. [`limit_child`] runs between fork and exec:
//! no core files, and an address-space limit when asked; [`limit_cpu`] sets the CPU-time
//! backstop. [`has_exited`] asks
//! (`waitid` with WNOWAIT) without reaping, so the pid and the process group id stay
//! reserved while the rest of the run is killed; [`reap`] then collects it with `wait4`,
//! which returns the wait status and the resource usage (CPU time, peak RSS) in one call.
//! Both are retried when a signal interrupts them. Shared by bench's process runner and by
//! the exec helper (this file uses nothing but std and libc).

use std::io;
use std::time::Duration;

/// In the child, between fork and exec: no core files (a solver that aborts on a failed
/// allocation would otherwise spend seconds writing one, inside its measured time) and,
/// with `as_bytes`, a limit on the address space. Calls only `setrlimit`, which is
/// async-signal-safe, and allocates nothing.
pub fn limit_child(as_bytes: Option<u64>) -> io::Result<()> {
    let no_core = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: plain syscall on this process, with a valid struct.
    unsafe { libc::setrlimit(libc::RLIMIT_CORE, &no_core) };
    if let Some(bytes) = as_bytes {
        let limit = libc::rlimit {
            rlim_cur: bytes,
            rlim_max: bytes,
        };
        // SAFETY: as above.
        if unsafe { libc::setrlimit(libc::RLIMIT_AS, &limit) } != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// In the child, between fork and exec: with `secs`, RLIMIT_CPU (soft `secs`, SIGXCPU;
/// hard one second later, SIGKILL), inherited by every process it starts, each counted
/// alone. Calls only `setrlimit`, which is async-signal-safe, and allocates nothing.
pub fn limit_cpu(secs: Option<u64>) -> io::Result<()> {
    if let Some(secs) = secs {
        let limit = libc::rlimit {
            rlim_cur: secs,
            rlim_max: secs.saturating_add(1),
        };
        // SAFETY: plain syscall on this process, with a valid struct.
        if unsafe { libc::setrlimit(libc::RLIMIT_CPU, &limit) } != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// The CPU time (user + system) in a resource usage.
pub fn cpu_time(usage: &libc::rusage) -> Duration {
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
    };
    time(usage.ru_utime) + time(usage.ru_stime)
}

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
