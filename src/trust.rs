//! How far an answer is trusted (the `trust` column), at the SAT Competition's standard:
//! a SAT answer whose model was checked, an UNSAT answer whose proof a formally verified
//! checker accepted (DRAT → `rate -L` → LRAT → cake_lpr), one whose DRAT proof `rate`
//! accepted, one whose proof check ran out of time or memory, one with no proof that
//! nothing contradicts, and the rest. Only `model-checked` and `proof-verified` are
//! *certified*: what the certified scores count as solved.
//!
//! A row written before bench had the column gets its level from the columns it has
//! ([`Trust::derive`]); a wrong answer is trusted at no level.

use serde::{Deserialize, Serialize};

use crate::results::Check;
use crate::solver::Status;

/// The trust level of an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Trust {
    /// SAT: the model satisfies every clause (and, for puzzles, the rules and givens).
    ModelChecked,
    /// UNSAT: a formally verified checker (cake_lpr) accepted the LRAT proof.
    ProofVerified,
    /// UNSAT: `rate` accepted the DRAT proof (no verified checker ran).
    ProofChecked,
    /// UNSAT: a checker ran out of its time or memory; neither wrong nor certified.
    ProofTimeout,
    /// UNSAT without a proof that no verified model and no record contradicts.
    CrossChecked,
    /// Anything else: no answer, a wrong one, a model of an encoding that leaves the
    /// puzzle open.
    Unchecked,
}

impl Trust {
    /// Every level, most trusted first.
    pub const ALL: [Trust; 6] = [
        Trust::ModelChecked,
        Trust::ProofVerified,
        Trust::ProofChecked,
        Trust::ProofTimeout,
        Trust::CrossChecked,
        Trust::Unchecked,
    ];

    /// The name in the CSV and in messages.
    pub fn as_str(self) -> &'static str {
        match self {
            Trust::ModelChecked => "model-checked",
            Trust::ProofVerified => "proof-verified",
            Trust::ProofChecked => "proof-checked",
            Trust::ProofTimeout => "proof-timeout",
            Trust::CrossChecked => "cross-checked",
            Trust::Unchecked => "unchecked",
        }
    }

    /// Certified, the competition's rule: a checked model or a verified proof.
    pub fn certified(self) -> bool {
        matches!(self, Trust::ModelChecked | Trust::ProofVerified)
    }

    /// The level of a row: its stored level, or the one [`Trust::derive`] reads from its
    /// other columns where it has none; a wrong answer is trusted at no level.
    pub fn of(stored: Option<Trust>, status: Status, check: Check, wrong: bool) -> Trust {
        match stored {
            _ if wrong => Trust::Unchecked,
            Some(t) => t,
            None => Trust::derive(status, check, wrong),
        }
    }

    /// The level of a row that has none (written before the column): read from its
    /// status, check and wrong columns. A proof then was checked by `rate` alone.
    pub fn derive(status: Status, check: Check, wrong: bool) -> Trust {
        match (status, check) {
            _ if wrong => Trust::Unchecked,
            (Status::Sat, Check::ModelOk) => Trust::ModelChecked,
            (Status::Unsat, Check::ProofOk) => Trust::ProofChecked,
            (Status::Unsat, Check::Unchecked) => Trust::CrossChecked,
            _ => Trust::Unchecked,
        }
    }
}

impl std::fmt::Display for Trust {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_rows_get_a_level_from_their_columns() {
        let cases = [
            (Status::Sat, Check::ModelOk, false, Trust::ModelChecked),
            (Status::Sat, Check::EncodingOpen, false, Trust::Unchecked),
            (Status::Unsat, Check::ProofOk, false, Trust::ProofChecked),
            (Status::Unsat, Check::Unchecked, false, Trust::CrossChecked),
            (Status::Unsat, Check::Unchecked, true, Trust::Unchecked),
            (Status::Unsat, Check::ProofFailed, true, Trust::Unchecked),
            (Status::Timeout, Check::Unchecked, false, Trust::Unchecked),
        ];
        for (status, check, wrong, trust) in cases {
            assert_eq!(
                Trust::derive(status, check, wrong),
                trust,
                "{status} {check}"
            );
        }
        assert_eq!(
            Trust::ALL.iter().filter(|t| t.certified()).count(),
            2,
            "only a checked model and a verified proof are certified"
        );
    }
}
