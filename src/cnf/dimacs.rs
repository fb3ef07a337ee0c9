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
//! gzip and xz input is recognised by its magic bytes. Nothing is allocated from the
//! header's claims: clauses grow as they are read.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;

use super::{ClauseSink, Cnf, Lit, MAX_VARS};

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

/// True if `path` is DIMACS by its name ([`is_dimacs_name`]) or by its first bytes: gzip
/// or xz magic, a `p cnf` header, or a `c ` comment. The one answer to "is this a DIMACS
/// file" for every command.
pub fn looks_like_dimacs(path: &Path) -> bool {
    if is_dimacs_name(path) {
        return true;
    }
    let Ok(mut file) = File::open(path) else {
        return false;
    };
    let mut head = [0u8; 6];
    let n = file.read(&mut head).unwrap_or(0);
    let head = &head[..n];
    head.starts_with(&[0x1f, 0x8b])
        || head.starts_with(&[0xfd, b'7', b'z'])
        || head.starts_with(b"p cnf")
        || head.starts_with(b"c ")
}

/// Opens a file for reading, decompressing gzip or xz by their magic bytes.
pub fn open_maybe_compressed(path: &Path) -> io::Result<Box<dyn BufRead + Send>> {
    let mut file = BufReader::with_capacity(1 << 16, File::open(path)?);
    let magic = file.fill_buf()?;
    if magic.starts_with(&[0x1f, 0x8b]) {
        Ok(Box::new(BufReader::with_capacity(
            1 << 16,
            flate2::bufread::MultiGzDecoder::new(file),
        )))
    } else if magic.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0]) {
        Ok(Box::new(BufReader::with_capacity(
            1 << 16,
            xz2::bufread::XzDecoder::new_multi_decoder(file),
        )))
    } else {
        Ok(Box::new(file))
    }
}

/// Reads a DIMACS file (plain, gzip or xz).
pub fn read_path(path: &Path, opts: ParseOptions) -> Result<Dimacs, DimacsError> {
    let name = path.display().to_string();
    let input = open_maybe_compressed(path).map_err(|source| DimacsError::Io {
        file: name.clone(),
        source,
    })?;
    parse(input, &name, opts)
}

/// Reads DIMACS from any reader; `name` names the source in errors.
pub fn parse<R: Read>(input: R, name: &str, opts: ParseOptions) -> Result<Dimacs, DimacsError> {
    Parser {
        bytes: Bytes::new(input),
        name,
        opts,
    }
    .run()
}

/// A byte reader that counts lines and keeps I/O errors for the caller.
struct Bytes<R> {
    input: R,
    buf: Box<[u8]>,
    pos: usize,
    len: usize,
    line: usize,
    error: Option<io::Error>,
}

impl<R: Read> Bytes<R> {
    fn new(input: R) -> Self {
        Bytes {
            input,
            buf: vec![0; 1 << 16].into_boxed_slice(),
            pos: 0,
            len: 0,
            line: 1,
            error: None,
        }
    }

    #[inline]
    fn peek(&mut self) -> Option<u8> {
        if self.pos == self.len {
            self.refill();
            if self.pos == self.len {
                return None;
            }
        }
        Some(self.buf[self.pos])
    }

    #[inline]
    fn bump(&mut self) {
        if self.buf[self.pos] == b'\n' {
            self.line += 1;
        }
        self.pos += 1;
    }

    #[cold]
    fn refill(&mut self) {
        if self.error.is_some() {
            return;
        }
        loop {
            match self.input.read(&mut self.buf) {
                Ok(n) => {
                    self.pos = 0;
                    self.len = n;
                    return;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.error = Some(e);
                    return;
                }
            }
        }
    }

    /// Skips to just past the end of the current line.
    fn skip_line(&mut self) {
        while let Some(b) = self.peek() {
            self.bump();
            if b == b'\n' {
                break;
            }
        }
    }

    /// Reads the rest of the line (without the newline) as text.
    fn rest_of_line(&mut self) -> String {
        let mut out = Vec::new();
        while let Some(b) = self.peek() {
            if b == b'\n' {
                break;
            }
            out.push(b);
            self.bump();
        }
        String::from_utf8_lossy(&out)
            .trim_end_matches('\r')
            .to_string()
    }
}

struct Parser<'a, R> {
    bytes: Bytes<R>,
    name: &'a str,
    opts: ParseOptions,
}

/// Printable form of a byte for messages.
fn show(b: u8) -> String {
    if b.is_ascii_graphic() {
        format!("'{}'", b as char)
    } else {
        format!("byte 0x{b:02x}")
    }
}

impl<R: Read> Parser<'_, R> {
    fn error(&self, line: usize, message: impl Into<String>) -> DimacsError {
        DimacsError::Parse {
            file: self.name.to_string(),
            line,
            message: message.into(),
        }
    }

    fn io_check(&mut self) -> Result<(), DimacsError> {
        match self.bytes.error.take() {
            Some(source) => Err(DimacsError::Io {
                file: self.name.to_string(),
                source,
            }),
            None => Ok(()),
        }
    }

    fn run(mut self) -> Result<Dimacs, DimacsError> {
        let mut bench_header = None;
        // Before the header: comments and blank lines only.
        let (num_vars, num_clauses) = loop {
            match self.bytes.peek() {
                None => {
                    self.io_check()?;
                    return Err(self.error(self.bytes.line, "missing 'p cnf' header"));
                }
                Some(b' ' | b'\t' | b'\r' | b'\n') => self.bytes.bump(),
                Some(b'c') => {
                    let text = self.bytes.rest_of_line();
                    if bench_header.is_none() && text.starts_with("c bench ") {
                        bench_header = Some(text[2..].to_string());
                    }
                }
                Some(b'p') => break self.header()?,
                Some(b) => {
                    return Err(self.error(
                        self.bytes.line,
                        format!("expected 'c' or 'p' at start of line, found {}", show(b)),
                    ));
                }
            }
        };
        let mut cnf = Cnf::new(num_vars);
        let mut clause: Vec<Lit> = Vec::new();
        let mut clause_line = 0;
        let mut max_var = num_vars;
        let mut last_line = self.bytes.line.saturating_sub(1).max(1);
        while let Some(b) = self.bytes.peek() {
            match b {
                b' ' | b'\t' | b'\r' | b'\n' => self.bytes.bump(),
                b'c' => self.bytes.skip_line(),
                b'%' => break, // SATLIB end marker: the rest of the file is not formula
                b'-' | b'0'..=b'9' => {
                    let line = self.bytes.line;
                    last_line = line;
                    let n = self.integer()?;
                    if n == 0 {
                        if self.opts.strict && cnf.num_clauses() as u64 >= num_clauses {
                            return Err(self.error(
                                line,
                                format!("more clauses than the header's {num_clauses}"),
                            ));
                        }
                        cnf.add_clause(&clause);
                        clause.clear();
                    } else {
                        let var = n.unsigned_abs();
                        if var > max_var as u64 {
                            if self.opts.strict || var > MAX_VARS as u64 {
                                return Err(self.error(
                                    line,
                                    format!(
                                        "literal {n} exceeds the header's {num_vars} variables"
                                    ),
                                ));
                            }
                            max_var = var as u32;
                        }
                        if clause.is_empty() {
                            clause_line = line;
                        }
                        clause.push(Lit::from_dimacs(n as i32));
                    }
                }
                b'p' => return Err(self.error(self.bytes.line, "a second 'p' header")),
                other => {
                    let line = self.bytes.line;
                    let token = self.token();
                    return Err(self.error(
                        line,
                        format!("expected a literal, found {} (`{token}`)", show(other)),
                    ));
                }
            }
        }
        self.io_check()?;
        if !clause.is_empty() {
            return Err(self.error(clause_line, "the last clause has no terminating 0"));
        }
        if self.opts.strict && cnf.num_clauses() as u64 != num_clauses {
            return Err(self.error(
                last_line,
                format!(
                    "found {} clauses, but the header says {num_clauses}",
                    cnf.num_clauses()
                ),
            ));
        }
        cnf.ensure_vars(max_var);
        Ok(Dimacs { cnf, bench_header })
    }

    /// The next whitespace-delimited token, for messages.
    fn token(&mut self) -> String {
        let mut out = Vec::new();
        while let Some(b) = self.bytes.peek() {
            if b.is_ascii_whitespace() || out.len() > 40 {
                break;
            }
            out.push(b);
            self.bytes.bump();
        }
        String::from_utf8_lossy(&out).into_owned()
    }

    /// Parses an integer token; it must end at whitespace or the end of input.
    fn integer(&mut self) -> Result<i64, DimacsError> {
        let line = self.bytes.line;
        let negative = self.bytes.peek() == Some(b'-');
        if negative {
            self.bytes.bump();
        }
        let mut value: u64 = 0;
        let mut digits = 0;
        // Fast path: the digits end inside the buffer (digits are never newlines, so the
        // line count is unaffected). The slow loop below handles tokens across refills.
        {
            let bytes = &mut self.bytes;
            let buf = &bytes.buf[bytes.pos..bytes.len];
            let run = buf.iter().take_while(|b| b.is_ascii_digit()).count();
            if run < buf.len() && run <= 18 {
                for &b in &buf[..run] {
                    value = value * 10 + (b - b'0') as u64;
                }
                digits = run;
                bytes.pos += run;
            }
        }
        while let Some(b) = self.bytes.peek() {
            match b {
                b'0'..=b'9' => {
                    value = value.saturating_mul(10).saturating_add((b - b'0') as u64);
                    digits += 1;
                    self.bytes.bump();
                }
                b' ' | b'\t' | b'\r' | b'\n' => break,
                _ => {
                    let rest = self.token();
                    return Err(self.error(
                        line,
                        format!(
                            "`{}{}{rest}` is not an integer",
                            if negative { "-" } else { "" },
                            value_prefix(digits, value)
                        ),
                    ));
                }
            }
        }
        if digits == 0 {
            return Err(self.error(line, "`-` is not an integer"));
        }
        if value > MAX_VARS as u64 {
            return Err(self.error(
                line,
                format!(
                    "literal {}{value} is too large",
                    if negative { "-" } else { "" }
                ),
            ));
        }
        Ok(if negative {
            -(value as i64)
        } else {
            value as i64
        })
    }

    /// Parses `p cnf VARS CLAUSES` (the `p` is next).
    fn header(&mut self) -> Result<(u32, u64), DimacsError> {
        let line = self.bytes.line;
        let text = self.bytes.rest_of_line();
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

fn value_prefix(digits: usize, value: u64) -> String {
    if digits == 0 {
        String::new()
    } else {
        value.to_string()
    }
}

/// Streams clauses to DIMACS text. Write the header first ([`DimacsWriter::new`]), then
/// every clause through [`ClauseSink::add_clause`], then call [`DimacsWriter::finish`],
/// which reports the first I/O error (a full disk) and a clause count that disagrees with
/// the header.
pub struct DimacsWriter<W: Write> {
    out: io::BufWriter<W>,
    expected: u64,
    written: u64,
    error: Option<io::Error>,
    line: Vec<u8>,
}

impl<W: Write> DimacsWriter<W> {
    /// Writes the comment lines (each without its `c `) and the header.
    pub fn new(out: W, comments: &[String], num_vars: u32, num_clauses: u64) -> io::Result<Self> {
        let mut out = io::BufWriter::with_capacity(1 << 16, out);
        for c in comments {
            for line in c.lines() {
                writeln!(out, "c {line}")?;
            }
        }
        writeln!(out, "p cnf {num_vars} {num_clauses}")?;
        Ok(DimacsWriter {
            out,
            expected: num_clauses,
            written: 0,
            error: None,
            line: Vec::with_capacity(256),
        })
    }

    /// Flushes, and reports the first error met while writing.
    pub fn finish(mut self) -> io::Result<W> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        if self.written != self.expected {
            return Err(io::Error::other(format!(
                "wrote {} clauses but the header says {}",
                self.written, self.expected
            )));
        }
        self.out.into_inner().map_err(|e| e.into_error())
    }
}

impl<W: Write> ClauseSink for DimacsWriter<W> {
    fn add_clause(&mut self, lits: &[Lit]) {
        if self.error.is_some() {
            return;
        }
        self.written += 1;
        let mut buf = itoa::Buffer::new();
        self.line.clear();
        for l in lits {
            self.line
                .extend_from_slice(buf.format(l.dimacs()).as_bytes());
            self.line.push(b' ');
        }
        self.line.extend_from_slice(b"0\n");
        if let Err(e) = self.out.write_all(&self.line) {
            self.error = Some(e);
        }
    }
}

/// Writes a whole in-memory formula.
pub fn write_cnf<W: Write>(out: W, cnf: &Cnf, comments: &[String]) -> io::Result<W> {
    let mut w = DimacsWriter::new(out, comments, cnf.num_vars(), cnf.num_clauses() as u64)?;
    for c in cnf.clauses() {
        w.add_clause(c);
    }
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Dimacs, DimacsError> {
        parse(text.as_bytes(), "t.cnf", ParseOptions::default())
    }

    fn err(text: &str) -> String {
        read(text).unwrap_err().to_string()
    }

    #[test]
    fn reads_the_usual_and_the_unusual() {
        let d = read("c hi\nc bench kind=sudoku\np cnf 3 2\n1 -2\n c mid\n 3 0 -1 0\n").unwrap();
        assert_eq!(
            d.cnf,
            Cnf::from_dimacs_clauses(3, &[vec![1, -2, 3], vec![-1]])
        );
        assert_eq!(d.bench_header.as_deref(), Some("bench kind=sudoku"));
        let d = read("p cnf 2 1\r\n1 2 0\r\n%\r\n0\r\n").unwrap();
        assert_eq!(d.cnf.num_clauses(), 1);
        let d = read("p  cnf  5  0\n").unwrap();
        assert_eq!(d.cnf.num_vars(), 5);
        let d = read("p cnf 1 1\n0\n").unwrap();
        assert_eq!(d.cnf.clause(0).len(), 0);
    }

    #[test]
    fn strict_errors_name_the_line() {
        assert_eq!(
            err("p cnf 2 1\n1 3 0\n"),
            "t.cnf:2: literal 3 exceeds the header's 2 variables"
        );
        assert_eq!(
            err("p cnf 2 2\n1 2 0\n"),
            "t.cnf:2: found 1 clauses, but the header says 2"
        );
        assert_eq!(
            err("p cnf 2 1\n1 2 0\n-1 0\n"),
            "t.cnf:3: more clauses than the header's 1"
        );
        assert_eq!(
            err("p cnf 2 1\n\n1 2\n"),
            "t.cnf:3: the last clause has no terminating 0"
        );
        assert_eq!(
            err("p cnf 2 1\n1 x2 0\n"),
            "t.cnf:2: expected a literal, found 'x' (`x2`)"
        );
        assert_eq!(
            err("p cnf 2 1\n1 2a 0\n"),
            "t.cnf:2: `2a` is not an integer"
        );
        assert!(err("p cnf x 1\n").starts_with("t.cnf:1: invalid header"));
        assert!(err("1 2 0\n").starts_with("t.cnf:1: expected 'c' or 'p'"));
        assert_eq!(err("c only\n"), "t.cnf:2: missing 'p cnf' header");
        assert!(err("p cnf 2147483648 1\n").contains("invalid header"));
        assert!(err("p cnf 2 1\n99999999999999999999 0\n").contains("too large"));
    }

    #[test]
    fn lenient_mode_grows() {
        let d = parse(
            "p cnf 1 5\n1 2 0\n".as_bytes(),
            "t",
            ParseOptions { strict: false },
        )
        .unwrap();
        assert_eq!(d.cnf.num_vars(), 2);
    }

    #[test]
    fn huge_header_allocates_nothing() {
        // 2^31-2 variables, 2^63 clauses claimed: fine to read as long as the body is short.
        let d = parse(
            "p cnf 2147483646 1\n1 0\n".as_bytes(),
            "t",
            ParseOptions { strict: true },
        )
        .unwrap();
        assert_eq!(d.cnf.num_clauses(), 1);
    }

    #[test]
    fn write_then_read() {
        let cnf = Cnf::from_dimacs_clauses(4, &[vec![1, -2], vec![3, 4, -1], vec![]]);
        let bytes = write_cnf(Vec::new(), &cnf, &["bench kind=x".into()]).unwrap();
        let d = read(std::str::from_utf8(&bytes).unwrap()).unwrap();
        assert_eq!(d.cnf, cnf);
        assert_eq!(d.bench_header.as_deref(), Some("bench kind=x"));
    }
}
