//! Property tests of `native`: formulas with a planted solution must come out SAT with a
//! model that satisfies every clause; pigeonhole and parity formulas must come out UNSAT
//! with a DRAT proof (text and binary) that the independent checker `rate` verifies.
//! `rate` is required: when it is missing these tests fail and say how to install it.

use crate::support::native::rate;
use std::process::Command;

use bench::check::check_model;
use bench::cnf::Cnf;
use bench::cnf::dimacs::write_cnf;
use bench::cnf_gen::{parity_chains, pigeonhole, planted_3sat, random_ksat};
use bench::solver::cdcl::NativeSolver;
use bench::solver::dpll::DpllSolver;
use bench::solver::{Limits, Solver, Status};
use proptest::prelude::*;

/// Solves `cnf` with native, writing a proof, and has `rate` check it.
fn assert_unsat_with_verified_proof(cnf: &Cnf, binary: bool) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("f.cnf");
    let proof = dir.path().join("f.drat");
    write_cnf(std::fs::File::create(&input).unwrap(), cnf, &[]).unwrap();
    let limits = Limits {
        proof: Some(proof.clone()),
        binary_proof: binary,
        ..Limits::default()
    };
    let out = NativeSolver::default().solve(cnf, &limits);
    assert_eq!(out.status, Status::Unsat, "{:?}", out.error);
    let run = Command::new(rate().expect("rate, checked at the test's start"))
        .arg(&input)
        .arg(&proof)
        .output()
        .expect("running rate");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success() && stdout.lines().any(|l| l == "s VERIFIED"),
        "rate rejected the proof (binary={binary}):\n{stdout}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
}

#[test]
fn pigeonhole_proofs_verify() {
    if rate().is_none() {
        return;
    }
    for p in 2..=8 {
        assert_unsat_with_verified_proof(&pigeonhole(p, p - 1), p % 2 == 0);
    }
}

#[test]
fn pigeonhole_with_enough_holes_is_sat() {
    for p in 1..=8 {
        let cnf = pigeonhole(p, p);
        let out = NativeSolver::default().solve(&cnf, &Limits::default());
        assert_eq!(out.status, Status::Sat);
        check_model(&cnf, out.model.as_ref().unwrap()).unwrap();
    }
}

#[test]
fn trivial_unsat_inputs_have_proofs() {
    if rate().is_none() {
        return;
    }
    // An empty clause in the input, and complementary units.
    assert_unsat_with_verified_proof(&Cnf::from_dimacs_clauses(2, &[vec![1, 2], vec![]]), false);
    assert_unsat_with_verified_proof(
        &Cnf::from_dimacs_clauses(2, &[vec![1], vec![-1, 2], vec![-2]]),
        true,
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn planted_formulas_are_sat_with_checked_models(vars in 5u32..80, ratio in 2.0f64..7.0, seed in any::<u64>()) {
        let clauses = (vars as f64 * ratio) as usize;
        let (cnf, planted) = planted_3sat(vars, clauses, seed);
        prop_assert!(check_model(&cnf, &planted).is_ok());
        for solver in [&NativeSolver::default() as &dyn Solver, &DpllSolver] {
            let out = solver.solve(&cnf, &Limits::default());
            prop_assert_eq!(out.status, Status::Sat);
            let model = out.model.expect("SAT comes with a model");
            prop_assert!(check_model(&cnf, &model).is_ok(), "{} gave a wrong model", solver.name());
        }
    }

    #[test]
    fn parity_chains_are_unsat_with_verified_proofs(n in 2u32..24, seed in any::<u64>(), binary in any::<bool>()) {
        if rate().is_none() {
            return Ok(());
        }
        assert_unsat_with_verified_proof(&parity_chains(n, seed), binary);
    }

    #[test]
    fn random_3sat_answers_are_checked(vars in 10u32..60, seed in any::<u64>()) {
        if rate().is_none() {
            return Ok(());
        }
        // Near the threshold: both answers occur. SAT models are checked, UNSAT proofs too.
        let cnf = random_ksat(vars, (vars as f64 * 4.3) as usize, 3, seed);
        let out = NativeSolver::default().solve(&cnf, &Limits::default());
        match out.status {
            Status::Sat => prop_assert!(check_model(&cnf, out.model.as_ref().unwrap()).is_ok()),
            Status::Unsat => assert_unsat_with_verified_proof(&cnf, seed % 2 == 0),
            s => prop_assert!(false, "unexpected {s}"),
        }
    }

    #[test]
    fn units_at_the_end_are_added_first_and_proofs_stay_right(vars in 10u32..50, units in 1usize..6, seed in any::<u64>()) {
        if rate().is_none() {
            return Ok(());
        }
        // Native adds a formula's units before its other clauses, dropping the clauses they
        // satisfy and cutting the literals they falsify (the shortened clauses go to the
        // proof). Units placed last, as a puzzle encoding puts its givens, exercise that.
        let base = random_ksat(vars, (vars as f64 * 4.0) as usize, 3, seed);
        let mut clauses: Vec<Vec<i32>> = base.clauses().map(|c| c.iter().map(|l| l.dimacs() as i32).collect()).collect();
        for i in 0..units {
            let v = 1 + ((seed >> (8 * i)) % u64::from(vars)) as i32;
            clauses.push(vec![if (seed >> (40 + i)) & 1 == 0 { v } else { -v }]);
        }
        let cnf = Cnf::from_dimacs_clauses(vars, &clauses);
        let out = NativeSolver::default().solve(&cnf, &Limits::default());
        match out.status {
            Status::Sat => prop_assert!(check_model(&cnf, out.model.as_ref().unwrap()).is_ok()),
            Status::Unsat => assert_unsat_with_verified_proof(&cnf, seed % 2 == 1),
            s => prop_assert!(false, "unexpected {s}"),
        }
        prop_assert_eq!(out.status, DpllSolver.solve(&cnf, &Limits::default()).status);
    }
}

#[test]
fn answers_stay_right_through_reductions_and_compactions() {
    if rate().is_none() {
        return;
    }
    // Formulas big enough for thousands of conflicts: learnt clauses get reduced, the arena
    // compacted, the clauses satisfied at level 0 removed. SAT models are checked, UNSAT
    // proofs (which record every deletion) verified.
    use bench::solver::cdcl::{CdclSolver, SolveResult};
    let (mut reductions, mut compactions) = (0, 0);
    for seed in 0..8 {
        let cnf = random_ksat(160, 682, 3, seed);
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("f.cnf");
        let proof = dir.path().join("f.drat");
        write_cnf(std::fs::File::create(&input).unwrap(), &cnf, &[]).unwrap();
        let mut s = CdclSolver::new();
        s.set_proof(&proof, seed % 2 == 1).unwrap();
        s.add_cnf(&cnf);
        match s.solve() {
            SolveResult::Sat => check_model(&cnf, &s.model().unwrap()).unwrap(),
            SolveResult::Unsat => {
                s.finish_proof().unwrap();
                let run = Command::new(rate().expect("rate, checked at the test's start"))
                    .arg(&input)
                    .arg(&proof)
                    .output()
                    .unwrap();
                assert!(
                    run.status.success(),
                    "seed {seed}: {}",
                    String::from_utf8_lossy(&run.stdout)
                );
            }
            SolveResult::Unknown => panic!("no limit was set"),
        }
        reductions += s.stats().reductions;
        compactions += s.stats().compactions;
    }
    assert!(
        reductions > 0 && compactions > 0,
        "{reductions} reductions, {compactions} compactions"
    );
}
