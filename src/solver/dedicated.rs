//! bench's adapter of the dedicated puzzle solver (the `gridsolve` crate): a [`Puzzle`] in,
//! solutions out as puzzles, each one checked against the rules and the givens here before
//! anyone sees it, exactly as a SAT solver's decoded model is. gridsolve knows nothing of
//! bench; this file is all bench knows of it. As a [`Solver`] of `bench run` it is
//! [`Gridsolve`]: a dedicated solver (mode `dedicated`), whose answers the run checks
//! itself, with its guesses as the work counter.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use gridsolve::{Limit, Shape, Stop};

use crate::cnf::Cnf;
use crate::puzzle::{Grid, Kind, Puzzle};

use super::puzzle::{PuzzleAnswer, PuzzleSession};
use super::{Clocks, LimitHit, Limits, Outcome, Solver, Status};

/// The dedicated solver's name, in `--solver` and in every table.
pub const NAME: &str = "gridsolve";

/// What one dedicated solve gave.
#[derive(Clone, Debug)]
pub struct Dedicated {
    /// What the search ended with.
    pub status: gridsolve::Status,
    /// The solutions found, each checked against the rules and the givens.
    pub solutions: Vec<Puzzle>,
    /// Solutions found (may exceed `solutions` when counting).
    pub count: u64,
    /// Whether the search space was exhausted (the count is exact).
    pub complete: bool,
    /// Branching decisions and search nodes (machine-independent work).
    pub stats: gridsolve::Stats,
}

/// Why a puzzle cannot be solved by the dedicated solver, or why its answer was refused.
#[derive(Debug, thiserror::Error)]
pub enum DedicatedError {
    /// A shape gridsolve does not take (a side above its largest).
    #[error("{NAME} does not solve this shape: {0}")]
    Shape(#[from] gridsolve::ShapeError),
    /// The givens did not fit the shape (a bug in this adapter, never the user's).
    #[error("{NAME} refused the givens: {0}")]
    Input(#[from] gridsolve::InputError),
    /// A solution that breaks the rules or the givens: a wrong answer.
    #[error("{NAME} gave a wrong solution: {0}")]
    Wrong(String),
}

/// gridsolve's shape of `puzzle`.
pub fn shape_of(puzzle: &Puzzle) -> Result<Shape, gridsolve::ShapeError> {
    let side = puzzle.side();
    match puzzle.kind() {
        Kind::Sudoku => Shape::sudoku(side),
        Kind::Latin => Shape::latin(side),
        Kind::Pair => Shape::sudoku_pair(side),
    }
}

/// The givens of every board of `puzzle`, cell by cell, as gridsolve reads them.
fn givens_of(puzzle: &Puzzle) -> Vec<u16> {
    puzzle
        .boards()
        .iter()
        .flat_map(|b| b.cells().iter().copied())
        .collect()
}

/// A search's stop: at either of `clocks` (the wall's, this thread's CPU clock's), or when
/// `interrupt` is set.
fn stop_at_clocks(clocks: Clocks, interrupt: Option<&AtomicBool>) -> Stop<'_> {
    let mut stop = Stop::never();
    if let Some(d) = clocks.wall {
        stop = stop.deadline(d);
    }
    if let Some(c) = clocks.cpu {
        stop = stop.cpu_deadline(c);
    }
    if let Some(flag) = interrupt {
        stop = stop.interrupt(flag);
    }
    stop
}

/// Whether the dedicated solver takes `puzzle`'s shape.
pub fn supports(puzzle: &Puzzle) -> bool {
    shape_of(puzzle).is_ok()
}

/// Solves `puzzle` for up to `limit` solutions, stopping at `deadline` or when `interrupt`
/// is set; every solution is checked before it is returned.
pub fn solve(
    puzzle: &Puzzle,
    limit: Limit,
    deadline: Option<Instant>,
    interrupt: Option<&AtomicBool>,
) -> Result<Dedicated, DedicatedError> {
    let clocks = Clocks {
        wall: deadline,
        cpu: None,
    };
    solve_within(puzzle, limit, clocks, interrupt)
}

/// [`solve`], stopping at either of `clocks` (the wall's, this thread's CPU clock's) or
/// when `interrupt` is set.
pub fn solve_within(
    puzzle: &Puzzle,
    limit: Limit,
    clocks: Clocks,
    interrupt: Option<&AtomicBool>,
) -> Result<Dedicated, DedicatedError> {
    let mut solver = gridsolve::Solver::new(shape_of(puzzle)?);
    let givens = givens_of(puzzle);
    let stop = stop_at_clocks(clocks, interrupt);
    let answer = solver.solve_until(&givens, limit, stop)?;
    let solutions = answer
        .solutions
        .iter()
        .map(|s| checked(puzzle, &s.boards))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Dedicated {
        status: answer.status,
        solutions,
        count: answer.count,
        complete: answer.complete,
        stats: answer.stats,
    })
}

/// `boards` as a puzzle of `puzzle`'s kind, if they solve it (rules and givens).
fn checked(puzzle: &Puzzle, boards: &[Vec<u16>]) -> Result<Puzzle, DedicatedError> {
    let wrong = |why: String| DedicatedError::Wrong(why);
    let solved = as_puzzle(puzzle, boards).map_err(wrong)?;
    // check_solution refuses a cell left blank too.
    puzzle
        .check_solution(&solved)
        .map_err(|e| wrong(e.to_string()))?;
    Ok(solved)
}

/// gridsolve as a solver of `bench run`: it takes puzzles, never formulas.
pub struct Gridsolve;

impl Solver for Gridsolve {
    fn name(&self) -> &str {
        NAME
    }

    fn version(&self) -> Option<String> {
        Some(env!("CARGO_PKG_VERSION").to_string())
    }

    fn in_process(&self) -> bool {
        true
    }

    fn solve(&self, _: &Cnf, _: &Limits) -> Outcome {
        Outcome::error(format!("{NAME} solves puzzles, not CNF formulas"))
    }

    fn reads_puzzles(&self) -> bool {
        true
    }

    fn puzzle_session(&self) -> Option<Box<dyn PuzzleSession>> {
        Some(Box::new(GridsolveSession))
    }
}

/// gridsolve in a worker: nothing kept between puzzles.
struct GridsolveSession;

impl PuzzleSession for GridsolveSession {
    fn solve(&mut self, puzzle: &Puzzle, count: u32, limits: &Limits) -> PuzzleAnswer {
        let mut answer = None;
        let outcome = super::measured(limits, || {
            let clocks = Clocks::starting_now(limits.timeout, limits.cpu_limit);
            let found = solve_raw(puzzle, count, clocks, limits);
            let outcome = found.outcome.clone();
            answer = Some(found);
            outcome
        });
        match answer {
            Some(answer) => answer.measured(outcome),
            None => PuzzleAnswer::without(outcome),
        }
    }
}

/// One search for up to `count` solutions, read as puzzles but not checked (the run
/// checks them), with gridsolve's guesses and nodes as its counters.
fn solve_raw(puzzle: &Puzzle, count: u32, clocks: Clocks, limits: &Limits) -> PuzzleAnswer {
    let error = |e: String| PuzzleAnswer::without(Outcome::error(format!("{NAME}: {e}")));
    let shape = match shape_of(puzzle) {
        Ok(s) => s,
        Err(e) => return error(e.to_string()),
    };
    let givens = givens_of(puzzle);
    let stop = stop_at_clocks(clocks, limits.interrupt.as_deref());
    let limit = Limit::at_most(u64::from(count.max(1)));
    let answer = match gridsolve::Solver::new(shape).solve_until(&givens, limit, stop) {
        Ok(a) => a,
        Err(e) => return error(e.to_string()),
    };
    let mut outcome = match answer.status {
        // Solutions found before a stop still answer the puzzle (the count stays open).
        gridsolve::Status::Solved => Outcome::new(Status::Sat),
        gridsolve::Status::Stopped if !answer.solutions.is_empty() => Outcome::new(Status::Sat),
        gridsolve::Status::NoSolution => Outcome::new(Status::Unsat),
        gridsolve::Status::Stopped => {
            Outcome::stopped_by(limits, clocks.passed().unwrap_or(LimitHit::Wall))
        }
    };
    outcome.stats = vec![
        ("guesses".into(), answer.stats.guesses),
        ("nodes".into(), answer.stats.nodes),
    ];
    PuzzleAnswer {
        outcome,
        solutions: answer
            .solutions
            .iter()
            .map(|s| as_puzzle(puzzle, &s.boards))
            .collect(),
        complete: answer.complete,
    }
}

/// `boards` as a puzzle of `puzzle`'s kind and side (not checked against the rules).
fn as_puzzle(puzzle: &Puzzle, boards: &[Vec<u16>]) -> Result<Puzzle, String> {
    let grids = boards
        .iter()
        .map(|cells| Grid::from_cells(puzzle.side(), cells.clone()))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| "a board of the wrong size or with a value out of range".to_string())?;
    Puzzle::new(puzzle.kind(), grids).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sudoku4(cells: &[u16]) -> Puzzle {
        Puzzle::new(
            Kind::Sudoku,
            vec![Grid::from_cells(4, cells.to_vec()).unwrap()],
        )
        .unwrap()
    }

    #[test]
    fn solutions_are_checked_puzzles_and_a_clash_has_none() {
        let p = sudoku4(&[1, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 2]);
        let got = solve(&p, Limit::at_most(10), None, None).unwrap();
        assert!(got.count >= 1);
        for s in &got.solutions {
            p.check_solution(s).unwrap();
        }
        let clash = sudoku4(&[1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        let got = solve(&clash, Limit::first(), None, None).unwrap();
        assert_eq!(got.status, gridsolve::Status::NoSolution);
        assert!(got.solutions.is_empty());
    }

    #[test]
    fn a_wrong_solution_is_refused() {
        let p = sudoku4(&[1, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 2]);
        let bad = vec![vec![1u16; 16]];
        assert!(matches!(checked(&p, &bad), Err(DedicatedError::Wrong(_))));
        let blank = vec![vec![0u16; 16]];
        assert!(matches!(checked(&p, &blank), Err(DedicatedError::Wrong(_))));
    }

    #[test]
    fn an_empty_four_by_four_has_288_solutions() {
        let p = Puzzle::empty(Kind::Sudoku, 4).unwrap();
        let got = solve(&p, Limit::all(), None, None).unwrap();
        assert_eq!((got.count, got.complete), (288, true));
    }
}
