//! The one value a run leaves, whichever runner made it (a child process, an in-process
//! solver on a fresh formula, an in-process session): the first solve's measured outcome,
//! the size of the formula it solved, what the check of its answer found, and with
//! `--count` what the count found ([`Counted`]). The judgement ([`crate::judge::judge`])
//! reads what it needs of it ([`Finished::answer`]), the row ([`super::row`]) is built from
//! it and the judgement, once.

pub use crate::count::Counted;
use crate::judge::{Answer, Verdict};
use crate::puzzle::Puzzle;
use crate::results::Mode;
use crate::run::proof::CheckerCost;
use crate::solver::{Outcome, Status};

/// A finished run.
#[derive(Debug)]
pub struct Finished {
    /// How it ran (decided with the task, see [`super::task`]).
    pub mode: Mode,
    /// Variables and clauses of the formula solved.
    pub size: (u64, u64),
    /// The first solve's outcome (status, times, exit code, the solver's own error); its
    /// model is dropped once checked.
    pub outcome: Outcome,
    /// What the check of the first answer found (the model of SAT, the proof of UNSAT).
    pub checked: Verdict,
    /// What the proof checkers cost, when a proof was checked.
    pub checker: Option<CheckerCost>,
    /// The grids of the first answer's verified puzzle model.
    pub grids: Option<Puzzle>,
    /// With `--count` on a puzzle: what the count found.
    pub count: Option<Counted>,
}

impl Finished {
    /// A run whose formula was refused as too big for memory: MEMOUT with why.
    pub fn refused(mode: Mode, size: (u64, u64), reason: String) -> Finished {
        Finished {
            mode,
            size,
            outcome: Outcome {
                error: Some(reason),
                ..Outcome::new(Status::Memout)
            },
            checked: Verdict::Unchecked(None),
            checker: None,
            grids: None,
            count: None,
        }
    }

    /// A run whose formula was not ready within the time limit (its encoding or reading
    /// stopped after `wall`): TIMEOUT with why.
    pub fn not_ready(mode: Mode, wall: std::time::Duration, reason: String) -> Finished {
        Finished {
            mode,
            size: (0, 0),
            outcome: Outcome {
                error: Some(reason),
                wall,
                ..Outcome::new(Status::Timeout)
            },
            checked: Verdict::Unchecked(None),
            checker: None,
            grids: None,
            count: None,
        }
    }

    /// The verified solutions it found: every one the count found, else the first
    /// answer's.
    pub fn solutions(&self) -> &[Puzzle] {
        match &self.count {
            Some(c) => &c.grids,
            None => self.grids.as_slice(),
        }
    }

    /// What the judgement reads of it.
    pub fn answer(&self) -> Answer<'_> {
        Answer {
            status: self.outcome.status,
            error: self.outcome.error.as_deref(),
            checked: &self.checked,
            count: self.count.as_ref(),
            solutions: self.solutions(),
        }
    }
}
