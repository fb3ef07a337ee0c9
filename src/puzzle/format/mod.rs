//! Puzzle file formats (docs/design.md, "Puzzles"; the README shows each): read a file
//! into puzzles, write a puzzle back in the format it came in.
//!
//! Four text formats, one concept a file:
//! - [`line`]: one puzzle per line, n² symbols (a pair: 2·n² symbols, S1 then S2);
//! - [`prefixed`]: the box size k, a space, then the symbols of a line;
//! - [`grid`]: n rows of n symbols or integers, puzzles separated by blank lines;
//! - [`csv`]: n rows (one board) or 2n rows (a pair) of comma-separated integers.
//!
//! [`detect`] picks the format of a file when [`ReadOptions::format`] does not force one.
//! The kind is inferred from the shape (two boards make a pair; one board of side k²,
//! k ≥ 2, a sudoku; any other side a Latin square) unless [`ReadOptions::kind`] forces it.
//!
//! A puzzle that breaks the format becomes an `Err` entry located at its `file:line`, and
//! reading goes on with the next one: a corpus with a few bad puzzles is still usable.
//! Givens that break a rule (two 5s in a row; a pair whose boards hold the same value in
//! one cell) are not a format error but a fact about the puzzle: it has no solution, its
//! formula is UNSAT, and the entry says why in [`Entry::clash`]. Only problems with the
//! whole file make [`read_path`] / [`read_str`] fail: unreadable, not UTF-8 (at the line of
//! the first bad byte), no line that is not blank or a comment, or (when the format is
//! detected) no puzzle at all in any format. With a forced format, every line or block
//! that is not a puzzle is an `Err` entry instead. A byte-order mark is ignored.
//! No input makes the reader panic (see the proptests in `tests/it/puzzle_formats.rs`).

mod block;
pub mod csv;
pub mod detect;
pub mod grid;
pub mod line;
pub mod prefixed;
mod text;

use crate::cnf::input::Input;
use std::fmt;
use std::io::{self, Write};
use std::path::Path;

use super::symbols::Alphabet;
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
    /// Every format, in the order detection prefers them when two read a file equally well.
    pub const ALL: [Format; 4] = [Format::Line, Format::Prefixed, Format::Csv, Format::Grid];

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
        Format::ALL.into_iter().find(|f| f.as_str() == s)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How to read a puzzle file: all fields `None` means auto-detect, default symbols.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReadOptions {
    /// Force a format instead of detecting it.
    pub format: Option<Format>,
    /// Force a kind (e.g. a 9×9 Latin square) instead of inferring it from the shape.
    pub kind: Option<Kind>,
    /// The values are written in another alphabet (16×16 as `A`–`P`).
    pub alphabet: Option<Alphabet>,
}

/// A malformed puzzle or file, located: displays as `file:line: message`, or `file:
/// message` for an error about the whole file (line 0).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}{}: {message}", located(*line))]
pub struct PuzzleError {
    /// The file as the user named it.
    pub file: String,
    /// 1-based line number (0 when the error is about the whole file).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// `:LINE`, or nothing for line 0 (the whole file).
fn located(line: usize) -> String {
    if line == 0 {
        String::new()
    } else {
        format!(":{line}")
    }
}

/// One puzzle read from a file, with where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// 1-based line on which the puzzle starts.
    pub line: usize,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// When the givens break a rule: which one (the puzzle has no solution).
    pub clash: Option<String>,
    /// What the corpus itself says of the answer (the line format's extra fields).
    pub expected: Expected,
}

/// The answer a corpus records beside a puzzle: tdoku's `puzzle:count:solution`, the
/// Kaggle sets' `puzzle,solution`. Either part may be missing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Expected {
    /// The number of solutions (0: none).
    pub count: Option<u64>,
    /// A solution, checked at reading against the puzzle's rules and givens.
    pub solution: Option<Puzzle>,
}

impl Expected {
    /// True when the corpus records nothing.
    pub fn is_empty(&self) -> bool {
        self.count.is_none() && self.solution.is_none()
    }
}

/// Everything read from one file: its format and each puzzle or the error in its place.
#[derive(Clone, Debug)]
pub struct PuzzleFile {
    /// The format the file was read in.
    pub format: Format,
    /// Each puzzle, or why the text in its place is not one, in file order.
    pub entries: Vec<Result<Entry, PuzzleError>>,
}

/// Reads puzzles from a file (`-`: standard input; a pipe or a FIFO is read once). A file
/// larger than the memory bench may hold for it (see
/// [`crate::cnf::budget::machine_budget`]; `/dev/zero` never ends) is an error, not an
/// abort.
pub fn read_path(path: &Path, opts: &ReadOptions) -> Result<PuzzleFile, PuzzleError> {
    let mut entries = Vec::new();
    let format = read_path_each(path, opts, &mut |e| entries.push(e))?;
    Ok(PuzzleFile { format, entries })
}

/// Reads puzzles from a file as [`read_path`] does, handing each entry to `each` as it is
/// read; returns the format.
pub fn read_path_each(
    path: &Path,
    opts: &ReadOptions,
    each: &mut dyn FnMut(Result<Entry, PuzzleError>),
) -> Result<Format, PuzzleError> {
    let name = path.display().to_string();
    match Input::open(path) {
        Ok(input) => read_input_each(input, &name, opts, each),
        Err(e) => Err(PuzzleError {
            file: name,
            line: 0,
            message: e.to_string(),
        }),
    }
}

/// Reads puzzles from an opened input; `name` names it in errors.
pub fn read_input(input: Input, name: &str, opts: &ReadOptions) -> Result<PuzzleFile, PuzzleError> {
    let mut entries = Vec::new();
    let format = read_input_each(input, name, opts, &mut |e| entries.push(e))?;
    Ok(PuzzleFile { format, entries })
}

/// Reads puzzles from an opened input as [`read_input`] does, handing each entry to
/// `each` as it is read instead of holding them all; returns the file's format. The
/// entries are [`read_input`]'s, in its order.
pub fn read_input_each(
    input: Input,
    name: &str,
    opts: &ReadOptions,
    each: &mut dyn FnMut(Result<Entry, PuzzleError>),
) -> Result<Format, PuzzleError> {
    let budget = crate::cnf::budget::machine_budget(None).unwrap_or(u64::MAX);
    let bytes = read_within(input, budget).map_err(|e| PuzzleError {
        file: name.to_string(),
        line: 0,
        message: e.to_string(),
    })?;
    match std::str::from_utf8(&bytes) {
        Ok(text) => read_str_each(text, name, opts, each),
        Err(e) => Err(not_utf8(&bytes, name, e)),
    }
}

/// The bytes of `input`, if they are at most `budget`.
fn read_within(input: Input, budget: u64) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let size = input.size().unwrap_or(0);
    let too_big = || {
        io::Error::other(format!(
            "larger than the {} MiB bench may hold for a puzzle file (half the memory available)",
            budget >> 20
        ))
    };
    if size > budget {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(size as usize)
        .map_err(|_| too_big())?;
    input
        .into_read()
        .take(budget.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > budget {
        return Err(too_big());
    }
    Ok(bytes)
}

/// Reads puzzles from raw bytes; text that is not UTF-8 is a file-level error located at
/// the line of the first bad byte.
pub fn read_bytes(bytes: &[u8], name: &str, opts: &ReadOptions) -> Result<PuzzleFile, PuzzleError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => read_str(text, name, opts),
        Err(e) => Err(not_utf8(bytes, name, e)),
    }
}

/// The file-level error of `bytes` that are not UTF-8, at the line of the first bad byte.
fn not_utf8(bytes: &[u8], name: &str, e: std::str::Utf8Error) -> PuzzleError {
    let at = e.valid_up_to();
    PuzzleError {
        file: name.to_string(),
        line: text::line_of_offset(bytes, at),
        message: format!(
            "not UTF-8 text (byte 0x{:02x} at offset {at}); puzzle files are plain text",
            bytes[at]
        ),
    }
}

/// Reads puzzles from text; `name` names the source in errors.
pub fn read_str(text: &str, name: &str, opts: &ReadOptions) -> Result<PuzzleFile, PuzzleError> {
    let mut entries = Vec::new();
    let format = read_str_each(text, name, opts, &mut |e| entries.push(e))?;
    Ok(PuzzleFile { format, entries })
}

/// Reads puzzles from text as [`read_str`] does, handing each entry to `each` as it is
/// read; returns the format.
pub fn read_str_each(
    text: &str,
    name: &str,
    opts: &ReadOptions,
    each: &mut dyn FnMut(Result<Entry, PuzzleError>),
) -> Result<Format, PuzzleError> {
    // A byte-order mark is invisible in editors; it must not make the first puzzle bad.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let translated;
    let text = match &opts.alphabet {
        Some(alphabet) => {
            translated = alphabet.to_default(text);
            translated.as_str()
        }
        None => text,
    };
    let file_error = |line: usize, message: String| PuzzleError {
        file: name.to_string(),
        line,
        message,
    };
    let Some((first_line, _)) = text::meaningful_lines(text).next() else {
        return Err(file_error(
            0,
            "no puzzle: the file holds only blank lines and comments".into(),
        ));
    };
    let format = match opts.format {
        Some(format) => format,
        None => detect::detect(text, opts.kind).ok_or_else(|| {
            file_error(
                first_line,
                format!(
                    "no puzzle found in any format: {} (--format picks one)",
                    detect::explain(text, opts.kind)
                ),
            )
        })?,
    };
    read_as(format, text, opts.kind, &mut |parsed| {
        each(parsed.into_entry(name))
    });
    Ok(format)
}

/// For the readers' unit tests: `text` read as `format`, each entry a puzzle with its line
/// or the error's text (a clash of givens shown as an error, to test its message).
#[cfg(test)]
pub(crate) fn entries_for_tests(
    text: &str,
    name: &str,
    format: Format,
    kind: Option<Kind>,
) -> Vec<Result<(usize, Puzzle), String>> {
    let opts = ReadOptions {
        format: Some(format),
        kind,
        alphabet: None,
    };
    let file = read_str(text, name, &opts).expect("the file reads");
    file.entries
        .into_iter()
        .map(|e| {
            e.map_err(|e| e.to_string()).and_then(|e| match e.clash {
                Some(why) => Err(format!("{name}:{}: clash: {why}", e.line)),
                None => Ok((e.line, e.puzzle)),
            })
        })
        .collect()
}

/// Writes one puzzle in `format`. Grid and CSV blocks end with a blank line, so that
/// puzzles written one after another make a file that reads back as the same puzzles.
///
/// Line and prefixed refuse sides over 61 (no symbol for the values), and prefixed refuses
/// a Latin square whose side is not k², with an error of kind `InvalidInput`.
pub fn write(out: &mut dyn Write, puzzle: &Puzzle, format: Format) -> io::Result<()> {
    let mut text = String::new();
    match format {
        Format::Line => line::write(&mut text, puzzle)?,
        Format::Prefixed => prefixed::write(&mut text, puzzle)?,
        Format::Grid => grid::write(&mut text, puzzle),
        Format::Csv => csv::write(&mut text, puzzle),
    }
    out.write_all(text.as_bytes())
}

/// [`write`] in the symbols of `alphabet` (as the file was read): line, prefixed (after the
/// box size) and symbol grids are translated; CSV and integer grids have no symbols.
pub fn write_in(
    out: &mut dyn Write,
    puzzle: &Puzzle,
    format: Format,
    alphabet: Option<&Alphabet>,
) -> io::Result<()> {
    let Some(alphabet) = alphabet else {
        return write(out, puzzle, format);
    };
    let mut buf = Vec::new();
    write(&mut buf, puzzle, format)?;
    let text = String::from_utf8_lossy(&buf);
    let translated = match format {
        Format::Csv => text.into_owned(),
        Format::Grid if puzzle.side() > super::symbols::MAX_SYMBOL_VALUE as usize => {
            text.into_owned()
        }
        Format::Prefixed => text
            .lines()
            .map(|l| match l.split_once(' ') {
                Some((k, rest)) => format!("{k} {}\n", alphabet.from_default(rest)),
                None => format!("{l}\n"),
            })
            .collect(),
        Format::Line | Format::Grid => alphabet.from_default(&text),
    };
    out.write_all(translated.as_bytes())
}

/// Runs the reader of `format` over `text`, handing each puzzle (or failure) to `sink`.
fn read_as(format: Format, text: &str, kind: Option<Kind>, sink: &mut dyn FnMut(Parsed)) {
    match format {
        Format::Line => line::read(text, kind, sink),
        Format::Prefixed => prefixed::read(text, kind, sink),
        Format::Grid => grid::read(text, kind, sink),
        Format::Csv => csv::read(text, kind, sink),
    }
}

/// What a reader found at one place of a file: a puzzle or why there is none.
#[derive(Debug)]
struct Parsed {
    /// The first line of the puzzle's text.
    line: usize,
    /// How many lines of text the puzzle spans (detection weighs formats by it).
    span: usize,
    /// The puzzle and what the corpus says of its answer, or what is wrong with the text.
    result: Result<(Puzzle, Expected), Failure>,
}

/// Why the text at some place is not a puzzle.
#[derive(Debug)]
struct Failure {
    /// The line to blame.
    line: usize,
    /// One line saying what is wrong.
    message: String,
}

impl Failure {
    /// A failure of the format itself.
    fn shape(line: usize, message: impl Into<String>) -> Failure {
        Failure {
            line,
            message: message.into(),
        }
    }
}

impl Parsed {
    /// A reader's puzzle with nothing expected of it.
    fn puzzle(line: usize, span: usize, result: Result<Puzzle, Failure>) -> Parsed {
        Parsed {
            line,
            span,
            result: result.map(|p| (p, Expected::default())),
        }
    }

    fn into_entry(self, file: &str) -> Result<Entry, PuzzleError> {
        match self.result {
            Ok((puzzle, expected)) => Ok(Entry {
                line: self.line,
                clash: puzzle.check_givens().err().map(|v| v.to_string()),
                puzzle,
                expected,
            }),
            Err(f) => Err(PuzzleError {
                file: file.to_string(),
                line: f.line,
                message: f.message,
            }),
        }
    }
}

/// The kind of a puzzle of `boards` boards of side `side` when none is forced.
fn inferred_kind(boards: usize, side: usize) -> Kind {
    if boards == 2 {
        Kind::Pair
    } else if exact_sqrt(side).is_some_and(|k| k >= 2) {
        Kind::Sudoku
    } else {
        Kind::Latin
    }
}

/// Builds the puzzle from its boards (kind forced or inferred). Its givens may break the
/// rules: that is the puzzle's answer (none), not a format error.
fn assemble(boards: Vec<Grid>, forced: Option<Kind>, line: usize) -> Result<Puzzle, Failure> {
    let kind = forced.unwrap_or_else(|| inferred_kind(boards.len(), boards[0].side()));
    if boards.len() != kind.boards() {
        let found = if boards.len() == 2 {
            "two boards (a pair)"
        } else {
            "one board"
        };
        return Err(Failure::shape(
            line,
            format!("{found}, but the kind is {kind}"),
        ));
    }
    Puzzle::new(kind, boards).map_err(|e| Failure::shape(line, e.to_string()))
}
