//! Incremental sessions: one solver kept alive across many solve calls, the way tdoku and
//! PySAT solve puzzles. The puzzle-independent clauses go in once; each call passes its
//! own assumptions (a puzzle's givens), and clauses may be added between calls (a blocked
//! solution under an activation literal). Activities and phases carry over from one call
//! to the next, and the clauses need loading only once, which is the point: loading
//! ~12,000 clauses into a fresh solver costs more than solving an easy 9×9. native keeps
//! a call's learnt clauses for the next call only (`cdcl::forget`): the next puzzle has
//! other givens, and visiting old clauses cost more than they saved.
//!
//! [`NativeSession`] is native's session (a [`CdclSolver`] and its incremental API); the
//! library solvers' sessions live beside their adapters (`solver::rustsat`).

use std::time::{Duration, Instant};

use super::cdcl::{CdclSolver, Options, SolveLimits, SolveResult};
use super::{Clocks, LimitHit, Limits, Outcome, Status, thread_cpu_time};
use crate::cnf::{Lit, Model, Var};

/// A solver that keeps its clauses between solve calls.
pub trait Session: Send {
    /// Adds a clause, kept for every later call.
    fn add_clause(&mut self, lits: &[Lit]);

    /// A fresh variable, after every variable used so far (for activation literals).
    fn new_var(&mut self) -> Var;

    /// Makes variables `0..n` known (the formula's count, auxiliary ones included).
    fn ensure_vars(&mut self, n: u32);

    /// Solves the clauses under `assumptions` within `limits` (each call gets the whole
    /// timeout). SAT comes with a model of the variables the session knows; a stopped call
    /// is TIMEOUT or UNKNOWN as for [`Outcome::stopped`]. Wall time and the CPU time of the
    /// calling thread are measured.
    fn solve(&mut self, assumptions: &[Lit], limits: &Limits) -> Outcome;

    /// False once a call left the solver unusable (a library solver that was interrupted
    /// keeps its interrupt flag): the caller drops the session and builds a new one.
    fn usable(&self) -> bool {
        true
    }
}

/// native as a [`Session`].
pub struct NativeSession {
    solver: CdclSolver,
}

impl NativeSession {
    /// A session with these options (the seed already chosen). Bounded variable
    /// elimination is switched off: a session's later assumptions and clauses may mention
    /// any variable, and restoring eliminated ones on every call would cost more than
    /// elimination saves. The other techniques keep the formula's models and stay on.
    /// native's options forget learnt clauses after one more call (`cdcl::forget`;
    /// `native:forget=off` keeps them).
    pub fn new(mut options: Options) -> NativeSession {
        options.elim = false;
        NativeSession {
            solver: CdclSolver::with_options(options),
        }
    }
}

impl Session for NativeSession {
    fn add_clause(&mut self, lits: &[Lit]) {
        self.solver.add_clause(lits);
    }

    fn new_var(&mut self) -> Var {
        self.solver.new_var()
    }

    fn ensure_vars(&mut self, n: u32) {
        self.solver.ensure_vars(n);
    }

    fn solve(&mut self, assumptions: &[Lit], limits: &Limits) -> Outcome {
        measured_call(limits, |start| {
            let clocks = start.clocks(limits);
            self.solver.set_limits(SolveLimits {
                timeout: limits.timeout,
                cpu_time: limits.cpu_limit,
                cpu_deadline: None,
                conflicts: None,
                interrupt: limits.interrupt.clone(),
                // Only an explicit limit: a session solves thousands of puzzles a second.
                memory: limits.mem_limit_mb.map(|mb| mb.saturating_mul(1 << 20)),
                deadline: None,
            });
            let counted = |s: &super::cdcl::Stats| [s.conflicts, s.decisions, s.propagations];
            let before = counted(self.solver.stats());
            let result = self.solver.solve_with(assumptions);
            let mut outcome = match result {
                SolveResult::Sat => match self.solver.model() {
                    Some(m) => Outcome::sat(m),
                    None => Outcome::sat(Model::new()),
                },
                SolveResult::Unsat => Outcome::new(Status::Unsat),
                SolveResult::Unknown if self.solver.out_of_memory() => {
                    crate::solver::cdcl::memout(&self.solver)
                }
                SolveResult::Unknown => {
                    Outcome::stopped_by(limits, clocks.passed().unwrap_or(LimitHit::Wall))
                }
            };
            let after = counted(self.solver.stats());
            outcome.stats = counters(before, after);
            outcome
        })
    }
}

/// The work counters of one call, as deltas of the solver's running totals of conflicts,
/// decisions and propagations.
pub(crate) fn counters(before: [u64; 3], after: [u64; 3]) -> Vec<(String, u64)> {
    let names = ["conflicts", "decisions", "propagations"];
    names
        .iter()
        .zip(before.iter().zip(after))
        .map(|(&name, (&b, a))| (name.to_string(), a.saturating_sub(b)))
        .collect()
}

/// When a session call began: the wall clock and the calling thread's CPU clock, each
/// read once and shared by the call's measure and its limits.
pub(crate) struct Start {
    /// The wall clock.
    pub wall: Instant,
    /// The calling thread's CPU clock, if it can be read.
    pub cpu: Option<Duration>,
}

impl Start {
    /// The call's limits as clocks that started with the call (no clock read again).
    pub fn clocks(&self, limits: &Limits) -> Clocks {
        Clocks {
            wall: limits.timeout.and_then(|t| self.wall.checked_add(t)),
            cpu: limits.cpu_limit.and_then(|c| self.cpu.map(|now| now + c)),
        }
    }
}

/// Runs the call `f`, then stamps its outcome with the wall time and this thread's CPU
/// time since [`Start`] (added to the CPU time `f` found, of a helper thread that did the
/// work) and scores it against `limits`, as [`super::measured`] does; `f` is handed the
/// start.
pub(crate) fn measured_call(limits: &Limits, f: impl FnOnce(&Start) -> Outcome) -> Outcome {
    let start = Start {
        wall: Instant::now(),
        cpu: thread_cpu_time(),
    };
    let mut outcome = f(&start);
    outcome.wall = start.wall.elapsed();
    outcome.cpu = match (start.cpu, thread_cpu_time()) {
        (Some(a), Some(b)) => Some(b.saturating_sub(a) + outcome.cpu.unwrap_or_default()),
        _ => None,
    };
    super::score_past_limits(&mut outcome, limits);
    outcome
}
