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

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;

use super::budget::{Held, MAX_BENCH_LINE, MAX_HEADER_LINE, ReadLimits, XZ_MEMLIMIT};
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

/// Opens a file for reading, decompressing gzip or xz by their magic bytes. The xz
/// decoder may use at most [`XZ_MEMLIMIT`]; a file that needs more fails to read.
pub fn open_maybe_compressed(path: &Path) -> io::Result<Box<dyn BufRead + Send>> {
    let mut file = BufReader::with_capacity(1 << 16, File::open(path)?);
    let magic = file.fill_buf()?;
    if magic.starts_with(&[0x1f, 0x8b]) {
        Ok(Box::new(BufReader::with_capacity(
            1 << 16,
            flate2::bufread::MultiGzDecoder::new(file),
        )))
    } else if magic.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0]) {
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

/// Reads a DIMACS file (plain, gzip or xz) within `limits`.
pub fn read_path_within(
    path: &Path,
    opts: ParseOptions,
    limits: &ReadLimits,
) -> Result<Dimacs, DimacsError> {
    let name = path.display().to_string();
    let input = open_maybe_compressed(path).map_err(|source| DimacsError::Io {
        file: name.clone(),
        source,
    })?;
    parse_within(input, &name, opts, limits)
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

/// A byte reader that counts lines, keeps I/O errors for the caller, and looks at the
/// read's interrupt and deadline at every refill.
struct Bytes<'l, R> {
    input: R,
    buf: Box<[u8]>,
    pos: usize,
    len: usize,
    line: usize,
    error: Option<io::Error>,
    limits: ReadLimits<'l>,
    stopped: Option<&'static str>,
}

impl<'l, R: Read> Bytes<'l, R> {
    fn new(input: R, limits: ReadLimits<'l>) -> Self {
        Bytes {
            input,
            buf: vec![0; 1 << 16].into_boxed_slice(),
            pos: 0,
            len: 0,
            line: 1,
            error: None,
            limits,
            stopped: None,
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
        self.pos = 0;
        self.len = 0;
        if self.error.is_some() || self.stopped.is_some() {
            return;
        }
        if let Some(why) = self.limits.stop() {
            self.stopped = Some(why);
            return;
        }
        loop {
            match self.input.read(&mut self.buf) {
                Ok(n) => {
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

    /// Passes the rest of the line (not its newline), handing each piece to `keep`.
    fn pass_line(&mut self, mut keep: impl FnMut(&[u8])) {
        loop {
            if self.pos == self.len {
                self.refill();
                if self.len == 0 {
                    return;
                }
            }
            let chunk = &self.buf[self.pos..self.len];
            let end = chunk.iter().position(|&b| b == b'\n');
            let piece = &chunk[..end.unwrap_or(chunk.len())];
            keep(piece);
            self.pos += piece.len();
            if end.is_some() {
                return;
            }
        }
    }

    /// Skips to just past the end of the current line.
    fn skip_line(&mut self) {
        self.pass_line(|_| {});
        if self.peek() == Some(b'\n') {
            self.bump();
        }
    }

    /// The rest of the line (without the newline) as text, if it is at most `cap` bytes;
    /// a longer line is passed without being held, and gives None.
    fn line_within(&mut self, cap: usize) -> Option<String> {
        let mut out = Vec::new();
        let mut over = false;
        self.pass_line(|piece| {
            if !over && out.len() + piece.len() <= cap {
                out.extend_from_slice(piece);
            } else {
                over = true;
                out = Vec::new();
            }
        });
        (!over).then(|| {
            String::from_utf8_lossy(&out)
                .trim_end_matches('\r')
                .to_string()
        })
    }
}

struct Parser<'a, 'l, R> {
    bytes: Bytes<'l, R>,
    name: &'a str,
    opts: ParseOptions,
    /// The header's variables and clauses, once read.
    declared: (u32, u64),
}

/// Printable form of a byte for messages.
fn show(b: u8) -> String {
    if b.is_ascii_graphic() {
        format!("'{}'", b as char)
    } else {
        format!("byte 0x{b:02x}")
    }
}

/// The clause arrays as they are read.
struct Arrays {
    lits: Vec<Lit>,
    starts: Vec<usize>,
}

impl Arrays {
    /// The bytes the two arrays hold, by capacity.
    fn bytes(&self) -> u64 {
        (self.lits.capacity() * size_of::<Lit>() + self.starts.capacity() * size_of::<usize>())
            as u64
    }
}

/// Room for one more element in the full `v` within `budget`, where `held` bytes are
/// already held by the other array, and within what `account` (shared with the other
/// reads in progress) has free: the growth doubles when it fits (the old and new arrays
/// counted together), else takes what is left. None when nothing is left or allocation
/// fails.
fn grow<T>(v: &mut Vec<T>, held: usize, budget: Option<u64>, account: &mut Held) -> Option<()> {
    let size = size_of::<T>();
    let cap = v.capacity();
    let mut extra = cap.max(4096 / size);
    if let Some(budget) = budget {
        let budget = usize::try_from(budget).unwrap_or(usize::MAX);
        let fits = budget.saturating_sub(held + cap * size) / size;
        let new_cap = (cap + extra).min(fits);
        if new_cap <= v.len() {
            return None;
        }
        extra = new_cap - cap;
    }
    let old = (cap * size) as u64;
    let granted = account.reserve(old, ((cap + extra) * size) as u64);
    let new_cap = (cap + extra).min(usize::try_from(granted).unwrap_or(usize::MAX) / size);
    if new_cap <= v.len() || v.try_reserve_exact(new_cap - v.len()).is_err() {
        account.not_grown(granted);
        return None;
    }
    account.grown(old, ((v.capacity() * size) as u64).min(granted), granted);
    Some(())
}

impl<R: Read> Parser<'_, '_, R> {
    fn error(&self, line: usize, message: impl Into<String>) -> DimacsError {
        DimacsError::Parse {
            file: self.name.to_string(),
            line,
            message: message.into(),
        }
    }

    /// The error of a read that ended early (I/O failure, interrupt, deadline), if any.
    fn io_check(&mut self) -> Result<(), DimacsError> {
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
    fn too_big(&self, arrays: &Arrays) -> DimacsError {
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

    fn run(mut self) -> Result<Dimacs, DimacsError> {
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
                    let line = self.bytes.line;
                    let mut head = [0u8; 8];
                    let mut seen = 0;
                    let mut text: Option<Vec<u8>> = None;
                    let mut over = false;
                    let want = bench_header.is_none();
                    self.bytes.pass_line(|piece| {
                        if !want || over {
                            return;
                        }
                        if seen < 8 {
                            let n = piece.len().min(8 - seen);
                            head[seen..seen + n].copy_from_slice(&piece[..n]);
                            seen += n;
                            if seen == 8 && &head == b"c bench " {
                                text = Some(Vec::new());
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
                    if let Some(t) = text {
                        let t = String::from_utf8_lossy(&t);
                        bench_header = Some(t.trim_end_matches('\r')[2..].to_string());
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

    /// The clauses after the header.
    fn clauses(&mut self) -> Result<Cnf, DimacsError> {
        let (num_vars, num_clauses) = self.declared;
        let strict = self.opts.strict;
        let budget = self.bytes.limits.budget;
        // Given back to the shared account when the read ends, however it ends.
        let mut account = Held::new(self.bytes.limits.account);
        let mut a = Arrays {
            lits: Vec::new(),
            starts: Vec::new(),
        };
        if grow(&mut a.starts, 0, budget, &mut account).is_none() {
            return Err(self.too_big(&a));
        }
        a.starts.push(0);
        let mut open = false;
        let mut clause_line = 0;
        let mut max_used = 0u32;
        let mut last_line = self.bytes.line.saturating_sub(1).max(1);
        loop {
            // The fast lane: literals and whitespace while the buffer holds a whole token
            // and its end. Anything unusual (a comment, an error, a full array, the end of
            // the buffer) goes to the careful path below, which reads it from the same place.
            {
                let bytes = &mut self.bytes;
                let len = bytes.len;
                let safe = len.saturating_sub(24);
                let buf = &bytes.buf[..len];
                let (mut p, mut line) = (bytes.pos, bytes.line);
                while p < safe {
                    let c = buf[p];
                    match c {
                        b' ' | b'\t' | b'\r' => p += 1,
                        b'\n' => {
                            line += 1;
                            p += 1;
                        }
                        b'0'..=b'9' | b'-' => {
                            let start = p + usize::from(c == b'-');
                            let mut q = start;
                            let mut v: u64 = 0;
                            while q < start + 11 {
                                let d = buf[q].wrapping_sub(b'0');
                                if d > 9 {
                                    break;
                                }
                                v = v * 10 + u64::from(d);
                                q += 1;
                            }
                            if q == start
                                || !matches!(buf[q], b' ' | b'\t' | b'\r' | b'\n')
                                || v > u64::from(MAX_VARS)
                            {
                                break;
                            }
                            let var = v as u32;
                            if var == 0 {
                                if (strict && (a.starts.len() - 1) as u64 >= num_clauses)
                                    || a.starts.len() == a.starts.capacity()
                                {
                                    break;
                                }
                                a.starts.push(a.lits.len());
                                open = false;
                            } else {
                                if (strict && var > num_vars) || a.lits.len() == a.lits.capacity() {
                                    break;
                                }
                                if !open {
                                    clause_line = line;
                                    open = true;
                                }
                                max_used = max_used.max(var);
                                a.lits
                                    .push(Lit::from_code(((var - 1) << 1) | u32::from(c == b'-')));
                            }
                            last_line = line;
                            p = q;
                        }
                        _ => break,
                    }
                }
                bytes.pos = p;
                bytes.line = line;
            }
            // Whitespace, in the buffer.
            let b = {
                let bytes = &mut self.bytes;
                let (mut p, len) = (bytes.pos, bytes.len);
                let mut newlines = 0;
                while p < len {
                    match bytes.buf[p] {
                        b' ' | b'\t' | b'\r' => p += 1,
                        b'\n' => {
                            newlines += 1;
                            p += 1;
                        }
                        _ => break,
                    }
                }
                bytes.pos = p;
                bytes.line += newlines;
                if p == len {
                    match bytes.peek() {
                        Some(_) => continue,
                        None => break,
                    }
                }
                bytes.buf[p]
            };
            match b {
                b'-' | b'0'..=b'9' => {
                    let line = self.bytes.line;
                    last_line = line;
                    let n = self.integer()?;
                    if n == 0 {
                        if strict && (a.starts.len() - 1) as u64 >= num_clauses {
                            return Err(self.error(
                                line,
                                format!("more clauses than the header's {num_clauses}"),
                            ));
                        }
                        if a.starts.len() == a.starts.capacity() {
                            let held = a.lits.capacity() * size_of::<Lit>();
                            if grow(&mut a.starts, held, budget, &mut account).is_none() {
                                return Err(self.too_big(&a));
                            }
                        }
                        a.starts.push(a.lits.len());
                        open = false;
                    } else {
                        let var = n.unsigned_abs() as u32;
                        if var > num_vars && strict {
                            return Err(self.error(
                                line,
                                format!("literal {n} exceeds the header's {num_vars} variables"),
                            ));
                        }
                        max_used = max_used.max(var);
                        if !open {
                            clause_line = line;
                            open = true;
                        }
                        if a.lits.len() == a.lits.capacity() {
                            let held = a.starts.capacity() * size_of::<usize>();
                            if grow(&mut a.lits, held, budget, &mut account).is_none() {
                                return Err(self.too_big(&a));
                            }
                        }
                        a.lits
                            .push(Lit::from_code(((var - 1) << 1) | u32::from(n < 0)));
                    }
                }
                b'c' => self.bytes.skip_line(),
                b'%' => break, // SATLIB end marker: the rest of the file is not formula
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
        if open {
            return Err(self.error(clause_line, "the last clause has no terminating 0"));
        }
        let found = a.starts.len() - 1;
        if strict && found as u64 != num_clauses {
            return Err(self.error(
                last_line,
                format!("found {found} clauses, but the header says {num_clauses}"),
            ));
        }
        let Arrays {
            mut lits,
            mut starts,
        } = a;
        lits.shrink_to_fit();
        starts.shrink_to_fit();
        Ok(Cnf::from_parts(num_vars, lits, starts, max_used))
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

    /// Parses an integer token (the next byte is `-` or a digit); it must end at
    /// whitespace or the end of input, and lie within ±[`MAX_VARS`].
    #[inline]
    fn integer(&mut self) -> Result<i64, DimacsError> {
        // Fast path: the whole token and the byte after it are in the buffer.
        {
            let bytes = &mut self.bytes;
            let buf = &bytes.buf[..bytes.len];
            let mut p = bytes.pos;
            let negative = buf[p] == b'-';
            p += usize::from(negative);
            let start = p;
            let mut value: u64 = 0;
            while p < buf.len() && p - start < 11 {
                let d = buf[p].wrapping_sub(b'0');
                if d > 9 {
                    break;
                }
                value = value * 10 + u64::from(d);
                p += 1;
            }
            if p > start
                && p < buf.len()
                && matches!(buf[p], b' ' | b'\t' | b'\r' | b'\n')
                && value <= u64::from(MAX_VARS)
            {
                bytes.pos = p;
                return Ok(if negative {
                    -(value as i64)
                } else {
                    value as i64
                });
            }
        }
        self.integer_slow()
    }

    /// [`Parser::integer`] byte by byte, across refills, with the error messages.
    #[cold]
    fn integer_slow(&mut self) -> Result<i64, DimacsError> {
        let line = self.bytes.line;
        let negative = self.bytes.peek() == Some(b'-');
        if negative {
            self.bytes.bump();
        }
        let mut value: u64 = 0;
        let mut digits = 0;
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
    use crate::cnf::budget::ReadLimits;

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
    fn the_budget_bounds_the_clause_arrays() {
        let text = "p cnf 3 100000\n".to_string() + &"1 -2 3 0\n".repeat(100_000);
        let small = ReadLimits {
            budget: Some(1 << 20),
            account: None,
            interrupt: None,
            deadline: None,
        };
        let e =
            parse_within(text.as_bytes(), "b.cnf", ParseOptions::default(), &small).unwrap_err();
        assert!(matches!(e, DimacsError::TooBig { .. }), "{e}");
        assert!(e.to_string().starts_with("b.cnf:"), "{e}");
        assert!(e.to_string().contains("1 MiB"), "{e}");
        // 300,000 literals and 100,001 starts: 2 MB at their lengths, within 4 MiB.
        let enough = ReadLimits {
            budget: Some(4 << 20),
            account: None,
            ..small
        };
        let d = parse_within(text.as_bytes(), "b.cnf", ParseOptions::default(), &enough).unwrap();
        assert_eq!(d.cnf.num_clauses(), 100_000);
        assert!(d.cnf.heap_bytes() <= 4 << 20);
        // One clause as long as the whole budget allows, and no longer.
        let long = format!("p cnf 1 1\n{}0\n", "1 ".repeat(300_000));
        let e =
            parse_within(long.as_bytes(), "l.cnf", ParseOptions::default(), &small).unwrap_err();
        assert!(matches!(e, DimacsError::TooBig { .. }), "{e}");
    }

    /// Hands out its bytes a few at a time, so that tokens straddle every refill.
    struct Dribble<'a>(&'a [u8], usize);

    impl Read for Dribble<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = self.1.min(out.len()).min(self.0.len());
            out[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn the_fast_lane_and_the_careful_path_read_alike() {
        let mut text = String::from("c x\np cnf 3000 20000\n");
        for i in 0..20_000u32 {
            let a = i % 3000 + 1;
            let b = (i * 7) % 3000 + 1;
            text += &format!("{a} -{b}  {}\t0\r\n", (i * 13) % 3000 + 1);
            if i % 1000 == 0 {
                text += "c note 1 2 3\n";
            }
        }
        let whole = read(&text).unwrap().cnf;
        assert_eq!(whole.num_clauses(), 20_000);
        for size in [1, 5, 23, 4096] {
            let d = parse(
                Dribble(text.as_bytes(), size),
                "t.cnf",
                ParseOptions::default(),
            )
            .unwrap();
            assert_eq!(d.cnf, whole);
        }
        // Errors are found at the same line either way.
        let bad = text.replacen("c note", "x note", 1);
        let expected = "t.cnf:4: expected a literal, found 'x' (`x`)";
        assert_eq!(err(&bad), expected);
        let dribbled = parse(Dribble(bad.as_bytes(), 3), "t.cnf", ParseOptions::default());
        assert_eq!(dribbled.unwrap_err().to_string(), expected);
    }

    #[test]
    fn reads_in_progress_share_one_account() {
        use crate::cnf::budget::{Account, Held};
        let text = "p cnf 3 100000\n".to_string() + &"1 -2 3 0\n".repeat(100_000);
        let account = Account::new(4 << 20);
        let limits = ReadLimits {
            budget: Some(account.limit()),
            account: Some(&account),
            interrupt: None,
            deadline: None,
        };
        // Alone, the read fits the account, and gives back all it held.
        let d = parse_within(text.as_bytes(), "b.cnf", ParseOptions::default(), &limits).unwrap();
        assert_eq!(d.cnf.num_clauses(), 100_000);
        assert_eq!(account.reserved(), 0);
        // Beside another read holding 3 MiB of it, the same formula does not.
        let mut other = Held::new(Some(&account));
        assert_eq!(other.reserve(0, 3 << 20), 3 << 20);
        other.grown(0, 3 << 20, 3 << 20);
        let e =
            parse_within(text.as_bytes(), "b.cnf", ParseOptions::default(), &limits).unwrap_err();
        assert!(matches!(e, DimacsError::TooBig { .. }), "{e}");
        assert!(
            e.to_string().contains("3 MiB of it held by the others"),
            "{e}"
        );
        assert_eq!(account.reserved(), 3 << 20);
        drop(other);
        assert_eq!(account.reserved(), 0);
    }

    #[test]
    fn an_interrupt_or_a_deadline_stops_the_read() {
        let text = "p cnf 1 1\n1 0\n";
        let stop = std::sync::atomic::AtomicBool::new(true);
        let limits = ReadLimits {
            budget: None,
            account: None,
            interrupt: Some(&stop),
            deadline: None,
        };
        let e =
            parse_within(text.as_bytes(), "i.cnf", ParseOptions::default(), &limits).unwrap_err();
        assert_eq!(e.to_string(), "i.cnf:1: reading stopped: interrupted");
        let limits = ReadLimits {
            interrupt: None,
            deadline: Some(std::time::Instant::now()),
            ..limits
        };
        let e =
            parse_within(text.as_bytes(), "d.cnf", ParseOptions::default(), &limits).unwrap_err();
        assert!(matches!(e, DimacsError::Stopped { .. }), "{e}");
    }

    #[test]
    fn comments_and_headers_are_not_held() {
        let mut text = b"c ".to_vec();
        text.extend(std::iter::repeat_n(b'x', 3 << 20));
        text.extend_from_slice(b"\nc bench kind=x\np cnf 1 1\n1 0\n");
        let d = parse(&text[..], "c.cnf", ParseOptions::default()).unwrap();
        assert_eq!(d.bench_header.as_deref(), Some("bench kind=x"));
        let mut text = b"p cnf 1 1".to_vec();
        text.extend(std::iter::repeat_n(b' ', 2000));
        text.extend_from_slice(b"\n1 0\n");
        assert_eq!(
            parse(&text[..], "h.cnf", ParseOptions::default())
                .unwrap_err()
                .to_string(),
            "h.cnf:1: the header line is longer than 1024 bytes"
        );
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
