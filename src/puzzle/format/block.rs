//! Blocks of rows, the layout the grid and CSV formats share: puzzles are runs of rows
//! separated by blank lines, and the shape of a run decides what it holds.
//!
//! A block of R rows whose rows have n cells is
//! - one board of side n when R = n, a pair when R = 2n (no kind forced);
//! - with a forced kind of b boards (1, or 2 for a pair), R / (b·n) puzzles one after
//!   another, so that a file of sudokus written without blank lines still reads with
//!   `--kind sudoku`.
//!
//! - a block of one row of n² cells (2·n² for a pair) is a whole puzzle written on one line:
//!   `0 0 3 0 … 12` as public solver repositories store a 16×16 or 25×25 (a board needs
//!   at least two rows, so no other reading is lost).
//!
//! Rows may be readable with more than one width (a grid row `10 11 12 13` is 4 integers or
//! 8 symbols): the side chosen is the one that most rows fit among those the row count
//! allows, the larger on a tie. A row that does not fit it is the error, at its own line.

use std::collections::BTreeMap;

use super::{Failure, Parsed, assemble};
use crate::puzzle::{Grid, Kind, MAX_SIDE};

/// One row of a block.
pub(super) trait Row {
    /// Its 1-based line.
    fn line(&self) -> usize;
    /// The cell counts the row can be read as (none if it holds a character that is not
    /// allowed; two when symbols and integers read it differently).
    fn widths(&self) -> [Option<usize>; 2];
    /// Appends the row's n cells to `cells`, or says why the row is not n cells of 0..=n.
    fn decode(&self, n: usize, cells: &mut Vec<u16>) -> Result<(), String>;
}

/// Reads the puzzles of one block of rows; `cell_word` names a row's items in messages.
pub(super) fn read_block<R: Row>(
    rows: &[R],
    kind: Option<Kind>,
    cell_word: &str,
    sink: &mut dyn FnMut(Parsed),
) {
    let Some(first) = rows.first() else { return };
    let count = rows.len();
    if count == 1
        && let Some((side, boards)) = one_row_shape(first, kind)
    {
        sink(Parsed::puzzle(
            first.line(),
            1,
            decode_one_row(first, side, boards, kind),
        ));
        return;
    }
    let mut fitting: BTreeMap<usize, usize> = BTreeMap::new();
    for row in rows {
        let [a, b] = row.widths();
        for width in [a, b.filter(|&b| Some(b) != a)].into_iter().flatten() {
            *fitting.entry(width).or_default() += 1;
        }
    }
    let boards_per_puzzle = |n: usize| -> Option<usize> {
        match kind {
            Some(kind) => count
                .is_multiple_of(kind.boards() * n)
                .then_some(kind.boards()),
            None if count == n => Some(1),
            None if count == 2 * n => Some(2),
            None => None,
        }
    };
    let best = fitting
        .iter()
        .filter(|&(&n, _)| (2..=MAX_SIDE).contains(&n))
        .filter_map(|(&n, &fits)| boards_per_puzzle(n).map(|boards| (fits, n, boards)))
        .max();
    let Some((_, side, boards)) = best else {
        let failure = Failure::shape(
            first.line(),
            shapeless_block(rows, &fitting, kind, cell_word),
        );
        sink(Parsed::puzzle(first.line(), count, Err(failure)));
        return;
    };
    for chunk in rows.chunks(boards * side) {
        let line = chunk[0].line();
        sink(Parsed::puzzle(
            line,
            chunk.len(),
            decode_puzzle(chunk, side, kind),
        ));
    }
}

/// The side and board count of a puzzle written as one row, if the row's width is n² (one
/// board) or 2·n² (a pair) and the kind allows it.
fn one_row_shape<R: Row>(row: &R, kind: Option<Kind>) -> Option<(usize, usize)> {
    row.widths().into_iter().flatten().find_map(|w| {
        let one = crate::puzzle::exact_sqrt(w)
            .filter(|&n| n >= 2 && kind.is_none_or(|k| k.boards() == 1))
            .map(|n| (n, 1));
        let two = (w % 2 == 0)
            .then(|| crate::puzzle::exact_sqrt(w / 2))
            .flatten()
            .filter(|&n| n >= 2 && kind.is_none_or(|k| k.boards() == 2))
            .map(|n| (n, 2));
        one.or(two).filter(|&(n, _)| n <= MAX_SIDE)
    })
}

/// The puzzle of one row of `boards`·`side`² cells.
fn decode_one_row<R: Row>(
    row: &R,
    side: usize,
    boards: usize,
    kind: Option<Kind>,
) -> Result<crate::puzzle::Puzzle, Failure> {
    let width = boards * side * side;
    let mut cells = Vec::with_capacity(width);
    row.decode(width, &mut cells)
        .map_err(|message| Failure::shape(row.line(), message))?;
    if let Some(i) = cells.iter().position(|&v| v as usize > side) {
        return Err(Failure::shape(
            row.line(),
            format!(
                "value {} at position {} is larger than the side {side}",
                cells[i],
                i + 1
            ),
        ));
    }
    let grids = cells
        .chunks(side * side)
        .filter_map(|c| Grid::from_cells(side, c.to_vec()))
        .collect();
    assemble(grids, kind, row.line())
}

/// The puzzle of `rows`: one or two boards of side `side`, row by row.
fn decode_puzzle<R: Row>(
    rows: &[R],
    side: usize,
    kind: Option<Kind>,
) -> Result<crate::puzzle::Puzzle, Failure> {
    let mut boards = Vec::with_capacity(2);
    for board_rows in rows.chunks(side) {
        let mut cells = Vec::with_capacity(side * side);
        for row in board_rows {
            row.decode(side, &mut cells)
                .map_err(|message| Failure::shape(row.line(), message))?;
        }
        let grid = Grid::from_cells(side, cells).ok_or_else(|| {
            Failure::shape(
                board_rows[0].line(),
                format!("rows do not make a {side}×{side} board"),
            )
        })?;
        boards.push(grid);
    }
    assemble(boards, kind, rows[0].line())
}

/// Why no side fits a block: its row count and the width most of its rows have.
fn shapeless_block<R: Row>(
    rows: &[R],
    fitting: &BTreeMap<usize, usize>,
    kind: Option<Kind>,
    cell_word: &str,
) -> String {
    let count = rows.len();
    // The most common width, the smaller on a tie (max_by_key keeps the last maximum).
    let Some((&width, _)) = fitting.iter().rev().max_by_key(|&(_, &fits)| fits) else {
        // No row is readable at all: the first row's own fault says why.
        return rows[0]
            .decode(count, &mut Vec::new())
            .err()
            .unwrap_or_else(|| "not a grid".to_string());
    };
    if !(2..=MAX_SIDE).contains(&width) {
        return format!("{count} rows of {width} {cell_word}: the side must be 2 to {MAX_SIDE}");
    }
    match kind {
        Some(kind) => format!(
            "{count} rows of {width} {cell_word}: a {kind} of side {width} needs {} rows (or a multiple)",
            kind.boards() * width
        ),
        None => format!(
            "{count} rows of {width} {cell_word}: a board of side {width} needs {width} rows ({} for a pair)",
            2 * width
        ),
    }
}
