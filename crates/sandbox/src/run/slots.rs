//! Control groups reused from run to run: a run takes an idle group with its limits from a
//! pool (one per run going on at once, so one per worker slot), and gives it back when it
//! is over; making and removing a cgroup-v1 group's four directories (memory, pids,
//! cpuacct, freezer) for every run cost bench more CPU than reading and resetting them.
//!
//! A group goes back to the pool only when the run left it as a new one would be, as far
//! as the next run's limits and measures can tell:
//! - the helper reported (so it emptied the group: every process of the run killed and
//!   reaped) and the group is seen empty (no task counted in `pids.current`) and thawed;
//! - the run counted no OOM kill and no refused fork (v1 cannot reset those counters);
//! - what is still charged to it (page cache and kernel memory of its runs, which stays
//!   with the group after its processes are gone) is at most [`LEFTOVER_MAX`]: the next
//!   run's peak memory starts from there, and its memory limit reclaims that cache first;
//! - its counters reset: CPU time to zero, memory-limit hits to zero, peak memory to what
//!   is charged now (`GroupFiles::reset_counters`).
//!
//! A pooled group's control files stay open with it (`group_files.rs`): the run's solver
//! joins it through them (bench hands them to the helper), and bench reads its measures
//! and resets it through them, with no path looked up or file opened for a run.
//!
//! Anything else (the helper killed, a member left, a reset refused) ends the group: it is
//! emptied and removed, and the next run makes a new one. Only cgroup v1 groups are
//! reused: a v2 group's peak (`memory.peak`) resets only through one open descriptor
//! (kernels from 6.12) and the helper reads it through its own, so on v2 each run still
//! gets a new group. Idle groups are removed when the process exits (`atexit`); those of
//! a killed bench by the next one, as any other (`cgroup::remove_stale`).

use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, Once};

use super::containment;
use crate::cgroup::{Group, Version};
use crate::group_files::GroupFiles;

/// The most page cache and kernel memory an emptied group may still be charged for and be
/// reused: 1 MiB.
pub const LEFTOVER_MAX: u64 = 1 << 20;

/// The most idle groups kept.
const POOL_MAX: usize = 64;

/// Numbers the groups of this process's runs.
static GROUP_SERIAL: AtomicU64 = AtomicU64::new(0);

/// The limits a group was made with: (memory in bytes, processes).
type Limits = (Option<u64>, Option<u64>);

/// An idle group, emptied and reset, with its limits and open files.
type Idle = (Limits, Group, GroupFiles);

/// Idle groups.
static POOL: Mutex<Vec<Idle>> = Mutex::new(Vec::new());

/// A run's control group: new, or reused from the pool.
#[derive(Debug)]
pub struct SlotGroup {
    group: Group,
    limits: Limits,
    /// The group's files, open, for a group that may go back to the pool (v1).
    files: Option<GroupFiles>,
}

impl SlotGroup {
    /// The group.
    pub fn group(&self) -> &Group {
        &self.group
    }

    /// The open files of a group that outlives the run (the helper must not remove it).
    pub fn files(&self) -> Option<&GroupFiles> {
        self.files.as_ref()
    }

    /// The end of the run: back to the pool when `clean` (the helper reported, and the
    /// run counted no OOM kill and no refused fork) and the group passes the checks of
    /// this file's head; else emptied and removed.
    pub fn give_back(self, clean: bool) {
        if let Some(files) = self.files
            && clean
            && ready_again(&files)
        {
            let mut pool = lock_pool();
            if pool.len() < POOL_MAX {
                pool.push((self.limits, self.group, files));
                return;
            }
        }
        discard(&self.group);
    }
}

/// Empties and removes a group (the net for a helper that died; a no-op for a group the
/// helper removed).
fn discard(group: &Group) {
    if group.dirs.iter().any(|(_, d)| d.exists()) {
        group.kill_all(&mut || {});
        let _ = group.remove();
    }
}

/// True when an emptied group can serve another run, its counters reset.
fn ready_again(files: &GroupFiles) -> bool {
    files.tasks() == Some(0)
        && files.thawed()
        && files.usage_bytes().is_some_and(|b| b <= LEFTOVER_MAX)
        && files.reset_counters().is_ok()
}

/// A group for a run with these limits: an idle one from the pool (v1), else a new one
/// ([`new_group`]); None where this machine gives no groups.
pub fn take(mem_limit_mb: Option<u64>, pids_limit: Option<u64>) -> io::Result<Option<SlotGroup>> {
    let Some(parents) = &containment().parents else {
        return Ok(None);
    };
    let limits = (
        mem_limit_mb.map(|mb| mb.saturating_mul(1 << 20)),
        pids_limit,
    );
    let reusable = parents.version == Version::V1;
    if reusable {
        let mut pool = lock_pool();
        if let Some(i) = pool.iter().rposition(|(l, _, _)| *l == limits) {
            let (_, group, files) = pool.swap_remove(i);
            return Ok(Some(SlotGroup {
                group,
                limits,
                files: Some(files),
            }));
        }
    }
    let Some(group) = new_group(mem_limit_mb, pids_limit)? else {
        return Ok(None);
    };
    // A group whose files cannot be opened serves this run alone.
    let files = reusable.then(|| GroupFiles::open(&group).ok()).flatten();
    if files.is_some() {
        static AT_EXIT: Once = Once::new();
        // SAFETY: registers a plain function that takes the pool's lock.
        AT_EXIT.call_once(|| unsafe {
            libc::atexit(remove_pooled);
        });
    }
    Ok(Some(SlotGroup {
        group,
        limits,
        files,
    }))
}

/// A new run group (`bench-<pid>-<n>`) with its limits set, where this machine gives
/// groups; None where it does not. Also for programs bench starts without the helper
/// (which join it between fork and exec with [`crate::exec_helper::join_group`]).
pub fn new_group(mem_limit_mb: Option<u64>, pids_limit: Option<u64>) -> io::Result<Option<Group>> {
    let Some(parents) = &containment().parents else {
        return Ok(None);
    };
    let name = format!(
        "bench-{}-{}",
        std::process::id(),
        GROUP_SERIAL.fetch_add(1, Ordering::Relaxed)
    );
    let bytes = mem_limit_mb.map(|mb| mb.saturating_mul(1 << 20));
    Group::create(parents, &name, bytes, pids_limit)
        .map(Some)
        .map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("cannot make the run's control group: {e}"),
            )
        })
}

fn lock_pool() -> MutexGuard<'static, Vec<Idle>> {
    POOL.lock().unwrap_or_else(|p| p.into_inner())
}

/// At exit: removes the idle groups.
extern "C" fn remove_pooled() {
    let groups = std::mem::take(&mut *lock_pool());
    for (_, g, files) in groups {
        drop(files);
        let _ = g.remove();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec_helper::join_group;
    use crate::group_files::join_fd;
    use std::os::unix::process::CommandExt;
    use std::process::Command;

    /// Runs `sh -c script` in `group` (joined between fork and exec, through the open
    /// `files` when given, else the paths) to its end.
    fn run_in(group: &Group, files: Option<&GroupFiles>, script: &str) {
        let join = group.join_files();
        let fds = files.map(GroupFiles::join_fds).unwrap_or_default();
        let mut command = Command::new("sh");
        command.args(["-c", script]);
        // SAFETY: between fork and exec, only open/write/close on paths built before, or
        // writes to open descriptors.
        unsafe {
            command.pre_exec(move || {
                if fds.is_empty() {
                    for f in &join {
                        join_group(f)?;
                    }
                }
                for &fd in &fds {
                    join_fd(fd)?;
                }
                Ok(())
            });
        }
        assert!(command.status().unwrap().success());
    }

    #[test]
    fn a_reused_v1_group_counts_the_next_run_alone() {
        // Limits of this test alone, so that no other test takes its group.
        let (mem_mb, pids) = (Some(917), Some(91));
        let Ok(Some(slot)) = take(mem_mb, pids) else {
            eprintln!("no control groups here: nothing to test");
            return;
        };
        if slot.files().is_none() {
            eprintln!("cgroup v2: groups are not reused");
            slot.give_back(false);
            return;
        }
        let dirs = slot.group().dirs.clone();
        // A run that spins and holds 40 MB, joined through the paths.
        run_in(
            slot.group(),
            None,
            "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; \
             x=$(head -c 40000000 /dev/zero | tr '\\0' x); echo ${#x} >/dev/null",
        );
        let first = slot.group().stats();
        assert!(first.cpu_us.unwrap() > 0);
        assert!(first.peak_bytes.unwrap() > 40_000_000, "{first:?}");
        // The open files read what the paths do.
        let files = slot.files().unwrap();
        assert_eq!(files.stats(), first);
        assert_eq!(files.tasks(), Some(0));
        assert!(files.thawed());
        slot.give_back(true);
        let again = take(mem_mb, pids).unwrap().unwrap();
        assert_eq!(again.group().dirs, dirs, "the same group, reused");
        let reset = again.group().stats();
        assert_eq!(reset.cpu_us, Some(0));
        assert!(reset.peak_bytes.unwrap() <= LEFTOVER_MAX, "{reset:?}");
        assert_eq!(again.files().unwrap().stats(), reset);
        // The next run, joined through the open files (in all four hierarchies): its own
        // CPU time and peak, not the first's.
        run_in(
            again.group(),
            again.files(),
            "test \"$(grep -c /bench- /proc/self/cgroup)\" -eq 4",
        );
        let second = again.group().stats();
        assert_eq!(again.files().unwrap().stats(), second);
        assert!(second.cpu_us.unwrap() > 0, "{second:?}");
        assert!(second.cpu_us.unwrap() < first.cpu_us.unwrap(), "{second:?}");
        assert!(second.peak_bytes.unwrap() < 20_000_000, "{second:?}");
        // Not clean (say, an OOM kill counted): removed, not pooled.
        again.give_back(false);
        assert!(dirs.iter().all(|(_, d)| !d.exists()));
        let fresh = take(mem_mb, pids).unwrap().unwrap();
        assert_ne!(fresh.group().dirs, dirs);
        fresh.give_back(false);
    }
}
