//! `bench-exec`: the small process between bench and a solver, so that the solver's peak
//! RSS is its own.
//!
//! Linux carries a process's resident memory at `exec` into its `ru_maxrss`, and a forked
//! child's resident memory is its parent's: a solver forked straight from a bench that
//! holds 300 MiB of formulas reports at least 300 MiB, however little it used. So bench
//! runs `bench-exec FD LIMIT PROGRAM ARGS…` instead (FD a pipe back to bench, LIMIT the
//! solver's RLIMIT_AS in bytes, 0 for none); this helper,
//! a fresh process of about a MiB, forks and execs the solver, reaps it with `wait4`, and
//! writes the solver's wait status and `rusage` to FD as one line:
//! `status <wait status> <user µs> <system µs> <max rss KiB>`, or `error <errno>` if the
//! solver could not be started. It ignores SIGTERM (and restores it in the solver), so
//! that when bench stops the group the helper outlives the solver long enough to report.
//! It uses nothing but std and libc, to stay small.

use std::io::Write;
use std::os::fd::FromRawFd;
use std::os::unix::process::CommandExt;
use std::process::Command;

fn main() {
    let mut args = std::env::args_os().skip(1);
    // The descriptor is passed by number (not moved to a fixed one) so that bench never
    // has to dup2 over a descriptor it does not own between fork and exec.
    let fd: i32 = match args.next().and_then(|a| a.to_str()?.parse().ok()) {
        Some(fd) if fd > 2 => fd,
        _ => {
            eprintln!("usage: bench-exec FD LIMIT PROGRAM [ARGS...] (run by bench, not by hand)");
            std::process::exit(127);
        }
    };
    let limit: u64 = args
        .next()
        .and_then(|a| a.to_str()?.parse().ok())
        .unwrap_or(0);
    // SAFETY: the descriptor is the pipe bench set up for this process; nothing else
    // owns it.
    let mut report = unsafe { std::fs::File::from_raw_fd(fd) };
    // SAFETY: plain fcntl/signal calls: the solver must not inherit the pipe (bench reads
    // it to its end once the helper is gone), and SIGTERM is for the solver alone.
    unsafe {
        libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
        libc::signal(libc::SIGTERM, libc::SIG_IGN);
    }
    let Some(program) = args.next() else {
        let _ = writeln!(report, "error {}", libc::EINVAL);
        std::process::exit(127);
    };
    let mut command = Command::new(program);
    command.args(args);
    // SAFETY: runs between fork and exec; signal() and setrlimit() are
    // async-signal-safe.
    unsafe {
        command.pre_exec(move || {
            libc::signal(libc::SIGTERM, libc::SIG_DFL);
            if limit > 0 {
                let rl = libc::rlimit {
                    rlim_cur: limit,
                    rlim_max: limit,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &rl) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    let child = match command.spawn() {
        Ok(c) => c,
        Err(e) => {
            let _ = writeln!(report, "error {}", e.raw_os_error().unwrap_or(0));
            std::process::exit(127);
        }
    };
    let pid = child.id() as libc::pid_t;
    loop {
        let mut status: libc::c_int = 0;
        // SAFETY: rusage is plain data that wait4 fills in.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: plain syscall on our own child.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            let micros = |t: libc::timeval| t.tv_sec * 1_000_000 + t.tv_usec;
            // One write, so bench reads the whole line or nothing.
            let line = format!(
                "status {} {} {} {}\n",
                status,
                micros(usage.ru_utime),
                micros(usage.ru_stime),
                usage.ru_maxrss
            );
            let _ = report.write_all(line.as_bytes());
            std::process::exit(0);
        }
        if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            let _ = writeln!(
                report,
                "error {}",
                std::io::Error::last_os_error().raw_os_error().unwrap_or(0)
            );
            std::process::exit(127);
        }
    }
}
