//! The built-in CDCL solver `native`. STUB: replaced by the real solver.

use crate::cnf::Cnf;
use crate::solver::{Limits, Outcome, Solver};

/// `native` as a [`Solver`].
#[derive(Clone, Debug, Default)]
pub struct NativeSolver;

impl Solver for NativeSolver {
    fn name(&self) -> &str {
        "native"
    }

    fn solve(&self, _cnf: &Cnf, _limits: &Limits) -> Outcome {
        Outcome::error("native: not built yet")
    }
}
