//! Reading a whole small file that a person may hand bench (run.json, a `--families`
//! file) with a size bound: a file past the bound is refused with a clear error naming it
//! and both sizes, before anything is allocated for it, and a file that grows while it is
//! read (or a FIFO) is cut off at the bound rather than read without end.

use std::io::Read;
use std::path::Path;

use anyhow::{Context, bail};

/// The largest run.json bench reads: 16 MiB (a plan of many thousands of corpus paths
/// takes a few hundred KiB).
pub const MAX_RUN_JSON: u64 = 16 << 20;

/// The largest `--families` file bench reads: 256 MiB (a million `hash,family` lines take
/// about 50 MiB).
pub const MAX_FAMILIES: u64 = 256 << 20;

/// The text of `path`, refused if it is longer than `limit` bytes.
pub fn read_to_string(path: &Path, limit: u64) -> anyhow::Result<String> {
    let name = path.display();
    let file = std::fs::File::open(path).with_context(|| format!("reading {name}"))?;
    let size = file
        .metadata()
        .with_context(|| format!("reading {name}"))?
        .len();
    if size > limit {
        bail!("{name}: {size} bytes, more than the {limit} bytes bench reads from such a file");
    }
    let mut text = String::with_capacity(size as usize);
    file.take(limit + 1)
        .read_to_string(&mut text)
        .with_context(|| format!("reading {name}"))?;
    if text.len() as u64 > limit {
        bail!("{name}: grew past the {limit} bytes bench reads from such a file as it was read");
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_past_the_bound_is_refused_unread() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.json");
        std::fs::write(&path, "{}").unwrap();
        assert_eq!(read_to_string(&path, 2).unwrap(), "{}");
        // Sparse: six GiB of nothing on disk, which no read may take whole.
        std::fs::File::create(&path)
            .unwrap()
            .set_len(6 << 30)
            .unwrap();
        let err = read_to_string(&path, MAX_RUN_JSON).unwrap_err().to_string();
        assert!(err.contains("6442450944 bytes, more than"), "{err}");
    }
}
