//! Hyper ternary resolution in `native` (option `ternary`): random formulas of mostly
//! ternary clauses and random 3-SAT near the threshold, solved with it on alone, with
//! native's defaults, and with every simplification often. Every model is checked against
//! the original formula, every UNSAT proof verified by `rate`, and the answers compared
//! with simplification off.

use crate::support::native::{random_formula, rate, solve_checked};

use bench::cnf::Cnf;
use bench::cnf_gen::random_ksat;
use bench::rng::SplitMix64;
use bench::solver::cdcl::Options;
use proptest::prelude::*;

fn configs() -> Vec<(&'static str, Options)> {
    vec![
        ("off", Options::plain()),
        (
            "ternary alone",
            Options {
                ternary: true,
                subsume: false,
                probe: false,
                equiv: false,
                elim_occ_limit: 0,
                ..Options::default()
            },
        ),
        (
            "defaults + ternary",
            Options {
                ternary: true,
                ..Options::default()
            },
        ),
        (
            "ternary + gates, everything often",
            Options {
                ternary: true,
                elim_gates: true,
                inprocess_interval: 20,
                vivify: true,
                vivify_irred: true,
                first_reduce: 40,
                reduce_increment: 20,
                ..Options::default()
            },
        ),
    ]
}

/// Solves `cnf` in every configuration; all must agree. Returns the resolvents added.
fn every_config(cnf: &Cnf, binary: bool) -> Result<u64, TestCaseError> {
    let mut answers = Vec::new();
    let mut added = 0;
    for (name, options) in configs() {
        let (r, stats) = solve_checked(cnf, &options, true, binary)
            .map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
        if !options.ternary {
            prop_assert_eq!(stats.ternary_resolvents, 0, "{}", name);
        }
        added += stats.ternary_resolvents;
        answers.push(r);
    }
    prop_assert!(answers.windows(2).all(|w| w[0] == w[1]), "{answers:?}");
    Ok(added)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_formulas_every_config(seed in any::<u64>(), binary in any::<bool>()) {
        if rate().is_none() {
            return Ok(());
        }
        let mut rng = SplitMix64::new(seed);
        every_config(&random_formula(&mut rng, 1.5..6.0, 2), binary)?;
    }

    #[test]
    fn random_3sat_every_config(vars in 10u32..70, seed in any::<u64>()) {
        if rate().is_none() {
            return Ok(());
        }
        let clauses = (vars as f64 * 4.3) as usize;
        every_config(&random_ksat(vars, clauses, 3, seed), seed % 2 == 0)?;
    }
}

#[test]
fn resolvents_are_added_and_proofs_verify() {
    if rate().is_none() {
        return;
    }
    let mut added = 0;
    for seed in 0..30 {
        added += every_config(&random_ksat(60, 258, 3, seed), seed % 2 == 0).unwrap();
    }
    assert!(added > 100, "only {added} ternary resolvents");
}
