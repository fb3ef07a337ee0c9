//! Corpora to instances: puzzle files (any format), DIMACS files and folders of them.
//!
//! Each instance is known by its content hash ([`crate::identity`]) and shown by a
//! readable id: the puzzle file's name and the puzzle's line (`hard.txt:12`), or the DIMACS
//! file's name (its path below the folder named on the command line), grown by folders
//! where two inputs share it (`e1/a.cnf`, `e2/a.cnf`). One content under two names is one
//! instance. A malformed puzzle, or a puzzle file that cannot be read at all, is reported
//! with file and line and left out (or, with `--strict`, stops the run).
//!
//! One loader serves running and planning: [`load`] keeps each instance's parsed puzzle
//! and the corpus's records of its answer (a run encodes and checks them), [`load_hashed`]
//! keeps what names and places the instance (its corpus, id, hash and source kind) and
//! drops each puzzle as soon as it is hashed (a plan of a million puzzles holds no board).
//! Both decide ids, hashes, duplicates and skips by the same code: [`Keep`] is the one
//! thing they differ in. Each puzzle file is parsed entry by entry, so no file's puzzles
//! are held all at once.

use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;

use anyhow::{Context, bail};

use crate::cnf::dimacs::{is_dimacs_name, looks_like_dimacs_input};
use crate::cnf::input::{Input, InputKind, is_stdin};
use crate::puzzle::Puzzle;
use crate::puzzle::format::{
    Entry, Expected, Format, PuzzleError, ReadOptions, read_input_each, read_path_each,
};
use crate::results::InstanceKind;

use super::skip::Skip;

/// What an instance keeps of its puzzle once the puzzle is hashed: the puzzle itself and
/// the corpus's records of its answer (to run it), or nothing ([`Hashed`], to plan it).
pub trait Keep: Sized {
    /// The corpus's records of the answer are kept.
    const RECORDS: bool;
    /// What is kept of `puzzle`.
    fn keep(puzzle: Puzzle) -> Self;
}

impl Keep for Puzzle {
    const RECORDS: bool = true;
    fn keep(puzzle: Puzzle) -> Puzzle {
        puzzle
    }
}

/// A puzzle known by its hash alone: planning names, counts and places it, but never
/// encodes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hashed;

impl Keep for Hashed {
    const RECORDS: bool = false;
    fn keep(_: Puzzle) -> Hashed {
        Hashed
    }
}

/// Where an instance's formula comes from.
#[derive(Clone, Debug)]
pub enum Source<P = Puzzle> {
    /// A puzzle, encoded by each requested encoding.
    Puzzle(P),
    /// A DIMACS file, solved as it is.
    Dimacs(PathBuf),
}

/// One instance of the benchmark; `P` is what it keeps of its puzzle (see [`Keep`]).
#[derive(Clone, Debug)]
pub struct Instance<P = Puzzle> {
    /// The corpus argument it came from (shared by the corpus's instances).
    pub corpus: Arc<str>,
    /// The readable id: the file name and line (`hard.txt:12`), the DIMACS file's name
    /// or its path below the folder named, grown by folders where two inputs share it.
    pub id: String,
    /// The content hash (see [`crate::identity`]): what the instance is.
    pub hash: String,
    /// The formula's source.
    pub source: Source<P>,
    /// What the corpus records of the answer (puzzles in the line format): one record a
    /// line that held this content, none where nothing is recorded (nor where the loader
    /// keeps no records, [`Keep::RECORDS`]).
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

impl<P> Instance<P> {
    /// A puzzle (run under every encoding), not a DIMACS file.
    pub fn is_puzzle(&self) -> bool {
        matches!(self.source, Source::Puzzle(_))
    }
}

/// The instances of all corpora, and what was left out.
#[derive(Debug)]
pub struct Corpus<P = Puzzle> {
    /// Instances in command-line and file order, each content once.
    pub instances: Vec<Instance<P>>,
    /// One per input left out, located.
    pub skipped: Vec<Skip>,
    /// One `file:line: message` per puzzle whose givens clash (it has no solution).
    pub notes: Vec<String>,
    /// One line per input whose content is an instance already planned under another
    /// name: it runs once, under the first name.
    pub duplicates: Vec<String>,
}

impl<P> Default for Corpus<P> {
    fn default() -> Corpus<P> {
        Corpus {
            instances: Vec::new(),
            skipped: Vec::new(),
            notes: Vec::new(),
            duplicates: Vec::new(),
        }
    }
}

/// An input found before ids are given: its folder path (shared by a file's puzzles), its
/// base id, and the instance.
struct Found<P> {
    folders: Rc<[String]>,
    base: String,
    instance: Instance<P>,
}

/// The folders of `path` as components (`e1/sub/a.cnf` → `["e1", "sub"]`).
fn folders_of(path: &Path) -> Rc<[String]> {
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
    load_as::<Puzzle>(base, paths, read, strict)
}

/// The corpus as [`load`] gives it (the same instances, ids, hashes, duplicates, skips and
/// notes), each puzzle dropped once hashed and no records kept: what a plan needs.
pub fn load_hashed(
    base: &Path,
    paths: &[PathBuf],
    read: &ReadOptions,
    strict: bool,
) -> anyhow::Result<Corpus<Hashed>> {
    load_as::<Hashed>(base, paths, read, strict)
}

/// [`load`], keeping `P` of each puzzle.
fn load_as<P: Keep>(
    base: &Path,
    paths: &[PathBuf],
    read: &ReadOptions,
    strict: bool,
) -> anyhow::Result<Corpus<P>> {
    let mut corpus = Corpus::default();
    let mut found: Vec<Found<P>> = Vec::new();
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
    let names: Vec<(&[String], &str)> = found
        .iter()
        .map(|f| (&*f.folders, f.base.as_str()))
        .collect();
    let ids = crate::identity::distinct_ids(&names);
    drop(names);
    // The first input of each content, by position in `found`.
    let first_of: Vec<usize> = {
        let mut by_hash: rustc_hash::FxHashMap<&str, usize> = Default::default();
        by_hash.reserve(found.len());
        found
            .iter()
            .enumerate()
            .map(|(i, f)| *by_hash.entry(f.instance.hash.as_str()).or_insert(i))
            .collect()
    };
    // Where each input kept as an instance stands in `corpus.instances`.
    let mut kept_at: Vec<usize> = vec![usize::MAX; found.len()];
    corpus.instances.reserve_exact(
        first_of
            .iter()
            .enumerate()
            .filter(|&(i, &first)| i == first)
            .count(),
    );
    for (i, (f, id)) in found.into_iter().zip(ids).enumerate() {
        let mut instance = f.instance;
        instance.id = id;
        match first_of[i] {
            first if first != i => {
                let kept = &mut corpus.instances[kept_at[first]];
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
            _ => {
                kept_at[i] = corpus.instances.len();
                corpus.instances.push(instance);
            }
        }
    }
    Ok(corpus)
}

/// Every file below the folder `given` (found at `path`): DIMACS by name, else puzzles; a
/// file that is neither, and what is not a regular file, is left out and said so.
fn load_folder<P: Keep>(
    given: &Path,
    path: &Path,
    read: &ReadOptions,
    strict: bool,
    corpus: &mut Corpus<P>,
    found: &mut Vec<Found<P>>,
) -> anyhow::Result<()> {
    let name: Arc<str> = given.display().to_string().into();
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
        let at = FileAt {
            corpus: &name,
            shown: &shown,
            folders,
            stem: &rel,
        };
        let read = puzzles(at, strict, corpus, found, |each| {
            read_path_each(&file, read, each)
        });
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
fn load_input<P: Keep>(
    (given, path): (&Path, &Path),
    input: Input,
    read: &ReadOptions,
    strict: bool,
    corpus: &mut Corpus<P>,
    found: &mut Vec<Found<P>>,
) -> anyhow::Result<()> {
    let name: Arc<str> = if is_stdin(given) {
        "stdin".into()
    } else {
        given.display().to_string().into()
    };
    let stem = if is_stdin(given) {
        name.to_string()
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
        name.to_string()
    };
    let at = FileAt {
        corpus: &name,
        shown: &shown,
        folders: folders_of(given),
        stem: &stem,
    };
    let read = puzzles(at, strict, corpus, found, |each| {
        read_input_each(input, &shown, read, each)
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
fn dimacs<P>(corpus: &Arc<str>, file: &Path, base: String, folders: Rc<[String]>) -> Found<P> {
    Found {
        folders,
        base,
        instance: Instance {
            corpus: corpus.clone(),
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
fn hash_dimacs<P>(
    found: &mut Vec<Found<P>>,
    strict: bool,
    skipped: &mut Vec<Skip>,
) -> anyhow::Result<()> {
    use rayon::prelude::*;
    // The DIMACS inputs, by position: hashed in parallel (a file's puzzles are not sent
    // across threads).
    let files: Vec<(usize, PathBuf)> = found
        .iter()
        .enumerate()
        .filter_map(|(i, f)| match &f.instance.source {
            Source::Dimacs(path) => Some((i, path.clone())),
            Source::Puzzle(_) => None,
        })
        .collect();
    let hashes: Vec<(usize, Result<String, Skip>)> = files
        .into_par_iter()
        .map(|(i, path)| {
            let hash = crate::identity::gbd_hash_file(&path)
                .map_err(|e| Skip::file(path.display().to_string(), format!("not readable: {e}")));
            (i, hash)
        })
        .collect();
    let mut failed: Vec<(usize, Skip)> = Vec::new();
    for (i, hash) in hashes {
        match hash {
            Ok(hash) => found[i].instance.hash = hash,
            Err(why) => failed.push((i, why)),
        }
    }
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

/// Where a puzzle file stands: what names it and its puzzles.
struct FileAt<'a> {
    /// The corpus argument it belongs to.
    corpus: &'a Arc<str>,
    /// The file as messages name it.
    shown: &'a str,
    /// Its folders, which grow its puzzles' ids where they clash.
    folders: Rc<[String]>,
    /// Its puzzles' ids are `stem:LINE`.
    stem: &'a str,
}

/// The puzzles of the file `at`, read by `read` entry by entry, each hashed and kept as
/// `P`; a malformed one is skipped unless `strict`.
fn puzzles<P: Keep>(
    FileAt {
        corpus: corpus_name,
        shown,
        folders,
        stem,
    }: FileAt<'_>,
    strict: bool,
    corpus: &mut Corpus<P>,
    found: &mut Vec<Found<P>>,
    read: impl FnOnce(&mut dyn FnMut(Result<Entry, PuzzleError>)) -> Result<Format, PuzzleError>,
) -> Result<(), PuzzleError> {
    let before = found.len();
    let mut failed: Option<PuzzleError> = None;
    let format = read(&mut |entry| {
        if failed.is_some() {
            return;
        }
        match entry {
            Ok(e) => {
                if let Some(why) = &e.clash {
                    corpus.notes.push(format!(
                        "{shown}:{}: the givens clash ({why}): the puzzle has no solution",
                        e.line
                    ));
                }
                let records = Some(e.expected)
                    .filter(|x| P::RECORDS && !x.is_empty())
                    .into_iter()
                    .collect();
                found.push(Found {
                    folders: folders.clone(),
                    base: format!("{stem}:{}", e.line),
                    instance: Instance {
                        corpus: corpus_name.clone(),
                        id: String::new(),
                        hash: crate::identity::puzzle_hash(&e.puzzle),
                        source: Source::Puzzle(P::keep(e.puzzle)),
                        records,
                        // The file's format, set below once the file is read.
                        format: None,
                        family: None,
                    },
                });
            }
            Err(e) if strict => failed = Some(e),
            Err(e) => corpus.skipped.push(Skip::from(e)),
        }
    });
    let format = match (format, failed) {
        (Err(e), _) | (Ok(_), Some(e)) => return Err(e),
        (Ok(format), None) => format,
    };
    for f in &mut found[before..] {
        f.instance.format = Some(format);
    }
    Ok(())
}

/// Gives each instance its family in the plan's families file (`--families`), read and
/// held to the digest the plan recorded; returns one warning per line of the file that
/// names no instance (`file:line: …`). `root` is the folder the corpora are named from.
pub fn name_families<P>(
    instances: &mut [Instance<P>],
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
            .map(|i| (Some(i.hash.as_str()), &*i.corpus, i.id.as_str())),
        Some(root),
    ))
}
