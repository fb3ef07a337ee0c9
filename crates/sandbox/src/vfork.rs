//! Starting the solver from the exec helper without copying the helper: `clone` with
//! `CLONE_VM | CLONE_VFORK`, as glibc's `posix_spawn` does, so the kernel copies no page
//! tables and neither process takes copy-on-write faults, and the helper waits (suspended)
//! until the child has called `execve` or failed. Between the clone and the exec the child
//! runs on a stack of its own and makes only system calls on memory prepared before the
//! clone (nothing is allocated, no lock is taken): a process group of its own, the run's
//! control group joined, the signals the helper ignores or handles set back to their
//! default, the resource limits, an empty signal mask, then `execve`. A failure before the
//! exec leaves its errno where the helper reads it once the clone returns. All signals are
//! blocked in the helper around the clone, so no handler runs on the shared memory.

use std::ffi::{CString, OsStr, OsString};
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::atomic::{AtomicI32, Ordering};

use crate::exec_helper::join_group;
use crate::reap::{limit_child, limit_cpu};

/// What the child does between the clone and the exec, prepared before the clone.
pub(crate) struct Exec {
    /// The program's path, resolved through `PATH` when it has no slash.
    path: CString,
    /// The arguments, `argv[0]` the program as given.
    _args: Vec<CString>,
    /// Pointers into `_args`, null-terminated.
    argv: Vec<*const libc::c_char>,
    /// The `cgroup.procs` files to write `0` into.
    join: Vec<CString>,
    /// RLIMIT_AS, bytes (0: none).
    as_limit: u64,
    /// RLIMIT_CPU, seconds.
    cpu_rlimit: Option<u64>,
    /// The child's errno when it failed before the exec (0: it did not).
    failed: AtomicI32,
}

impl Exec {
    /// `program` with `args`, joining the groups whose `cgroup.procs` files are `join`,
    /// under these limits. Errors on a NUL byte in an argument.
    pub(crate) fn new(
        program: &OsStr,
        args: &[OsString],
        join: Vec<CString>,
        as_limit: u64,
        cpu_rlimit: Option<u64>,
    ) -> io::Result<Exec> {
        let cstr = |s: &OsStr| {
            CString::new(s.as_bytes()).map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))
        };
        let path = cstr(resolve(program).as_os_str())?;
        let mut all = vec![cstr(program)?];
        for a in args {
            all.push(cstr(a)?);
        }
        let mut argv: Vec<*const libc::c_char> = all.iter().map(|a| a.as_ptr()).collect();
        argv.push(std::ptr::null());
        Ok(Exec {
            path,
            _args: all,
            argv,
            join,
            as_limit,
            cpu_rlimit,
            failed: AtomicI32::new(0),
        })
    }

    /// Starts the child; returns its pid once it has called `execve`, or the errno of
    /// what failed before (the child then reaped).
    pub(crate) fn spawn(&self) -> io::Result<libc::pid_t> {
        const STACK: usize = 64 << 10;
        let mut stack = vec![0u128; STACK / 16];
        // SAFETY: the stack grows down from the end of a buffer that lives until the
        // child has exec'd or exited (CLONE_VFORK suspends this thread until then); `self`
        // lives as long. All signals are blocked around the clone (the old mask comes
        // back after), so no handler of this process runs in the child.
        unsafe {
            let top = stack.as_mut_ptr().add(stack.len()).cast::<libc::c_void>();
            let mut all: libc::sigset_t = std::mem::zeroed();
            let mut old: libc::sigset_t = std::mem::zeroed();
            libc::sigfillset(&mut all);
            libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut old);
            let pid = libc::clone(
                child,
                top,
                libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
                (self as *const Exec).cast_mut().cast(),
            );
            let clone_err = io::Error::last_os_error();
            libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
            if pid < 0 {
                return Err(clone_err);
            }
            match self.failed.load(Ordering::SeqCst) {
                0 => Ok(pid),
                errno => {
                    let _ = crate::reap::reap(pid);
                    Err(io::Error::from_raw_os_error(errno))
                }
            }
        }
    }
}

/// The child, between the clone and the exec: system calls only, on memory the parent
/// prepared; on a failure its errno is left in `failed` and the child exits with 127.
extern "C" fn child(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `arg` is the `Exec` of `Exec::spawn`, alive and not moved while the parent
    // waits for this child's exec or exit.
    let exec = unsafe { &*(arg as *const Exec) };
    let fail = |e: io::Error| -> libc::c_int {
        exec.failed.store(
            e.raw_os_error().unwrap_or(libc::EINVAL).max(1),
            Ordering::SeqCst,
        );
        // SAFETY: ends this child without running any of the parent's exit handlers.
        unsafe { libc::_exit(127) }
    };
    // SAFETY: plain system calls on this process.
    unsafe {
        if libc::setpgid(0, 0) != 0 {
            return fail(io::Error::last_os_error());
        }
    }
    for file in &exec.join {
        if let Err(e) = join_group(file) {
            return fail(e);
        }
    }
    // SAFETY: plain system calls on this process; its signal dispositions are its own
    // (no CLONE_SIGHAND).
    unsafe {
        for sig in [
            libc::SIGTERM,
            libc::SIGHUP,
            libc::SIGPIPE,
            libc::SIGSEGV,
            libc::SIGBUS,
        ] {
            libc::signal(sig, libc::SIG_DFL);
        }
    }
    if let Err(e) = limit_cpu(exec.cpu_rlimit) {
        return fail(e);
    }
    if let Err(e) = limit_child((exec.as_limit > 0).then_some(exec.as_limit)) {
        return fail(e);
    }
    // SAFETY: plain system calls; the pointers are NUL-terminated strings and a
    // null-terminated array prepared before the clone; the environment is this process's.
    unsafe {
        let mut empty: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut empty);
        libc::pthread_sigmask(libc::SIG_SETMASK, &empty, std::ptr::null_mut());
        libc::execv(exec.path.as_ptr(), exec.argv.as_ptr());
    }
    fail(io::Error::last_os_error())
}

/// `program` itself when it names a path (has a slash), else the first executable file of
/// that name in `PATH`'s directories (else `program`, whose exec then fails with ENOENT).
fn resolve(program: &OsStr) -> std::path::PathBuf {
    if program.as_bytes().contains(&b'/') {
        return program.into();
    }
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|d| d.join(program))
        .find(|p| crate::run::is_executable(p))
        .unwrap_or_else(|| Path::new(program).to_path_buf())
}
