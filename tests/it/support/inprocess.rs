//! Shared helpers of the in-process tests: running `bench run` into a temporary folder and
//! reading its rows, comparing two runs row by row, and timing how late a stopped solve
//! ends after its deadline.

#![allow(dead_code)] // each test file uses its own subset

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use bench::results::{Row, read_rows};
use bench::solver::{Limits, Outcome, Status};

pub use super::bench;

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
                (
                    r.instance.to_string(),
                    r.encoding.to_string(),
                    r.solver.to_string(),
                ),
                (
                    r.status.to_string(),
                    r.check.to_string(),
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
            assert_eq!(r.status.as_str(), "UNSAT", "{what}");
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

/// The smallest lateness over `tries` runs of `solve` with deadline `timeout`, counted
/// in the CPU time the call used past the timeout (its wall time where it has none): a
/// loaded machine stretches wall time, never the CPU a call spends before it looks at its
/// clock, so the bound holds at any load, while a solver that never looked would spend
/// seconds of CPU here on an idle machine. Each run must end TIMEOUT.
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
            o.cpu.unwrap_or(o.wall).saturating_sub(timeout)
        })
        .min()
        .unwrap()
}

fn symbol(v: usize) -> char {
    std::char::from_digit(v as u32, 36)
        .unwrap()
        .to_ascii_uppercase()
}

/// A corpus of 24×24 Latin squares, `hard` and `easy` in the order of `pattern`: a hard one
/// has no solution for a reason CDCL finds only by brute force (rows 1–12 are filled in
/// columns 12–24 with the values 12–24, so each of the 12 rows must put the values 1–11
/// into the same 11 columns: pigeonhole 12 into 11, every solver here runs for well over
/// 20 s); an easy one is a full cyclic square with one blank (propagation alone). Each
/// puzzle's symbols are relabelled by its position, so no two are one instance.
pub fn latin_hard_easy(dir: &Path, pattern: &[bool]) -> PathBuf {
    let (n, m) = (24, 11);
    let mut hard = String::new();
    for r in 0..n {
        for c in 0..n {
            hard.push(if r <= m && c >= m {
                symbol(m + 1 + (r + c - m) % (n - m))
            } else {
                '.'
            });
        }
    }
    let mut easy = String::new();
    for r in 0..n {
        for c in 0..n {
            easy.push(if (r, c) == (0, 0) {
                '.'
            } else {
                symbol((r + c) % n + 1)
            });
        }
    }
    // Puzzle i has its symbols relabelled v → v + i (mod n): the same puzzle, as hard or
    // as easy, but another instance (one content is one instance, run once).
    let relabel = |text: &str, i: usize| -> String {
        text.chars()
            .map(|c| match c.to_digit(36) {
                Some(v) => symbol((v as usize - 1 + i) % n + 1),
                None => c,
            })
            .collect()
    };
    let text: String = pattern
        .iter()
        .enumerate()
        .map(|(i, &h)| format!("{}\n", relabel(if h { &hard } else { &easy }, i)))
        .collect();
    let path = dir.join("latin-hard-easy.txt");
    std::fs::write(&path, text).unwrap();
    path
}

/// Checks a run on [`latin_hard_easy`]: the hard ones TIMEOUT (ended no later than
/// `slack` after the deadline), the easy ones solved, unique, checked, even after a
/// stopped call.
pub fn assert_hard_timeout_easy_solved(rows: &[Row], pattern: &[bool], timeout: f64, slack: f64) {
    assert_eq!(rows.len(), pattern.len());
    let mut sorted: Vec<&Row> = rows.iter().collect();
    sorted.sort_by_key(|r| {
        r.instance
            .rsplit(':')
            .next()
            .and_then(|l| l.parse::<u32>().ok())
            .unwrap_or(0)
    });
    for (r, &hard) in sorted.iter().zip(pattern) {
        assert!(!r.wrong, "{}: {}", r.instance, r.error);
        if hard {
            assert_eq!(r.status.as_str(), "TIMEOUT", "{r:?}");
            assert!(
                r.wall_s < timeout + slack,
                "{} on {} took {} s",
                r.solver,
                r.instance,
                r.wall_s
            );
        } else {
            assert_eq!(
                (r.status.as_str(), r.check.as_str(), r.solutions),
                ("SAT", "model-ok", Some(1)),
                "{r:?}"
            );
        }
    }
}

/// `bench run` with `solvers` on hard and easy Latin squares in turn under a 3 s timeout
/// (`--count 2`): every hard one a TIMEOUT, every easy one solved and counted, for each
/// solver; a row may be `slack` seconds late on a loaded machine.
pub fn assert_timeouts_recover(solvers: &[&str], slack: f64) {
    // A limit no load reaches for the easy squares (propagation alone, after loading a
    // session of 479,231 clauses), while the hard ones run for well over 20 s.
    const TIMEOUT: f64 = 3.0;
    let dir = tempfile::tempdir().unwrap();
    let pattern = [true, false, true, false, false];
    let corpus = latin_hard_easy(dir.path(), &pattern);
    let list = solvers.join(",");
    let (rows, out) = run(
        dir.path(),
        "t",
        &[
            corpus.to_str().unwrap(),
            "--timeout",
            &TIMEOUT.to_string(),
            "--count",
            "2",
            "--solvers",
            &list,
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for solver in solvers {
        let mine: Vec<_> = rows
            .iter()
            .filter(|r| r.solver == *solver)
            .cloned()
            .collect();
        assert_hard_timeout_easy_solved(&mine, &pattern, TIMEOUT, slack);
    }
}
