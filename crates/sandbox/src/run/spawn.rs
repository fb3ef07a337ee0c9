//! Starting the exec helper by a clone that shares bench's memory until the exec
//! (`vfork.rs`): no fork of bench's own process (whose page tables a fork copies and whose
//! pages it then faults in copy-on-write). The child gets `/dev/null` as stdin, the write
//! ends of the stdout and stderr pipes as 1 and 2, the report pipe's write end as 3 and the
//! control pipe's read end as 4 (the helper is told these numbers), the descriptors of a
//! reused control group's files from 5 on ([`EXTRA_FD`]), a process group of its own, and every signal blocked, which the helper unblocks first thing; every other
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
/// The first of the descriptors handed on as they are (`extra`).
pub(super) const EXTRA_FD: RawFd = 5;

/// A started helper: its pid and the read ends of its stdout and stderr.
pub(super) struct Spawned {
    pub(super) pid: libc::pid_t,
    pub(super) stdout: OwnedFd,
    pub(super) stderr: OwnedFd,
}

/// Starts `program` with `args` (argv[0] is the program) and the environment of this
/// process plus `env` (the process's own, uncopied, when `env` is empty), handing it
/// `report` as [`REPORT_FD`], `control` as [`CONTROL_FD`] and `extra` as [`EXTRA_FD`] on.
pub(super) fn spawn(
    program: &Path,
    args: &[&OsStr],
    env: &[(OsString, OsString)],
    report: &OwnedFd,
    control: &OwnedFd,
    extra: &[RawFd],
) -> io::Result<Spawned> {
    let envp = if env.is_empty() {
        None
    } else {
        Some(environment(env)?)
    };
    let (out_read, out_write) = super::helper::pipe()?;
    let (err_read, err_write) = super::helper::pipe()?;
    // Every source is moved above the last target first, so that no dup2 overwrites
    // another's source (the pipes' own numbers may be 3 or 4); an extra descriptor
    // already above them (the usual case: kept open since the group was made) is used as
    // it is.
    let last = CONTROL_FD + extra.len() as RawFd;
    let sources = [
        dup_above(dev_null()?, last)?,
        dup_above(&out_write, last)?,
        dup_above(&err_write, last)?,
        dup_above(report, last)?,
        dup_above(control, last)?,
    ];
    drop((out_write, err_write));
    let mut moved = Vec::new();
    let mut extra_sources = Vec::with_capacity(extra.len());
    for &fd in extra {
        if fd > last {
            extra_sources.push(fd);
        } else {
            // SAFETY: the caller's open descriptor, borrowed for the duplicate.
            let dup = dup_above(&unsafe { std::os::fd::BorrowedFd::borrow_raw(fd) }, last)?;
            extra_sources.push(dup.as_raw_fd());
            moved.push(dup);
        }
    }
    let fds = sources
        .iter()
        .map(AsRawFd::as_raw_fd)
        .chain(extra_sources)
        .zip(
            [0, 1, 2, REPORT_FD, CONTROL_FD]
                .into_iter()
                .chain(EXTRA_FD..),
        )
        .collect();
    let pid = Exec::helper(program, args, envp, fds)?.spawn()?;
    drop(moved);
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

/// A close-on-exec duplicate of `fd` numbered above `last`.
fn dup_above(fd: &impl AsRawFd, last: RawFd) -> io::Result<OwnedFd> {
    // SAFETY: plain fcntl on an open descriptor.
    let new = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_DUPFD_CLOEXEC, last + 1) };
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
