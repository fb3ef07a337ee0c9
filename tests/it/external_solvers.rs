//! Every adapter against its real binary (as scripts/install-solvers.sh installs it): a
//! satisfiable sudoku (the model is checked), an unsatisfiable pigeonhole formula, a
//! timeout on pigeonhole 12/11 (stopped within the timeout plus the grace), a memory
//! limit (MEMOUT), and the measurements every outcome must carry. A missing binary fails
//! the test with a message to run the install script.

use std::time::{Duration, Instant};

use crate::support::external::*;
use bench::check::check_model;
use bench::solver::external::run::DEFAULT_GRACE;
use bench::solver::{Limits, Status};

fn limits(timeout_s: f64) -> Limits {
    Limits {
        timeout: Some(Duration::from_secs_f64(timeout_s)),
        ..Limits::default()
    }
}

fn sat_unsat_timeout(name: &str) {
    let Some(solver) = require(name) else {
        return;
    };
    assert_eq!(solver.name(), name);

    let cnf = sudoku_cnf(SUDOKU_9);
    let out = solver.solve(&cnf, &limits(60.0));
    assert_eq!(
        out.status,
        Status::Sat,
        "{name} on the sudoku: {:?}",
        out.error
    );
    let model = out.model.as_ref().expect("a model");
    check_model(&cnf, model).unwrap_or_else(|e| panic!("{name}'s model is wrong: {e}"));
    assert!(out.wall > Duration::ZERO && out.wall < Duration::from_secs(30));
    assert!(out.cpu.is_some() && out.max_rss_kb.is_some_and(|k| k > 0));
    assert_eq!(out.exit_code, Some(if name == "zchaff" { 0 } else { 10 }));

    let out = solver.solve(&pigeonhole(6, 5), &limits(60.0));
    assert_eq!(
        out.status,
        Status::Unsat,
        "{name} on php 6/5: {:?}",
        out.error
    );
    assert!(out.model.is_none());

    let timeout = Duration::from_secs(1);
    let started = Instant::now();
    let out = solver.solve(&pigeonhole(12, 11), &limits(1.0));
    let took = started.elapsed();
    assert_eq!(
        out.status,
        Status::Timeout,
        "{name} on php 12/11: {:?}",
        out.error
    );
    assert!(out.wall >= timeout, "{name}: stopped early: {:?}", out.wall);
    // 1 s + the grace, with room for writing the CNF and waking up on a loaded machine:
    // against a hang (php 12/11 runs for minutes), not a measure of the stop's latency.
    assert!(
        took < timeout + DEFAULT_GRACE + Duration::from_secs(10),
        "{name}: the timed-out run took {took:?}"
    );
    // The CPU time is the killed solver's own (single-threaded: at most its wall time;
    // how much of the second it got depends on the machine's load).
    let cpu = out.cpu.expect("cpu time");
    assert!(
        cpu > Duration::ZERO && cpu < took + Duration::from_millis(100),
        "{name}: cpu {cpu:?}"
    );
}

#[test]
fn minisat() {
    sat_unsat_timeout("minisat");
}

#[test]
fn kissat() {
    sat_unsat_timeout("kissat");
}

#[test]
fn cadical() {
    sat_unsat_timeout("cadical");
}

#[test]
fn picosat() {
    sat_unsat_timeout("picosat");
}

#[test]
fn cryptominisat() {
    sat_unsat_timeout("cryptominisat");
}

#[test]
fn glucose() {
    sat_unsat_timeout("glucose");
}

/// zchaff is built by hand (no package): with `BENCH_ZCHAFF=/path/to/zchaff` the real one
/// runs; without, its output parser is tested on its documented output (see the unit
/// tests of `solver::output` and `external::verdict`).
#[test]
fn zchaff_when_available() {
    // Optional even under BENCH_REQUIRE_TOOLS=1: no install script can provide it.
    let Some(path) = crate::support::require("zchaff", || {
        std::env::var_os("BENCH_ZCHAFF")
            .ok_or_else(|| "BENCH_ZCHAFF is not set; zchaff is built by hand".to_string())
    }) else {
        return;
    };
    let config = bench::solver::SolverConfig {
        paths: vec![("zchaff".into(), path.into())],
        ..Default::default()
    };
    let solver = bench::solver::external::find("zchaff", &config).expect("zchaff");
    let cnf = sudoku_cnf(SUDOKU_9);
    let out = solver.solve(&cnf, &limits(60.0));
    assert_eq!(out.status, Status::Sat, "{:?}", out.error);
    check_model(&cnf, out.model.as_ref().unwrap()).expect("zchaff's model");
    let out = solver.solve(&pigeonhole(6, 5), &limits(60.0));
    assert_eq!(out.status, Status::Unsat, "{:?}", out.error);
    let out = solver.solve(&pigeonhole(12, 11), &limits(1.0));
    assert_eq!(out.status, Status::Timeout, "{:?}", out.error);
}

/// A 24 MiB address-space limit on a formula of 300,000 variables: every solver fails
/// to allocate, and each reports it in its own way (abort with a message, or minisat's
/// and glucose's `INDETERMINATE`); all of them must come out as MEMOUT.
#[test]
fn memory_limit_is_memout() {
    if !require_all(INSTALLED) {
        return;
    }
    let cnf = random_3sat(300_000);
    for name in INSTALLED {
        let Some(solver) = require(name) else {
            return;
        };
        let limits = Limits {
            timeout: Some(Duration::from_secs(30)),
            mem_limit_mb: Some(24),
            ..Limits::default()
        };
        let out = solver.solve(&cnf, &limits);
        assert_eq!(out.status, Status::Memout, "{name}: {:?}", out.error);
    }
}

/// A seed and a proof request reach the command line, and every proof a solver writes, in
/// every DRAT format its adapter declares, is VERIFIED by `rate`, on pigeonhole 6/5 and on
/// a sudoku whose givens have no solution. glucose 4.2.1 is the odd one: its binary proofs
/// are malformed (it is asked for text), and its text proofs delete reason units, so they
/// are read as drat-trim reads them; under strict DRAT semantics `rate` rejects them, which
/// this test also shows so the adapter's fact stays true. A proof a solver cannot write is
/// an ERROR, not a silently missing file.
#[test]
fn proofs_from_the_table_are_verified_by_rate() {
    use bench::judge::Verdict;
    use bench::run::proof::{ChainLimits, check_chain, find_cake_lpr};
    use bench::solver::{DratFormat, ProofStyle, SolverConfig, by_name};
    if !require_all(&["kissat", "cadical", "glucose", "minisat"])
        || crate::support::require_tool("rate").is_none()
    {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let minute = Duration::from_secs(60);
    let chain = ChainLimits {
        timeout: minute,
        mem_limit_mb: None,
        interrupt: None,
    };
    // With cake_lpr the chain goes on to the verified checker; without, rate's word.
    let accepted = match find_cake_lpr(&SolverConfig::default()) {
        Some(_) => Verdict::ProofVerified,
        None => Verdict::ProofOk(None),
    };
    let check_proof = |cnf, proof: &std::path::Path, style| {
        check_chain(cnf, proof, style, &chain, &SolverConfig::default()).verdict
    };
    let no_solution = include_str!("../../corpora/nosolution.txt")
        .lines()
        .nth(3)
        .and_then(|l| l.split_whitespace().next())
        .unwrap();
    let formulas = [
        ("php-6-5", pigeonhole(6, 5)),
        ("sudoku", sudoku_cnf(no_solution)),
    ];
    let strict = |format| ProofStyle {
        format,
        skip_unit_deletions: false,
    };
    let provers: [(&str, ProofStyle, &[bool]); 4] = [
        ("kissat", strict(DratFormat::Binary), &[true, false]),
        ("cadical", strict(DratFormat::Binary), &[true, false]),
        (
            "glucose",
            ProofStyle {
                format: DratFormat::Text,
                skip_unit_deletions: true,
            },
            &[false],
        ),
        ("native-proc", strict(DratFormat::Binary), &[true, false]),
    ];
    for (name, style, formats) in provers {
        let solver = by_name(name, &SolverConfig::default()).unwrap();
        assert_eq!(solver.proof_style(), Some(style), "{name}");
        for (label, cnf) in &formulas {
            for &binary in formats {
                let proof = dir.path().join(format!("{name}-{label}-{binary}.drat"));
                let limits = Limits {
                    timeout: Some(minute),
                    proof: Some(proof.clone()),
                    binary_proof: binary,
                    seed: 7,
                    ..Limits::default()
                };
                let out = solver.solve(cnf, &limits);
                assert_eq!(
                    out.status,
                    Status::Unsat,
                    "{name} on {label}: {:?}",
                    out.error
                );
                assert_eq!(
                    check_proof(cnf, &proof, style),
                    accepted,
                    "{name}'s {} proof of {label} is not verified by rate",
                    if binary { "binary" } else { "text" }
                );
            }
        }
    }
    let Some(glucose) = require("glucose") else {
        return;
    };
    let proof = dir.path().join("glucose-php-strict.drat");
    let limits = Limits {
        proof: Some(proof.clone()),
        ..Limits::default()
    };
    let php = &formulas[0].1;
    assert_eq!(glucose.solve(php, &limits).status, Status::Unsat);
    let strictly = check_proof(php, &proof, strict(DratFormat::Text));
    assert!(
        matches!(&strictly, Verdict::ProofFailed(why) if why.starts_with("rate rejected")),
        "glucose's proofs now pass strict DRAT: skip_unit_deletions may go ({strictly:?})"
    );
    let binary_glucose = Limits {
        proof: Some(dir.path().join("glucose.drat")),
        binary_proof: true,
        ..Limits::default()
    };
    let out = glucose.solve(&pigeonhole(3, 2), &binary_glucose);
    assert_eq!(out.status, Status::Error);
    assert!(
        out.error
            .unwrap()
            .contains("cannot write a binary DRAT proof")
    );
    let Some(minisat) = require("minisat") else {
        return;
    };
    assert_eq!(minisat.proof_style(), None);
    let limits = Limits {
        proof: Some(dir.path().join("minisat.drat")),
        ..Limits::default()
    };
    let out = minisat.solve(&pigeonhole(3, 2), &limits);
    assert_eq!(out.status, Status::Error);
    assert!(out.error.unwrap().contains("cannot write"));
}

/// `bench solvers` after the install script: every installed solver and `rate` found,
/// each with a version (minisat's from its Debian package: it has no version flag).
#[test]
fn bench_solvers_lists_every_installed_solver_with_a_version() {
    if !require_all(INSTALLED) || crate::support::require_tool("rate").is_none() {
        return;
    }
    let out = assert_cmd::Command::cargo_bin("bench")
        .unwrap()
        .arg("solvers")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for name in INSTALLED.iter().chain(&["rate"]) {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("{name} not listed:\n{text}"));
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[1], "found", "{line}");
        assert!(
            words[2]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit() || c == 's'),
            "{name} has no version: {line}"
        );
    }
}
