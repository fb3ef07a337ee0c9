//! A difficulty rating: how hard `native` works on the puzzle's extended encoding,
//! averaged over a few random symmetric copies (see [`super::shuffle`]). The score is the
//! mean number of conflicts; decisions break ties and are reported beside it. Easy puzzles
//! (solved by propagation alone) score 0.

use super::shuffle::shuffled;
use crate::cnf::Cnf;
use crate::encode::{EncodeOptions, encode};
use crate::puzzle::Puzzle;
use crate::rng::SplitMix64;
use crate::solver::cdcl::{CdclSolver, Options, SolveResult};

/// Mean work of the native solver over the shuffles.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Rating {
    /// Mean conflicts.
    pub conflicts: f64,
    /// Mean decisions.
    pub decisions: f64,
}

impl Rating {
    /// The score `--min-rating` compares with: mean conflicts.
    pub fn score(&self) -> f64 {
        self.conflicts
    }
}

/// Rates `puzzle` over `shuffles` random symmetric copies (at least one).
pub fn rate(puzzle: &Puzzle, shuffles: usize, rng: &mut SplitMix64) -> Rating {
    let shuffles = shuffles.max(1);
    let mut total = Rating::default();
    for _ in 0..shuffles {
        let copy = shuffled(puzzle, rng);
        let mut cnf = Cnf::new(0);
        let vars = encode(&copy, EncodeOptions::default(), &mut cnf);
        let mut solver = CdclSolver::with_options(Options {
            seed: rng.next_u64() | 1,
            ..Options::plain()
        });
        solver.ensure_vars(vars);
        for c in cnf.clauses() {
            solver.add_clause(c);
        }
        let result = solver.solve();
        debug_assert_eq!(result, SolveResult::Sat);
        total.conflicts += solver.stats().conflicts as f64;
        total.decisions += solver.stats().decisions as f64;
    }
    Rating {
        conflicts: total.conflicts / shuffles as f64,
        decisions: total.decisions / shuffles as f64,
    }
}
