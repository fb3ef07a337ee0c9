//! Symmetries of a puzzle: relabelling the values and permuting rows and columns in ways
//! that keep the rules (for sudokus: rows within a band, bands, columns within a stack,
//! stacks, and the transpose; for Latin squares: any rows and columns). A shuffled puzzle
//! has the same number of solutions and the same difficulty for a human, but a solver
//! sees a differently numbered formula: averaging over shuffles makes a rating that does
//! not hang on one lucky variable order.

use crate::puzzle::{Kind, Puzzle};
use crate::rng::SplitMix64;

/// A random permutation of 0..n.
fn permutation(n: usize, rng: &mut SplitMix64) -> Vec<usize> {
    let mut p: Vec<usize> = (0..n).collect();
    rng.shuffle(&mut p);
    p
}

/// A random order of the lines of a board of side n = k·k that keeps the k-blocks
/// together (bands or stacks), or any order when `k` is None.
fn line_order(n: usize, k: Option<usize>, rng: &mut SplitMix64) -> Vec<usize> {
    match k {
        None => permutation(n, rng),
        Some(k) => {
            let blocks = permutation(k, rng);
            let mut order = Vec::with_capacity(n);
            for b in blocks {
                let inner = permutation(k, rng);
                order.extend(inner.into_iter().map(|i| b * k + i));
            }
            order
        }
    }
}

/// A random symmetric copy of `puzzle` (the same transformation on both boards of a pair).
pub fn shuffled(puzzle: &Puzzle, rng: &mut SplitMix64) -> Puzzle {
    let n = puzzle.side();
    let k = puzzle.box_size();
    let labels = permutation(n, rng);
    let rows = line_order(n, k, rng);
    let cols = line_order(n, k, rng);
    let transpose = puzzle.kind() != Kind::Latin && rng.coin();
    let mut out = puzzle.clone();
    for (b, board) in out.boards_mut().iter_mut().enumerate() {
        let source = &puzzle.boards()[b];
        for (r, &row) in rows.iter().enumerate() {
            for (c, &col) in cols.iter().enumerate() {
                let (sr, sc) = if transpose { (col, row) } else { (row, col) };
                let v = source.get(sr, sc);
                board.set(
                    r,
                    c,
                    if v == 0 {
                        0
                    } else {
                        labels[v as usize - 1] as u16 + 1
                    },
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Grid;

    #[test]
    fn a_shuffled_solution_is_still_a_solution() {
        let k = 3;
        let n = 9;
        let cells: Vec<u16> = (0..n * n)
            .map(|i| ((i / n * k + i / n / k + i % n) % n + 1) as u16)
            .collect();
        let p = Puzzle::new(Kind::Sudoku, vec![Grid::from_cells(n, cells).unwrap()]).unwrap();
        let mut rng = SplitMix64::new(5);
        for _ in 0..20 {
            let s = shuffled(&p, &mut rng);
            assert!(s.check_givens().is_ok());
            assert_eq!(s.givens(), 81);
        }
    }
}
