//! A corpus folder walked: every regular file below it, sorted, with its path relative to
//! it. Links are followed, but each folder is read once, known by its device and inode, so
//! a link back up the tree (`loop -> ..`, two of them) ends the walk instead of making it
//! exponential. What is neither a folder nor a regular file (a FIFO, a socket, a device,
//! a broken link) would hang or fail a read: it is left out with a note. Hidden files and
//! folders (`.git`) are left out without one.

use std::collections::HashSet;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};

use anyhow::Context;

use super::skip::Skip;

/// What a walk found: the files (path, path relative to the folder), sorted, and the
/// entries left out, each with why.
#[derive(Debug, Default)]
pub struct Walk {
    pub files: Vec<(PathBuf, String)>,
    pub left_out: Vec<Skip>,
}

/// Walks `dir`; `shown` is how the folder was named, for the notes.
pub fn files_below(dir: &Path, shown: &Path) -> anyhow::Result<Walk> {
    let mut walk = Walk::default();
    let mut seen: HashSet<(u64, u64)> = HashSet::new();
    let meta = std::fs::metadata(dir).with_context(|| format!("reading {}", shown.display()))?;
    seen.insert((meta.dev(), meta.ino()));
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries =
            std::fs::read_dir(&d).with_context(|| format!("reading folder {}", d.display()))?;
        for entry in entries {
            let path = entry?.path();
            if path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with('.'))
            {
                continue;
            }
            let rel = path
                .strip_prefix(dir)
                .unwrap_or(&path)
                .display()
                .to_string();
            let note = |why: &str| Skip::file(shown.join(&rel).display().to_string(), why);
            // The entry as a link leads (a broken link has nothing to lead to).
            let meta = match std::fs::metadata(&path) {
                Ok(m) => m,
                Err(e) => {
                    walk.left_out
                        .push(note(&format!("not readable: a link to nothing ({e})")));
                    continue;
                }
            };
            let ft = meta.file_type();
            if ft.is_dir() {
                if seen.insert((meta.dev(), meta.ino())) {
                    stack.push(path);
                } else if path.is_symlink() {
                    walk.left_out.push(note(
                        "left out: a link to a folder read already (a loop, or a second way in)",
                    ));
                }
            } else if ft.is_file() {
                walk.files.push((path, rel));
            } else {
                let what = if ft.is_fifo() {
                    "a named pipe (FIFO)"
                } else if ft.is_socket() {
                    "a socket"
                } else {
                    "a device"
                };
                walk.left_out
                    .push(note(&format!("left out: {what}, not a regular file")));
            }
        }
    }
    walk.files.sort();
    Ok(walk)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_back_up_are_read_once() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir(d.join("sub")).unwrap();
        std::fs::write(d.join("sub/a.txt"), "x").unwrap();
        // Two links to `..` at each level would make 2^depth paths: each folder once.
        for name in ["up1", "up2"] {
            std::os::unix::fs::symlink("..", d.join("sub").join(name)).unwrap();
        }
        std::os::unix::fs::symlink("nowhere", d.join("broken")).unwrap();
        let walk = files_below(d, Path::new("c")).unwrap();
        let files: Vec<&str> = walk.files.iter().map(|(_, r)| r.as_str()).collect();
        assert_eq!(files, ["sub/a.txt"]);
        let notes: Vec<String> = walk.left_out.iter().map(ToString::to_string).collect();
        assert_eq!(notes.len(), 3, "{notes:?}");
        assert!(
            notes
                .iter()
                .any(|n| n.starts_with("c/broken: not readable: a link to nothing"))
        );
        assert!(
            notes
                .iter()
                .any(|n| n.starts_with("c/sub/up1: left out: a link to a folder"))
        );
    }
}
