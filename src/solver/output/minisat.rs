//! minisat's result file (`{res}`) read as it arrives, in chunks of any size: `SAT` and a
//! line of literals ending in 0, `UNSAT` or `INDET`. The literals go straight into the
//! model (see [`ModelSink`]); no copy of the file is kept, so a model of any size is read
//! in memory proportional to its variables, and a garbage file costs only its reading.

use super::model_sink::ModelSink;
use super::{AnswerStream, Claim, ModelBounds, OutputError};

/// The longest first line kept (longer ones are no result word).
const MAX_WORD: usize = 1024;

/// Where the reader is.
enum At {
    /// Before the first line that is not blank: its text so far.
    Word,
    /// In the literals after `SAT`.
    Literals,
    /// After `UNSAT`, `INDET` or an unknown word: the rest does not matter.
    Decided(Result<Claim, OutputError>),
}

/// The result file, read as it arrives.
pub struct MinisatStream {
    sink: ModelSink,
    at: At,
    word: Vec<u8>,
    line: usize,
    terminated: bool,
    total: u64,
}

impl MinisatStream {
    /// A reader for models within `bounds`.
    pub fn new(bounds: ModelBounds) -> MinisatStream {
        MinisatStream {
            sink: ModelSink::new(bounds),
            at: At::Word,
            word: Vec::new(),
            line: 1,
            terminated: false,
            total: 0,
        }
    }

    /// The first line that is not blank, read: what it says.
    fn decide(&mut self) {
        let text = String::from_utf8_lossy(&self.word).trim().to_string();
        self.word.clear();
        self.at = match text.as_str() {
            "" => At::Word,
            "SAT" => At::Literals,
            "UNSAT" => At::Decided(Ok(Claim::Unsat)),
            "INDET" => At::Decided(Ok(Claim::Unknown("INDET".into()))),
            _ => At::Decided(Err(OutputError::UnknownResult {
                line: self.line,
                text,
            })),
        };
    }

    fn end_token(&mut self) {
        if self.sink.token().is_empty() {
            return;
        }
        let line = self.line;
        let token = self.sink.take_token();
        if self.terminated {
            self.sink.fault(OutputError::BadLiteral { line, token });
        } else if token.len() <= super::model_sink::MAX_TOKEN && token.parse::<i64>() == Ok(0) {
            self.terminated = true;
        } else {
            self.sink.literal(&token, line);
        }
    }
}

impl AnswerStream for MinisatStream {
    fn feed(&mut self, chunk: &[u8]) {
        self.total += chunk.len() as u64;
        for &b in chunk {
            match self.at {
                At::Decided(_) => return,
                At::Word if b == b'\n' => {
                    self.decide();
                    self.line += 1;
                }
                At::Word => {
                    if self.word.len() < MAX_WORD {
                        self.word.push(b);
                    }
                }
                At::Literals if b.is_ascii_whitespace() => {
                    self.end_token();
                    if b == b'\n' {
                        self.line += 1;
                    }
                }
                At::Literals => self.sink.push(&[b]),
            }
        }
    }

    fn finish(self: Box<Self>) -> (Result<Claim, OutputError>, Vec<u8>, u64) {
        let mut s = *self;
        if matches!(s.at, At::Word) {
            s.decide();
        }
        if matches!(s.at, At::Literals) {
            s.end_token();
        }
        let claim = match s.at {
            At::Word => Err(OutputError::NoResult),
            At::Decided(claim) => claim,
            At::Literals => match s.sink.finish() {
                Err(e) if !matches!(e, OutputError::Inconsistent { .. }) => Err(e),
                _ if !s.terminated => {
                    Err(OutputError::Mismatch("minisat model without its final 0"))
                }
                model => model.map(Claim::Sat),
            },
        };
        (claim, Vec::new(), s.total)
    }
}
