//! A reused cgroup-v1 group's control files, opened once when the group is made and kept
//! open for as long as it lives (`run/slots.rs`): each run then reads and writes them
//! with `pread`/`pwrite` at offset 0 (a `seq_file` read from offset 0 shows the file as it
//! is now), instead of looking each path up and opening it again.
//!
//! Kept open: every hierarchy's `cgroup.procs` (written `0` to join: bench hands them to
//! the exec helper, whose solver child writes them between clone and exec), the tasks in
//! the group (`pids.current`: a v1 `cgroup.procs` read again through a descriptor kept
//! open may show the pid list an earlier read of it cached, up to a second old, so the
//! count of tasks says whether the group is empty), the freezer's state, the CPU counter
//! (`cpuacct.usage`), the memory charged and its peak (`memory.usage_in_bytes`,
//! `memory.max_usage_in_bytes`), memory-limit hits (`memory.failcnt`), OOM kills
//! (`memory.oom_control`) and refused forks (`pids.events`). A zombie stays counted in
//! `pids.current` until it is reaped.
//!
//! Each group keeps [`FILES_PER_GROUP`] descriptors open, and groups with open files take
//! at most a quarter of the process's descriptor limit (`RLIMIT_NOFILE`, 1024 by default
//! on many systems: 21 groups); a group past that budget is not kept open, and so not
//! reused (it serves one run, made and removed as on v2).
//!
//! This file uses nothing but std and libc: the exec helper uses it too.

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::cgroup::{Group, Stats, Version, field, number};

/// The lowest number a kept file's descriptor gets: above the descriptors the helper is
/// handed (`run/spawn.rs`: 0 to 4, then a group's files from 5 on), so that bench hands
/// them on as they are, with no duplicate made for a run.
const FIRST_FD: RawFd = 16;

/// The descriptors a group's open files take: four `cgroup.procs` and eight others.
pub const FILES_PER_GROUP: usize = 12;

/// The groups whose files are open now.
static OPEN_GROUPS: AtomicUsize = AtomicUsize::new(0);

/// The most groups whose files may be open at once: a quarter of the descriptor limit.
fn budget() -> usize {
    static BUDGET: OnceLock<usize> = OnceLock::new();
    *BUDGET.get_or_init(|| {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit fills in the struct it is given.
        let soft = match unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } {
            0 if limit.rlim_cur == libc::RLIM_INFINITY => 1 << 20,
            0 => limit.rlim_cur as usize,
            _ => 1024,
        };
        soft / 4 / FILES_PER_GROUP
    })
}

/// A v1 group's control files, open.
#[derive(Debug)]
pub struct GroupFiles {
    /// `cgroup.procs` of each of the group's directories, in the group's order.
    procs: Vec<OwnedFd>,
    /// `pids.current`.
    tasks: OwnedFd,
    /// `freezer.state`.
    freezer_state: OwnedFd,
    /// `cpuacct.usage` (read and reset).
    cpu_usage: OwnedFd,
    /// `memory.usage_in_bytes`.
    mem_usage: OwnedFd,
    /// `memory.max_usage_in_bytes` (read and reset).
    mem_peak: OwnedFd,
    /// `memory.failcnt` (read and reset).
    mem_failcnt: OwnedFd,
    /// `memory.oom_control`.
    oom_control: OwnedFd,
    /// `pids.events`.
    pids_events: OwnedFd,
}

impl GroupFiles {
    /// Opens the control files of a v1 group (close-on-exec), within the budget of
    /// descriptors (this file's head).
    pub fn open(group: &Group) -> io::Result<GroupFiles> {
        if group.version != Version::V1 {
            return Err(io::Error::new(
                io::ErrorKind::Unsupported,
                "only a cgroup v1 group's files are kept open",
            ));
        }
        let taken = OPEN_GROUPS.fetch_add(1, Ordering::Relaxed);
        if taken >= budget() {
            OPEN_GROUPS.fetch_sub(1, Ordering::Relaxed);
            return Err(io::Error::other(
                "a quarter of the descriptor limit is held by groups' files",
            ));
        }
        let files = Self::open_all(group);
        if files.is_err() {
            OPEN_GROUPS.fetch_sub(1, Ordering::Relaxed);
        }
        files
    }

    fn open_all(group: &Group) -> io::Result<GroupFiles> {
        let procs = group
            .dirs
            .iter()
            .map(|(c, _)| open(group, c, "cgroup.procs", libc::O_WRONLY))
            .collect::<io::Result<Vec<_>>>()?;
        let rw = libc::O_RDWR;
        let ro = libc::O_RDONLY;
        Ok(GroupFiles {
            procs,
            tasks: open(group, "pids", "pids.current", ro)?,
            freezer_state: open(group, "freezer", "freezer.state", ro)?,
            cpu_usage: open(group, "cpuacct", "cpuacct.usage", rw)?,
            mem_usage: open(group, "memory", "memory.usage_in_bytes", ro)?,
            mem_peak: open(group, "memory", "memory.max_usage_in_bytes", rw)?,
            mem_failcnt: open(group, "memory", "memory.failcnt", rw)?,
            oom_control: open(group, "memory", "memory.oom_control", ro)?,
            pids_events: open(group, "pids", "pids.events", ro)?,
        })
    }

    /// The `cgroup.procs` descriptors, in the group's order (for the helper's solver to
    /// join the group through).
    pub fn join_fds(&self) -> Vec<RawFd> {
        self.procs.iter().map(AsRawFd::as_raw_fd).collect()
    }

    /// The `pids.current` descriptor (for the helper to count what is left of the run).
    pub fn tasks_fd(&self) -> RawFd {
        self.tasks.as_raw_fd()
    }

    /// The tasks in the group now, a zombie not yet reaped included.
    pub fn tasks(&self) -> Option<u64> {
        number(read_at(self.tasks.as_raw_fd()))
    }

    /// True when the group is thawed (the helper thaws it after each freeze).
    pub fn thawed(&self) -> bool {
        read_at(self.freezer_state.as_raw_fd()).is_some_and(|s| s.trim() == "THAWED")
    }

    /// The CPU time of every process that was in the group, microseconds.
    pub fn cpu_us(&self) -> Option<u64> {
        number(read_at(self.cpu_usage.as_raw_fd())).map(|ns| ns / 1000)
    }

    /// The memory charged to the group now, bytes: once the group is empty, the page
    /// cache and kernel memory its runs left.
    pub fn usage_bytes(&self) -> Option<u64> {
        number(read_at(self.mem_usage.as_raw_fd()))
    }

    /// What the group measured (as [`Group::stats`]).
    pub fn stats(&self) -> Stats {
        Stats {
            cpu_us: self.cpu_us(),
            peak_bytes: number(read_at(self.mem_peak.as_raw_fd())),
            oom_kills: field(read_at(self.oom_control.as_raw_fd()), "oom_kill").unwrap_or(0),
            mem_limit_hits: number(read_at(self.mem_failcnt.as_raw_fd())).unwrap_or(0),
            forks_refused: field(read_at(self.pids_events.as_raw_fd()), "max").unwrap_or(0),
        }
    }

    /// Readies the empty group for another run: its CPU counter (`cpuacct.usage`) and
    /// memory-limit hits (`memory.failcnt`) back to zero, its peak memory
    /// (`memory.max_usage_in_bytes`) back to what is charged now. The OOM-kill and
    /// refused-fork counters cannot be reset: a group that counted any is not to be
    /// reused. (v2 has no such resets: `memory.peak` resets only per open descriptor, on
    /// kernels from 6.12.)
    pub fn reset_counters(&self) -> io::Result<()> {
        write_at(self.cpu_usage.as_raw_fd(), b"0")?;
        write_at(self.mem_peak.as_raw_fd(), b"0")?;
        write_at(self.mem_failcnt.as_raw_fd(), b"0")
    }
}

impl Drop for GroupFiles {
    fn drop(&mut self) {
        OPEN_GROUPS.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Opens `file` in the group's `controller` directory with `flags` (close-on-exec).
fn open(group: &Group, controller: &str, file: &str, flags: libc::c_int) -> io::Result<OwnedFd> {
    let dir = group
        .dirs
        .iter()
        .find(|(c, _)| c == controller)
        .map(|(_, d)| d)
        .ok_or_else(|| io::Error::other(format!("no {controller} hierarchy")))?;
    let path = dir.join(file);
    let c = CString::new(path.as_os_str().as_bytes())
        .map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))?;
    // SAFETY: plain syscall on a NUL-terminated path.
    let fd = unsafe { libc::open(c.as_ptr(), flags | libc::O_CLOEXEC) };
    if fd < 0 {
        let e = io::Error::last_os_error();
        return Err(io::Error::new(e.kind(), format!("{}: {e}", path.display())));
    }
    // SAFETY: a new descriptor that nothing else owns.
    let fd = unsafe { OwnedFd::from_raw_fd(fd) };
    if fd.as_raw_fd() >= FIRST_FD {
        return Ok(fd);
    }
    // SAFETY: plain fcntl on an open descriptor; the duplicate is new and owned here.
    let high = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_DUPFD_CLOEXEC, FIRST_FD) };
    if high < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: as above.
    Ok(unsafe { OwnedFd::from_raw_fd(high) })
}

/// The whole text of an open control file, read from its start.
pub fn read_at(fd: RawFd) -> Option<String> {
    let mut buf = [0u8; 512];
    let mut text = Vec::new();
    loop {
        // SAFETY: pread writes at most `buf.len()` bytes into `buf`.
        let n = unsafe {
            libc::pread(
                fd,
                buf.as_mut_ptr().cast(),
                buf.len(),
                text.len() as libc::off_t,
            )
        };
        match n {
            n if n < 0 => {
                if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                return None;
            }
            0 => break,
            n => {
                text.extend_from_slice(&buf[..n as usize]);
                // A control file's text comes in one read when it fits.
                if (n as usize) < buf.len() {
                    break;
                }
            }
        }
    }
    String::from_utf8(text).ok()
}

/// Writes `value` to an open control file, from its start.
fn write_at(fd: RawFd, value: &[u8]) -> io::Result<()> {
    // SAFETY: pwrite reads `value.len()` bytes from `value`.
    let n = unsafe { libc::pwrite(fd, value.as_ptr().cast(), value.len(), 0) };
    if n == value.len() as isize {
        Ok(())
    } else if n < 0 {
        Err(io::Error::last_os_error())
    } else {
        Err(io::Error::other("short write to a control file"))
    }
}

/// Writes `0` (this process) into an open `cgroup.procs` file, with one async-signal-safe
/// call (between clone and exec).
pub fn join_fd(fd: RawFd) -> io::Result<()> {
    // SAFETY: plain syscall on a descriptor and a static buffer.
    let n = unsafe { libc::write(fd, b"0".as_ptr().cast(), 1) };
    if n == 1 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reap::{has_exited, reap};
    use std::os::unix::process::CommandExt;
    use std::process::Command;

    #[test]
    fn a_zombie_is_counted_until_it_is_reaped() {
        let Ok(Some(group)) = crate::run::new_group(Some(64), Some(16)) else {
            eprintln!("no control groups here: nothing to test");
            return;
        };
        if group.version != Version::V1 {
            eprintln!("cgroup v2: no files kept open");
            let _ = group.remove();
            return;
        }
        let files = GroupFiles::open(&group).unwrap();
        assert!(files.join_fds().iter().all(|&fd| fd >= FIRST_FD));
        // Four `cgroup.procs` and eight other files, as the budget counts them.
        assert_eq!(files.join_fds().len() + 8, FILES_PER_GROUP);
        assert!(OPEN_GROUPS.load(Ordering::Relaxed) >= 1 && budget() >= 1);
        assert_eq!(files.tasks(), Some(0));
        let fds = files.join_fds();
        let mut command = Command::new("sh");
        command.args(["-c", "exit 3"]);
        // SAFETY: between fork and exec, only writes to open descriptors.
        unsafe {
            command.pre_exec(move || {
                for &fd in &fds {
                    join_fd(fd)?;
                }
                Ok(())
            });
        }
        let pid = command.spawn().unwrap().id() as libc::pid_t;
        while !has_exited(pid, false).unwrap() {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        // Exited, not reaped: still counted (the helper's "nothing left but the solver").
        // (`cgroup.procs` may or may not list the zombie, by kernel.)
        assert_eq!(files.tasks(), Some(1));
        assert!(group.members().iter().all(|&p| p == pid));
        let (status, _) = reap(pid).unwrap();
        assert_eq!(libc::WEXITSTATUS(status), 3);
        assert_eq!(files.tasks(), Some(0));
        assert!(group.members().is_empty());
        assert!(files.cpu_us().is_some_and(|us| us > 0));
        drop(files);
        group.remove().unwrap();
    }
}
