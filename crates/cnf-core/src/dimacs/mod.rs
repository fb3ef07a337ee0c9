//! DIMACS CNF, read and written.
//!
//! Writing streams: [`DimacsWriter`] is a [`ClauseSink`], so an encoder writes a 33-million
//! clause encoding straight to a file without holding it; only the header needs the counts
//! up front, which a first pass through a [`ClauseCounter`](super::ClauseCounter) gives.
//!
//! Reading is strict by default, on cadical's and kissat's model: a bad or missing header,
//! a literal beyond the header's variable count, a token that is not an integer, a clause
//! without its final 0, or a clause count that differs from the header's is an error that
//! names `file:line`. Comments may stand anywhere (a `c` where a token would begin runs to
//! the end of the line), clauses may span lines, and the SATLIB `%` marker ends the formula.
//! gzip and xz input is recognised by its magic bytes.
//!
//! Reading is bounded (see [`super::budget`]): it streams, literals go straight into the
//! formula's flat array, nothing is allocated from the header's claims, comment lines are
//! skipped without being held (only a `c bench` line is kept, up to a cap), and the clause
//! arrays never pass the read's budget: past it the read ends with
//! [`DimacsError::TooBig`], which names the file, the line and the budget. The interrupt
//! and deadline of [`ReadLimits`] are looked at every 64 KiB of input.
//!
//! One concept a file: [`bytes`] (the counting byte reader), [`parse`] (comments, the
//! header and the body's entry), [`token`] (integers and tokens, with their messages),
//! [`clauses`] (the clause body into budgeted arrays), [`write`] (the writer).

mod bytes;
mod clauses;
mod parse;
mod token;
mod write;

use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use crate::Cnf;
use crate::budget::{ReadLimits, XZ_MEMLIMIT};
use crate::input::Input;
use bytes::Bytes;
use parse::Parser;
pub use write::{DimacsWriter, write_cnf};

/// A DIMACS file that could not be read: displays as `file:line: message`.
#[derive(Debug, thiserror::Error)]
pub enum DimacsError {
    /// The text breaks the format.
    #[error("{file}:{line}: {message}")]
    Parse {
        /// The file as the user named it.
        file: String,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The file could not be opened or read.
    #[error("{file}: {source}")]
    Io {
        /// The file.
        file: String,
        /// The cause.
        source: io::Error,
    },
    /// The formula does not fit the read's memory budget (or memory ran out).
    #[error("{file}:{line}: {reason}")]
    TooBig {
        /// The file.
        file: String,
        /// The line reached.
        line: usize,
        /// The budget and what was read, in words.
        reason: String,
        /// The header's variable count.
        declared_vars: u32,
        /// The header's clause count.
        declared_clauses: u64,
    },
    /// The interrupt or the deadline of the read stopped it.
    #[error("{file}:{line}: reading stopped: {why}")]
    Stopped {
        /// The file.
        file: String,
        /// The line reached.
        line: usize,
        /// `interrupted` or `the time limit passed`.
        why: &'static str,
    },
}

/// How strictly to read.
#[derive(Clone, Copy, Debug)]
pub struct ParseOptions {
    /// Reject wrong clause counts and literals beyond the header (the default). When off,
    /// the variable count grows to fit and the clause count is not checked.
    pub strict: bool,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions { strict: true }
    }
}

/// A parsed DIMACS file: the formula, and bench's self-describing comment if present.
#[derive(Clone, Debug)]
pub struct Dimacs {
    /// The formula.
    pub cnf: Cnf,
    /// The `c bench …` comment line (without the leading `c `), if the file has one.
    pub bench_header: Option<String>,
}

/// True if `path` is named like a DIMACS file: `.cnf`, `.dimacs`, or either compressed
/// (`.gz`, `.xz`).
pub fn is_dimacs_name(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let name = name
        .strip_suffix(".gz")
        .or_else(|| name.strip_suffix(".xz"))
        .unwrap_or(name);
    name.ends_with(".cnf") || name.ends_with(".dimacs")
}

/// True if `path` is DIMACS by its name ([`is_dimacs_name`]) or, for a regular file, by
/// its first bytes ([`looks_like_dimacs_input`]). A pipe or FIFO is never read here (its
/// bytes come once): open it as an [`Input`] and ask [`looks_like_dimacs_input`].
pub fn looks_like_dimacs(path: &Path) -> bool {
    if is_dimacs_name(path) {
        return true;
    }
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    Input::open(path).is_ok_and(|input| looks_like_dimacs_input(path, &input))
}

/// True if the input opened from `path` is DIMACS by its name or by its first bytes: gzip
/// or xz magic, a `p cnf` header, or a `c ` comment. The one answer to "is this a DIMACS
/// file" for every command.
pub fn looks_like_dimacs_input(path: &Path, input: &Input) -> bool {
    let head = input.head();
    is_dimacs_name(path)
        || input.is_compressed()
        || head.starts_with(b"p cnf")
        || head.starts_with(b"c ")
}

/// Opens a file for reading, decompressing gzip or xz by their magic bytes. The xz
/// decoder may use at most [`XZ_MEMLIMIT`]; a file that needs more fails to read.
pub fn open_maybe_compressed(path: &Path) -> io::Result<Box<dyn BufRead + Send>> {
    decompressed(Input::open(path)?)
}

/// The bytes of `input`, decompressed if its first bytes are a gzip or xz magic number
/// (the xz decoder within [`XZ_MEMLIMIT`]).
pub fn decompressed(input: Input) -> io::Result<Box<dyn BufRead + Send>> {
    let head = input.head().to_vec();
    let file = BufReader::with_capacity(1 << 16, input.into_read());
    if head.starts_with(&[0x1f, 0x8b]) {
        Ok(Box::new(BufReader::with_capacity(
            1 << 16,
            flate2::bufread::MultiGzDecoder::new(file),
        )))
    } else if crate::input::is_compressed(&head) {
        let stream =
            xz2::stream::Stream::new_stream_decoder(XZ_MEMLIMIT, xz2::stream::CONCATENATED)
                .map_err(io::Error::other)?;
        Ok(Box::new(BufReader::with_capacity(
            1 << 16,
            xz2::bufread::XzDecoder::new_stream(file, stream),
        )))
    } else {
        Ok(Box::new(file))
    }
}

/// Reads a DIMACS file (plain, gzip or xz) within the machine's budget
/// ([`ReadLimits::default`]).
pub fn read_path(path: &Path, opts: ParseOptions) -> Result<Dimacs, DimacsError> {
    read_path_within(path, opts, &ReadLimits::default())
}

/// Reads a DIMACS file (plain, gzip or xz; `-` is standard input) within `limits`.
pub fn read_path_within(
    path: &Path,
    opts: ParseOptions,
    limits: &ReadLimits,
) -> Result<Dimacs, DimacsError> {
    let name = path.display().to_string();
    let input = Input::open(path).map_err(|source| DimacsError::Io {
        file: name.clone(),
        source,
    })?;
    read_input_within(input, &name, opts, limits)
}

/// Reads DIMACS (plain, gzip or xz) from an opened input within `limits`; `name` names the
/// source in errors.
pub fn read_input_within(
    input: Input,
    name: &str,
    opts: ParseOptions,
    limits: &ReadLimits,
) -> Result<Dimacs, DimacsError> {
    let input = decompressed(input).map_err(|source| DimacsError::Io {
        file: name.to_string(),
        source,
    })?;
    parse_within(input, name, opts, limits)
}

/// Reads DIMACS from any reader within the machine's budget; `name` names the source in
/// errors.
pub fn parse<R: Read>(input: R, name: &str, opts: ParseOptions) -> Result<Dimacs, DimacsError> {
    parse_within(input, name, opts, &ReadLimits::default())
}

/// Reads DIMACS from any reader within `limits`; `name` names the source in errors.
pub fn parse_within<R: Read>(
    input: R,
    name: &str,
    opts: ParseOptions,
    limits: &ReadLimits,
) -> Result<Dimacs, DimacsError> {
    Parser {
        bytes: Bytes::new(input, *limits),
        name,
        opts,
        declared: (0, 0),
    }
    .run()
}

#[cfg(test)]
mod tests;
