//! Sudoku tests of every engine: exact counts, unique puzzles, no-solution and clashing
//! givens at sides 4, 9, 16 and 25, agreement of the 9×9 engine with the generic one,
//! minimal 16×16 and sparse 25×25 puzzles (unique, few guesses, counts without some givens
//! against the generic engine), and a 64×64 sudoku with many givens.

mod common;

use common::{Rng, blank, check_solutions, full_grid, large_puzzles, nine_puzzles, valid};
use gridsolve::{Limit, Shape, Solver, Status};

fn solver(side: usize) -> (Shape, Solver) {
    let shape = Shape::sudoku(side).unwrap();
    (shape, Solver::new(shape))
}

#[test]
fn empty_4x4_has_288_solutions_all_distinct_and_valid() {
    let (shape, mut s) = solver(4);
    let givens = vec![0; 16];
    let a = s.solve(&givens, Limit::all()).unwrap();
    assert_eq!((a.status, a.count, a.complete), (Status::Solved, 288, true));
    assert_eq!(a.solutions.len(), 288);
    check_solutions(&shape, &givens, &a);
}

#[test]
fn limit_stops_at_max_and_keeping_caps_the_stored_solutions() {
    let (shape, mut s) = solver(4);
    let givens = vec![0; 16];
    let a = s.solve(&givens, Limit::at_most(10)).unwrap();
    assert_eq!((a.status, a.count, a.complete), (Status::Solved, 10, false));
    check_solutions(&shape, &givens, &a);
    let a = s.solve(&givens, Limit::all().keeping(3)).unwrap();
    assert_eq!((a.count, a.solutions.len(), a.complete), (288, 3, true));
}

#[test]
fn the_nine_puzzles_are_unique_and_solved_by_both_engines() {
    let shape = Shape::sudoku(9).unwrap();
    let mut fast = Solver::new(shape);
    let mut generic = Solver::new_generic(shape);
    for p in nine_puzzles() {
        let a = fast.solve(&p, Limit::at_most(2)).unwrap();
        let b = generic.solve(&p, Limit::at_most(2)).unwrap();
        assert_eq!((a.status, a.count, a.complete), (Status::Solved, 1, true));
        assert_eq!((b.count, b.complete), (1, true));
        check_solutions(&shape, &p, &a);
        assert_eq!(a.solutions, b.solutions);
    }
}

#[test]
fn a_full_grid_is_solved_without_a_guess() {
    let (shape, mut s) = solver(9);
    let grid = full_grid(&shape, &mut Rng::new(1));
    let a = s.solve(&grid, Limit::first()).unwrap();
    assert_eq!(a.solutions[0].flat(), grid);
    assert!(a.stats.solved_without_guess);
    assert_eq!(a.stats.guesses, 0);
}

#[test]
fn no_solution_and_clashing_givens_at_every_size() {
    for side in [4, 9, 16, 25] {
        let (shape, mut s) = solver(side);
        // the same value twice in a row
        let mut g = vec![0; side * side];
        g[0] = 1;
        g[side - 1] = 1;
        assert_eq!(
            s.solve(&g, Limit::first()).unwrap().status,
            Status::NoSolution
        );
        // twice in a column
        let mut g = vec![0; side * side];
        g[1] = 2;
        g[(side - 1) * side + 1] = 2;
        assert_eq!(
            s.solve(&g, Limit::first()).unwrap().status,
            Status::NoSolution
        );
        // twice in a box (different row and column)
        let mut g = vec![0; side * side];
        g[0] = 3;
        g[side + 1] = 3;
        assert_eq!(
            s.solve(&g, Limit::first()).unwrap().status,
            Status::NoSolution
        );
        // no clash, but cell 0 has no candidate: row 0 holds 2..=n, column 0 holds 1
        let mut g = vec![0; side * side];
        for (c, v) in g.iter_mut().enumerate().take(side).skip(1) {
            *v = c as u16 + 1;
        }
        g[side * (side - 1)] = 1;
        let a = s.solve(&g, Limit::all()).unwrap();
        assert_eq!(
            (a.status, a.count, a.complete),
            (Status::NoSolution, 0, true)
        );
        assert!(valid(&shape, &full_grid(&shape, &mut Rng::new(3))));
    }
}

#[test]
fn generated_16x16_and_25x25_puzzles_solve_to_valid_grids() {
    for (side, percent) in [(16, 55), (25, 45)] {
        let (shape, mut s) = solver(side);
        let mut rng = Rng::new(side as u64);
        for _ in 0..3 {
            let p = blank(&full_grid(&shape, &mut rng), percent, &mut rng);
            let a = s.solve(&p, Limit::at_most(2)).unwrap();
            assert_eq!(a.status, Status::Solved);
            check_solutions(&shape, &p, &a);
        }
    }
}

#[test]
fn a_64x64_sudoku_with_many_givens_solves() {
    let (shape, mut s) = solver(64);
    let mut rng = Rng::new(64);
    let p = blank(&full_grid(&shape, &mut rng), 35, &mut rng);
    let a = s.solve(&p, Limit::first()).unwrap();
    assert_eq!(a.status, Status::Solved);
    check_solutions(&shape, &p, &a);
}

#[test]
fn a_one_cell_sudoku() {
    let (_, mut s) = solver(1);
    let a = s.solve(&[0], Limit::all()).unwrap();
    assert_eq!((a.count, a.solutions[0].flat()), (1, vec![1]));
}

#[test]
fn minimal_16x16_and_sparse_25x25_puzzles_have_one_solution_found_with_few_guesses() {
    // without the lookahead the row-mask engine needs 330-370 guesses per minimal 16×16
    // sudoku and thousands per 25×25 with 300 givens to find the solution; with it, the
    // whole search (`at_most(2)`, the lookahead from the root) and the search for the
    // first solution (a first round of 32 nodes without it) need a few dozen. Guesses do
    // not depend on the machine.
    for (k, p) in large_puzzles() {
        let (shape, mut s) = solver(k * k);
        let a = s.solve(&p, Limit::at_most(2)).unwrap();
        assert_eq!((a.status, a.count, a.complete), (Status::Solved, 1, true));
        check_solutions(&shape, &p, &a);
        let first = s.solve(&p, Limit::first()).unwrap();
        assert_eq!(first.solutions, a.solutions);
        assert!(a.stats.guesses <= 60, "{} guesses", a.stats.guesses);
        assert!(first.stats.guesses <= 80, "{} guesses", first.stats.guesses);
    }
}

#[test]
fn counts_of_16x16_puzzles_with_several_solutions_match_the_generic_engine() {
    // a minimal puzzle with 2 givens removed, then cells of its solution added 4 at a
    // time until it has at most 200 solutions
    let mut rng = Rng::new(16);
    let mut several = 0;
    let limit = Limit::at_most(200).keeping(200);
    for (k, p) in large_puzzles().into_iter().filter(|(k, _)| *k == 4) {
        let shape = Shape::sudoku(k * k).unwrap();
        let mut s = Solver::new(shape);
        let solution = s.solve(&p, Limit::first()).unwrap().solutions[0].flat();
        let mut holes = p.clone();
        let givens: Vec<usize> = (0..p.len()).filter(|&i| p[i] != 0).collect();
        for _ in 0..2 {
            holes[givens[rng.below(givens.len())]] = 0;
        }
        let a = loop {
            let a = s.solve(&holes, limit).unwrap();
            if a.complete {
                break a;
            }
            for _ in 0..4 {
                let i = rng.below(p.len());
                holes[i] = solution[i];
            }
        };
        let b = Solver::new_generic(shape).solve(&holes, limit).unwrap();
        assert_eq!((a.count, a.complete), (b.count, b.complete));
        check_solutions(&shape, &holes, &a);
        let (mut x, mut y) = (a.solutions, b.solutions);
        x.sort_by_key(|s| s.flat());
        y.sort_by_key(|s| s.flat());
        assert_eq!(x, y);
        several += usize::from(a.count > 1);
    }
    assert!(several > 0);
}
