//! Checking the givens of every puzzle read, fast.
//!
//! [`Puzzle::check_givens`] builds its groups as vectors of named cells, which costs about a
//! hundred allocations per 9×9 puzzle: too slow for a million-puzzle corpus. Here a bitmask
//! pass over the cells decides whether the givens obey the rules; only when they do not is
//! `check_givens` asked, so that its message (the one the rest of bench uses) is the one the
//! user sees.

use crate::puzzle::Puzzle;

/// The widest side the bitmask pass handles: one bit per value in a `u64`.
const MASK_SIDE: usize = 64;

/// `Ok` if the givens obey the rules; otherwise `check_givens`'s message.
pub(super) fn check(puzzle: &Puzzle) -> Result<(), String> {
    if puzzle.side() <= MASK_SIDE && givens_obey_rules(puzzle) {
        return Ok(());
    }
    puzzle
        .check_givens()
        .map_err(|violation| violation.to_string())
}

/// True if no value repeats in a row, column or box of a board, and (for a pair) no cell
/// holds the same value on both boards. Sides up to [`MASK_SIDE`] only.
fn givens_obey_rules(puzzle: &Puzzle) -> bool {
    let n = puzzle.side();
    // Without boxes (a Latin square) every cell writes to box 0, which is never read.
    let (k, has_boxes) = match puzzle.box_size() {
        Some(k) => (k, true),
        None => (n, false),
    };
    for board in puzzle.boards() {
        let mut columns = [0u64; MASK_SIDE];
        let mut boxes = [0u64; MASK_SIDE];
        // Nested loops with running box indices: no division per cell, which would
        // dominate the cost of reading a line.
        for (r, row) in board.cells().chunks_exact(n).enumerate() {
            let box_row = if has_boxes { (r / k) * k } else { 0 };
            let mut row_mask = 0u64;
            for (c, &v) in row.iter().enumerate() {
                if v == 0 {
                    continue;
                }
                let bit = 1u64 << (v - 1);
                let b = box_row + if has_boxes { c / k } else { 0 };
                if (row_mask | columns[c] | if has_boxes { boxes[b] } else { 0 }) & bit != 0 {
                    return false;
                }
                row_mask |= bit;
                columns[c] |= bit;
                boxes[b] |= bit;
            }
        }
    }
    match puzzle.boards() {
        [first, second] => first
            .cells()
            .iter()
            .zip(second.cells())
            .all(|(&a, &b)| a == 0 || a != b),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{Grid, Kind};

    fn puzzle(kind: Kind, side: usize, boards: &[&[u16]]) -> Puzzle {
        let grids = boards
            .iter()
            .map(|cells| Grid::from_cells(side, cells.to_vec()).unwrap())
            .collect();
        Puzzle::new(kind, grids).unwrap()
    }

    #[test]
    fn agrees_with_check_givens() {
        let ok = puzzle(
            Kind::Sudoku,
            4,
            &[&[1, 2, 0, 0, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]],
        );
        assert_eq!(check(&ok), Ok(()));
        let in_box = puzzle(
            Kind::Sudoku,
            4,
            &[&[1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]],
        );
        let message = check(&in_box).unwrap_err();
        assert!(message.contains("box 1"), "{message}");
        // A Latin square has no boxes: the same givens are fine.
        let latin = puzzle(
            Kind::Latin,
            4,
            &[&[1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]],
        );
        assert_eq!(check(&latin), Ok(()));
        let mut second = vec![0; 16];
        second[8] = 2;
        second[9] = 2;
        let repeated = puzzle(Kind::Pair, 4, &[&[0; 16], &second]);
        let message = check(&repeated).unwrap_err();
        assert!(
            message.starts_with("board 2: value 2 appears twice in row 3"),
            "{message}"
        );
        let mut first = vec![0; 16];
        first[13] = 3;
        let mut clash = vec![0; 16];
        clash[13] = 3;
        let message = check(&puzzle(Kind::Pair, 4, &[&first, &clash])).unwrap_err();
        assert_eq!(message, "both boards hold 3 at r4c2");
    }
}
