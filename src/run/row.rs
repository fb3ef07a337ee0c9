//! The row of a run, built once: what the run is (instance, encoding, solver, repetition,
//! the plan's limits, the limit that ended it), what it measured ([`Finished`]) and what it is worth ([`Judged`]).

use crate::judge::Judged;
use crate::results::Row;
use crate::solver::{LimitHit, Status};

use super::corpus::Instance;
use super::finished::Finished;
use super::plan::Plan;

/// Which run a row is of: its instance, encoding column, solver and repetition.
pub(crate) struct Which<'a> {
    pub instance: &'a Instance,
    pub encoding: &'a str,
    pub solver: &'a str,
    pub run: u32,
}

/// The row of a finished, judged run.
pub(crate) fn build(plan: &Plan, which: &Which<'_>, finished: &Finished, judged: Judged) -> Row {
    let instance = which.instance;
    let outcome = &finished.outcome;
    let count = finished.count.as_ref();
    let mut row = Row {
        corpus: (&*instance.corpus).into(),
        instance: instance.id.as_str().into(),
        hash: instance.hash.as_str().into(),
        kind: instance.kind(),
        side: instance.side(),
        encoding: which.encoding.into(),
        vars: finished.size.0,
        clauses: finished.size.1,
        solver: which.solver.into(),
        mode: Some(finished.mode),
        run: which.run,
        status: outcome.status,
        check: judged.check,
        wall_s: outcome.wall.as_secs_f64(),
        cpu_s: outcome.cpu.map(|d| d.as_secs_f64()),
        max_rss_kb: outcome.max_rss_kb,
        exit_code: outcome.exit_code,
        timeout_s: plan.timeout().as_secs_f64(),
        cpu_limit_s: plan.limits.cpu_limit_s,
        limit: limit_column(outcome),
        jobs: plan.jobs as u32,
        error: judged.error,
        wrong: judged.wrong,
        solutions: judged.solutions,
        count_wall_s: count.map(|c| c.wall.as_secs_f64()),
        count_cpu_s: count.and_then(|c| c.cpu.map(|d| d.as_secs_f64())),
        givens: instance.givens(),
        family: instance.family().into(),
        trust: judged.trust,
        check_s: finished.checker.map(|c| c.cpu.as_secs_f64()),
        check_rss_kb: finished.checker.and_then(|c| c.max_rss_kb),
        ..Row::default()
    };
    row.set_work(crate::solver::work::Work::of(&outcome.stats));
    row
}

/// The `limit` column: which limit ended a TIMEOUT (the wall limit unless the outcome
/// names another) or a MEMOUT (memory); none for any other status.
fn limit_column(outcome: &crate::solver::Outcome) -> Option<LimitHit> {
    match outcome.status {
        Status::Timeout => Some(outcome.limit.unwrap_or(LimitHit::Wall)),
        Status::Memout => Some(LimitHit::Memory),
        _ => None,
    }
}
