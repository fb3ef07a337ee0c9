//! `cdcl-engine`: the CDCL SAT solver behind bench's `native`, modelled on MiniSat's core
//! with glucose's clause quality measure (LBD). It knows formulas (`cnf-core`, the layer
//! below) and nothing of bench: no solver trait, no result rows, no statuses of bench's.
//!
//! Conflict-driven clause learning: decide a literal, propagate its consequences with two
//! watched literals, and when a clause is falsified, learn the first-UIP clause that
//! explains the conflict, jump back to where it becomes unit, and carry on. One concept per
//! file: [`clause`] (the arena), [`watch`] (watch lists), [`propagate`], [`analyze`]
//! (1UIP, minimisation, LBD, failed assumptions), [`chrono`] (chronological
//! backtracking), [`heap`] (EVSIDS and phases, on the
//! binary heap of `indexed_heap`), [`restart`] (Luby, glucose, focused and stable modes),
//! [`reduce`] (learnt clause reduction, arena compaction), [`proof`] (DRAT) and [`solver`]
//! (the state, the search loop and the incremental API), with [`options`], [`stats`] (the
//! counters) and [`limits`] (per call, or to a deadline) beside it.
//! Simplification between restarts: [`inprocess`] (schedule, effort, occurrence lists),
//! [`subsume`] (subsumption, strengthening), [`elim`] (bounded variable elimination, in
//! the order of `elim_queue`), [`extend`] (the reconstruction stack, frozen variables,
//! restoring eliminated ones), [`equiv`] (equivalent-literal substitution), [`probe`]
//! (failed literals) and [`vivify`] (shortening learnt clauses); beside them
//! [`tiers`] (which learnt clauses a reduction keeps, by LBD tier) and [`rephase`]
//! (target and best phases); [`forget`] (a session's learnt clauses kept one call only);
//! [`gates`] (the gate definitions elimination resolves against) and [`ternary`] (hyper
//! ternary resolution).
//! Every technique has an [`Options`] switch (bench sets them by name through its solver
//! configurations, `native:elim=off,...`).
//!
//! Two ways in: [`CdclSolver`], the incremental interface (clauses between calls,
//! assumptions, failed assumptions, limits, seeded random decisions, a DRAT proof to any
//! sink), and [`solve`] ([`api`]), one formula under a [`Budget`] (deadline, interrupt
//! flag, memory, conflicts, proof sink) to an [`Answer`] with the [`Stats`] counters
//! (conflicts, decisions, propagations, ...).

pub mod analyze;
pub mod api;
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
pub mod limits;
pub mod options;
pub mod probe;
pub mod proof;
pub mod propagate;
pub mod reduce;
pub mod rephase;
pub mod restart;
mod search;
pub mod solver;
pub mod stats;
pub mod subsume;
mod ternary;
pub mod tiers;
pub mod vivify;
pub mod watch;

pub use api::{Answer, Budget, Run, Stop, solve, solve_keeping};
pub use proof::ProofSink;
pub use restart::RestartPolicy;
pub use solver::{CdclSolver, Options, SolveLimits, SolveResult, Stats};
