//! The DIMACS parser's frame: comments and the `c bench` line before the header, the
//! `p cnf` header, and the errors of a read (format, I/O, stops, the budget).

use std::io::Read;

use super::bytes::Bytes;
use super::clauses::Arrays;
use super::token::show;
use super::{Dimacs, DimacsError, ParseOptions};
use crate::MAX_VARS;
use crate::budget::{MAX_BENCH_LINE, MAX_HEADER_LINE};

/// A read in progress: the bytes, the source's name for messages, the options, and the
/// header's counts once read.
pub(super) struct Parser<'a, 'l, R> {
    pub(super) bytes: Bytes<'l, R>,
    pub(super) name: &'a str,
    pub(super) opts: ParseOptions,
    /// The header's variables and clauses, once read.
    pub(super) declared: (u32, u64),
}

impl<R: Read> Parser<'_, '_, R> {
    pub(super) fn error(&self, line: usize, message: impl Into<String>) -> DimacsError {
        DimacsError::Parse {
            file: self.name.to_string(),
            line,
            message: message.into(),
        }
    }

    /// The error of a read that ended early (I/O failure, interrupt, deadline), if any.
    pub(super) fn io_check(&mut self) -> Result<(), DimacsError> {
        if let Some(source) = self.bytes.error.take() {
            return Err(DimacsError::Io {
                file: self.name.to_string(),
                source,
            });
        }
        if let Some(why) = self.bytes.stopped {
            return Err(DimacsError::Stopped {
                file: self.name.to_string(),
                line: self.bytes.line,
                why,
            });
        }
        Ok(())
    }

    #[cold]
    pub(super) fn too_big(&self, arrays: &Arrays) -> DimacsError {
        let read = format!(
            "{} clauses and {} literals read",
            arrays.starts.len().saturating_sub(1),
            arrays.lits.len()
        );
        let shared = self.bytes.limits.account.map(|a| {
            format!(
                ", shared by the reads in progress, {} MiB of it held by the others",
                a.reserved().saturating_sub(arrays.bytes()) >> 20
            )
        });
        let reason = match self.bytes.limits.budget {
            Some(b) => format!(
                "the formula needs more than the {} MiB bench may hold while reading it \
                 ({read}; the budget is --mem-limit, else half the memory available{})",
                b >> 20,
                shared.unwrap_or_default()
            ),
            None => format!("memory ran out while reading the formula ({read})"),
        };
        DimacsError::TooBig {
            file: self.name.to_string(),
            line: self.bytes.line,
            reason,
            declared_vars: self.declared.0,
            declared_clauses: self.declared.1,
        }
    }

    /// Reads the whole file: comments, the header, the clauses. A read that ended early
    /// (an I/O error, an interrupt, a deadline) answers with that, never with what the
    /// cut made of the text: a deadline that falls inside `-12` leaves `-`, which is not
    /// the file's fault.
    pub(super) fn run(mut self) -> Result<Dimacs, DimacsError> {
        let read = self.read_all();
        match read {
            Err(DimacsError::TooBig { .. }) => read,
            _ => self.io_check().and(read),
        }
    }

    fn read_all(&mut self) -> Result<Dimacs, DimacsError> {
        let mut bench_header = None;
        // Before the header: comments and blank lines only.
        loop {
            match self.bytes.peek() {
                None => {
                    self.io_check()?;
                    return Err(self.error(self.bytes.line, "missing 'p cnf' header"));
                }
                Some(b' ' | b'\t' | b'\r' | b'\n') => self.bytes.bump(),
                Some(b'c') => {
                    let want = bench_header.is_none();
                    if let Some(text) = self.comment(want)? {
                        bench_header = Some(text);
                    }
                }
                Some(b'p') => break,
                Some(b) => {
                    return Err(self.error(
                        self.bytes.line,
                        format!("expected 'c' or 'p' at start of line, found {}", show(b)),
                    ));
                }
            }
        }
        self.declared = self.header()?;
        let cnf = self.clauses()?;
        Ok(Dimacs { cnf, bench_header })
    }

    /// Passes a comment line before the header (the `c` is next) without holding it, but
    /// when `want`, keeps and returns a `c bench` line (without the leading `c `), which
    /// may be at most [`MAX_BENCH_LINE`] bytes.
    fn comment(&mut self, want: bool) -> Result<Option<String>, DimacsError> {
        let line = self.bytes.line;
        let mut head = [0u8; 8];
        let mut seen = 0;
        let mut text: Option<Vec<u8>> = None;
        let mut over = false;
        self.bytes.pass_line(|mut piece| {
            if !want || over {
                return;
            }
            // The first 8 bytes may come in several pieces (a pipe gives what it has).
            if seen < 8 {
                let n = piece.len().min(8 - seen);
                head[seen..seen + n].copy_from_slice(&piece[..n]);
                seen += n;
                piece = &piece[n..];
                if seen == 8 && &head == b"c bench " {
                    text = Some(head.to_vec());
                }
            }
            if let Some(t) = text.as_mut() {
                if t.len() + piece.len() > MAX_BENCH_LINE {
                    over = true;
                } else {
                    t.extend_from_slice(piece);
                }
            }
        });
        if over {
            self.io_check()?;
            return Err(self.error(
                line,
                format!("a `c bench` line longer than {MAX_BENCH_LINE} bytes"),
            ));
        }
        Ok(text.map(|t| {
            let t = String::from_utf8_lossy(&t);
            t.trim_end_matches('\r')[2..].to_string()
        }))
    }

    /// Parses `p cnf VARS CLAUSES` (the `p` is next).
    fn header(&mut self) -> Result<(u32, u64), DimacsError> {
        let line = self.bytes.line;
        let Some(text) = self.bytes.line_within(MAX_HEADER_LINE) else {
            self.io_check()?;
            return Err(self.error(
                line,
                format!("the header line is longer than {MAX_HEADER_LINE} bytes"),
            ));
        };
        let fields: Vec<&str> = text.split_ascii_whitespace().collect();
        let bad = |this: &Self, why: &str| {
            this.error(line, format!("invalid header `{}`: {why}", text.trim()))
        };
        if fields.len() != 4 || fields[0] != "p" || fields[1] != "cnf" {
            return Err(bad(self, "expected 'p cnf VARIABLES CLAUSES'"));
        }
        let vars: u64 = fields[2]
            .parse()
            .map_err(|_| bad(self, "the variable count is not a non-negative integer"))?;
        let clauses: u64 = fields[3]
            .parse()
            .map_err(|_| bad(self, "the clause count is not a non-negative integer"))?;
        if vars > MAX_VARS as u64 {
            return Err(bad(self, &format!("more than {MAX_VARS} variables")));
        }
        Ok((vars as u32, clauses))
    }
}
