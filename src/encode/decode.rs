//! From a model back to grids: cell (b, r, c) holds v+1 when var(b, r, c, v) is true.
//!
//! Only what the formula says is read. A grid variable that occurs in no clause of the
//! instance is free: a solver may set it either way (kissat and cadical set some free
//! variables true, minisat leaves them false), so it says nothing about the grid. The
//! `pruned` encoding leaves out every variable that the givens decide (the givens' own and
//! the candidates they rule out), so the decoder reads a cell from the variables the
//! formula keeps (the *used* set, [`crate::cnf::Cnf::used_vars`]) and falls back on the
//! given for a cell that has none true. A cell with two true used values is a
//! [`DecodeError`]; a cell with none and no given stays blank, which the rule check reports.

use super::grid_var;
use crate::cnf::{Model, Var};
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

/// True when `var` occurs in the formula whose [`used_vars`](crate::cnf::Cnf::used_vars)
/// is `used`.
#[inline]
pub fn is_used(used: &[bool], var: Var) -> bool {
    used.get(var.index()).copied().unwrap_or(false)
}

/// The grids that `model` describes for `puzzle`, reading only the grid variables marked
/// in `used` (the formula's [`used_vars`](crate::cnf::Cnf::used_vars)); the givens fill
/// the cells that no used variable decides.
pub fn decode(puzzle: &Puzzle, model: &Model, used: &[bool]) -> Result<Puzzle, DecodeError> {
    decode_where(puzzle, model, |var| is_used(used, Var::new(var as u32)))
}

/// [`decode`] for a model that assigns every grid variable the formula could use (a model
/// of the full, unpruned rules, as the generator's solver and the incremental sessions
/// return): every grid variable is read.
pub fn decode_full(puzzle: &Puzzle, model: &Model) -> Result<Puzzle, DecodeError> {
    decode_where(puzzle, model, |_| true)
}

/// [`decode`], reading the grid variables (by index) for which `used` holds. The grid
/// variables run board by board, row by row, cell by cell, value by value
/// ([`grid_var`]), so one running index walks them all.
fn decode_where(
    puzzle: &Puzzle,
    model: &Model,
    used: impl Fn(usize) -> bool,
) -> Result<Puzzle, DecodeError> {
    let n = puzzle.side();
    let pair = puzzle.boards().len() == 2;
    let values = model.values();
    let mut out = puzzle.clone();
    for (b, board) in out.boards_mut().iter_mut().enumerate() {
        let mut var = grid_var(n, b, 0, 0, 0).index();
        for r in 0..n {
            for c in 0..n {
                debug_assert_eq!(var, grid_var(n, b, r, c, 0).index());
                // The cell's n variables side by side (fewer, or none, where the model
                // ends: a variable it leaves out is not true).
                let cell = values.get(var..values.len().min(var + n)).unwrap_or(&[]);
                let (found, second) = true_values(cell, |v| used(var + v));
                if let Some(second) = second {
                    return Err(DecodeError {
                        board: if pair {
                            format!("board {}: ", b + 1)
                        } else {
                            String::new()
                        },
                        r: r + 1,
                        c: c + 1,
                        first: found,
                        second,
                    });
                }
                var += n;
                if found != 0 {
                    board.set(r, c, found);
                }
            }
        }
    }
    Ok(out)
}

/// The lowest and the next value (1-based) whose variable in `cell` is true and `used`
/// (0 and None where there are none). Up to 64 values as a bitmask, without a branch per
/// variable (which value holds varies from cell to cell, so a branch is mispredicted).
#[inline]
fn true_values(cell: &[Option<bool>], used: impl Fn(usize) -> bool) -> (u16, Option<u16>) {
    if cell.len() <= 64 {
        let mut mask = 0u64;
        for (v, &value) in cell.iter().enumerate() {
            mask |= u64::from(value == Some(true) && used(v)) << v;
        }
        if mask == 0 {
            return (0, None);
        }
        let rest = mask & (mask - 1);
        let first = mask.trailing_zeros() as u16 + 1;
        return (first, (rest != 0).then(|| rest.trailing_zeros() as u16 + 1));
    }
    let mut true_at = cell
        .iter()
        .enumerate()
        .filter(|&(v, &value)| value == Some(true) && used(v))
        .map(|(v, _)| v as u16 + 1);
    (true_at.next().unwrap_or(0), true_at.next())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Kind;

    #[test]
    fn free_variables_are_not_read() {
        let mut p = Puzzle::empty(Kind::Latin, 2).unwrap();
        p.boards_mut()[0].set(0, 0, 1);
        // r1c1 given 1; the model also sets the unused variable "r1c1 = 2" true, and
        // decides the other cells through used variables.
        let mut model = Model::new();
        model.set(grid_var(2, 0, 0, 0, 1).pos());
        model.set(grid_var(2, 0, 0, 1, 1).pos());
        model.set(grid_var(2, 0, 1, 0, 1).pos());
        model.set(grid_var(2, 0, 1, 1, 0).pos());
        let mut used = vec![true; 8];
        used[grid_var(2, 0, 0, 0, 0).index()] = false;
        used[grid_var(2, 0, 0, 0, 1).index()] = false;
        let solved = decode(&p, &model, &used).unwrap();
        assert_eq!(solved.boards()[0].cells(), &[1, 2, 2, 1]);
        // With the free "r1c1 = 1" set too, reading every variable finds two values in
        // r1c1; reading what the formula uses finds the given.
        model.set(grid_var(2, 0, 0, 0, 0).pos());
        let err = decode_full(&p, &model).unwrap_err();
        assert_eq!(err.to_string(), "cell r1c1 holds both 1 and 2");
        assert_eq!(decode(&p, &model, &used).unwrap(), solved);
    }

    #[test]
    fn a_cell_reads_the_same_as_a_mask_and_value_by_value() {
        // Cells of 9 and of 70 values (the bitmask and the walk), every pattern of up to
        // two true values among unset, false and true ones, and a used-set.
        for len in [9usize, 70] {
            let used = |v: usize| v % 7 != 3;
            for i in 0..len {
                for j in i..len {
                    let mut cell = vec![Some(false); len];
                    cell[len / 2] = None;
                    cell[i] = Some(true);
                    cell[j] = Some(true);
                    let trues: Vec<u16> = (0..len)
                        .filter(|&v| cell[v] == Some(true) && used(v))
                        .map(|v| v as u16 + 1)
                        .collect();
                    let want = (trues.first().copied().unwrap_or(0), trues.get(1).copied());
                    assert_eq!(true_values(&cell, used), want, "{len}: {i} {j}");
                }
            }
            assert_eq!(true_values(&vec![None; len], |_| true), (0, None));
        }
    }
}
