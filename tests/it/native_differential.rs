//! Differential test: `native` and `dpll` against /usr/bin/minisat on 1,200 random small
//! CNFs of mixed status (clause lengths 1 to 5, densities around the satisfiability
//! threshold). Every status must agree with minisat's and every model must satisfy the
//! formula. The formulas come from a fixed seed, so a failure names a reproducible case.

use crate::support::native::random_formula;
use std::path::Path;
use std::process::Command;

use bench::check::check_model;
use bench::cnf::Cnf;
use bench::cnf::dimacs::write_cnf;
use bench::rng::SplitMix64;
use bench::solver::cdcl::NativeSolver;
use bench::solver::dpll::DpllSolver;
use bench::solver::{Limits, Solver, Status};

const MINISAT: &str = "/usr/bin/minisat";
const CASES: u64 = 1200;

/// minisat's answer: SAT or UNSAT, from its exit code.
fn minisat(input: &Path, result: &Path) -> Status {
    let status = Command::new(MINISAT)
        .arg("-verb=0")
        .arg(input)
        .arg(result)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {MINISAT}: {e} (install the apt package minisat)"))
        .status;
    match status.code() {
        Some(10) => Status::Sat,
        Some(20) => Status::Unsat,
        other => panic!("minisat exited with {other:?} on {}", input.display()),
    }
}

#[test]
fn native_and_dpll_agree_with_minisat() {
    if crate::support::require("minisat", || {
        Path::new(MINISAT)
            .is_file()
            .then_some(())
            .ok_or_else(|| format!("no {MINISAT}: the apt package minisat installs it"))
    })
    .is_none()
    {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("f.cnf");
    let result = dir.path().join("res");
    let mut rng = SplitMix64::new(20_251_121);
    let (mut sat, mut unsat) = (0, 0);
    for case in 0..CASES {
        let cnf = random_formula(&mut rng, 2.5..6.0, 3);
        write_cnf(std::fs::File::create(&input).unwrap(), &cnf, &[]).unwrap();
        let expected = minisat(&input, &result);
        for solver in [&NativeSolver::default() as &dyn Solver, &DpllSolver] {
            let out = solver.solve(&cnf, &Limits::default());
            assert_eq!(
                out.status,
                expected,
                "case {case}: {} says {}, minisat says {expected}\n{}",
                solver.name(),
                out.status,
                show(&cnf)
            );
            if out.status == Status::Sat {
                let model = out.model.as_ref().expect("SAT with a model");
                if let Err(e) = check_model(&cnf, model) {
                    panic!(
                        "case {case}: {} gave a wrong model: {e}\n{}",
                        solver.name(),
                        show(&cnf)
                    );
                }
            }
        }
        match expected {
            Status::Sat => sat += 1,
            _ => unsat += 1,
        }
    }
    // The mix matters: a generator drifting to one answer would test half the solver.
    assert!(
        sat >= CASES / 5 && unsat >= CASES / 5,
        "unbalanced mix: {sat} SAT, {unsat} UNSAT"
    );
}

fn show(cnf: &Cnf) -> String {
    let mut out = Vec::new();
    write_cnf(&mut out, cnf, &[]).unwrap();
    String::from_utf8(out).unwrap()
}
