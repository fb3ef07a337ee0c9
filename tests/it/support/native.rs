//! Shared by the native solver's tests: random formulas of mixed clause lengths, the
//! DRAT checker `rate`, and a solve whose model is checked and whose proof `rate` verifies.

#![allow(dead_code)]

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::Command;

use bench::check::check_model;
use bench::cnf::dimacs::write_cnf;
use bench::cnf::{ClauseSink, Cnf, Lit, Var};
use bench::rng::SplitMix64;
use bench::solver::cdcl::{CdclSolver, Options, SolveResult, Stats};

/// A random formula: 3..=40 variables, clauses of 1..=5 distinct variables (mostly 3; a
/// length-2 clause for draws 1..=`binaries` of 20), clauses per variable drawn from
/// `density`, so that SAT and UNSAT answers both occur often. Most units are dropped, so
/// that formulas are not decided by them.
pub fn random_formula(rng: &mut SplitMix64, density: Range<f64>, binaries: u64) -> Cnf {
    let vars = 3 + rng.below(38) as u32;
    let density = density.start + (density.end - density.start) * rng.next_f64();
    let clauses = ((vars as f64) * density) as usize;
    let mut cnf = Cnf::new(vars);
    for _ in 0..clauses {
        let draw = rng.below(20);
        let len = match draw {
            0 => 1,
            d if d <= binaries => 2,
            d if d <= 15 => 3,
            16..=18 => 4,
            _ => 5,
        }
        .min(vars as u64) as usize;
        let mut clause: Vec<Lit> = Vec::with_capacity(len);
        while clause.len() < len {
            let v = Var::new(rng.below(vars as u64) as u32);
            if clause.iter().all(|l| l.var() != v) {
                clause.push(v.lit(rng.coin()));
            }
        }
        if len == 1 && rng.below(4) != 0 {
            continue;
        }
        cnf.add_clause(&clause);
    }
    cnf
}

/// The DRAT checker `rate` (on PATH or in ~/.cargo/bin), under the one rule for a
/// missing tool ([`crate::support::require_tool`]).
pub fn rate() -> Option<PathBuf> {
    crate::support::require_tool("rate")
}

/// The number of models of `cnf` over its variables, by trying every assignment.
pub fn brute_force_count(cnf: &Cnf) -> u64 {
    let n = cnf.num_vars();
    (0u64..1 << n)
        .filter(|bits| {
            cnf.clauses().all(|c| {
                c.iter()
                    .any(|l| ((bits >> l.var().index()) & 1 == 1) == l.is_positive())
            })
        })
        .count() as u64
}

pub fn verify_proof(input: &Path, proof: &Path) -> Result<(), String> {
    let rate = rate().ok_or("the DRAT checker `rate` is not installed")?;
    let run = Command::new(rate)
        .arg(input)
        .arg(proof)
        .output()
        .map_err(|e| format!("running rate: {e}"))?;
    let stdout = String::from_utf8_lossy(&run.stdout);
    if run.status.success() && stdout.lines().any(|l| l == "s VERIFIED") {
        Ok(())
    } else {
        Err(format!(
            "rate rejected the proof:\n{stdout}\n{}",
            String::from_utf8_lossy(&run.stderr)
        ))
    }
}

/// Solves `cnf` with `options` (a proof written when `prove`), checks a model against the
/// formula and has `rate` verify an UNSAT proof. Returns the answer and the counters.
pub fn solve_checked(
    cnf: &Cnf,
    options: &Options,
    prove: bool,
    binary: bool,
) -> Result<(SolveResult, Stats), String> {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("f.cnf");
    let proof = dir.path().join("f.drat");
    let mut s = CdclSolver::with_options(options.clone());
    if prove {
        write_cnf(std::fs::File::create(&input).unwrap(), cnf, &[]).unwrap();
        s.set_proof(&proof, binary).unwrap();
    }
    s.add_cnf(cnf);
    let result = s.solve();
    s.finish_proof().unwrap();
    match result {
        SolveResult::Sat => {
            let model = s.model().ok_or("SAT without a model")?;
            check_model(cnf, &model).map_err(|e| format!("wrong model: {e}"))?;
        }
        SolveResult::Unsat if prove => verify_proof(&input, &proof)?,
        SolveResult::Unsat => {}
        SolveResult::Unknown => return Err("no limit was set".into()),
    }
    Ok((result, s.stats().clone()))
}
