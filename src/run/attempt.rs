//! The runners: one task in, one [`Finished`] out, whichever way it runs. A session task
//! goes to the worker's session ([`super::incremental`]), a dedicated task to the worker's
//! dedicated solver ([`super::dedicated`]); a fresh or process task solves
//! the formula built once for every solver of its instance ([`super::unit`]), a formula
//! too big for memory being a MEMOUT without a solve. The answer is checked here (the
//! model of SAT against the clauses and the puzzle, the DRAT proof of UNSAT with
//! `--proofs`), and with `--count` the further solutions are found and checked; what it
//! is all worth is judged from the [`Finished`] value alone ([`crate::judge::judge`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::cnf::budget::{Account, ReadLimits};
use crate::results::Mode;
use crate::solver::{DratFormat, Limits, Solver, SolverConfig};

use super::corpus::{Instance, Source};
use super::dedicated::{self, PuzzleSessions};
use super::exec::{self, Built};
use super::finished::{Counted, Finished};
use super::incremental::{self, Sessions};
use super::plan::Plan;
use super::proof::ChainLimits;
use super::task::Task;
use super::unit::{BuildError, Unit};
use crate::encode::watched::Stop;

/// What one task came to.
pub(crate) enum Attempt {
    /// The run finished (or its formula was refused as too big: MEMOUT).
    Finished(Box<Finished>),
    /// The formula could not be built: the input is skipped, with why.
    Unbuildable(String),
    /// Ctrl-C stopped it: no row (a resume redoes it).
    Interrupted,
    /// The machine could not start the solver (its binary gone, exec refused): not the
    /// solver's failure, so no row (a resume redoes it), with why.
    NotStarted(String),
}

/// What a runner needs besides its task: the plan, where solvers are found, the reading
/// budget shared by the workers, and the interrupt flag.
pub(crate) struct Context<'a> {
    pub plan: &'a Plan,
    pub config: &'a SolverConfig,
    pub read_budget: Option<&'a Account>,
    pub interrupt: &'a Arc<AtomicBool>,
}

/// What a worker keeps between its tasks: its in-process sessions, its dedicated solvers.
#[derive(Default)]
pub(crate) struct WorkerState {
    pub sessions: Sessions,
    pub puzzles: PuzzleSessions,
}

/// Runs one task in its mode.
pub(crate) fn attempt(
    cx: &Context<'_>,
    task: &Task,
    unit: &Unit,
    instance: &Instance,
    solver: &dyn Solver,
    worker: &mut WorkerState,
) -> Attempt {
    let sessions = &mut worker.sessions;
    let finished = match (task.mode, &instance.source, unit.encoding) {
        (Mode::Dedicated, Source::Puzzle(puzzle), _) => {
            let puzzles = &mut worker.puzzles;
            dedicated::run(puzzles, task.solver, solver, cx.plan, puzzle, cx.interrupt)
        }
        (Mode::Session, Source::Puzzle(puzzle), Some(enc)) => {
            let key = (task.solver, puzzle.kind(), puzzle.side(), enc);
            incremental::run_session(sessions, key, cx.plan, puzzle, solver, cx.interrupt)
        }
        _ => {
            let read = ReadLimits {
                budget: cx.read_budget.map(Account::limit),
                account: cx.read_budget,
                interrupt: Some(cx.interrupt),
                // Encoding or reading the formula is held to the time limit too.
                deadline: std::time::Instant::now().checked_add(cx.plan.timeout()),
            };
            match unit.get(instance, &read) {
                Ok(built) => run_formula(cx, &built, solver, task.mode),
                Err(BuildError::TooBig {
                    reason,
                    vars,
                    clauses,
                }) => Some(Finished::refused(task.mode, (vars, clauses), reason)),
                Err(BuildError::Stopped {
                    stop: Stop::Interrupted,
                    ..
                }) => None,
                Err(e @ BuildError::Stopped { wall, .. }) => {
                    Some(Finished::not_ready(task.mode, wall, e.message()))
                }
                Err(e) => {
                    unit.release();
                    return Attempt::Unbuildable(e.message());
                }
            }
        }
    };
    unit.release();
    match finished {
        Some(f) if f.outcome.not_started => {
            Attempt::NotStarted(f.outcome.error.unwrap_or_default())
        }
        Some(f) => Attempt::Finished(Box::new(f)),
        None => Attempt::Interrupted,
    }
}

/// Runs one solver on one built formula (in bench's process or as a child, as `mode`
/// says), checks the answer and, with `--count`, counts the solutions. None when Ctrl-C
/// stopped it.
fn run_formula(
    cx: &Context<'_>,
    built: &Built,
    solver: &dyn Solver,
    mode: Mode,
) -> Option<Finished> {
    let plan = cx.plan;
    let proof_style = solver.proof_style().filter(|_| plan.proofs);
    let proof_dir = proof_style.and_then(|_| crate::solver::external::run::temp_dir().ok());
    let proof = proof_dir.as_ref().map(|d| d.path().join("proof.drat"));
    let limits = Limits {
        timeout: Some(plan.timeout()),
        cpu_limit: plan.limits.cpu(),
        mem_limit_mb: plan.limits.mem_limit_mb,
        interrupt: Some(cx.interrupt.clone()),
        proof: proof.clone(),
        binary_proof: proof_style.is_some_and(|s| s.format == DratFormat::Binary),
        seed: plan.seed,
    };
    let mut outcome = solver.solve(&built.cnf, &limits);
    if cx.interrupt.load(Ordering::Relaxed) {
        return None;
    }
    let chain = ChainLimits {
        timeout: plan.checker_timeout(),
        mem_limit_mb: plan.limits.mem_limit_mb,
        interrupt: Some(cx.interrupt.as_ref()),
    };
    let proof_to_check = proof.as_deref().zip(proof_style);
    let checked = exec::verdict(built, &outcome, proof_to_check, &chain, cx.config);
    if cx.interrupt.load(Ordering::Relaxed) {
        return None;
    }
    let mut count = None;
    if plan.count >= 2 && built.header.is_some() {
        // The count's time starts with the first solve, whatever it answered.
        let mut counted = Counted::after(&outcome);
        if let Some(first) = checked.grids.clone() {
            counted.grids.push(first);
            let mut again = limits.clone();
            again.proof = None;
            if let Err(e) = exec::count_solutions(solver, built, &mut counted, &again, plan.count) {
                counted.wrong = Some(e);
            }
            if cx.interrupt.load(Ordering::Relaxed) {
                return None;
            }
        }
        count = Some(counted);
    }
    outcome.model = None;
    Some(Finished {
        mode,
        size: (built.cnf.num_vars() as u64, built.cnf.num_clauses() as u64),
        outcome,
        checked: checked.verdict,
        checker: checked.checker,
        grids: checked.grids,
        count,
    })
}
