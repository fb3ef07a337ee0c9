//! One writer per output folder: `bench run`, `--resume` and a shard task hold an
//! exclusive lock (`flock`) on `.bench.lock` inside the folder for as long as they run.
//! The kernel releases it when the process ends, however it ends (SIGKILL included), so
//! a stale lock never blocks a resume; a second bench on the same folder is refused at
//! once, naming the holder's pid, instead of running everything twice into one
//! `results.csv`.
//!
//! The lock is taken on the folder itself, so deleting or replacing `.bench.lock` does not
//! let a second writer in; `.bench.lock` only tells the holder's pid. It is opened without
//! following symlinks and must be a regular file with one link, so a planted
//! `.bench.lock -> victim` (or a hard link to a victim) is refused, never truncated.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
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
    /// `.bench.lock` is a symlink, a special file or a file with other names.
    #[error(
        "{path} is not a plain file of its own (a symlink, a hard link or a special file): \
         bench will not write through it; remove it and run again"
    )]
    NotPlain {
        /// The lock file.
        path: PathBuf,
    },
    /// The folder or the lock file could not be opened.
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
    _folder: File,
}

/// Takes the lock of `dir` (which must exist), or says who holds it.
pub fn lock(dir: &Path) -> Result<FolderLock, LockError> {
    let folder = File::open(dir).map_err(|source| LockError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    match folder.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            let mut pid = String::new();
            // A pid, not whatever a planted file holds.
            if let Ok(f) = open_plain(&dir.join(LOCK_FILE), false) {
                let _ = f.take(64).read_to_string(&mut pid);
            }
            let pid = pid.trim();
            return Err(LockError::Held {
                dir: dir.display().to_string(),
                pid: if pid.is_empty() { "unknown" } else { pid }.to_string(),
            });
        }
        Err(TryLockError::Error(source)) => {
            return Err(LockError::Io {
                path: dir.to_path_buf(),
                source,
            });
        }
    }
    write_pid(&dir.join(LOCK_FILE))?;
    Ok(FolderLock { _folder: folder })
}

/// Opens `path` without following a symlink; it must be a regular file with one link.
fn open_plain(path: &Path, write: bool) -> Result<File, LockError> {
    let file = OpenOptions::new()
        .read(true)
        .write(write)
        .create(write)
        .truncate(false)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .map_err(|source| match source.raw_os_error() {
            Some(libc::ELOOP) => LockError::NotPlain {
                path: path.to_path_buf(),
            },
            _ => LockError::Io {
                path: path.to_path_buf(),
                source,
            },
        })?;
    let meta = file.metadata().map_err(|source| LockError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    if !meta.file_type().is_file() || meta.nlink() != 1 {
        return Err(LockError::NotPlain {
            path: path.to_path_buf(),
        });
    }
    Ok(file)
}

/// Writes this process's pid into the (plain) lock file.
fn write_pid(path: &Path) -> Result<(), LockError> {
    let mut file = open_plain(path, true)?;
    let io = |source| LockError::Io {
        path: path.to_path_buf(),
        source,
    };
    file.set_len(0).map_err(io)?;
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    writeln!(file, "{}", std::process::id()).map_err(io)
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

    #[test]
    fn a_deleted_lock_file_does_not_let_a_second_writer_in() {
        let dir = tempfile::tempdir().unwrap();
        let _held = lock(dir.path()).unwrap();
        std::fs::remove_file(dir.path().join(LOCK_FILE)).unwrap();
        assert!(matches!(lock(dir.path()), Err(LockError::Held { .. })));
    }

    #[test]
    fn a_planted_symlink_or_hard_link_is_refused_and_its_target_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious\n").unwrap();
        let out = dir.path().join("out");
        std::fs::create_dir(&out).unwrap();
        std::os::unix::fs::symlink(&victim, out.join(LOCK_FILE)).unwrap();
        let err = lock(&out).unwrap_err();
        assert!(matches!(err, LockError::NotPlain { .. }), "{err}");
        std::fs::remove_file(out.join(LOCK_FILE)).unwrap();
        std::fs::hard_link(&victim, out.join(LOCK_FILE)).unwrap();
        assert!(matches!(lock(&out), Err(LockError::NotPlain { .. })));
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    }
}
