//! What containment runs get on this machine (control groups v2 or v1, else a child
//! subreaper, else a process group), detected once, and the temporary folders of runs.

use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io::{self, Seek};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, Once, OnceLock};

use super::DEFAULT_PIDS_LIMIT;
use super::helper::helper;
use crate::cgroup::{self, Parents};

/// How a run is contained, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A control group (v2) of its own: memory limit and measures over all its processes.
    CgroupV2,
    /// A control group (v1) of its own.
    CgroupV1,
    /// The exec helper as child subreaper: address-space limit per process, CPU time
    /// summed over reaped descendants.
    Subreaper,
    /// A process group of its own, no helper.
    ProcessGroup,
}

impl Kind {
    /// The name on stderr and in run.json: `cgroup-v2`, `cgroup-v1`, `subreaper` or
    /// `process-group`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::CgroupV2 => "cgroup-v2",
            Kind::CgroupV1 => "cgroup-v1",
            Kind::Subreaper => "subreaper",
            Kind::ProcessGroup => "process-group",
        }
    }
}

/// How runs are contained on this machine: detected once per process.
#[derive(Clone, Debug)]
pub struct Containment {
    /// Where run groups are made, if they can be.
    pub parents: Option<Parents>,
    /// Why no group can be made (the fallback's reason).
    pub fallback_reason: Option<String>,
}

impl Containment {
    /// One line for `bench run`'s start and run.json's `containment_detail`: the
    /// [`kind`](Self::kind), then what it means here.
    pub fn describe(&self) -> String {
        let detail = match (&self.parents, helper()) {
            (_, None) => "no usable exec helper ($BENCH_EXEC names none that speaks this \
                          bench's protocol): each solver runs in a process group of its \
                          own, with an address-space limit per process"
                .to_string(),
            (Some(p), Some(_)) => format!(
                "{}: a group for each run (on v1 emptied, reset and reused by the next run), \
                 memory limit and measures over all its processes, \
                 at most {DEFAULT_PIDS_LIMIT} processes",
                p.describe()
            ),
            (None, Some(_)) => format!(
                "no cgroups ({}): process group and child subreaper, address-space limit \
                 per process, CPU time summed over reaped descendants",
                self.fallback_reason.as_deref().unwrap_or("unavailable")
            ),
        };
        format!("{}: {detail}", self.kind())
    }

    /// The state's one name, on stderr and in run.json alike: `cgroup-v2`, `cgroup-v1`,
    /// `subreaper` or `process-group`.
    pub fn kind(&self) -> &'static str {
        self.contained().as_str()
    }

    /// The [`Kind`] of the runs through the helper here.
    pub fn contained(&self) -> Kind {
        match (&self.parents, helper()) {
            (_, None) => Kind::ProcessGroup,
            (Some(p), _) if p.version == cgroup::Version::V2 => Kind::CgroupV2,
            (Some(_), _) => Kind::CgroupV1,
            (None, _) => Kind::Subreaper,
        }
    }
}

/// The containment runs get here (cgroups are looked for once; `BENCH_NO_CGROUPS=1`
/// turns them off).
pub fn containment() -> &'static Containment {
    static CONTAINMENT: OnceLock<Containment> = OnceLock::new();
    CONTAINMENT.get_or_init(|| match cgroup::detect() {
        Ok(p) => Containment {
            parents: Some(p),
            fallback_reason: None,
        },
        Err(e) => Containment {
            parents: None,
            fallback_reason: Some(e),
        },
    })
}

/// The prefix of every temporary folder bench makes: `bench-run-<pid>-`, so that a later
/// bench can tell the folders of a killed one ([`remove_stale`]).
pub fn temp_prefix() -> String {
    format!("bench-run-{}-", std::process::id())
}

/// A new temporary folder named with [`temp_prefix`].
pub fn temp_dir() -> io::Result<tempfile::TempDir> {
    tempfile::Builder::new().prefix(&temp_prefix()).tempdir()
}

/// The most idle folders [`RunDir`] keeps for reuse, and the most entries a folder may hold
/// when it comes back to be reused.
const POOL_MAX: usize = 256;
const ENTRIES_MAX: usize = 16;

/// Idle run folders, emptied, for the next run.
static POOL: Mutex<Vec<tempfile::TempDir>> = Mutex::new(Vec::new());

/// A run's temporary folder ([`temp_dir`]), reused from run to run: making and removing a
/// folder and its files for every run cost bench more CPU than anything else it does
/// around a short run (the file system allocating and freeing their inodes). The run's
/// input is written with [`RunDir::rewrite`]: over the file of the same name an earlier
/// run left, in place, then cut to its new length, never truncated to nothing first (on
/// ext4 a file truncated to nothing and written again is written out to the disk when it
/// is closed, and the blocks a truncation frees are discarded then and there with the
/// `discard` mount option). When the run is over, every other file in the folder is
/// removed (a solver's result file is new in each run, so a missing answer reads as none,
/// and one removed before the kernel wrote it out costs no disk work) and the folder goes
/// back to a pool; a folder that holds anything but files, or too many of them, or that
/// cannot be reset, is removed instead. Pooled folders are removed when the process
/// exits (`atexit`); those of a killed bench by the next one ([`remove_stale`]), as any
/// other.
#[derive(Debug)]
pub struct RunDir {
    dir: Option<tempfile::TempDir>,
    reuse: bool,
    /// The files written with [`RunDir::rewrite`], kept for the next run.
    kept: Vec<OsString>,
}

impl RunDir {
    /// An idle folder from the pool, else a new one.
    pub fn take() -> io::Result<RunDir> {
        let pooled = lock_pool().pop();
        let dir = match pooled {
            Some(d) if d.path().is_dir() => d,
            _ => {
                static AT_EXIT: Once = Once::new();
                // SAFETY: registers a plain function that takes the pool's lock.
                AT_EXIT.call_once(|| unsafe {
                    libc::atexit(remove_pooled);
                });
                temp_dir()?
            }
        };
        Ok(RunDir {
            dir: Some(dir),
            reuse: true,
            kept: Vec::new(),
        })
    }

    /// Removes the folder when it is dropped instead of reusing it: for a run that may
    /// have left a process behind (one without the helper, or whose stdout did not reach
    /// its end), which could still write into it during the next run.
    pub fn remove_after(&mut self) {
        self.reuse = false;
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        self.dir.as_ref().expect("taken only in drop").path()
    }

    /// Writes the file `name` in the folder from its start with `write` (which writes
    /// through the file it is given, sequentially), over what an earlier run left there,
    /// and cuts it to what was written; returns its path. The file is kept for the next
    /// run, to be written over again.
    pub fn rewrite(
        &mut self,
        name: &str,
        write: impl FnOnce(&mut File) -> io::Result<()>,
    ) -> io::Result<PathBuf> {
        let path = self.path().join(name);
        let mut file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)?;
        if !self.kept.iter().any(|k| k == name) {
            self.kept.push(name.into());
        }
        let before = file.metadata()?.len();
        write(&mut file)?;
        let len = file.stream_position()?;
        if len < before {
            file.set_len(len)?;
        }
        Ok(path)
    }
}

impl Drop for RunDir {
    fn drop(&mut self) {
        let Some(dir) = self.dir.take() else { return };
        if self.reuse && reset(dir.path(), &self.kept) {
            let mut pool = lock_pool();
            if pool.len() < POOL_MAX {
                pool.push(dir);
            }
        }
    }
}

fn lock_pool() -> MutexGuard<'static, Vec<tempfile::TempDir>> {
    POOL.lock().unwrap_or_else(|p| p.into_inner())
}

/// Readies `dir` for its next run: every file but those in `kept` removed; false if it
/// should not be reused.
fn reset(dir: &Path, kept: &[OsString]) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    let mut n = 0;
    for e in entries {
        n += 1;
        let Ok(e) = e else { return false };
        let is_file = e.file_type().is_ok_and(|t| t.is_file());
        let ready = is_file
            && (kept.iter().any(|k| *k == e.file_name()) || std::fs::remove_file(e.path()).is_ok());
        if !ready || n > ENTRIES_MAX {
            return false;
        }
    }
    true
}

/// At exit: removes the pooled folders.
extern "C" fn remove_pooled() {
    let dirs = std::mem::take(&mut *lock_pool());
    drop(dirs);
}

/// Removes the temporary folders (`bench-run-<pid>-*`) and control groups
/// (`bench-<pid>-*`) of bench processes that no longer exist; returns how many of each.
pub fn remove_stale() -> (usize, usize) {
    let mut dirs = 0;
    if let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if cgroup::owner_pid(&name, "bench-run-").is_some_and(|p| !cgroup::alive(p))
                && e.file_type().is_ok_and(|t| t.is_dir())
                && std::fs::remove_dir_all(e.path()).is_ok()
            {
                dirs += 1;
            }
        }
    }
    let groups = containment()
        .parents
        .as_ref()
        .map_or(0, cgroup::remove_stale);
    (dirs, groups)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_run_folder_comes_back_emptied_or_not_at_all() {
        let mut first = RunDir::take().unwrap();
        let path = first.path().to_path_buf();
        let input = first
            .rewrite("input.cnf", |f| f.write_all(b"p cnf 1 1\n1 0\n"))
            .unwrap();
        assert_eq!(input, path.join("input.cnf"));
        std::fs::write(path.join("result.txt"), "SAT\n1 0\n").unwrap();
        drop(first);
        // The same folder: the rewritten file kept, every other file gone.
        let mut second = RunDir::take().unwrap();
        assert_eq!(second.path(), path);
        assert!(!path.join("result.txt").exists());
        assert_eq!(std::fs::read(&input).unwrap(), b"p cnf 1 1\n1 0\n");
        // Written over: a shorter content cut to its length, a longer one whole.
        second
            .rewrite("input.cnf", |f| f.write_all(b"p cnf 0 0\n"))
            .unwrap();
        assert_eq!(std::fs::read(&input).unwrap(), b"p cnf 0 0\n");
        second
            .rewrite("input.cnf", |f| f.write_all(b"p cnf 2 1\n1 -2 0\n"))
            .unwrap();
        assert_eq!(std::fs::read(&input).unwrap(), b"p cnf 2 1\n1 -2 0\n");
        // A folder holding anything but files is removed, not reused.
        std::fs::create_dir(path.join("sub")).unwrap();
        drop(second);
        assert!(!path.exists());
        // So is one whose run may have left a process behind.
        let mut third = RunDir::take().unwrap();
        let path = third.path().to_path_buf();
        third.remove_after();
        drop(third);
        assert!(!path.exists());
    }
}
