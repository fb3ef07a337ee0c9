//! The public entry point: a [`Solver`] for one [`Shape`], which checks the givens and
//! hands them to the engine that fits the shape (the fixed-size 9×9 sudoku engine, the
//! row-mask engine with the smallest row word that fits for every other sudoku, the
//! generic engine for Latin squares and pairs).

use std::fmt;

use crate::answer::Answer;
use crate::control::Control;
use crate::generic::Generic;
use crate::limit::{Limit, Stop};
use crate::nine::Nine;
use crate::rows::Rows;
use crate::shape::{Kind, Shape};

/// Why givens cannot be solved as given (clashing givens are not an error: they have no
/// solution).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputError {
    /// The givens do not hold `shape.cells()` values.
    WrongLength {
        /// `shape.cells()`.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// A value above the side (0 is a blank).
    ValueOutOfRange {
        /// Index in the givens.
        index: usize,
        /// The value found.
        value: u16,
        /// The side: values must be in `0..=side`.
        side: usize,
    },
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::WrongLength { expected, got } => {
                write!(f, "expected {expected} values in the givens, got {got}")
            }
            InputError::ValueOutOfRange { index, value, side } => {
                write!(f, "value {value} at index {index} is outside 0..={side}")
            }
        }
    }
}

impl std::error::Error for InputError {}

enum Engine {
    Nine(Box<Nine>),
    Rows16(Box<Rows<u16>>),
    Rows32(Box<Rows<u32>>),
    Rows64(Box<Rows<u64>>),
    Generic(Box<Generic>),
}

/// A solver for puzzles of one shape. It keeps its working memory between calls, so
/// reuse one solver for many puzzles of the same shape.
pub struct Solver {
    shape: Shape,
    engine: Engine,
}

impl Solver {
    /// A solver for `shape`: the 9×9 fast path for a 9×9 sudoku, the row-mask engine for
    /// a sudoku of any other side, the generic engine for Latin squares and pairs.
    pub fn new(shape: Shape) -> Solver {
        let engine = match (shape.kind(), shape.box_side()) {
            (Kind::Sudoku, Some(3)) => Engine::Nine(Box::default()),
            (Kind::Sudoku, Some(k @ ..=4)) => Engine::Rows16(Box::new(Rows::new(k))),
            (Kind::Sudoku, Some(5)) => Engine::Rows32(Box::new(Rows::new(5))),
            (Kind::Sudoku, Some(k)) => Engine::Rows64(Box::new(Rows::new(k))),
            _ => Engine::Generic(Box::new(Generic::new(&shape))),
        };
        Solver { shape, engine }
    }

    /// A solver for `shape` that uses the generic engine even for a sudoku (to compare
    /// the engines).
    pub fn new_generic(shape: Shape) -> Solver {
        Solver {
            shape,
            engine: Engine::Generic(Box::new(Generic::new(&shape))),
        }
    }

    /// The shape this solver solves.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Solves `givens` (row-major, `shape.cells()` values, 0 for a blank; for a pair the
    /// first board then the second) up to `limit`, never stopping early.
    pub fn solve(&mut self, givens: &[u16], limit: Limit) -> Result<Answer, InputError> {
        self.solve_until(givens, limit, Stop::never())
    }

    /// Like [`Solver::solve`], giving up with [`crate::Status::Stopped`] when `stop` fires.
    pub fn solve_until(
        &mut self,
        givens: &[u16],
        limit: Limit,
        stop: Stop<'_>,
    ) -> Result<Answer, InputError> {
        self.check(givens)?;
        let answer = match &mut self.engine {
            Engine::Nine(nine) => {
                let mut ctl = Control::new(limit, stop, 4096);
                nine.solve(givens, &mut ctl);
                ctl.finish()
            }
            Engine::Rows16(rows) => rows.solve_all(givens, limit, stop),
            Engine::Rows32(rows) => rows.solve_all(givens, limit, stop),
            Engine::Rows64(rows) => rows.solve_all(givens, limit, stop),
            Engine::Generic(generic) => {
                let mut ctl = Control::new(limit, stop, generic.check_every());
                generic.solve(givens, &mut ctl);
                ctl.finish()
            }
        };
        Ok(answer)
    }

    fn check(&self, givens: &[u16]) -> Result<(), InputError> {
        let expected = self.shape.cells();
        if givens.len() != expected {
            return Err(InputError::WrongLength {
                expected,
                got: givens.len(),
            });
        }
        let side = self.shape.side();
        match givens.iter().position(|&v| usize::from(v) > side) {
            Some(index) => Err(InputError::ValueOutOfRange {
                index,
                value: givens[index],
                side,
            }),
            None => Ok(()),
        }
    }
}
