//! `--solutions`: the solved grids of a run, kept as puzzle people want them.
//!
//! One file per corpus, solver and encoding under `solutions/` of the output folder
//! (`hard.native.extended.txt`), in the corpus's own format and alphabet, so it reads back
//! as a corpus of solved puzzles. Each puzzle's block opens with a comment naming it and
//! the answer (`# solution of hard.txt:12 SAT`); a puzzle without solution, or unsolved
//! within the limits, has the comment alone. With `--count N` the block holds every
//! solution the count found (`# solution of multi.txt:3 SAT, 4 solutions`, then each grid
//! under `# 1 of 4`, `# 2 of 4`, …). Blocks are appended as runs end (a killed
//! bench loses none, and a resume adds the rest), and each file is put in corpus order when
//! the run finishes.

use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::corpus::Instance;
use crate::puzzle::Puzzle;
use crate::puzzle::format::{Format, write_in};
use crate::puzzle::symbols::Alphabet;

/// The marker that opens every block.
const MARK: &str = "# solution of ";

/// The solution files of one run.
pub struct SolutionFiles {
    /// `OUT/solutions`.
    dir: PathBuf,
    /// The corpus's alphabet, to write grids as they were read.
    alphabet: Option<Alphabet>,
    /// One writer at a time.
    lock: Mutex<()>,
}

impl SolutionFiles {
    /// Solution files under `out_dir/solutions`.
    pub fn new(out_dir: &Path, alphabet: Option<Alphabet>) -> SolutionFiles {
        SolutionFiles {
            dir: out_dir.join("solutions"),
            alphabet,
            lock: Mutex::new(()),
        }
    }

    /// Appends the answer of one run (`grids`: its verified solutions, every one a count
    /// found) to the file of its corpus, solver and encoding. DIMACS instances have none.
    pub fn record(
        &self,
        instance: &Instance,
        solver: &str,
        encoding: &str,
        status: &str,
        grids: &[Puzzle],
    ) -> io::Result<()> {
        let Some(format) = instance.format else {
            return Ok(());
        };
        let mut block = format!("{MARK}{} {status}", instance.id);
        if grids.len() > 1 {
            block += &format!(", {} solutions", grids.len());
        }
        block.push('\n');
        let mut block = block.into_bytes();
        for (k, g) in grids.iter().enumerate() {
            if grids.len() > 1 {
                block.extend(format!("# {} of {}\n", k + 1, grids.len()).bytes());
            }
            write_in(&mut block, g, format, self.alphabet.as_ref())?;
        }
        let _guard = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        std::fs::create_dir_all(&self.dir)?;
        let path = self
            .dir
            .join(file_name(&instance.corpus, solver, encoding, format));
        let mut file = OpenOptions::new().create(true).append(true).open(path)?;
        file.write_all(&block)
    }

    /// Puts every file in corpus order (by the line in each instance id), one block per
    /// puzzle (the first recorded, when `--repeat` ran it more than once).
    pub fn finish(&self) -> io::Result<()> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return Ok(());
        };
        for entry in entries {
            let path = entry?.path();
            let text = std::fs::read_to_string(&path)?;
            let tmp = path.with_extension("tmp");
            std::fs::write(&tmp, in_corpus_order(&text))?;
            std::fs::rename(&tmp, &path)?;
        }
        Ok(())
    }
}

/// `hard.native.extended.txt` for corpus `corpora/hard.txt`.
fn file_name(corpus: &str, solver: &str, encoding: &str, format: Format) -> String {
    let name = Path::new(corpus)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(corpus);
    let (stem, ext) = match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => (stem, ext.to_string()),
        _ => (
            name,
            if format == Format::Csv { "csv" } else { "txt" }.to_string(),
        ),
    };
    let clean = |s: &str| s.replace(['/', ':', ' '], "_");
    format!(
        "{}.{}.{}.{ext}",
        clean(stem),
        clean(solver),
        clean(encoding)
    )
}

/// The blocks of `text` sorted by instance line, the first of each instance kept.
fn in_corpus_order(text: &str) -> String {
    let mut blocks: BTreeMap<(u64, String), String> = BTreeMap::new();
    let mut current: Option<((u64, String), String)> = None;
    for line in text.split_inclusive('\n') {
        if let Some(rest) = line.strip_prefix(MARK) {
            if let Some((key, block)) = current.take() {
                blocks.entry(key).or_insert(block);
            }
            let id = rest.split(' ').next().unwrap_or("");
            let no = id
                .rsplit_once(':')
                .and_then(|(_, n)| n.parse().ok())
                .unwrap_or(u64::MAX);
            current = Some(((no, id.to_string()), line.to_string()));
        } else if let Some((_, block)) = current.as_mut() {
            block.push_str(line);
        }
    }
    if let Some((key, block)) = current {
        blocks.entry(key).or_insert(block);
    }
    blocks.into_values().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_come_back_in_corpus_order_once_each() {
        let text = "# solution of h.txt:10 SAT\n123\n# solution of h.txt:2 UNSAT\n\
                    # solution of h.txt:10 SAT\n123\n# solution of h.txt:3 SAT\n1,2\n3,4\n\n";
        assert_eq!(
            in_corpus_order(text),
            "# solution of h.txt:2 UNSAT\n# solution of h.txt:3 SAT\n1,2\n3,4\n\n\
             # solution of h.txt:10 SAT\n123\n"
        );
        assert_eq!(
            file_name("corpora/pairs-4x4.csv", "native", "extended", Format::Csv),
            "pairs-4x4.native.extended.csv"
        );
    }
}
