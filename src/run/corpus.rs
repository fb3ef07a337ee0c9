//! Corpora to instances: puzzle files (any format), DIMACS files and folders of them.
//!
//! Each instance is known by its content hash ([`crate::identity`]) and shown by a
//! readable id: the puzzle file's name and the puzzle's line (`hard.txt:12`), or the DIMACS
//! file's name (its path below the folder named on the command line), grown by folders
//! where two inputs share it (`e1/a.cnf`, `e2/a.cnf`). One content under two names is one
//! instance. A malformed puzzle, or a puzzle file that cannot be read at all, is reported
//! with file and line and left out (or, with `--strict`, stops the run).

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use crate::cnf::dimacs::{is_dimacs_name, looks_like_dimacs_input};
use crate::cnf::input::{Input, InputKind, is_stdin};
use crate::puzzle::Puzzle;
use crate::puzzle::format::{
    Expected, Format, PuzzleError, PuzzleFile, ReadOptions, read_input, read_path,
};
use crate::results::InstanceKind;

use super::skip::Skip;

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
    /// The readable id: the file name and line (`hard.txt:12`), the DIMACS file's name
    /// or its path below the folder named, grown by folders where two inputs share it.
    pub id: String,
    /// The content hash (see [`crate::identity`]): what the instance is.
    pub hash: String,
    /// The formula's source.
    pub source: Source,
    /// What the corpus records of the answer (puzzles in the line format): one record a
    /// line that held this content, none where nothing is recorded.
    pub records: Vec<Expected>,
    /// The format of the puzzle file (None for DIMACS).
    pub format: Option<Format>,
    /// Its family in the plan's families file (`--families`), if that names it.
    pub family: Option<String>,
}

impl Instance {
    /// The family column: the families file's, else the default (see
    /// [`crate::family::default_family`]).
    pub fn family(&self) -> String {
        match &self.family {
            Some(f) => f.clone(),
            None => crate::family::default_family(&self.corpus, self.kind(), &self.id),
        }
    }

    /// The kind column: sudoku, latin, pair, or cnf.
    pub fn kind(&self) -> InstanceKind {
        match &self.source {
            Source::Puzzle(p) => InstanceKind::Puzzle(p.kind()),
            Source::Dimacs(_) => InstanceKind::Cnf,
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
    /// Instances in command-line and file order, each content once.
    pub instances: Vec<Instance>,
    /// One per input left out, located.
    pub skipped: Vec<Skip>,
    /// One `file:line: message` per puzzle whose givens clash (it has no solution).
    pub notes: Vec<String>,
    /// One line per input whose content is an instance already planned under another
    /// name: it runs once, under the first name.
    pub duplicates: Vec<String>,
}

/// An input found before ids are given: its folder path, its base id, and the instance.
struct Found {
    folders: Vec<String>,
    base: String,
    instance: Instance,
}

/// The folders of `path` as components (`e1/sub/a.cnf` → `["e1", "sub"]`).
fn folders_of(path: &Path) -> Vec<String> {
    path.parent()
        .map(|p| {
            p.components()
                .filter_map(|c| match c {
                    std::path::Component::Normal(s) => s.to_str().map(str::to_string),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Loads every corpus; a malformed puzzle is skipped (and recorded) unless `strict`.
/// A folder gives every file below it that bench can read, DIMACS or puzzles; a file in
/// it that is neither is skipped and said so. Every instance gets its content hash
/// (DIMACS files are read whole for it); inputs of one content become one instance.
/// Relative paths are read from `base` (the folder the plan was made in), and named as
/// given.
pub fn load(
    base: &Path,
    paths: &[PathBuf],
    read: &ReadOptions,
    strict: bool,
) -> anyhow::Result<Corpus> {
    let mut corpus = Corpus::default();
    let mut found: Vec<Found> = Vec::new();
    for given in paths {
        let name = given.display().to_string();
        if is_stdin(given) {
            let input = Input::open(given).context("reading standard input")?;
            load_input((given, given), input, read, strict, &mut corpus, &mut found)?;
            continue;
        }
        let path = &super::plan::resolve(base, given);
        // A corpus named on the command line that is not there is a typo: the run stops
        // before anything is made (a file that fails to read costs only itself).
        if let Err(e) = std::fs::metadata(path) {
            match e.kind() {
                std::io::ErrorKind::NotFound => bail!("{name}: no such file or folder"),
                _ => bail!("{name}: {e}"),
            }
        }
        if path.is_dir() {
            load_folder(given, path, read, strict, &mut corpus, &mut found)?;
            continue;
        }
        match Input::open(path) {
            Ok(input) => load_input((given, path), input, read, strict, &mut corpus, &mut found)?,
            Err(e) if strict => bail!("{name}: {e}"),
            Err(e) => corpus.skipped.push(Skip::file(&name, e.to_string())),
        }
    }
    hash_dimacs(&mut found, strict, &mut corpus.skipped)?;
    let names: Vec<(Vec<String>, String)> = found
        .iter()
        .map(|f| (f.folders.clone(), f.base.clone()))
        .collect();
    let ids = crate::identity::distinct_ids(&names);
    let mut first_of: std::collections::HashMap<String, usize> = Default::default();
    for (f, id) in found.into_iter().zip(ids) {
        let mut instance = f.instance;
        instance.id = id;
        match first_of.get(&instance.hash) {
            Some(&first) => {
                let kept = &mut corpus.instances[first];
                corpus.duplicates.push(format!(
                    "{} is the same instance as {} (hash {}): it runs once, as {}, and its \
                     answers are held against the records of both",
                    instance.id, kept.id, instance.hash, kept.id
                ));
                for r in instance.records {
                    if !kept.records.contains(&r) {
                        kept.records.push(r);
                    }
                }
            }
            None => {
                first_of.insert(instance.hash.clone(), corpus.instances.len());
                corpus.instances.push(instance);
            }
        }
    }
    Ok(corpus)
}

/// Every file below the folder `given` (found at `path`): DIMACS by name, else puzzles; a
/// file that is neither, and what is not a regular file, is left out and said so.
fn load_folder(
    given: &Path,
    path: &Path,
    read: &ReadOptions,
    strict: bool,
    corpus: &mut Corpus,
    found: &mut Vec<Found>,
) -> anyhow::Result<()> {
    let name = given.display().to_string();
    let walk = super::walk::files_below(path, given)?;
    corpus.skipped.extend(walk.left_out);
    let before = found.len();
    for (file, rel) in walk.files {
        let folders = folders_of(&given.join(&rel));
        if is_dimacs_name(&file) {
            found.push(dimacs(&name, &file, rel, folders));
            continue;
        }
        let shown = file.display().to_string();
        let read = read_path(&file, read)
            .and_then(|f| puzzles(&name, (&shown, folders), &rel, f, strict, corpus, found));
        skip_unless_strict(read, strict, &mut corpus.skipped, |e| {
            Skip::file(
                given.join(&rel).display().to_string(),
                format!("neither DIMACS nor a puzzle file: {e}"),
            )
        })?;
    }
    if found.len() == before {
        bail!("{name}: no DIMACS or puzzle file bench can read in this folder");
    }
    Ok(())
}

/// One input named on the command line (`given`, found at `path`), opened: a DIMACS file, or puzzles (from a file,
/// a pipe or standard input, read once). A formula is read again when it runs, so a
/// DIMACS formula on a pipe is refused.
fn load_input(
    (given, path): (&Path, &Path),
    input: Input,
    read: &ReadOptions,
    strict: bool,
    corpus: &mut Corpus,
    found: &mut Vec<Found>,
) -> anyhow::Result<()> {
    let name = if is_stdin(given) {
        "stdin".to_string()
    } else {
        given.display().to_string()
    };
    let stem = if is_stdin(given) {
        name.clone()
    } else {
        given
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or(&name)
            .to_string()
    };
    if looks_like_dimacs_input(given, &input) {
        if input.kind() == InputKind::Stream {
            bail!(
                "{name}: a DIMACS formula on a pipe: bench run reads each formula again when it \
                 runs it; save it to a file (or give it to `bench solve`)"
            );
        }
        found.push(dimacs(&name, path, stem, folders_of(given)));
        return Ok(());
    }
    let shown = if is_stdin(given) {
        stem.clone()
    } else {
        name.clone()
    };
    let read = read_input(input, &shown, read).and_then(|f| {
        puzzles(
            &name,
            (&shown, folders_of(given)),
            &stem,
            f,
            strict,
            corpus,
            found,
        )
    });
    skip_unless_strict(read, strict, &mut corpus.skipped, Skip::from)
}

/// An unreadable or malformed puzzle file costs only itself, as a bad DIMACS file does:
/// its failure is skipped (said by `note`), or with `strict` stops the run.
fn skip_unless_strict(
    result: Result<(), PuzzleError>,
    strict: bool,
    skipped: &mut Vec<Skip>,
    note: impl FnOnce(PuzzleError) -> Skip,
) -> anyhow::Result<()> {
    match result {
        Err(e) if strict => Err(e.into()),
        Err(e) => {
            skipped.push(note(e));
            Ok(())
        }
        Ok(()) => Ok(()),
    }
}

/// A DIMACS input (its hash is computed by [`hash_dimacs`], all files at once).
fn dimacs(corpus: &str, file: &Path, base: String, folders: Vec<String>) -> Found {
    Found {
        folders,
        base,
        instance: Instance {
            corpus: corpus.to_string(),
            id: String::new(),
            hash: String::new(),
            source: Source::Dimacs(file.to_path_buf()),
            records: Vec::new(),
            format: None,
            family: None,
        },
    }
}

/// The GBD hash of every DIMACS input, read in parallel.
fn hash_dimacs(
    found: &mut Vec<Found>,
    strict: bool,
    skipped: &mut Vec<Skip>,
) -> anyhow::Result<()> {
    use rayon::prelude::*;
    let failed: Vec<(usize, Skip)> = found
        .par_iter_mut()
        .enumerate()
        .filter_map(|(i, f)| match &f.instance.source {
            Source::Dimacs(path) => match crate::identity::gbd_hash_file(path) {
                Ok(hash) => {
                    f.instance.hash = hash;
                    None
                }
                Err(e) => Some((
                    i,
                    Skip::file(path.display().to_string(), format!("not readable: {e}")),
                )),
            },
            Source::Puzzle(_) => None,
        })
        .collect();
    // An unreadable DIMACS file costs only itself, as a bad puzzle file does.
    if let Some((_, why)) = failed.first().filter(|_| strict) {
        bail!("{why}");
    }
    for (i, _) in failed.iter().rev() {
        found.remove(*i);
    }
    skipped.extend(failed.into_iter().map(|(_, why)| why));
    Ok(())
}

/// The puzzles of one file, hashed; a malformed one is skipped unless `strict`.
fn puzzles(
    corpus_name: &str,
    (shown, folders): (&str, Vec<String>),
    stem: &str,
    file: PuzzleFile,
    strict: bool,
    corpus: &mut Corpus,
    found: &mut Vec<Found>,
) -> Result<(), PuzzleError> {
    for entry in file.entries {
        match entry {
            Ok(e) => {
                if let Some(why) = &e.clash {
                    corpus.notes.push(format!(
                        "{shown}:{}: the givens clash ({why}): the puzzle has no solution",
                        e.line
                    ));
                }
                found.push(Found {
                    folders: folders.clone(),
                    base: format!("{stem}:{}", e.line),
                    instance: Instance {
                        corpus: corpus_name.to_string(),
                        id: String::new(),
                        hash: crate::identity::puzzle_hash(&e.puzzle),
                        source: Source::Puzzle(e.puzzle),
                        records: Some(e.expected)
                            .filter(|x| !x.is_empty())
                            .into_iter()
                            .collect(),
                        format: Some(file.format),
                        family: None,
                    },
                });
            }
            Err(e) if strict => return Err(e),
            Err(e) => corpus.skipped.push(Skip::from(e)),
        }
    }
    Ok(())
}

/// Gives each instance its family in the plan's families file (`--families`), read and
/// held to the digest the plan recorded; returns one warning per line of the file that
/// names no instance (`file:line: …`). `root` is the folder the corpora are named from.
pub fn name_families(
    instances: &mut [Instance],
    file: &crate::family::FamiliesFile,
    root: &Path,
) -> anyhow::Result<Vec<String>> {
    let families = file.families()?;
    for i in instances.iter_mut() {
        i.family = families
            .family_from(Some(&i.hash), &i.corpus, &i.id, root)
            .map(str::to_string);
    }
    Ok(families.unmatched(
        instances
            .iter()
            .map(|i| (Some(i.hash.as_str()), i.corpus.as_str(), i.id.as_str())),
        Some(root),
    ))
}
