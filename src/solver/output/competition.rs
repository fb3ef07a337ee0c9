//! The SAT-competition format (`s` and `v` lines, as kissat, cadical, picosat,
//! cryptominisat, glucose and `bench solve` print) read as it arrives, in chunks of any
//! size.

use crate::cnf::Model;

use super::model_sink::MAX_TOKEN;
use super::{AnswerStream, Claim, ModelBounds, OutputError, literal};

/// Where the competition reader is in a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum At {
    /// At the start of a line.
    Start,
    /// After a `v` at the start of a line.
    V,
    /// In the literals of a `v` line.
    Literals,
    /// In an `s` line (kept to be read at its end).
    S,
    /// In any other line.
    Other,
}

/// The longest `s` line read (longer ones are cut: no result word is that long).
const MAX_S_LINE: usize = 1024;

/// The SAT-competition format read as it arrives, in chunks of any size: the `v` literals
/// go straight into the model (checked against [`ModelBounds`] and for consistency as they
/// come; no copy of their text is kept), the other lines are kept up to a cap for messages.
/// A model of any size is read in memory proportional to its variables, never to its text.
pub struct CompetitionStream {
    bounds: ModelBounds,
    cap: usize,
    kept: Vec<u8>,
    total: u64,
    line: usize,
    at: At,
    s_line: Vec<u8>,
    token: Vec<u8>,
    status: Option<(usize, String)>,
    /// The first error that makes the output unreadable.
    fault: Option<OutputError>,
    /// The first literal beyond the formula, kept until the `s` line says what for.
    model_fault: Option<OutputError>,
    /// The first variable set both ways.
    inconsistent: Option<u32>,
    model: Model,
    saw_v: bool,
    terminated: bool,
}

impl CompetitionStream {
    /// A reader for models within `bounds`, keeping up to `cap` bytes of the other lines.
    pub fn new(bounds: ModelBounds, cap: usize) -> CompetitionStream {
        CompetitionStream {
            bounds,
            cap,
            kept: Vec::new(),
            total: 0,
            line: 1,
            at: At::Start,
            s_line: Vec::new(),
            token: Vec::new(),
            status: None,
            fault: None,
            model_fault: None,
            inconsistent: None,
            model: Model::new(),
            saw_v: false,
            terminated: false,
        }
    }

    fn keep(&mut self, bytes: &[u8]) {
        let room = self.cap.saturating_sub(self.kept.len());
        self.kept.extend_from_slice(&bytes[..bytes.len().min(room)]);
    }

    /// Reads the next chunk.
    pub fn feed(&mut self, chunk: &[u8]) {
        self.total += chunk.len() as u64;
        let mut i = 0;
        while i < chunk.len() {
            match self.at {
                At::Start => {
                    self.at = match chunk[i] {
                        b'v' => At::V,
                        b's' => At::S,
                        _ => At::Other,
                    };
                    if self.at == At::V {
                        i += 1;
                    }
                }
                At::V => {
                    if matches!(chunk[i], b' ' | b'\t' | b'\r' | b'\n') {
                        self.saw_v = true;
                        self.at = At::Literals;
                    } else {
                        self.keep(b"v");
                        self.at = At::Other;
                    }
                }
                At::Literals => {
                    let rest = &chunk[i..];
                    let end = rest
                        .iter()
                        .position(|&b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
                        .unwrap_or(rest.len());
                    if self.token.len() + end <= MAX_TOKEN {
                        self.token.extend_from_slice(&rest[..end]);
                    } else if self.token.len() <= MAX_TOKEN {
                        let take = MAX_TOKEN + 1 - self.token.len();
                        self.token.extend_from_slice(&rest[..take.min(end)]);
                    }
                    i += end;
                    if i < chunk.len() {
                        self.end_token();
                        if chunk[i] == b'\n' {
                            self.line += 1;
                            self.at = At::Start;
                        }
                        i += 1;
                    }
                }
                At::S | At::Other => {
                    let rest = &chunk[i..];
                    let end = rest.iter().position(|&b| b == b'\n');
                    let piece = &rest[..end.unwrap_or(rest.len())];
                    if self.at == At::S {
                        let room = MAX_S_LINE.saturating_sub(self.s_line.len());
                        self.s_line
                            .extend_from_slice(&piece[..piece.len().min(room)]);
                    }
                    self.keep(piece);
                    i += piece.len();
                    if end.is_some() {
                        self.keep(b"\n");
                        if self.at == At::S {
                            self.end_s_line();
                        }
                        self.line += 1;
                        self.at = At::Start;
                        i += 1;
                    }
                }
            }
        }
    }

    fn set_fault(&mut self, e: OutputError) {
        self.fault.get_or_insert(e);
    }

    fn end_token(&mut self) {
        if self.token.is_empty() {
            return;
        }
        let token = String::from_utf8_lossy(&self.token).into_owned();
        self.token.clear();
        let line = self.line;
        let n: i64 = match token.parse() {
            Ok(n) if token.len() <= MAX_TOKEN => n,
            _ => return self.set_fault(OutputError::BadLiteral { line, token }),
        };
        if self.terminated {
            return self.set_fault(OutputError::BadLiteral { line, token });
        }
        if n == 0 {
            self.terminated = true;
            return;
        }
        match literal(n, line, &token, self.bounds.max_var) {
            Ok(l) => {
                if l.var().dimacs() > self.bounds.keep {
                    return;
                }
                if self.model.lit_value(!l) == Some(true) {
                    self.inconsistent.get_or_insert(l.var().dimacs());
                }
                self.model.set(l);
            }
            Err(e) => {
                self.model_fault.get_or_insert(e);
            }
        }
    }

    fn end_s_line(&mut self) {
        let text = String::from_utf8_lossy(&self.s_line).into_owned();
        self.s_line.clear();
        let word = text
            .strip_prefix("s ")
            .map(|r| r.trim_end_matches('\r').trim().to_string());
        let Some(word) = word else { return };
        match &self.status {
            Some((_, previous)) if *previous != word => {
                let line = self.line;
                self.set_fault(OutputError::Conflicting { line });
            }
            Some(_) => {}
            None => self.status = Some((self.line, word)),
        }
    }

    /// The claim, the kept text of the other lines, and the total length read.
    pub fn finish(mut self) -> (Result<Claim, OutputError>, Vec<u8>, u64) {
        match self.at {
            At::V => self.saw_v = true,
            At::Literals => self.end_token(),
            At::S => self.end_s_line(),
            At::Start | At::Other => {}
        }
        let claim = self.claim();
        (claim, self.kept, self.total)
    }

    fn claim(&mut self) -> Result<Claim, OutputError> {
        if let Some(fault) = self.fault.take() {
            return Err(fault);
        }
        let (line_no, word) = self.status.take().ok_or(OutputError::NoResult)?;
        if let Some(fault) = self.model_fault.take()
            && word != "UNSATISFIABLE"
        {
            return Err(fault);
        }
        match word.as_str() {
            "SATISFIABLE" => {
                if !self.saw_v {
                    return Err(OutputError::Mismatch("`s SATISFIABLE` with no `v` lines"));
                }
                if let Some(var) = self.inconsistent {
                    return Err(OutputError::Inconsistent { var });
                }
                Ok(Claim::Sat(std::mem::take(&mut self.model)))
            }
            "UNSATISFIABLE" if self.saw_v => {
                Err(OutputError::Mismatch("`s UNSATISFIABLE` with `v` lines"))
            }
            "UNSATISFIABLE" => Ok(Claim::Unsat),
            "UNKNOWN" | "INDETERMINATE" => Ok(Claim::Unknown(word)),
            other => Err(OutputError::UnknownResult {
                line: line_no,
                text: other.to_string(),
            }),
        }
    }
}

impl AnswerStream for CompetitionStream {
    fn feed(&mut self, chunk: &[u8]) {
        CompetitionStream::feed(self, chunk);
    }

    fn finish(self: Box<Self>) -> (Result<Claim, OutputError>, Vec<u8>, u64) {
        CompetitionStream::finish(*self)
    }
}
