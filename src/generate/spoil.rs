//! Spoiling puzzles on purpose, for corpora that exercise UNSAT answers and uniqueness
//! checks. Both are guaranteed by the digging, not hoped for:
//! - `contradict`: the puzzle has the unique solution S, so a new given v ≠ S at a blank
//!   cell leaves no solution at all (any solution would be a second solution of the
//!   original); choosing v absent from the cell's row, column and box keeps the givens
//!   within the rules, so the contradiction is for the solver to find, not the reader.
//! - `remove_one`: a locally minimal puzzle loses uniqueness without any one of its givens.

use crate::puzzle::Puzzle;
use crate::rng::SplitMix64;

/// Adds a given that no solution can have and no rule forbids outright.
pub fn contradict(puzzle: &mut Puzzle, solution: &Puzzle, rng: &mut SplitMix64) {
    let n = puzzle.side();
    let groups = puzzle.groups();
    let mut cells: Vec<(usize, usize, usize)> = (0..puzzle.boards().len())
        .flat_map(|b| (0..n * n).map(move |i| (b, i / n, i % n)))
        .collect();
    rng.shuffle(&mut cells);
    for (b, r, c) in cells {
        if puzzle.boards()[b].get(r, c) != 0 {
            continue;
        }
        let mut values: Vec<u16> = (1..=n as u16)
            .filter(|&v| v != solution.boards()[b].get(r, c))
            .collect();
        rng.shuffle(&mut values);
        for v in values {
            puzzle.boards_mut()[b].set(r, c, v);
            let clash = groups
                .iter()
                .filter(|(_, g)| g.contains(&(r, c)))
                .any(|(_, g)| {
                    g.iter()
                        .any(|&(r2, c2)| (r2, c2) != (r, c) && puzzle.boards()[b].get(r2, c2) == v)
                });
            if !clash && puzzle.check_givens().is_ok() {
                return;
            }
            puzzle.boards_mut()[b].set(r, c, 0);
        }
    }
    unreachable!("a dug puzzle has a blank cell with a value free of clashes")
}

/// Removes one given at random.
pub fn remove_one(puzzle: &mut Puzzle, rng: &mut SplitMix64) {
    let n = puzzle.side();
    let givens: Vec<(usize, usize, usize)> = (0..puzzle.boards().len())
        .flat_map(|b| (0..n * n).map(move |i| (b, i / n, i % n)))
        .filter(|&(b, r, c)| puzzle.boards()[b].get(r, c) != 0)
        .collect();
    let (b, r, c) = givens[rng.below(givens.len() as u64) as usize];
    puzzle.boards_mut()[b].set(r, c, 0);
}
