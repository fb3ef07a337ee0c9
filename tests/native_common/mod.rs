//! Shared by the native solver's tests: random formulas of mixed clause lengths, and the
//! DRAT checker `rate`.

#![allow(dead_code)]

use std::ops::Range;
use std::path::PathBuf;

use bench::cnf::{ClauseSink, Cnf, Lit, Var};
use bench::rng::SplitMix64;

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

/// The DRAT checker `rate`: on PATH or in ~/.cargo/bin. Panics with instructions otherwise.
pub fn rate() -> PathBuf {
    let mut candidates: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).map(|d| d.join("rate")).collect())
        .unwrap_or_default();
    if let Some(home) = std::env::var_os("HOME") {
        candidates.push(PathBuf::from(home).join(".cargo/bin/rate"));
    }
    candidates.into_iter().find(|p| p.is_file()).expect(
        "the DRAT checker `rate` is needed by this test: install it with `cargo install rate`",
    )
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
