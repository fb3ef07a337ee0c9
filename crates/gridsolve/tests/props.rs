//! Property tests: on small random puzzles (sudoku 4×4, Latin squares of side 3 to 5,
//! sudoku pairs of box 2) the solver's exact count equals a brute-force count, and every
//! solution returned is valid, agrees with the givens and is distinct; on random 9×9
//! puzzles and on variants of hard 9×9 puzzles (givens removed, a digit added) the fast
//! engine and the generic engine agree, and on random 16×16 puzzles the row-mask engine
//! and the generic engine.

mod common;

use common::{Rng, blank, brute_count, check_solutions, full_grid};
use gridsolve::{Limit, Shape, Solver};
use proptest::prelude::*;

fn puzzle(shape: &Shape, seed: u64, percent: usize, noise: bool) -> Vec<u16> {
    let mut rng = Rng::new(seed);
    let mut p = blank(&full_grid(shape, &mut rng), percent, &mut rng);
    if noise {
        // a random extra given, often clashing
        let i = rng.below(p.len());
        p[i] = 1 + rng.below(shape.side()) as u16;
    }
    p
}

fn counts_agree(shape: Shape, p: &[u16]) {
    let a = Solver::new(shape).solve(p, Limit::all()).unwrap();
    assert!(a.complete);
    check_solutions(&shape, p, &a);
    assert_eq!(a.count, a.solutions.len() as u64);
    assert_eq!(a.count, brute_count(&shape, p));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn sudoku_4_counts_match(seed in any::<u64>(), percent in 30usize..100, noise in any::<bool>()) {
        let shape = Shape::sudoku(4).unwrap();
        counts_agree(shape, &puzzle(&shape, seed, percent, noise));
    }

    #[test]
    fn latin_counts_match(seed in any::<u64>(), side in 3usize..6, percent in 30usize..80, noise in any::<bool>()) {
        let shape = Shape::latin(side).unwrap();
        counts_agree(shape, &puzzle(&shape, seed, percent, noise));
    }

    #[test]
    fn pair_4_counts_match(seed in any::<u64>(), percent in 40usize..80, noise in any::<bool>()) {
        let shape = Shape::sudoku_pair(4).unwrap();
        counts_agree(shape, &puzzle(&shape, seed, percent, noise));
    }

    #[test]
    fn nine_engines_agree(seed in any::<u64>(), percent in 55usize..80, noise in any::<bool>()) {
        engines_agree(Shape::sudoku(9).unwrap(), seed, percent, noise)?;
    }

}

/// A puzzle of the test data (hard ones and 17-clue ones) with `drop` givens removed and,
/// with `noise`, one blank cell given a random digit (often clashing, often leaving no
/// solution).
fn nine_variant(index: usize, drop: usize, seed: u64, noise: bool) -> Vec<u16> {
    let mut rng = Rng::new(seed);
    let mut p = common::nine_puzzles()[index].clone();
    for _ in 0..drop {
        let givens: Vec<usize> = (0..81).filter(|&i| p[i] != 0).collect();
        p[givens[rng.below(givens.len())]] = 0;
    }
    if noise {
        let blanks: Vec<usize> = (0..81).filter(|&i| p[i] == 0).collect();
        p[blanks[rng.below(blanks.len())]] = 1 + rng.below(9) as u16;
    }
    p
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    // the 9×9 engine's deep searches (triads, band and stack branching) against the
    // generic engine: counts to 200 and, when complete, the same solutions
    #[test]
    fn nine_hard_variants_agree(index in 0usize..10, drop in 0usize..4, seed in any::<u64>(), noise in any::<bool>()) {
        let shape = Shape::sudoku(9).unwrap();
        let p = nine_variant(index, drop, seed, noise);
        let limit = Limit::at_most(200);
        let a = Solver::new(shape).solve(&p, limit).unwrap();
        let b = Solver::new_generic(shape).solve(&p, limit).unwrap();
        check_solutions(&shape, &p, &a);
        prop_assert_eq!((a.count, a.complete), (b.count, b.complete));
        if a.complete {
            let mut x: Vec<_> = a.solutions.iter().map(|s| s.flat()).collect();
            let mut y: Vec<_> = b.solutions.iter().map(|s| s.flat()).collect();
            x.sort();
            y.sort();
            prop_assert_eq!(x, y);
        }
    }
}

proptest! {
    // 16×16 with half its cells blank can take the generic engine minutes to count to
    // 200 (or to refute a clashing given): 15–39 % of the cells blank, so three fifths
    // or more are given.
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn sixteen_engines_agree(seed in any::<u64>(), percent in 15usize..40, noise in any::<bool>()) {
        engines_agree(Shape::sudoku(16).unwrap(), seed, percent, noise)?;
    }
}

proptest! {
    // 25×25 (where a placed cell may list the cells its other values lost): 25–44 % of
    // the cells blank (with more, the generic engine can take minutes on a clash).
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn twenty_five_engines_agree(seed in any::<u64>(), percent in 25usize..45, noise in any::<bool>()) {
        engines_agree(Shape::sudoku(25).unwrap(), seed, percent, noise)?;
    }
}

/// The engine `Solver::new` picks and the generic engine give the same count (up to 200)
/// and, when complete, the same solutions.
fn engines_agree(
    shape: Shape,
    seed: u64,
    percent: usize,
    noise: bool,
) -> Result<(), TestCaseError> {
    {
        let p = puzzle(&shape, seed, percent, noise);
        let limit = Limit::at_most(200);
        let a = Solver::new(shape).solve(&p, limit).unwrap();
        let b = Solver::new_generic(shape).solve(&p, limit).unwrap();
        check_solutions(&shape, &p, &a);
        prop_assert_eq!((a.count, a.complete), (b.count, b.complete));
        let mut x: Vec<_> = a.solutions.iter().map(|s| s.flat()).collect();
        let mut y: Vec<_> = b.solutions.iter().map(|s| s.flat()).collect();
        x.sort();
        y.sort();
        if a.complete {
            prop_assert_eq!(x, y);
        }
    }
    Ok(())
}
