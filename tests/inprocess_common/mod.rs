//! Shared helpers of the in-process tests: running `bench run` into a temporary folder and
//! reading its rows, comparing two runs row by row, and timing how late a stopped solve
//! ends after its deadline.

#![allow(dead_code)] // each test file uses its own subset

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use assert_cmd::cargo::CommandCargoExt;
use bench::run::results::{Row, read_rows};
use bench::solver::{Limits, Outcome, Status};

/// The bench binary.
pub fn bench() -> Command {
    Command::cargo_bin("bench").unwrap()
}

/// A corpus file of the repository.
pub fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpora")
        .join(name)
}

/// Runs `bench run ARGS --out DIR/NAME --jobs 1`; returns the rows and the output.
pub fn run(dir: &Path, name: &str, args: &[&str]) -> (Vec<Row>, Output) {
    let out_dir = dir.join(name);
    let out = bench()
        .arg("run")
        .args(args)
        .args(["--jobs", "1", "--out"])
        .arg(&out_dir)
        .output()
        .unwrap();
    let csv = out_dir.join("results.csv");
    assert!(
        csv.exists(),
        "no results: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (read_rows(&csv, false).unwrap(), out)
}

/// What must be equal between two runs of one instance, encoding and solver.
pub type Facts = (String, String, Option<u32>, u64, u64);

/// Rows by (instance, encoding, solver): status, check, solutions, vars, clauses.
pub fn facts(rows: &[Row]) -> BTreeMap<(String, String, String), Facts> {
    rows.iter()
        .map(|r| {
            (
                (r.instance.clone(), r.encoding.clone(), r.solver.clone()),
                (
                    r.status.clone(),
                    r.check.clone(),
                    r.solutions,
                    r.vars,
                    r.clauses,
                ),
            )
        })
        .collect()
}

/// Checks the expected answer of every row: UNSAT for `nosolution.txt`, two solutions for
/// `multisolution.txt`, one for the rest; none wrong.
pub fn assert_expected(rows: &[Row]) {
    assert!(!rows.is_empty());
    for r in rows {
        let what = format!("{} {} {}", r.solver, r.instance, r.encoding);
        assert!(!r.wrong, "{what}: {}", r.error);
        if r.instance.starts_with("nosolution.txt") {
            assert_eq!(r.status, "UNSAT", "{what}");
        } else {
            assert_eq!(
                (r.status.as_str(), r.check.as_str()),
                ("SAT", "model-ok"),
                "{what}"
            );
            let want = if r.instance.starts_with("multisolution.txt") {
                2
            } else {
                1
            };
            assert_eq!(r.solutions, Some(want), "{what}");
        }
    }
}

/// The smallest lateness over `tries` runs of `solve` with deadline `timeout` (a loaded
/// machine can delay any one of them); each must end TIMEOUT.
pub fn lateness(
    tries: u32,
    timeout: Duration,
    mut solve: impl FnMut(&Limits) -> Outcome,
) -> Duration {
    let limits = Limits {
        timeout: Some(timeout),
        ..Limits::default()
    };
    (0..tries)
        .map(|_| {
            let o = solve(&limits);
            assert_eq!(o.status, Status::Timeout, "{:?}", o.error);
            o.wall.saturating_sub(timeout)
        })
        .min()
        .unwrap()
}
