//! bench's adapter of the dedicated puzzle solver (the `gridsolve` crate): a [`Puzzle`] in,
//! solutions out as puzzles, each one checked against the rules and the givens here before
//! anyone sees it, exactly as a SAT solver's decoded model is. gridsolve knows nothing of
//! bench; this file is all bench knows of it.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use gridsolve::{Limit, Shape, Stop};

use crate::puzzle::{Grid, Kind, Puzzle};

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
    let mut solver = gridsolve::Solver::new(shape_of(puzzle)?);
    let givens: Vec<u16> = puzzle
        .boards()
        .iter()
        .flat_map(|b| b.cells().iter().copied())
        .collect();
    let mut stop = Stop::never();
    if let Some(d) = deadline {
        stop = stop.deadline(d);
    }
    if let Some(flag) = interrupt {
        stop = stop.interrupt(flag);
    }
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
    let grids = boards
        .iter()
        .map(|cells| Grid::from_cells(puzzle.side(), cells.clone()))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| wrong("a board of the wrong size or with a value out of range".into()))?;
    let solved = Puzzle::new(puzzle.kind(), grids).map_err(|e| wrong(e.to_string()))?;
    // check_solution refuses a cell left blank too.
    puzzle
        .check_solution(&solved)
        .map_err(|e| wrong(e.to_string()))?;
    Ok(solved)
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
