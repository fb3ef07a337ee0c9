//! The DPLL baseline (and `native` beside it) on 9×9 sudokus and on random 3-SAT with 50
//! variables: answers must be right, models must check, grids must keep their givens.

use bench::check::{check_model, check_puzzle_model};
use bench::cnf::Cnf;
use bench::cnf_gen::random_ksat;
use bench::encode::{EncodeOptions, Encoding, encode};
use bench::puzzle::Puzzle;
use bench::puzzle::format::{ReadOptions, read_str};
use bench::solver::cdcl::NativeSolver;
use bench::solver::dpll::DpllSolver;
use bench::solver::{Limits, Solver, Status};

/// Proper 9×9 puzzles (one solution each): Project Euler 96's first grid, and well-known
/// hard ones from Peter Norvig's essay and the "AI Escargot" family.
const PUZZLES: &[&str] = &[
    "003020600900305001001806400008102900700000008006708200002609500800203009005010300",
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
    "85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4.",
    "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..",
    "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
];

/// Givens that break no rule, yet the top-right cell can only be 9, which its column
/// already holds.
const NO_SOLUTION: &str =
    "12345678.........9...............................................................";

fn puzzle(line: &str) -> Puzzle {
    read_str(line, "test", &ReadOptions::default())
        .unwrap()
        .entries
        .remove(0)
        .unwrap()
        .puzzle
}

fn encoded(p: &Puzzle, encoding: Encoding) -> Cnf {
    let mut cnf = Cnf::new(0);
    let vars = encode(
        p,
        EncodeOptions {
            encoding,
            ..EncodeOptions::default()
        },
        &mut cnf,
    );
    cnf.ensure_vars(vars);
    cnf
}

#[test]
fn dpll_and_native_solve_9x9_puzzles() {
    for line in PUZZLES {
        let p = puzzle(line);
        for encoding in [Encoding::Minimal, Encoding::Extended] {
            let cnf = encoded(&p, encoding);
            for solver in [&DpllSolver as &dyn Solver, &NativeSolver::default()] {
                let out = solver.solve(&cnf, &Limits::default());
                assert_eq!(
                    out.status,
                    Status::Sat,
                    "{} on {line} ({encoding})",
                    solver.name()
                );
                check_puzzle_model(&cnf, &p, out.model.as_ref().unwrap()).unwrap();
            }
        }
    }
    let cnf = encoded(&puzzle(NO_SOLUTION), Encoding::Extended);
    assert_eq!(
        DpllSolver.solve(&cnf, &Limits::default()).status,
        Status::Unsat
    );
    assert_eq!(
        NativeSolver::default()
            .solve(&cnf, &Limits::default())
            .status,
        Status::Unsat
    );
}

#[test]
fn dpll_agrees_with_native_on_random_3sat_50() {
    let (mut sat, mut unsat) = (0, 0);
    for seed in 0..60 {
        let cnf = random_ksat(50, 213, 3, seed);
        let d = DpllSolver.solve(&cnf, &Limits::default());
        let n = NativeSolver::default().solve(&cnf, &Limits::default());
        assert_eq!(d.status, n.status, "seed {seed}");
        match d.status {
            Status::Sat => {
                sat += 1;
                check_model(&cnf, d.model.as_ref().unwrap()).unwrap();
                check_model(&cnf, n.model.as_ref().unwrap()).unwrap();
            }
            Status::Unsat => unsat += 1,
            s => panic!("seed {seed}: {s}"),
        }
    }
    assert!(sat > 5 && unsat > 5, "{sat} SAT, {unsat} UNSAT");
}
