//! The tasks of a plan: each formula ([`super::unit::Unit`]) × solver × repetition still
//! to run, in plan order, solvers rotated from one formula to the next (so that with
//! several jobs every solver shares the machine with every other, and none always runs
//! first). Each task's mode is decided here, once, from the plan, the instance, the
//! encoding and the solver: a child process ([`Mode::Process`]), an in-process solver on
//! a formula of its own ([`Mode::Fresh`]), an in-process session ([`Mode::Session`]), or
//! a dedicated puzzle solver given the puzzle itself ([`Mode::Dedicated`]). A dedicated
//! solver runs only the puzzles' own units (encoding `none`), a SAT solver only formulas:
//! a CNF instance has no dedicated run.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::Ordering;

use crate::encode::{EncodeOptions, Encoding};
use crate::puzzle::{Kind, Puzzle};
use crate::results::{Mode, Row};
use crate::solver::Solver;

use super::corpus::{Instance, Source};
use super::incremental::MAX_LOADED_CLAUSES;
use super::plan::Plan;
use super::unit::Unit;

/// One planned run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Task {
    /// The formula, by index.
    pub unit: usize,
    /// The solver, by index.
    pub solver: usize,
    /// The repetition, from 1.
    pub run: u32,
    /// How it runs.
    pub mode: Mode,
}

/// What decides a solver's mode besides the instance: whether it runs in bench's process,
/// and whether it has sessions.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SolverModes {
    /// In bench's process.
    pub in_process: bool,
    /// It can keep rules loaded and solve under assumptions.
    pub session: bool,
    /// With `--proofs` it writes DRAT, checked against one formula (so: no session).
    pub proofs: bool,
    /// A dedicated puzzle solver: it takes puzzles, not formulas.
    pub dedicated: bool,
}

impl SolverModes {
    /// What `solver` offers under `plan`.
    pub fn of(solver: &dyn Solver, plan: &Plan) -> SolverModes {
        SolverModes {
            in_process: solver.in_process(),
            session: solver.in_process() && solver.session(plan.seed).is_some(),
            proofs: plan.proofs && solver.proof_style().is_some(),
            dedicated: solver.reads_puzzles(),
        }
    }
}

/// The mode of a run of `solver` on `source` under `encoding`. A session needs the
/// incremental plan, a puzzle under any encoding but `pruned` (its givens are in its
/// clauses), a solver with sessions that need not write a proof, and rules of at most
/// `cap` clauses (`rule_clauses` counts them; bigger rules would save little against
/// solving anyway).
pub(crate) fn mode_of(
    plan: &Plan,
    source: &Source,
    encoding: Option<EncodeOptions>,
    solver: SolverModes,
    rule_clauses: &mut dyn FnMut(&Puzzle, EncodeOptions) -> u64,
    cap: u64,
) -> Mode {
    if solver.dedicated {
        return Mode::Dedicated;
    }
    if !solver.in_process {
        return Mode::Process;
    }
    let session = match (source, encoding) {
        (Source::Puzzle(p), Some(enc)) => {
            plan.incremental
                && enc.encoding != Encoding::Pruned
                && solver.session
                && !solver.proofs
                && rule_clauses(p, enc) <= cap
        }
        _ => false,
    };
    if session { Mode::Session } else { Mode::Fresh }
}

/// The clauses of the rules of `puzzle`'s shape under `enc`, counted once per shape.
#[derive(Default)]
pub(crate) struct RuleSizes(HashMap<(Kind, usize, EncodeOptions), u64>);

impl RuleSizes {
    /// The count for `puzzle`'s shape (`u64::MAX` when the shape has no empty puzzle).
    pub fn clauses(&mut self, puzzle: &Puzzle, enc: EncodeOptions) -> u64 {
        *self
            .0
            .entry((puzzle.kind(), puzzle.side(), enc))
            .or_insert_with(|| match Puzzle::empty(puzzle.kind(), puzzle.side()) {
                // Counted without encoding (a 961×961 sudoku has 10¹¹ clauses).
                Ok(empty) => crate::encode::size_bound(&empty, enc).0,
                Err(_) => u64::MAX,
            })
    }
}

/// The runs still to do (those `earlier` lacks), solvers rotated from one formula to the
/// next, each with its mode; and how many runs the plan has in all.
pub(crate) fn tasks(
    plan: &Plan,
    units: &[Unit],
    instances: &[Instance],
    solvers: &[Box<dyn Solver>],
    earlier: &[Row],
) -> (Vec<Task>, usize) {
    let done: HashSet<_> = earlier.iter().map(Row::key).collect();
    let modes: Vec<SolverModes> = solvers
        .iter()
        .map(|s| SolverModes::of(s.as_ref(), plan))
        .collect();
    let mut sizes = RuleSizes::default();
    let mut tasks = Vec::new();
    let mut planned = 0;
    for (u, unit) in units.iter().enumerate() {
        let instance = &instances[unit.instance];
        let encoding = unit.encoding_name();
        for run in 1..=plan.repeat {
            for k in 0..solvers.len() {
                let solver = (u + k) % solvers.len();
                if modes[solver].dedicated != unit.direct {
                    continue;
                }
                planned += 1;
                let key = (
                    instance.hash.as_str(),
                    encoding.as_str(),
                    solvers[solver].name(),
                    run,
                );
                if done.contains(&key) {
                    continue;
                }
                let mode = mode_of(
                    plan,
                    &instance.source,
                    unit.encoding,
                    modes[solver],
                    &mut |p, e| sizes.clauses(p, e),
                    MAX_LOADED_CLAUSES,
                );
                tasks.push(Task {
                    unit: u,
                    solver,
                    run,
                    mode,
                });
                unit.remaining.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
    (tasks, planned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Grid;

    #[test]
    fn rules_beyond_the_cap_are_solved_one_formula_per_puzzle() {
        let plan = crate::run::plan::plan_with(|_| {});
        let puzzle = Puzzle::new(
            Kind::Latin,
            vec![Grid::from_cells(3, vec![1, 2, 3, 2, 0, 0, 0, 0, 0]).unwrap()],
        )
        .unwrap();
        let source = Source::Puzzle(puzzle.clone());
        let enc = EncodeOptions::default();
        let native = crate::solver::by_name("native", &Default::default()).unwrap();
        let modes = SolverModes::of(native.as_ref(), &plan);
        let mut sizes = RuleSizes::default();
        let one = sizes.clauses(&puzzle, enc);
        let mut count = |p: &Puzzle, e| sizes.clauses(p, e);
        let mode = |cap, count: &mut dyn FnMut(&Puzzle, EncodeOptions) -> u64| {
            mode_of(&plan, &source, Some(enc), modes, count, cap)
        };
        assert_eq!(mode(one, &mut count), Mode::Session);
        assert_eq!(mode(one - 1, &mut count), Mode::Fresh);
        let pruned = EncodeOptions {
            encoding: Encoding::Pruned,
            ..enc
        };
        assert_eq!(
            mode_of(&plan, &source, Some(pruned), modes, &mut count, one),
            Mode::Fresh
        );
        let proofs = crate::run::plan::plan_with(|p| p.proofs = true);
        let with_proofs = SolverModes::of(native.as_ref(), &proofs);
        assert_eq!(
            mode_of(&proofs, &source, Some(enc), with_proofs, &mut count, one),
            Mode::Fresh
        );
        let minisat = crate::solver::by_name("minisat", &Default::default()).unwrap();
        let process = SolverModes::of(minisat.as_ref(), &plan);
        assert_eq!(
            mode_of(&plan, &source, Some(enc), process, &mut count, one),
            Mode::Process
        );
    }
}
