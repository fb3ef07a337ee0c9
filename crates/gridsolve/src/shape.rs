//! The puzzle kinds and their shapes: what is being solved (sudoku, Latin square or sudoku
//! pair) and its side, checked once when a [`Shape`] is made so that every later step can
//! rely on it.

use std::fmt;

/// The largest side any kind supports: candidates are kept in one `u64` per cell.
pub const MAX_SIDE: usize = 64;

/// The kind of puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// One sudoku: every row, column and `k`×`k` box holds each value once (side `n = k²`).
    Sudoku,
    /// One Latin square: every row and column holds each value once (any side).
    Latin,
    /// Two sudokus of the same side solved together, with the values of the two boards
    /// different in every cell.
    SudokuPair,
}

/// Why a [`Shape`] cannot be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeError {
    /// The side is 0.
    ZeroSide,
    /// A sudoku (or sudoku pair) side that is not the square of a box side.
    NotASquare {
        /// The side asked for.
        side: usize,
    },
    /// A side above [`MAX_SIDE`].
    TooLarge {
        /// The side asked for.
        side: usize,
        /// The largest side supported ([`MAX_SIDE`]).
        max: usize,
    },
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeError::ZeroSide => write!(f, "a puzzle's side must be at least 1"),
            ShapeError::NotASquare { side } => {
                write!(
                    f,
                    "a sudoku's side must be a square (4, 9, 16, ...), not {side}"
                )
            }
            ShapeError::TooLarge { side, max } => {
                write!(f, "side {side} is above the largest supported side, {max}")
            }
        }
    }
}

impl std::error::Error for ShapeError {}

/// A kind and a side, valid by construction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    kind: Kind,
    side: usize,
    box_side: usize,
}

impl Shape {
    /// A shape of `kind` with `side` rows (values `1..=side`).
    ///
    /// Errors: a zero side, a sudoku side that is not a square, a side above [`MAX_SIDE`].
    pub fn new(kind: Kind, side: usize) -> Result<Shape, ShapeError> {
        if side == 0 {
            return Err(ShapeError::ZeroSide);
        }
        if side > MAX_SIDE {
            return Err(ShapeError::TooLarge {
                side,
                max: MAX_SIDE,
            });
        }
        let box_side = match kind {
            Kind::Latin => 0,
            Kind::Sudoku | Kind::SudokuPair => {
                let k = (1..=side).find(|k| k * k >= side).unwrap_or(side);
                if k * k != side {
                    return Err(ShapeError::NotASquare { side });
                }
                k
            }
        };
        Ok(Shape {
            kind,
            side,
            box_side,
        })
    }

    /// A sudoku of side `side` (boxes of `√side`×`√side`).
    pub fn sudoku(side: usize) -> Result<Shape, ShapeError> {
        Shape::new(Kind::Sudoku, side)
    }

    /// A Latin square of side `side`.
    pub fn latin(side: usize) -> Result<Shape, ShapeError> {
        Shape::new(Kind::Latin, side)
    }

    /// A pair of sudokus of side `side`, different in every cell.
    pub fn sudoku_pair(side: usize) -> Result<Shape, ShapeError> {
        Shape::new(Kind::SudokuPair, side)
    }

    /// The kind.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The side `n`: rows, columns and values per board.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The box side `k` (`n = k²`) of a sudoku or sudoku pair; `None` for a Latin square.
    pub fn box_side(&self) -> Option<usize> {
        (self.kind != Kind::Latin).then_some(self.box_side)
    }

    /// The number of boards: 2 for a sudoku pair, 1 otherwise.
    pub fn boards(&self) -> usize {
        if self.kind == Kind::SudokuPair { 2 } else { 1 }
    }

    /// Cells per board, `n²`.
    pub fn board_cells(&self) -> usize {
        self.side * self.side
    }

    /// Cells in all boards: the length of the givens and of a solution, `boards × n²`.
    pub fn cells(&self) -> usize {
        self.boards() * self.board_cells()
    }
}
