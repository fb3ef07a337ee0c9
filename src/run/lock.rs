//! One writer per output folder: `bench run`, `--resume` and a shard task hold an
//! exclusive lock (`flock`) on `.bench.lock` inside the folder for as long as they run.
//! The kernel releases it when the process ends, however it ends (SIGKILL included), so
//! a stale lock never blocks a resume; a second bench on the same folder is refused at
//! once, naming the holder's pid, instead of running everything twice into one
//! `results.csv`.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The lock file's name inside an output folder.
pub const LOCK_FILE: &str = ".bench.lock";

/// Why the folder could not be locked.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another process holds it.
    #[error(
        "{dir} is in use by another bench (pid {pid}): one bench writes a folder at a time; \
         wait for it to end, or stop it and `bench run --resume {dir}`"
    )]
    Held {
        /// The folder.
        dir: String,
        /// The holder's pid as it wrote it (`unknown` if unreadable).
        pid: String,
    },
    /// The lock file could not be opened.
    #[error("locking {path}: {source}")]
    Io {
        /// The lock file.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
}

/// The held lock: dropping it (or the process ending) releases it.
#[derive(Debug)]
pub struct FolderLock {
    _file: File,
}

/// Takes the lock of `dir` (which must exist), or says who holds it.
pub fn lock(dir: &Path) -> Result<FolderLock, LockError> {
    let path = dir.join(LOCK_FILE);
    let io = |source| LockError::Io {
        path: path.clone(),
        source,
    };
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(io)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            let mut pid = String::new();
            let _ = file.read_to_string(&mut pid);
            let pid = pid.trim();
            return Err(LockError::Held {
                dir: dir.display().to_string(),
                pid: if pid.is_empty() { "unknown" } else { pid }.to_string(),
            });
        }
        Err(TryLockError::Error(e)) => return Err(io(e)),
    }
    file.set_len(0).map_err(io)?;
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    writeln!(file, "{}", std::process::id()).map_err(io)?;
    Ok(FolderLock { _file: file })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_with_the_holders_pid_and_freed_on_drop() {
        let dir = tempfile::tempdir().unwrap();
        let held = lock(dir.path()).unwrap();
        let err = lock(dir.path()).unwrap_err();
        assert!(
            err.to_string()
                .contains(&format!("pid {}", std::process::id())),
            "{err}"
        );
        drop(held);
        lock(dir.path()).unwrap();
    }
}
