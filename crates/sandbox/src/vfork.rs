//! Starting a program without copying the process that starts it: `clone` with
//! `CLONE_VM | CLONE_VFORK`, as glibc's `posix_spawn` does, so the kernel copies no page
//! tables and neither process takes copy-on-write faults, and the parent waits (suspended)
//! until the child has called `execve` or failed. bench starts the exec helper this way
//! (`run/spawn.rs`), and the helper the solver (`exec_helper.rs`).
//!
//! Between the clone and the exec the child runs on a stack of its own and makes only
//! system calls on memory prepared before the clone (nothing is allocated, no lock is
//! taken): descriptors moved into place, a process group of its own, the run's control
//! group joined (through its `cgroup.procs` paths, or descriptors bench keeps open), the
//! resource limits, then `execve`. All signals are blocked in the parent
//! around the clone, so no handler of the parent runs in the child on the shared memory.
//! For the solver ([`Exec::solver`]) the child then sets the signals the helper ignores or
//! handles back to their default and unblocks every signal just before the exec; the
//! helper ([`Exec::helper`]) is executed with every signal still blocked (no pass over
//! every signal's handler, which `posix_spawn` makes) and unblocks them first thing
//! itself ([`unblock_signals`]), after the exec has reset every handler. A failure before
//! the exec leaves its errno where the parent reads it once the clone returns.

use std::ffi::{CString, OsStr};
use std::io;
use std::os::fd::RawFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI32, Ordering};

use crate::exec_helper::join_group;
use crate::group_files::join_fd;
use crate::reap::{limit_child, limit_cpu};

unsafe extern "C" {
    /// This process's environment.
    static environ: *const *const libc::c_char;
}

/// A program to start and what its child does before the exec, prepared before the clone.
pub(crate) struct Exec {
    /// The program's path, resolved through `PATH` when it has no slash.
    path: CString,
    /// The arguments, `argv[0]` first.
    _args: Vec<CString>,
    /// Pointers into `_args`, null-terminated.
    argv: Vec<*const libc::c_char>,
    /// The environment (None: this process's own, uncopied).
    envp: Option<(Vec<CString>, Vec<*const libc::c_char>)>,
    /// Descriptors duplicated into place, in order (source, target).
    fds: Vec<(RawFd, RawFd)>,
    /// The `cgroup.procs` files to write `0` into.
    join: Vec<CString>,
    /// Open `cgroup.procs` files to write `0` into (a reused group's, from bench).
    join_fds: Vec<RawFd>,
    /// RLIMIT_AS, bytes (0: none), and no core files.
    as_limit: Option<u64>,
    /// RLIMIT_CPU, seconds.
    cpu_rlimit: Option<u64>,
    /// A solver: signals back to their default and unblocked before the exec.
    solver: bool,
    /// The child's errno when it failed before the exec (0: it did not).
    failed: AtomicI32,
}

impl Exec {
    /// A solver started by the helper: `program` with `args` (`argv[0]` the program as
    /// given), joining the groups whose `cgroup.procs` files are `join` (paths) or
    /// `join_fds` (open), with no core files and these limits. Errors on a NUL byte in an
    /// argument.
    pub(crate) fn solver<S: AsRef<OsStr>>(
        program: &OsStr,
        args: &[S],
        (join, join_fds): (Vec<CString>, Vec<RawFd>),
        as_limit: u64,
        cpu_rlimit: Option<u64>,
    ) -> io::Result<Exec> {
        let mut exec = Exec::new(&resolve(program), program, args, None)?;
        exec.join = join;
        exec.join_fds = join_fds;
        exec.as_limit = Some(as_limit);
        exec.cpu_rlimit = cpu_rlimit;
        exec.solver = true;
        Ok(exec)
    }

    /// The exec helper started by bench: `program` with `args` and the environment `env`
    /// (None: this process's), the descriptors `fds` (source, target) moved into place,
    /// in a process group of its own; every signal blocked (the helper unblocks them).
    pub(crate) fn helper<S: AsRef<OsStr>>(
        program: &Path,
        args: &[S],
        env: Option<Vec<CString>>,
        fds: Vec<(RawFd, RawFd)>,
    ) -> io::Result<Exec> {
        let mut exec = Exec::new(program, program.as_os_str(), args, env)?;
        exec.fds = fds;
        Ok(exec)
    }

    fn new<S: AsRef<OsStr>>(
        path: &Path,
        arg0: &OsStr,
        args: &[S],
        env: Option<Vec<CString>>,
    ) -> io::Result<Exec> {
        let cstr = |s: &OsStr| {
            CString::new(s.as_bytes()).map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))
        };
        let mut all = vec![cstr(arg0)?];
        for a in args {
            all.push(cstr(a.as_ref())?);
        }
        let envp = env.map(|e| {
            let p = pointers(&e);
            (e, p)
        });
        Ok(Exec {
            path: cstr(path.as_os_str())?,
            argv: pointers(&all),
            _args: all,
            envp,
            fds: Vec::new(),
            join: Vec::new(),
            join_fds: Vec::new(),
            as_limit: None,
            cpu_rlimit: None,
            solver: false,
            failed: AtomicI32::new(0),
        })
    }

    /// Starts the child; returns its pid once it has called `execve`, or the errno of
    /// what failed before (the child then reaped).
    pub(crate) fn spawn(&self) -> io::Result<libc::pid_t> {
        const STACK: usize = 64 << 10;
        // Not zeroed: the child touches only the pages it uses.
        let mut stack: Vec<u128> = Vec::with_capacity(STACK / 16);
        // SAFETY: the stack grows down from the end of a buffer that lives until the
        // child has exec'd or exited (CLONE_VFORK suspends this thread until then); `self`
        // lives as long. All signals are blocked around the clone (the old mask comes
        // back after), so no handler of this process runs in the child.
        unsafe {
            let top = stack
                .as_mut_ptr()
                .add(stack.capacity())
                .cast::<libc::c_void>();
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

/// Pointers to `strings`, null-terminated.
fn pointers(strings: &[CString]) -> Vec<*const libc::c_char> {
    let mut p: Vec<*const libc::c_char> = strings.iter().map(|s| s.as_ptr()).collect();
    p.push(std::ptr::null());
    p
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
    // SAFETY: plain system calls on this process's own descriptor table (no CLONE_FILES).
    for &(src, dst) in &exec.fds {
        let moved = unsafe {
            if src == dst {
                libc::fcntl(dst, libc::F_SETFD, 0)
            } else {
                libc::dup2(src, dst)
            }
        };
        if moved < 0 {
            return fail(io::Error::last_os_error());
        }
    }
    // SAFETY: plain system call on this process.
    if unsafe { libc::setpgid(0, 0) } != 0 {
        return fail(io::Error::last_os_error());
    }
    for file in &exec.join {
        if let Err(e) = join_group(file) {
            return fail(e);
        }
    }
    for &fd in &exec.join_fds {
        if let Err(e) = join_fd(fd) {
            return fail(e);
        }
    }
    if let Err(e) = limit_cpu(exec.cpu_rlimit) {
        return fail(e);
    }
    if let Some(bytes) = exec.as_limit
        && let Err(e) = limit_child((bytes > 0).then_some(bytes))
    {
        return fail(e);
    }
    if exec.solver {
        // SAFETY: plain system calls on this process; its signal dispositions are its
        // own (no CLONE_SIGHAND).
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
        unblock_signals();
    }
    let envp = exec
        .envp
        .as_ref()
        // SAFETY: reads the pointer `environ` holds (the process sets no variable while
        // it starts programs).
        .map_or(unsafe { environ }, |(_, p)| p.as_ptr());
    // SAFETY: NUL-terminated strings and null-terminated arrays prepared before the clone.
    unsafe {
        libc::execve(exec.path.as_ptr(), exec.argv.as_ptr(), envp);
    }
    fail(io::Error::last_os_error())
}

/// Unblocks every signal of the calling thread: first thing in the exec helper, which
/// bench starts with every signal blocked.
pub(crate) fn unblock_signals() {
    // SAFETY: plain system call with a set initialised here.
    unsafe {
        let mut empty: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut empty);
        libc::pthread_sigmask(libc::SIG_SETMASK, &empty, std::ptr::null_mut());
    }
}

/// `program` itself when it names a path (has a slash), else the first executable file of
/// that name in `PATH`'s directories (else `program`, whose exec then fails with ENOENT).
fn resolve(program: &OsStr) -> PathBuf {
    if program.as_bytes().contains(&b'/') {
        return program.into();
    }
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|d| d.join(program))
        .find(|p| crate::run::is_executable(p))
        .unwrap_or_else(|| program.into())
}
