//! What a count of solutions found (`--count`): the count, every solution's grids, the
//! solver's time over every solve of it, and why it stopped short or is wrong. The runners
//! fill it as they count; the judgement ([`crate::judge::judge`]) weighs it.

use std::time::Duration;

use crate::puzzle::Puzzle;
use crate::solver::Outcome;

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
