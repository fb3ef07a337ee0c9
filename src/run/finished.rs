//! The one value a run leaves, whichever runner made it (a child process, an in-process
//! solver on a fresh formula, an in-process session): the first solve's measured outcome,
//! the size of the formula it solved, what the check of its answer found, and with
//! `--count` what the count found. The judgement ([`crate::judge::judge`]) reads it, the
//! row ([`super::row`]) is built from it and the judgement, once.

use std::time::Duration;

use crate::judge::Verdict;
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
}

/// What a count of solutions found: the count, every solution's grids, and the solver's
/// time over every solve of it (the first one included).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Counted {
    /// `Some(k)`: k solutions (the limit meaning at least that many); None when a solve
    /// gave no answer or the count cannot be read from the formula.
    pub count: Option<u32>,
    /// The grids of every solution found, the first one first, each checked and distinct.
    pub grids: Vec<Puzzle>,
    /// Wall-clock time of every solve, the first included.
    pub wall: Duration,
    /// CPU time of every solve, if each was measured.
    pub cpu: Option<Duration>,
    /// Why the count stopped short, when a solve of it gave no answer.
    pub stopped: Option<String>,
    /// Why a solution of the count is wrong (a model that is none, a repeated solution).
    pub wrong: Option<String>,
}

impl Counted {
    /// A count whose time starts with the first solve, whatever it answered.
    pub fn after(first: &Outcome) -> Counted {
        Counted {
            wall: first.wall,
            cpu: first.cpu,
            ..Counted::default()
        }
    }

    /// A count that starts from the first answer's outcome and grids.
    pub fn start(first: &Outcome, grids: Puzzle) -> Counted {
        Counted {
            grids: vec![grids],
            ..Counted::after(first)
        }
    }

    /// Adds one more solve's time.
    pub fn add(&mut self, outcome: &Outcome) {
        self.wall += outcome.wall;
        self.cpu = self.cpu.zip(outcome.cpu).map(|(a, b)| a + b);
    }

    /// Records that solve `k` of the count gave no answer.
    pub fn stop(&mut self, outcome: &Outcome) {
        let k = self.grids.len() + 1;
        self.stopped = Some(format!(
            "solve {k} answered {}{}",
            outcome.status,
            outcome
                .error
                .as_deref()
                .map_or(String::new(), |e| format!(" ({e})"))
        ));
    }
}
