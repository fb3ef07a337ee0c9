//! Model literals as they are read, one token at a time, into an assignment: checked
//! against the formula's [`ModelBounds`] and for consistency as they come, the text of
//! none kept. Shared by the minisat and zchaff readers (the competition reader has its
//! own, which also tells a literal beyond the formula from an unreadable token).

use super::{ModelBounds, OutputError, literal};
use crate::cnf::Model;

/// The longest literal token (a longer one is not a literal).
pub(super) const MAX_TOKEN: usize = 24;

/// An assignment being read.
pub(super) struct ModelSink {
    bounds: ModelBounds,
    model: Model,
    /// The first token that is no literal, or a literal beyond the formula.
    fault: Option<OutputError>,
    /// The first variable set both ways.
    inconsistent: Option<u32>,
    /// The token being read (cut at [`MAX_TOKEN`] + 1 bytes).
    token: Vec<u8>,
}

impl ModelSink {
    pub(super) fn new(bounds: ModelBounds) -> ModelSink {
        ModelSink {
            bounds,
            model: Model::new(),
            fault: None,
            inconsistent: None,
            token: Vec::new(),
        }
    }

    /// Adds bytes of the current token.
    pub(super) fn push(&mut self, bytes: &[u8]) {
        let room = (MAX_TOKEN + 1).saturating_sub(self.token.len());
        self.token
            .extend_from_slice(&bytes[..bytes.len().min(room)]);
    }

    /// The current token as text (empty when there is none), and clears it.
    pub(super) fn take_token(&mut self) -> String {
        let t = String::from_utf8_lossy(&self.token).into_owned();
        self.token.clear();
        t
    }

    /// The token, whole, if one is being read.
    pub(super) fn token(&self) -> &[u8] {
        &self.token
    }

    /// Notes a fault (the first one stands).
    pub(super) fn fault(&mut self, e: OutputError) {
        self.fault.get_or_insert(e);
    }

    /// Reads `token` (at line `line`) as a nonzero literal into the assignment.
    pub(super) fn literal(&mut self, token: &str, line: usize) {
        let n: i64 = match token.parse() {
            Ok(n) if token.len() <= MAX_TOKEN && n != 0 => n,
            _ => {
                return self.fault(OutputError::BadLiteral {
                    line,
                    token: token.to_string(),
                });
            }
        };
        match literal(n, line, token, self.bounds.max_var) {
            Ok(l) if l.var().dimacs() > self.bounds.keep => {}
            Ok(l) => {
                if self.model.lit_value(!l) == Some(true) {
                    self.inconsistent.get_or_insert(l.var().dimacs());
                }
                self.model.set(l);
            }
            Err(e) => self.fault(e),
        }
    }

    /// Starts over (a second model).
    pub(super) fn clear(&mut self) {
        *self = ModelSink::new(self.bounds);
    }

    /// The model, or the first fault in it.
    pub(super) fn finish(self) -> Result<Model, OutputError> {
        if let Some(e) = self.fault {
            return Err(e);
        }
        if let Some(var) = self.inconsistent {
            return Err(OutputError::Inconsistent { var });
        }
        Ok(self.model)
    }
}
