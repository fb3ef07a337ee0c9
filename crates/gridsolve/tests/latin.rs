//! Latin square tests: exact counts of empty squares, unique and generated puzzles,
//! no-solution and clashing givens, and large sides.

mod common;

use common::{Rng, blank, brute_count, check_solutions, full_grid};
use gridsolve::{Limit, Shape, Solver, Status};

fn count_all(side: usize, givens: &[u16]) -> u64 {
    let shape = Shape::latin(side).unwrap();
    let a = Solver::new(shape).solve(givens, Limit::all()).unwrap();
    assert!(a.complete);
    check_solutions(&shape, givens, &a);
    a.count
}

#[test]
fn empty_squares_have_the_known_counts() {
    assert_eq!(count_all(1, &[0]), 1);
    assert_eq!(count_all(2, &[0; 4]), 2);
    assert_eq!(count_all(3, &[0; 9]), 12);
    assert_eq!(count_all(4, &[0; 16]), 576);
}

#[test]
fn a_partial_square_matches_brute_force() {
    let shape = Shape::latin(5).unwrap();
    let mut rng = Rng::new(5);
    let p = blank(&full_grid(&shape, &mut rng), 60, &mut rng);
    assert_eq!(count_all(5, &p), brute_count(&shape, &p));
}

#[test]
fn clashing_givens_and_dead_ends_have_no_solution() {
    let mut s = Solver::new(Shape::latin(4).unwrap());
    let row_clash = [1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    let col_clash = [0, 2, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0];
    // cell (1,1) sees 1, 2 (row) and 3, 4 (column)
    let dead_end = [0, 3, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 0, 4, 0, 0];
    for g in [row_clash, col_clash, dead_end] {
        let a = s.solve(&g, Limit::all()).unwrap();
        assert_eq!(
            (a.status, a.count, a.complete),
            (Status::NoSolution, 0, true)
        );
    }
}

#[test]
fn large_sides_solve() {
    for (side, percent) in [(30, 60), (64, 10)] {
        let shape = Shape::latin(side).unwrap();
        let mut rng = Rng::new(side as u64);
        let p = blank(&full_grid(&shape, &mut rng), percent, &mut rng);
        let a = Solver::new(shape).solve(&p, Limit::first()).unwrap();
        assert_eq!(a.status, Status::Solved);
        check_solutions(&shape, &p, &a);
    }
}
