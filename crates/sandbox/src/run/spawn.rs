//! Starting the exec helper with `posix_spawn`: no fork of bench's own process (whose page
//! tables a fork copies and whose pages it then faults in copy-on-write), and nothing run
//! in the child between fork and exec. The child gets `/dev/null` as stdin, the write ends
//! of the stdout and stderr pipes as 1 and 2, the report pipe's write end as 3 and the
//! control pipe's read end as 4 (the helper is told these numbers), a process group of its
//! own, an empty signal mask and SIGPIPE at its default; every other descriptor of bench is
//! close-on-exec or inherited as by any child. What used to be set between fork and exec
//! (RLIMIT_CPU) the helper sets in the solver.

use std::ffi::{CString, OsStr, OsString};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::Path;

/// The descriptor numbers the helper gets its report and control pipes on.
pub(super) const REPORT_FD: RawFd = 3;
/// See [`REPORT_FD`].
pub(super) const CONTROL_FD: RawFd = 4;

/// A started helper: its pid and the read ends of its stdout and stderr.
pub(super) struct Spawned {
    pub(super) pid: libc::pid_t,
    pub(super) stdout: OwnedFd,
    pub(super) stderr: OwnedFd,
}

/// Starts `program` with `args` (argv[0] is the program) and the environment of this
/// process plus `env` (the process's own, uncopied, when `env` is empty), handing it `report` as [`REPORT_FD`] and `control` as
/// [`CONTROL_FD`].
pub(super) fn spawn(
    program: &Path,
    args: &[&OsStr],
    env: &[(OsString, OsString)],
    report: &OwnedFd,
    control: &OwnedFd,
) -> io::Result<Spawned> {
    let cstr = |s: &OsStr| {
        CString::new(s.as_bytes()).map_err(|_| io::Error::other("a NUL byte in an argument"))
    };
    let path = cstr(program.as_os_str())?;
    let mut argv = vec![path.clone()];
    for a in args {
        argv.push(cstr(a)?);
    }
    let envp = if env.is_empty() {
        None
    } else {
        Some(environment(env)?)
    };
    let (out_read, out_write) = super::helper::pipe()?;
    let (err_read, err_write) = super::helper::pipe()?;
    // The sources of 3 and 4 are moved above 4 first, so that no dup2 overwrites another's
    // source (the pipes' own numbers may be 3 or 4).
    let report_src = dup_above(report)?;
    let control_src = dup_above(control)?;
    let ptrs = |v: &[CString]| {
        let mut p: Vec<*mut libc::c_char> = v.iter().map(|s| s.as_ptr() as *mut _).collect();
        p.push(std::ptr::null_mut());
        p
    };
    let argv_p = ptrs(&argv);
    let envp_p = envp.as_deref().map(ptrs);
    let devnull = c"/dev/null";
    let mut pid: libc::pid_t = 0;
    // SAFETY: the file actions and attributes are initialised before use and destroyed
    // after; every pointer handed to posix_spawn (path, argv, envp, /dev/null) lives until
    // it returns; the descriptors are open and owned here.
    let rc = unsafe {
        let mut actions: libc::posix_spawn_file_actions_t = std::mem::zeroed();
        let mut attr: libc::posix_spawnattr_t = std::mem::zeroed();
        libc::posix_spawn_file_actions_init(&mut actions);
        libc::posix_spawnattr_init(&mut attr);
        let mut rc = libc::posix_spawn_file_actions_addopen(
            &mut actions,
            0,
            devnull.as_ptr(),
            libc::O_RDONLY,
            0,
        );
        for (src, dst) in [
            (out_write.as_raw_fd(), 1),
            (err_write.as_raw_fd(), 2),
            (report_src.as_raw_fd(), REPORT_FD),
            (control_src.as_raw_fd(), CONTROL_FD),
        ] {
            if rc == 0 {
                rc = libc::posix_spawn_file_actions_adddup2(&mut actions, src, dst);
            }
        }
        let mut empty: libc::sigset_t = std::mem::zeroed();
        let mut pipe_only: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut empty);
        libc::sigemptyset(&mut pipe_only);
        libc::sigaddset(&mut pipe_only, libc::SIGPIPE);
        let flags = libc::POSIX_SPAWN_SETPGROUP
            | libc::POSIX_SPAWN_SETSIGMASK
            | libc::POSIX_SPAWN_SETSIGDEF;
        if rc == 0 {
            rc = libc::posix_spawnattr_setflags(&mut attr, flags as libc::c_short);
        }
        if rc == 0 {
            rc = libc::posix_spawnattr_setpgroup(&mut attr, 0);
        }
        if rc == 0 {
            rc = libc::posix_spawnattr_setsigmask(&mut attr, &empty);
        }
        if rc == 0 {
            rc = libc::posix_spawnattr_setsigdefault(&mut attr, &pipe_only);
        }
        if rc == 0 {
            rc = libc::posix_spawn(
                &mut pid,
                path.as_ptr(),
                &actions,
                &attr,
                argv_p.as_ptr(),
                envp_p.as_ref().map_or(environ.cast_const(), |e| e.as_ptr()),
            );
        }
        libc::posix_spawn_file_actions_destroy(&mut actions);
        libc::posix_spawnattr_destroy(&mut attr);
        rc
    };
    if rc != 0 {
        return Err(io::Error::from_raw_os_error(rc));
    }
    Ok(Spawned {
        pid,
        stdout: out_read,
        stderr: err_read,
    })
}

unsafe extern "C" {
    /// This process's environment (bench sets no variable once it runs solvers: see
    /// `main`).
    static environ: *mut *mut libc::c_char;
}

/// A close-on-exec duplicate of `fd` numbered above [`CONTROL_FD`].
fn dup_above(fd: &OwnedFd) -> io::Result<OwnedFd> {
    // SAFETY: plain fcntl on an open descriptor.
    let new = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_DUPFD_CLOEXEC, CONTROL_FD + 1) };
    if new < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a new descriptor that nothing else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(new) })
}

/// This process's environment with `extra` set over it, as `KEY=VALUE` strings.
fn environment(extra: &[(OsString, OsString)]) -> io::Result<Vec<CString>> {
    let mut vars: Vec<(OsString, OsString)> = std::env::vars_os()
        .filter(|(k, _)| !extra.iter().any(|(e, _)| e == k))
        .collect();
    vars.extend(extra.iter().cloned());
    vars.into_iter()
        .map(|(k, v)| {
            let mut s = k.into_vec();
            s.push(b'=');
            s.extend_from_slice(v.as_bytes());
            CString::new(s).map_err(|_| io::Error::other("a NUL byte in the environment"))
        })
        .collect()
}
