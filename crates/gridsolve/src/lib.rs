//! `gridsolve` solves sudokus (boxes of `k`×`k`, side `k²` up to 64), Latin squares (any
//! side up to 64) and sudoku pairs (two sudokus whose values differ in every cell) with a
//! dedicated search: candidate bit sets, naked and hidden singles, locked candidates,
//! branching on the most constrained cell and backtracking by copying a compact state.
//! A fixed-size engine with a band layout serves 9×9 sudokus, a row-mask engine (per
//! value and row, the columns still open; with a lookahead that probes both sides of
//! each binary choice at every node) every other sudoku, and a generic engine
//! Latin squares and sudoku pairs. Sides above [`MAX_SIDE`] are refused by [`Shape::new`].
//!
//! ```
//! use gridsolve::{Limit, Shape, Solver, Status};
//!
//! let mut solver = Solver::new(Shape::sudoku(4).unwrap());
//! let givens = [1, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 2];
//! let answer = solver.solve(&givens, Limit::at_most(2)).unwrap();
//! assert_eq!(answer.status, Status::Solved);
//! assert!(answer.count >= 1);
//! ```

mod answer;
mod control;
mod generic;
mod limit;
mod nine;
mod rows;
mod shape;
mod solver;

pub use answer::{Answer, Solution, Stats, Status};
pub use limit::{Limit, Stop};
pub use shape::{Kind, MAX_SIDE, Shape, ShapeError};
pub use solver::{InputError, Solver};
