//! `bench encode`: one DIMACS file per puzzle, streamed (the counts come from a first,
//! counting pass), each starting with the self-describing `c bench` line. A malformed
//! puzzle is reported with its file and line and the others are still written.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use crate::cli::EncodeArgs;
use crate::cnf::dimacs::DimacsWriter;
use crate::encode::header::BenchHeader;
use crate::encode::{EncodeOptions, count, encode};
use crate::puzzle::Puzzle;
use crate::puzzle::format::{Entry, read_path};

pub(super) fn run(args: EncodeArgs) -> anyhow::Result<i32> {
    let opts = EncodeOptions {
        encoding: args.encoding,
        amo: args.amo,
    };
    let read = super::read_options(&args.input)?;
    let mut puzzles: Vec<(PathBuf, Entry)> = Vec::new();
    let mut bad = 0;
    for path in &args.puzzles {
        let file = read_path(path, &read)?;
        for entry in file.entries {
            match entry {
                Ok(e) => {
                    if let Some(why) = &e.clash {
                        let line = format!(
                            "{}:{}: the givens clash ({why}): the formula is UNSAT",
                            path.display(),
                            e.line
                        );
                        eprintln!("{}", crate::text::terminal(&line));
                    }
                    puzzles.push((path.clone(), e))
                }
                Err(e) => {
                    eprintln!("{}", crate::text::terminal(&e.to_string()));
                    bad += 1;
                }
            }
        }
    }
    match &args.out {
        None => {
            if puzzles.len() != 1 {
                bail!(
                    "{} puzzles read: name a folder with -o to write one file each",
                    puzzles.len()
                );
            }
            let (_, entry) = &puzzles[0];
            let stdout = io::stdout().lock();
            let (vars, clauses) =
                write_one(&entry.puzzle, opts, stdout).context("writing to stdout")?;
            eprintln!("c {vars} variables, {clauses} clauses");
        }
        Some(dir) => {
            fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
            for (path, entry) in &puzzles {
                let target = dir.join(file_name(path, entry.line));
                let (vars, clauses) = write_file(&entry.puzzle, opts, &target)?;
                let name = target.display().to_string();
                let name = crate::text::terminal(&name);
                println!("{name}: {vars} variables, {clauses} clauses");
            }
        }
    }
    if bad > 0 {
        eprintln!("bench: {bad} malformed puzzle(s) skipped");
        return Ok(1);
    }
    Ok(0)
}

/// `hard.txt`, line 12 → `hard-12.cnf`: the instance id of docs/design.md as a file name.
pub(crate) fn file_name(puzzle_file: &Path, line: usize) -> String {
    let stem = puzzle_file
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("puzzle");
    format!("{stem}-{line}.cnf")
}

/// Streams one puzzle's encoding to `out`; returns (variables, clauses).
pub(crate) fn write_one<W: Write>(
    puzzle: &Puzzle,
    opts: EncodeOptions,
    out: W,
) -> io::Result<(u32, u64)> {
    let (vars, clauses) = count(puzzle, opts);
    let header = BenchHeader {
        puzzle: puzzle.clone(),
        opts,
    }
    .to_comment();
    let mut writer = DimacsWriter::new(out, &[header], vars, clauses)?;
    encode(puzzle, opts, &mut writer);
    writer.finish()?.flush()?;
    Ok((vars, clauses))
}

/// Writes to `target` through a temporary name, so that a failure (a full disk) never
/// leaves a truncated file that looks complete.
pub(crate) fn write_file(
    puzzle: &Puzzle,
    opts: EncodeOptions,
    target: &Path,
) -> anyhow::Result<(u32, u64)> {
    let partial = target.with_extension("cnf.partial");
    let result = fs::File::create(&partial)
        .and_then(|f| write_one(puzzle, opts, f))
        .and_then(|counts| fs::rename(&partial, target).map(|_| counts));
    if result.is_err() {
        let _ = fs::remove_file(&partial);
    }
    result.with_context(|| format!("writing {}", target.display()))
}
