//! Property tests of the checker: it judges only what the formula says.
//!
//! For a random puzzle (a random full solution with random cells blanked: sudoku, Latin
//! square or pair), every encoding and both at-most-one encodings, native gives a model.
//! Then:
//! - setting every variable that occurs in no clause to true, or to random values, leaves
//!   the answer model-ok with the same grids (free variables cannot make an answer wrong);
//! - flipping a variable that the formula uses is caught exactly when some clause loses
//!   its last true literal, and any model the check accepts reads as a solution of the
//!   puzzle (the encodings leave nothing open);
//! - the blocking clause of `--count 2` mentions only used variables.

use bench::check::{Reading, check_model, check_puzzle_model};
use bench::cnf::{Cnf, Model, Var};
use bench::encode::{Amo, EncodeOptions, Encoding, encode};
use bench::generate::random_solution;
use bench::puzzle::{Kind, Puzzle};
use bench::rng::SplitMix64;
use bench::solver::{Limits, SolverConfig, Status, by_name};
use proptest::prelude::*;

/// A satisfiable puzzle: a random solution of `kind` and `side` with about `blank` of its
/// cells (per mille) blanked; returns the puzzle and the solution.
fn puzzle(kind: Kind, side: usize, blank: u64, seed: u64) -> (Puzzle, Puzzle) {
    let mut rng = SplitMix64::new(seed);
    let empty = Puzzle::empty(kind, side).unwrap();
    let solution = random_solution(&empty, &mut rng);
    let mut p = solution.clone();
    for board in p.boards_mut() {
        for r in 0..side {
            for c in 0..side {
                if rng.below(1000) < blank {
                    board.set(r, c, 0);
                }
            }
        }
    }
    (p, solution)
}

fn cnf_of(p: &Puzzle, encoding: Encoding, amo: Amo) -> Cnf {
    let mut cnf = Cnf::new(0);
    let vars = encode(p, EncodeOptions { encoding, amo }, &mut cnf);
    cnf.ensure_vars(vars);
    cnf
}

/// Native's model of `cnf`, over every variable of the formula.
fn model_of(cnf: &Cnf) -> Model {
    let native = by_name("native", &SolverConfig::default()).unwrap();
    let out = native.solve(cnf, &Limits::default());
    assert_eq!(out.status, Status::Sat);
    let m = out.model.unwrap();
    // A full assignment: variables the solver left out are set false.
    Model::from_values((0..cnf.num_vars()).map(|i| m.var_value(Var::new(i)) == Some(true)))
}

/// True when some clause has no true literal under `m`: the plain definition.
fn falsifies(cnf: &Cnf, m: &Model) -> bool {
    cnf.clauses()
        .any(|c| !c.iter().any(|&l| m.lit_value(l) == Some(true)))
}

fn kinds() -> impl Strategy<Value = (Kind, usize)> {
    prop_oneof![
        Just((Kind::Sudoku, 4)),
        Just((Kind::Sudoku, 9)),
        Just((Kind::Latin, 5)),
        Just((Kind::Latin, 7)),
        Just((Kind::Pair, 4)),
    ]
}

fn encodings() -> impl Strategy<Value = Encoding> {
    prop_oneof![
        Just(Encoding::Minimal),
        Just(Encoding::Efficient),
        Just(Encoding::Extended),
        Just(Encoding::Pruned),
    ]
}

fn amos() -> impl Strategy<Value = Amo> {
    prop_oneof![Just(Amo::Pairwise), Just(Amo::Sequential)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn free_variables_never_make_an_answer_wrong(
        (kind, side) in kinds(),
        encoding in encodings(),
        amo in amos(),
        blank in 200u64..900,
        seed in any::<u64>(),
        noise in any::<u64>(),
    ) {
        let (p, _) = puzzle(kind, side, blank, seed);
        let cnf = cnf_of(&p, encoding, amo);
        let used = cnf.used_vars();
        let model = model_of(&cnf);
        let Reading::Solved(grids) = check_puzzle_model(&cnf, &p, &model).unwrap() else {
            panic!("native's model does not read as a solution");
        };
        let free = |i: u32| !used.get(i as usize).copied().unwrap_or(false);
        // Every free variable true.
        let all_true = Model::from_values((0..cnf.num_vars()).map(|i| {
            free(i) || model.var_value(Var::new(i)) == Some(true)
        }));
        prop_assert_eq!(
            check_puzzle_model(&cnf, &p, &all_true).unwrap(),
            Reading::Solved(grids.clone())
        );
        // Free variables at random.
        let mut rng = SplitMix64::new(noise);
        let random = Model::from_values((0..cnf.num_vars()).map(|i| {
            if free(i) { rng.coin() } else { model.var_value(Var::new(i)) == Some(true) }
        }));
        prop_assert_eq!(
            check_puzzle_model(&cnf, &p, &random).unwrap(),
            Reading::Solved(grids)
        );
        // A row holding a given and a blank: the blank's candidate of the given's value is
        // ruled out, and the pruned encoding leaves its variable out (what fooled the old
        // decoder). Without one (a puzzle with no givens at all), nothing is pruned.
        let given_beside_blank = p.boards().iter().any(|b| {
            b.cells()
                .chunks(side)
                .any(|row| row.contains(&0) && row.iter().any(|&v| v != 0))
        });
        if encoding == Encoding::Pruned && given_beside_blank {
            prop_assert!((0..cnf.num_vars()).any(free));
        }
    }

    #[test]
    fn a_flip_the_formula_needs_is_caught_and_every_accepted_model_is_a_solution(
        (kind, side) in kinds(),
        encoding in encodings(),
        amo in amos(),
        blank in 200u64..900,
        seed in any::<u64>(),
        pick in any::<u64>(),
    ) {
        let (p, _) = puzzle(kind, side, blank, seed);
        let cnf = cnf_of(&p, encoding, amo);
        let used = cnf.used_vars();
        let used_vars: Vec<u32> = (0..used.len() as u32).filter(|&i| used[i as usize]).collect();
        prop_assume!(!used_vars.is_empty());
        let model = model_of(&cnf);
        let mut rng = SplitMix64::new(pick);
        for _ in 0..8 {
            let flip = Var::new(used_vars[rng.below(used_vars.len() as u64) as usize]);
            let flipped = Model::from_values((0..cnf.num_vars()).map(|i| {
                let v = model.var_value(Var::new(i)) == Some(true);
                if i == flip.index() as u32 { !v } else { v }
            }));
            let caught = check_model(&cnf, &flipped).is_err();
            prop_assert_eq!(caught, falsifies(&cnf, &flipped), "variable {}", flip.dimacs());
            if !caught {
                // The model still satisfies every clause: its grids must solve the puzzle.
                let reading = check_puzzle_model(&cnf, &p, &flipped).unwrap();
                prop_assert!(matches!(reading, Reading::Solved(_)), "{:?}", reading);
            }
        }
    }
}

/// The example of the issue, without any external solver: Norvig's "hardest" under
/// `pruned`, a correct model with every free variable set true, is model-ok; the old
/// decoder read r1c1 as holding both 1 and 2.
#[test]
fn norvigs_hardest_pruned_with_free_variables_true() {
    let line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let cells = line
        .chars()
        .map(|c| c.to_digit(10).unwrap_or(0) as u16)
        .collect();
    let p = Puzzle::new(
        Kind::Sudoku,
        vec![bench::puzzle::Grid::from_cells(9, cells).unwrap()],
    )
    .unwrap();
    let cnf = cnf_of(&p, Encoding::Pruned, Amo::Pairwise);
    let used = cnf.used_vars();
    let model = model_of(&cnf);
    let noisy = Model::from_values((0..cnf.num_vars()).map(|i| {
        !used.get(i as usize).copied().unwrap_or(false)
            || model.var_value(Var::new(i)) == Some(true)
    }));
    // r1c1 is given 4; "r1c1 holds 1" and "holds 2" are free and now true.
    assert_eq!(noisy.var_value(Var::new(0)), Some(true));
    assert_eq!(noisy.var_value(Var::new(1)), Some(true));
    let reading = check_puzzle_model(&cnf, &p, &noisy).unwrap();
    let Reading::Solved(s) = reading else {
        panic!("{reading:?}")
    };
    assert_eq!(s.boards()[0].get(0, 0), 4);
}
