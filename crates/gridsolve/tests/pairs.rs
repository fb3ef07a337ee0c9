//! Sudoku pair tests: counts against brute force for box 2, generated box-3 pairs, the
//! "differ in every cell" rule, no-solution and clashing givens.

mod common;

use common::{Rng, blank, brute_count, check_solutions, full_grid};
use gridsolve::{Limit, Shape, Solver, Status};

#[test]
fn box_2_pairs_count_as_brute_force_does() {
    let shape = Shape::sudoku_pair(4).unwrap();
    let mut s = Solver::new(shape);
    let mut rng = Rng::new(2);
    for percent in [50, 70, 85] {
        let p = blank(&full_grid(&shape, &mut rng), percent, &mut rng);
        let a = s.solve(&p, Limit::all()).unwrap();
        assert!(a.complete);
        check_solutions(&shape, &p, &a);
        assert_eq!(a.count, brute_count(&shape, &p));
    }
}

#[test]
fn a_box_2_pair_with_one_board_given_counts_its_partners() {
    let shape = Shape::sudoku_pair(4).unwrap();
    let mut g = full_grid(&shape, &mut Rng::new(7));
    g[16..].fill(0);
    let a = Solver::new(shape).solve(&g, Limit::all()).unwrap();
    check_solutions(&shape, &g, &a);
    assert_eq!(a.count, brute_count(&shape, &g));
    assert!(a.count > 0);
}

#[test]
fn box_3_pairs_solve_to_valid_pairs() {
    let shape = Shape::sudoku_pair(9).unwrap();
    let mut s = Solver::new(shape);
    let mut rng = Rng::new(9);
    for percent in [40, 60, 75] {
        let p = blank(&full_grid(&shape, &mut rng), percent, &mut rng);
        let a = s.solve(&p, Limit::at_most(3)).unwrap();
        assert_eq!(a.status, Status::Solved);
        check_solutions(&shape, &p, &a);
    }
}

#[test]
fn equal_values_in_one_cell_of_both_boards_have_no_solution() {
    for side in [4, 9] {
        let shape = Shape::sudoku_pair(side).unwrap();
        let mut g = vec![0; shape.cells()];
        g[5] = 2;
        g[side * side + 5] = 2;
        let a = Solver::new(shape)
            .solve(&g, Limit::all().keeping(0))
            .unwrap();
        assert_eq!(
            (a.status, a.count, a.complete),
            (Status::NoSolution, 0, true)
        );
    }
}

#[test]
fn a_clash_inside_one_board_and_a_dead_end_have_no_solution() {
    let shape = Shape::sudoku_pair(9).unwrap();
    let mut s = Solver::new(shape);
    let mut g = vec![0; shape.cells()];
    g[81] = 4;
    g[81 + 8] = 4; // twice in row 0 of the second board
    assert_eq!(
        s.solve(&g, Limit::first()).unwrap().status,
        Status::NoSolution
    );
    // first board full; the second board's row 0 holds 8 of the 9 values in columns 1..9,
    // all but the first board's cell-0 value, so the second board's cell 0 has none left
    let mut rng = Rng::new(11);
    let mut g = full_grid(&shape, &mut rng);
    let first0 = g[0];
    let values: Vec<u16> = (1..=9).filter(|&v| v != first0).collect();
    for (c, v) in (1..9).zip(values) {
        g[81 + c] = v;
    }
    g[81..].iter_mut().skip(9).for_each(|v| *v = 0);
    g[81] = 0;
    let a = s.solve(&g, Limit::first()).unwrap();
    assert_eq!(a.status, Status::NoSolution);
}
