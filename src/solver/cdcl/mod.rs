//! The built-in CDCL solver `native`, modelled on MiniSat's core with glucose's clause
//! quality measure (LBD).
//!
//! Conflict-driven clause learning: decide a literal, propagate its consequences with two
//! watched literals, and when a clause is falsified, learn the first-UIP clause that
//! explains the conflict, jump back to where it becomes unit, and carry on. One concept per
//! file: [`clause`] (the arena), [`watch`] (watch lists), [`propagate`], [`analyze`]
//! (1UIP, minimisation, LBD, failed assumptions), [`chrono`] (chronological
//! backtracking), [`heap`] (EVSIDS and phases, on the
//! binary heap of `indexed_heap`), [`restart`] (Luby, glucose, focused and stable modes),
//! [`reduce`] (learnt clause reduction, arena compaction), [`proof`] (DRAT) and [`solver`]
//! (the state, the search loop and the incremental API).
//! Simplification between restarts: [`inprocess`] (schedule, effort, occurrence lists),
//! [`subsume`] (subsumption, strengthening), [`elim`] (bounded variable elimination, in
//! the order of `elim_queue`), [`extend`] (the reconstruction stack, frozen variables,
//! restoring eliminated ones), [`equiv`] (equivalent-literal substitution), [`probe`]
//! (failed literals) and [`vivify`] (shortening learnt clauses); beside them
//! [`tiers`] (which learnt clauses a reduction keeps, by LBD tier) and [`rephase`]
//! (target and best phases); [`forget`] (a session's learnt clauses kept one call only);
//! [`gates`] (the gate definitions elimination resolves against) and [`ternary`] (hyper
//! ternary resolution).
//! Every technique has an [`Options`] switch; options are
//! set by name through solver configurations (`native:elim=off,...`, see
//! `crate::solver::config`).
//!
//! [`CdclSolver`] is the incremental interface (clauses between calls, assumptions, failed
//! assumptions, limits, seeded random decisions) that the puzzle generator and the
//! uniqueness check build on; [`NativeSolver`] wraps it as a [`Solver`] for bench.

pub mod analyze;
pub mod chrono;
pub mod clause;
pub mod elim;
mod elim_queue;
pub mod equiv;
pub mod extend;
pub mod forget;
mod gates;
pub mod heap;
mod indexed_heap;
pub mod inprocess;
pub mod probe;
pub mod proof;
pub mod propagate;
pub mod reduce;
pub mod rephase;
pub mod restart;
pub mod solver;
pub mod subsume;
mod ternary;
pub mod tiers;
pub mod vivify;
pub mod watch;

use std::time::{Duration, Instant};

pub use restart::RestartPolicy;
pub use solver::{CdclSolver, Options, SolveLimits, SolveResult, Stats};

use crate::cnf::{Cnf, Model};
use crate::solver::{DratFormat, Limits, Outcome, ProofStyle, Solver, Status};

/// `native` as a [`Solver`]: a fresh [`CdclSolver`] per formula.
#[derive(Clone, Debug)]
pub struct NativeSolver {
    /// Options of every solver built (the seed comes from [`Limits::seed`] when non-zero).
    pub options: Options,
}

/// The outcome of a call that stopped because the solver's clauses outgrew its memory
/// budget ([`SolveLimits::memory`]): MEMOUT, with the size reached.
pub fn memout(s: &CdclSolver) -> Outcome {
    Outcome {
        error: Some(format!(
            "native's clauses outgrew its memory budget ({} MiB)",
            s.clause_bytes() >> 20
        )),
        ..Outcome::new(Status::Memout)
    }
}

impl Default for NativeSolver {
    /// native's choice of techniques ([`Options::simplifying`]).
    fn default() -> Self {
        NativeSolver {
            options: Options::simplifying(),
        }
    }
}

impl Solver for NativeSolver {
    fn name(&self) -> &str {
        "native"
    }

    fn version(&self) -> Option<String> {
        Some(env!("CARGO_PKG_VERSION").to_string())
    }

    fn proof_style(&self) -> Option<ProofStyle> {
        Some(ProofStyle {
            format: DratFormat::Binary,
            skip_unit_deletions: false,
        })
    }

    fn in_process(&self) -> bool {
        true
    }

    fn solve(&self, cnf: &Cnf, limits: &Limits) -> Outcome {
        crate::solver::measured(|| self.solve_unmeasured(cnf, limits))
    }
}

impl NativeSolver {
    /// [`Solver::solve`] without the clocks.
    fn solve_unmeasured(&self, cnf: &Cnf, limits: &Limits) -> Outcome {
        let mut options = self.options.clone();
        if limits.seed != 0 {
            options.seed = limits.seed;
        }
        let mut s = CdclSolver::with_options(options);
        if let Some(path) = &limits.proof
            && let Err(e) = s.set_proof(path, limits.binary_proof)
        {
            return Outcome::error(format!("cannot write the proof {}: {e}", path.display()));
        }
        // The time limit covers loading the formula too (ten million literals take a
        // second or two).
        s.set_limits(SolveLimits {
            timeout: None,
            conflicts: None,
            interrupt: limits.interrupt.clone(),
            memory: super::in_process_budget(limits),
            deadline: limits.timeout.and_then(|t| Instant::now().checked_add(t)),
        });
        let result = match s.add_cnf_limited(cnf) {
            Some(_) => s.solve(),
            None => SolveResult::Unknown,
        };
        let mut outcome = match result {
            SolveResult::Sat => {
                let values = (0..cnf.num_vars())
                    .map(|v| s.value(crate::cnf::Var::new(v).pos()) == Some(true));
                Outcome::sat(Model::from_values(values))
            }
            SolveResult::Unsat => Outcome::new(Status::Unsat),
            SolveResult::Unknown if s.out_of_memory() => memout(&s),
            SolveResult::Unknown => Outcome::stopped(limits),
        };
        if let Err(e) = s.finish_proof() {
            outcome = Outcome::error(format!("writing the proof failed: {e}"));
        }
        outcome.stats = s.stats().pairs();
        outcome
    }
}

/// CPU time of the calling thread (the solver runs on one thread, possibly among others
/// of a parallel `bench run`, so process time would be wrong).
pub fn thread_cpu_time() -> Option<Duration> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the timespec we pass, which lives on our stack.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
}
