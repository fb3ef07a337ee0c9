//! zchaff's report read as it arrives, in chunks of any size. Progress lines end in `\r`
//! (so lines are cut at `\n` and at `\r`); the model is the line after `Instance
//! Satisfiable`, with no final 0, and runs into `Random Seed Used` (it ends at the first
//! token holding `Random`); unassigned variables print as `(n)`. The verdict is the
//! `RESULT:` line. The model's literals go straight into an assignment (see
//! [`ModelSink`]) and its text is not kept; the other lines are kept up to a cap, for
//! messages.

use super::model_sink::ModelSink;
use super::{AnswerStream, Claim, ModelBounds, OutputError};

/// The most of a line's start read for `Instance Satisfiable` and `RESULT:`.
const MAX_HEAD: usize = 1024;

/// The report, read as it arrives.
pub struct ZchaffStream {
    sink: ModelSink,
    cap: usize,
    kept: Vec<u8>,
    total: u64,
    line: usize,
    /// The current line's first bytes (not on the model line).
    head: Vec<u8>,
    /// The current line is the model line.
    in_model: bool,
    /// The model line's text has ended (`Random Seed Used`).
    model_ended: bool,
    /// A model line was seen.
    saw_model: bool,
    /// The `RESULT:` word and its line.
    result: Option<(usize, String)>,
    /// Two `RESULT:` lines that disagree.
    conflict: Option<OutputError>,
}

impl ZchaffStream {
    /// A reader for models within `bounds`, keeping up to `cap` bytes of the other lines.
    pub fn new(bounds: ModelBounds, cap: usize) -> ZchaffStream {
        ZchaffStream {
            sink: ModelSink::new(bounds),
            cap,
            kept: Vec::new(),
            total: 0,
            line: 1,
            head: Vec::new(),
            in_model: false,
            model_ended: false,
            saw_model: false,
            result: None,
            conflict: None,
        }
    }

    fn keep(&mut self, b: u8) {
        if self.kept.len() < self.cap {
            self.kept.push(b);
        }
    }

    fn end_token(&mut self) {
        if self.sink.token().is_empty() {
            return;
        }
        let token = self.sink.take_token();
        if self.model_ended {
            return;
        }
        let token = match token.find("Random") {
            Some(at) => {
                self.model_ended = true;
                &token[..at]
            }
            None => &token,
        };
        if token.is_empty() || (token.starts_with('(') && token.ends_with(')')) {
            return; // unassigned: either value
        }
        self.sink.literal(token, self.line);
    }

    /// The end of a line (`last`: the end of the text, with no line after it).
    fn end_line(&mut self, last: bool) {
        if self.in_model {
            self.end_token();
            self.in_model = false;
            return;
        }
        let head = String::from_utf8_lossy(&self.head).into_owned();
        self.head.clear();
        if head.starts_with("Instance Satisfiable") && !last {
            if self.saw_model {
                self.sink.clear();
            }
            self.saw_model = true;
            self.in_model = true;
            self.model_ended = false;
        } else if let Some(rest) = head.strip_prefix("RESULT:") {
            let word = rest.trim().to_string();
            match &self.result {
                Some((_, previous)) if *previous != word => {
                    let line = self.line;
                    self.conflict
                        .get_or_insert(OutputError::Conflicting { line });
                }
                _ => self.result = Some((self.line, word)),
            }
        }
    }
}

impl AnswerStream for ZchaffStream {
    fn feed(&mut self, chunk: &[u8]) {
        self.total += chunk.len() as u64;
        for &b in chunk {
            if b == b'\n' || b == b'\r' {
                let was_model = self.in_model;
                self.end_line(false);
                if !was_model {
                    self.keep(b);
                }
                self.line += 1;
            } else if self.in_model {
                if b == b' ' || b == b'\t' || b == b'\x0c' {
                    self.end_token();
                } else {
                    self.sink.push(&[b]);
                }
            } else {
                if self.head.len() < MAX_HEAD {
                    self.head.push(b);
                }
                self.keep(b);
            }
        }
    }

    fn finish(self: Box<Self>) -> (Result<Claim, OutputError>, Vec<u8>, u64) {
        let mut s = *self;
        s.end_line(true);
        let claim = match (s.conflict, s.result) {
            (Some(e), _) => Err(e),
            (None, None) => Err(OutputError::NoResult),
            (None, Some((line, word))) => match word.as_str() {
                "SAT" if !s.saw_model => Err(OutputError::Mismatch(
                    "zchaff said SAT but printed no model",
                )),
                "SAT" => s.sink.finish().map(Claim::Sat),
                "UNSAT" => Ok(Claim::Unsat),
                w if w.starts_with("ABORT") => Ok(Claim::Unknown(w.to_string())),
                other => Err(OutputError::UnknownResult {
                    line,
                    text: other.to_string(),
                }),
            },
        };
        (claim, s.kept, s.total)
    }
}
