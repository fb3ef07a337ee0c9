//! Starting the exec helper by a clone that shares bench's memory until the exec
//! (`vfork.rs`): no fork of bench's own process (whose page tables a fork copies and whose
//! pages it then faults in copy-on-write). The child gets `/dev/null` as stdin, the write
//! ends of the stdout and stderr pipes as 1 and 2, the report pipe's write end as 3 and the
//! control pipe's read end as 4 (the helper is told these numbers), a process group of its
//! own, and every signal blocked, which the helper unblocks first thing; every other
//! descriptor of bench is close-on-exec or inherited as by any child. The limits of a run
//! (RLIMIT_CPU, RLIMIT_AS) the helper sets in the solver.

use std::ffi::{CString, OsStr, OsString};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::Path;
use std::sync::OnceLock;

use crate::vfork::Exec;

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
/// process plus `env` (the process's own, uncopied, when `env` is empty), handing it
/// `report` as [`REPORT_FD`] and `control` as [`CONTROL_FD`].
pub(super) fn spawn(
    program: &Path,
    args: &[&OsStr],
    env: &[(OsString, OsString)],
    report: &OwnedFd,
    control: &OwnedFd,
) -> io::Result<Spawned> {
    let envp = if env.is_empty() {
        None
    } else {
        Some(environment(env)?)
    };
    let (out_read, out_write) = super::helper::pipe()?;
    let (err_read, err_write) = super::helper::pipe()?;
    // Every source is moved above 4 first, so that no dup2 overwrites another's source
    // (the pipes' own numbers may be 3 or 4).
    let sources = [
        dup_above(dev_null()?)?,
        dup_above(&out_write)?,
        dup_above(&err_write)?,
        dup_above(report)?,
        dup_above(control)?,
    ];
    drop((out_write, err_write));
    let fds = sources
        .iter()
        .zip([0, 1, 2, REPORT_FD, CONTROL_FD])
        .map(|(src, dst)| (src.as_raw_fd(), dst))
        .collect();
    let pid = Exec::helper(program, args, envp, fds)?.spawn()?;
    Ok(Spawned {
        pid,
        stdout: out_read,
        stderr: err_read,
    })
}

/// `/dev/null`, opened once (close-on-exec), for the helper's stdin.
fn dev_null() -> io::Result<&'static OwnedFd> {
    static DEV_NULL: OnceLock<OwnedFd> = OnceLock::new();
    if let Some(fd) = DEV_NULL.get() {
        return Ok(fd);
    }
    let file = std::fs::File::open("/dev/null")?;
    Ok(DEV_NULL.get_or_init(|| file.into()))
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
