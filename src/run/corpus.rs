//! Corpora to instances: puzzle files (any format), DIMACS files and folders of them.
//!
//! Each instance gets a stable id that survives re-runs and joins CSVs: the puzzle file's
//! name and the puzzle's line (`hard.txt:12`), or the DIMACS file's name (its path below
//! the folder named on the command line). A malformed puzzle, or a puzzle file that cannot
//! be read at all, is reported with file and line and left out (or, with `--strict`, stops
//! the run).

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use crate::cnf::dimacs::{is_dimacs_name, looks_like_dimacs};
use crate::puzzle::Puzzle;
use crate::puzzle::format::{Expected, Format, ReadOptions, read_path};

/// Where an instance's formula comes from.
#[derive(Clone, Debug)]
pub enum Source {
    /// A puzzle, encoded by each requested encoding.
    Puzzle(Puzzle),
    /// A DIMACS file, solved as it is.
    Dimacs(PathBuf),
}

/// One instance of the benchmark.
#[derive(Clone, Debug)]
pub struct Instance {
    /// The corpus argument it came from.
    pub corpus: String,
    /// The stable id.
    pub id: String,
    /// The formula's source.
    pub source: Source,
    /// What the corpus records of the answer (puzzles in the line format).
    pub expected: Expected,
    /// The format of the puzzle file (None for DIMACS).
    pub format: Option<Format>,
}

impl Instance {
    /// The kind column: sudoku, latin, pair, or cnf.
    pub fn kind(&self) -> String {
        match &self.source {
            Source::Puzzle(p) => p.kind().to_string(),
            Source::Dimacs(_) => "cnf".into(),
        }
    }

    /// The side column (0 for DIMACS).
    pub fn side(&self) -> u32 {
        match &self.source {
            Source::Puzzle(p) => p.side() as u32,
            Source::Dimacs(_) => 0,
        }
    }

    /// The givens column (puzzles only).
    pub fn givens(&self) -> Option<u32> {
        match &self.source {
            Source::Puzzle(p) => Some(p.givens() as u32),
            Source::Dimacs(_) => None,
        }
    }
}

/// The instances of all corpora, and what was left out.
#[derive(Debug, Default)]
pub struct Corpus {
    /// Instances in command-line and file order.
    pub instances: Vec<Instance>,
    /// One `file:line: message` per input left out.
    pub skipped: Vec<String>,
    /// One `file:line: message` per puzzle whose givens clash (it has no solution).
    pub notes: Vec<String>,
}

/// DIMACS files below `dir`, sorted, with their paths relative to it.
fn dimacs_files(dir: &Path) -> anyhow::Result<Vec<(PathBuf, String)>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in
            std::fs::read_dir(&d).with_context(|| format!("reading folder {}", d.display()))?
        {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
            } else if is_dimacs_name(&path) {
                let rel = path
                    .strip_prefix(dir)
                    .unwrap_or(&path)
                    .display()
                    .to_string();
                out.push((path, rel));
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Loads every corpus; a malformed puzzle is skipped (and recorded) unless `strict`.
pub fn load(paths: &[PathBuf], read: &ReadOptions, strict: bool) -> anyhow::Result<Corpus> {
    let mut corpus = Corpus::default();
    for path in paths {
        let name = path.display().to_string();
        if path.is_dir() {
            let files = dimacs_files(path)?;
            if files.is_empty() {
                bail!("{name}: no .cnf, .cnf.gz or .cnf.xz files in this folder");
            }
            for (file, rel) in files {
                corpus.instances.push(Instance {
                    corpus: name.clone(),
                    id: rel,
                    source: Source::Dimacs(file),
                    expected: Expected::default(),
                    format: None,
                });
            }
        } else if looks_like_dimacs(path) {
            if !path.exists() {
                bail!("{name}: no such file");
            }
            let id = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or(&name)
                .to_string();
            corpus.instances.push(Instance {
                corpus: name.clone(),
                id,
                source: Source::Dimacs(path.clone()),
                expected: Expected::default(),
                format: None,
            });
        } else {
            // An unreadable or empty puzzle file costs only itself, as a bad DIMACS file does.
            let file = match read_path(path, read) {
                Ok(file) => file,
                Err(e) if strict => bail!("{e}"),
                Err(e) => {
                    corpus.skipped.push(e.to_string());
                    continue;
                }
            };
            let stem = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or(&name)
                .to_string();
            for entry in file.entries {
                match entry {
                    Ok(e) => {
                        if let Some(why) = &e.clash {
                            corpus.notes.push(format!(
                                "{name}:{}: the givens clash ({why}): the puzzle has no solution",
                                e.line
                            ));
                        }
                        corpus.instances.push(Instance {
                            corpus: name.clone(),
                            id: format!("{stem}:{}", e.line),
                            source: Source::Puzzle(e.puzzle),
                            expected: e.expected,
                            format: Some(file.format),
                        });
                    }
                    Err(e) if strict => bail!("{e}"),
                    Err(e) => corpus.skipped.push(e.to_string()),
                }
            }
        }
    }
    Ok(corpus)
}
