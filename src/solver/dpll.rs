//! The seed's DPLL baseline `dpll`. STUB: replaced by the real solver.

use crate::cnf::Cnf;
use crate::solver::{Limits, Outcome, Solver};

/// `dpll` as a [`Solver`].
#[derive(Clone, Debug, Default)]
pub struct DpllSolver;

impl Solver for DpllSolver {
    fn name(&self) -> &str {
        "dpll"
    }

    fn solve(&self, _cnf: &Cnf, _limits: &Limits) -> Outcome {
        Outcome::error("dpll: not built yet")
    }
}
