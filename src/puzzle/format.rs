//! Puzzle file formats (DESIGN.md): line, prefixed line, grid blocks, CSV pairs.
//! STUB: only the plain line format for now; the full reader replaces this file.

use std::io::{self, Write};
use std::path::Path;

use super::symbols::{symbol_value, value_symbol};
use super::{Grid, Kind, Puzzle, exact_sqrt};

/// A puzzle file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// One puzzle per line, n² symbols.
    Line,
    /// `k symbols`: the box size, a space, n² symbols.
    Prefixed,
    /// n lines of n symbols or integers; blocks separated by blank lines.
    Grid,
    /// Rows of comma-separated integers (2n rows for a pair).
    Csv,
}

impl Format {
    /// The name used on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Line => "line",
            Format::Prefixed => "prefixed",
            Format::Grid => "grid",
            Format::Csv => "csv",
        }
    }

    /// Parses a format name.
    pub fn parse(s: &str) -> Option<Format> {
        match s {
            "line" => Some(Format::Line),
            "prefixed" => Some(Format::Prefixed),
            "grid" => Some(Format::Grid),
            "csv" => Some(Format::Csv),
            _ => None,
        }
    }
}

/// How to read a puzzle file: both fields `None` means auto-detect.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReadOptions {
    /// Force a format instead of detecting it.
    pub format: Option<Format>,
    /// Force a kind (e.g. a 9×9 Latin square) instead of inferring it from the shape.
    pub kind: Option<Kind>,
}

/// A malformed puzzle or file, located: displays as `file:line: message`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {message}")]
pub struct PuzzleError {
    /// The file as the user named it.
    pub file: String,
    /// 1-based line number (0 when the error is about the whole file).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// One puzzle read from a file, with where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// 1-based line on which the puzzle starts.
    pub line: usize,
    /// The puzzle.
    pub puzzle: Puzzle,
}

/// Everything read from one file: its format and each puzzle or the error in its place.
#[derive(Clone, Debug)]
pub struct PuzzleFile {
    /// The format the file was read in.
    pub format: Format,
    /// Each puzzle, or why the text in its place is not one, in file order.
    pub entries: Vec<Result<Entry, PuzzleError>>,
}

/// Reads puzzles from a file.
pub fn read_path(path: &Path, opts: &ReadOptions) -> Result<PuzzleFile, PuzzleError> {
    let text = std::fs::read_to_string(path).map_err(|e| PuzzleError {
        file: path.display().to_string(),
        line: 0,
        message: e.to_string(),
    })?;
    read_str(&text, &path.display().to_string(), opts)
}

/// Reads puzzles from text; `name` names the source in errors.
pub fn read_str(text: &str, name: &str, opts: &ReadOptions) -> Result<PuzzleFile, PuzzleError> {
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |message: String| PuzzleError {
            file: name.to_string(),
            line: i + 1,
            message,
        };
        let field = line.split([',', ':', ' ', '\t']).next().unwrap_or("");
        let values: Option<Vec<u16>> = field.chars().map(symbol_value).collect();
        let entry = match (values, exact_sqrt(field.len())) {
            (Some(values), Some(n)) => {
                let kind = opts.kind.unwrap_or(if exact_sqrt(n).is_some() {
                    Kind::Sudoku
                } else {
                    Kind::Latin
                });
                Grid::from_cells(n, values)
                    .ok_or_else(|| err("a value is larger than the side".into()))
                    .and_then(|g| Puzzle::new(kind, vec![g]).map_err(|e| err(e.to_string())))
                    .and_then(|p| p.check_givens().map(|_| p).map_err(|e| err(e.to_string())))
                    .map(|puzzle| Entry {
                        line: i + 1,
                        puzzle,
                    })
            }
            _ => Err(err(format!("not a puzzle line ({} symbols)", field.len()))),
        };
        entries.push(entry);
    }
    Ok(PuzzleFile {
        format: Format::Line,
        entries,
    })
}

/// Writes one puzzle in `format`.
pub fn write(out: &mut dyn Write, puzzle: &Puzzle, _format: Format) -> io::Result<()> {
    let s: String = puzzle.boards()[0]
        .cells()
        .iter()
        .map(|&v| value_symbol(v).unwrap_or('?'))
        .collect();
    writeln!(out, "{s}")
}
