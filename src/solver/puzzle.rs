//! Dedicated puzzle solvers as bench runs them: a solver that takes the puzzle itself, no
//! formula (bench's own `gridsolve` in-process, or any program speaking the puzzle line
//! protocol, see [`super::lines`]). A [`PuzzleSession`] is one worker's handle on such a
//! solver (a program keeps running between puzzles); its [`PuzzleAnswer`] carries the
//! grids as the solver gave them, unchecked: the run checks every one against the rules
//! and the givens, exactly as it checks a SAT solver's decoded model.

use crate::puzzle::Puzzle;

use super::{Limits, Outcome};

/// What a dedicated solver answered for one puzzle.
#[derive(Clone, Debug)]
pub struct PuzzleAnswer {
    /// Status (SAT: solutions given; UNSAT: it says there is none), times, the solver's
    /// own error, its work counters (`guesses`, ...) in `stats`. No model.
    pub outcome: Outcome,
    /// The solutions it gave, read as puzzles of the puzzle's kind and side but not yet
    /// checked; `Err` when its answer cannot be read as one (a wrong answer).
    pub solutions: Result<Vec<Puzzle>, String>,
    /// Whether the search was complete, so that fewer solutions than asked is the exact
    /// count (false: a solver that cannot say, or one that was stopped).
    pub complete: bool,
}

impl PuzzleAnswer {
    /// An answer with no solution read (an error, a timeout, UNSAT).
    pub fn without(outcome: Outcome) -> PuzzleAnswer {
        PuzzleAnswer {
            outcome,
            solutions: Ok(Vec::new()),
            complete: false,
        }
    }

    /// This answer scored against `limits` once its times are known: past a limit, a
    /// timeout at that limit with no solution read ([`super::score_past_limits`]).
    pub fn past_limits(mut self, limits: &Limits) -> PuzzleAnswer {
        let status = self.outcome.status;
        super::score_past_limits(&mut self.outcome, limits);
        if self.outcome.status == status {
            return self;
        }
        PuzzleAnswer::without(self.outcome)
    }

    /// This answer with `outcome`, its own as [`super::measured`] timed and scored it:
    /// one scored past a limit (its status changed) keeps no solution.
    pub fn measured(mut self, outcome: Outcome) -> PuzzleAnswer {
        if outcome.status == self.outcome.status {
            self.outcome = outcome;
            return self;
        }
        PuzzleAnswer::without(outcome)
    }
}

/// One worker's dedicated solver: puzzles in, answers out, one puzzle at a time.
pub trait PuzzleSession: Send {
    /// Solves `puzzle` for up to `count` solutions (1: the first one) within `limits`.
    /// Never panics on the solver's misbehaviour: it is an ERROR or TIMEOUT outcome.
    fn solve(&mut self, puzzle: &Puzzle, count: u32, limits: &Limits) -> PuzzleAnswer;
}
