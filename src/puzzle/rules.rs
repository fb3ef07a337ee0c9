//! The rules checked fast: a bitmask pass over the cells decides whether a puzzle's values
//! obey the rules (no value twice in a row, column or box; for a pair, no value in the
//! same cell of both boards). [`Puzzle::check_givens`] asks it first and builds its named
//! groups (about a hundred allocations on a 9×9) only to say which rule a puzzle breaks:
//! the check of every given read from a million-puzzle corpus and of every solution found
//! costs a pass over the cells. Sides up to [`MASK_SIDE`], one bit per value in a `u64`.

use super::Puzzle;

/// The widest side the bitmask pass handles.
pub(super) const MASK_SIDE: usize = 64;

/// True if no value repeats in a row, column or box of a board, and (for a pair) no cell
/// holds the same value on both boards. Sides up to [`MASK_SIDE`] only.
pub(super) fn givens_obey_rules(puzzle: &Puzzle) -> bool {
    let n = puzzle.side();
    // Without boxes (a Latin square) every cell writes to box 0, which is never read.
    let (k, has_boxes) = match puzzle.box_size() {
        Some(k) => (k, true),
        None => (n, false),
    };
    // Each column's box within its band of rows, divided once: no division per cell,
    // which would dominate the cost of reading a line or checking a solution.
    let mut column_box = [0usize; MASK_SIDE];
    if has_boxes {
        for (c, b) in column_box.iter_mut().enumerate().take(n) {
            *b = c / k;
        }
    }
    for board in puzzle.boards() {
        let mut columns = [0u64; MASK_SIDE];
        let mut boxes = [0u64; MASK_SIDE];
        for (r, row) in board.cells().chunks_exact(n).enumerate() {
            let box_row = if has_boxes { (r / k) * k } else { 0 };
            let mut row_mask = 0u64;
            for (c, &v) in row.iter().enumerate() {
                if v == 0 {
                    continue;
                }
                let bit = 1u64 << (v - 1);
                let b = box_row + column_box[c];
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
    use crate::rng::SplitMix64;

    fn puzzle(kind: Kind, side: usize, boards: &[&[u16]]) -> Puzzle {
        let grids = boards
            .iter()
            .map(|cells| Grid::from_cells(side, cells.to_vec()).unwrap())
            .collect();
        Puzzle::new(kind, grids).unwrap()
    }

    #[test]
    fn the_fast_pass_agrees_with_the_named_check() {
        let mut rng = SplitMix64::new(17);
        let mut broken = 0;
        for round in 0..3000 {
            let (kind, side, boards) = match round % 4 {
                0 => (Kind::Sudoku, 4, 1),
                1 => (Kind::Sudoku, 9, 1),
                2 => (Kind::Latin, 5, 1),
                _ => (Kind::Pair, 4, 2),
            };
            // Sparse random givens: about half the puzzles break a rule.
            let density = 2 + rng.below(side as u64 * 2);
            let cells: Vec<Vec<u16>> = (0..boards)
                .map(|_| {
                    (0..side * side)
                        .map(|_| {
                            if rng.below(side as u64 * side as u64) < density {
                                1 + rng.below(side as u64) as u16
                            } else {
                                0
                            }
                        })
                        .collect()
                })
                .collect();
            let refs: Vec<&[u16]> = cells.iter().map(Vec::as_slice).collect();
            let p = puzzle(kind, side, &refs);
            let fast = givens_obey_rules(&p);
            assert_eq!(fast, p.find_violation().is_ok(), "{kind:?} {cells:?}");
            assert_eq!(fast, p.check_givens().is_ok());
            broken += usize::from(!fast);
        }
        assert!(
            (500..2500).contains(&broken),
            "{broken} of 3000 broke a rule"
        );
    }

    #[test]
    fn violations_are_named() {
        let in_box = puzzle(
            Kind::Sudoku,
            4,
            &[&[1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]],
        );
        let message = in_box.check_givens().unwrap_err().to_string();
        assert!(message.contains("box 1"), "{message}");
        // A Latin square has no boxes: the same givens are fine.
        let latin = puzzle(
            Kind::Latin,
            4,
            &[&[1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]],
        );
        assert!(latin.check_givens().is_ok());
        let mut second = vec![0; 16];
        second[8] = 2;
        second[9] = 2;
        let repeated = puzzle(Kind::Pair, 4, &[&[0; 16], &second]);
        let message = repeated.check_givens().unwrap_err().to_string();
        assert!(
            message.starts_with("board 2: value 2 appears twice in row 3"),
            "{message}"
        );
        let mut first = vec![0; 16];
        first[13] = 3;
        let mut clash = vec![0; 16];
        clash[13] = 3;
        let message = puzzle(Kind::Pair, 4, &[&first, &clash])
            .check_givens()
            .unwrap_err()
            .to_string();
        assert_eq!(message, "both boards hold 3 at r4c2");
    }
}
