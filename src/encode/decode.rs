//! From a model back to grids: cell (b, r, c) holds v+1 when var(b, r, c, v) is true.
//!
//! A cell with no true variable keeps its given (the `pruned` encoding leaves the givens'
//! variables out of every clause, so solvers may omit them) or stays blank, which the rule
//! check then reports; a cell with two true values is an error here.

use super::grid_var;
use crate::cnf::Model;
use crate::puzzle::Puzzle;

/// A model that cannot be read as grids.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{board}cell r{r}c{c} holds both {first} and {second}")]
pub struct DecodeError {
    /// "board 2: " for the second board of a pair.
    pub board: String,
    /// Row, 1-based.
    pub r: usize,
    /// Column, 1-based.
    pub c: usize,
    /// One value.
    pub first: u16,
    /// Another value.
    pub second: u16,
}

/// The grids that `model` describes for `puzzle` (whose givens fill cells the model omits).
pub fn decode(puzzle: &Puzzle, model: &Model) -> Result<Puzzle, DecodeError> {
    let n = puzzle.side();
    let pair = puzzle.boards().len() == 2;
    let mut out = puzzle.clone();
    for (b, board) in out.boards_mut().iter_mut().enumerate() {
        for r in 0..n {
            for c in 0..n {
                let mut found = 0u16;
                for v in 0..n {
                    if model.var_value(grid_var(n, b, r, c, v)) == Some(true) {
                        let value = v as u16 + 1;
                        if found != 0 {
                            return Err(DecodeError {
                                board: if pair {
                                    format!("board {}: ", b + 1)
                                } else {
                                    String::new()
                                },
                                r: r + 1,
                                c: c + 1,
                                first: found,
                                second: value,
                            });
                        }
                        found = value;
                    }
                }
                if found != 0 {
                    board.set(r, c, found);
                }
            }
        }
    }
    Ok(out)
}
