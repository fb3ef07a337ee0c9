//! The dedicated runner: a puzzle handed to a dedicated solver (mode `dedicated`, encoding
//! `none`) through the worker's [`PuzzleSession`] of it, and its answer checked exactly as
//! a SAT solver's decoded model is: every solution against the rules and the givens
//! ([`Puzzle::check_solution`]), with `--count` every one distinct ([`judge::count_step`]).
//! A wrong first solution is `model-wrong`; a wrong later one makes the count wrong; a
//! claim of no solution is UNSAT, held against the records by the judgement like any.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::judge::{self, Verdict};
use crate::puzzle::Puzzle;
use crate::results::Mode;
use crate::solver::puzzle::{PuzzleAnswer, PuzzleSession};
use crate::solver::{Limits, Outcome, Solver, Status};

use super::finished::{Counted, Finished};
use super::plan::Plan;

/// One worker's dedicated solvers, by solver index: a program keeps running between the
/// puzzles of one worker.
#[derive(Default)]
pub(crate) struct PuzzleSessions(HashMap<usize, Box<dyn PuzzleSession>>);

/// Solves `puzzle` with dedicated solver `index` (`solver`) and checks its answer. None
/// when Ctrl-C stopped it.
pub(crate) fn run(
    sessions: &mut PuzzleSessions,
    index: usize,
    solver: &dyn Solver,
    plan: &Plan,
    puzzle: &Puzzle,
    interrupt: &Arc<AtomicBool>,
) -> Option<Finished> {
    let limits = Limits {
        timeout: Some(plan.timeout()),
        cpu_limit: plan.limits.cpu(),
        mem_limit_mb: plan.limits.mem_limit_mb,
        interrupt: Some(interrupt.clone()),
        proof: None,
        binary_proof: false,
        seed: plan.seed,
    };
    let answer = match sessions.0.entry(index) {
        std::collections::hash_map::Entry::Occupied(s) => s.into_mut(),
        std::collections::hash_map::Entry::Vacant(v) => match solver.puzzle_session() {
            Some(s) => v.insert(s),
            None => {
                let why = format!("{} is not a dedicated puzzle solver", solver.name());
                return Some(finished(plan, Outcome::error(why), Checked::none()));
            }
        },
    }
    .solve(puzzle, plan.count.max(1), &limits);
    if interrupt.load(Ordering::Relaxed) {
        return None;
    }
    let checked = check(puzzle, &answer, plan.count.max(1));
    let mut outcome = answer.outcome;
    outcome.model = None;
    Some(finished(plan, outcome, checked))
}

/// What the check of a dedicated answer found.
struct Checked {
    verdict: Verdict,
    /// The solutions checked right, the first one first.
    grids: Vec<Puzzle>,
    /// Why the count is wrong (a later solution broke the rules or repeated one).
    count_wrong: Option<String>,
    /// Whether the count is known: the limit reached, or the search complete.
    count_known: bool,
}

impl Checked {
    fn none() -> Checked {
        Checked {
            verdict: Verdict::Unchecked(None),
            grids: Vec::new(),
            count_wrong: None,
            count_known: false,
        }
    }
}

/// Checks every solution of `answer` against the rules and the givens of `puzzle`, and
/// that no two are the same.
fn check(puzzle: &Puzzle, answer: &PuzzleAnswer, limit: u32) -> Checked {
    let mut checked = Checked::none();
    if answer.outcome.status != Status::Sat {
        return checked;
    }
    let solutions = match &answer.solutions {
        Ok(s) if s.is_empty() => Err("SAT without a solution".to_string()),
        Ok(s) => Ok(s),
        Err(why) => Err(format!("an answer that is no solution: {why}")),
    };
    let solutions = match solutions {
        Ok(s) => s,
        Err(why) => {
            checked.verdict = Verdict::ModelWrong(why);
            return checked;
        }
    };
    for (k, s) in solutions.iter().enumerate() {
        let step = puzzle
            .check_solution(s)
            .map_err(|e| format!("solution {} is wrong: {e}", k + 1))
            .and_then(|()| judge::count_step(&checked.grids, s, k + 1));
        match step {
            Ok(()) => checked.grids.push(s.clone()),
            Err(why) if k == 0 => {
                checked.verdict = Verdict::ModelWrong(why);
                return checked;
            }
            Err(why) => {
                checked.count_wrong = Some(why);
                break;
            }
        }
    }
    checked.verdict = Verdict::ModelOk;
    let found = checked.grids.len() as u32;
    checked.count_known = found >= limit || answer.complete;
    checked
}

/// The finished run of a dedicated answer.
fn finished(plan: &Plan, outcome: Outcome, checked: Checked) -> Finished {
    let count = (plan.count >= 2).then(|| {
        let mut counted = Counted::after(&outcome);
        counted.grids = checked.grids.clone();
        counted.wrong = checked.count_wrong.clone();
        if checked.count_known {
            counted.count = Some(counted.grids.len() as u32);
        } else if outcome.status == Status::Sat {
            counted.stopped = Some(
                "the solver stopped, or gives one solution a puzzle, before the count ended"
                    .to_string(),
            );
        }
        counted
    });
    Finished {
        mode: Mode::Dedicated,
        size: (0, 0),
        outcome,
        checked: checked.verdict,
        grids: checked.grids.into_iter().next(),
        count,
        checker: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{Grid, Kind};

    fn latin(cells: [u16; 4]) -> Puzzle {
        Puzzle::new(
            Kind::Latin,
            vec![Grid::from_cells(2, cells.to_vec()).unwrap()],
        )
        .unwrap()
    }

    fn answer(solutions: Vec<Puzzle>) -> PuzzleAnswer {
        PuzzleAnswer {
            outcome: Outcome::new(Status::Sat),
            solutions: Ok(solutions),
            complete: false,
        }
    }

    #[test]
    fn every_solution_is_checked_and_distinct() {
        let empty = Puzzle::empty(Kind::Latin, 2).unwrap();
        let (a, b) = (latin([1, 2, 2, 1]), latin([2, 1, 1, 2]));
        let ok = check(&empty, &answer(vec![a.clone(), b.clone()]), 5);
        assert_eq!(ok.verdict, Verdict::ModelOk);
        assert_eq!((ok.grids.len(), ok.count_known), (2, false));
        let bad = check(&empty, &answer(vec![latin([1, 1, 2, 2])]), 1);
        assert!(matches!(bad.verdict, Verdict::ModelWrong(_)));
        let repeated = check(&empty, &answer(vec![a.clone(), a.clone()]), 5);
        assert_eq!(repeated.verdict, Verdict::ModelOk);
        assert_eq!(
            repeated.count_wrong.as_deref(),
            Some("solution 2 repeats a blocked one")
        );
        let given = latin([2, 0, 0, 0]);
        let against_givens = check(&given, &answer(vec![a]), 1);
        assert!(matches!(against_givens.verdict, Verdict::ModelWrong(_)));
        let unreadable = PuzzleAnswer {
            solutions: Err("a line of 3 cells".into()),
            ..answer(Vec::new())
        };
        assert!(matches!(
            check(&empty, &unreadable, 1).verdict,
            Verdict::ModelWrong(_)
        ));
        assert!(matches!(
            check(&empty, &answer(Vec::new()), 1).verdict,
            Verdict::ModelWrong(_)
        ));
    }
}
