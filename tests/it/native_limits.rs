//! native honours its time limit on formulas that make single steps long: one clause of
//! ten million literals (a million in debug builds), beside a pigeonhole formula that keeps
//! the search busy. Loading, the simplification round and propagation over the long clause
//! all look at the deadline, so `bench solve --timeout T` stops with its own status
//! TIMEOUT having used little more than T of CPU. The bound is on the CPU time the solver
//! reports (its thread's clock), which a loaded machine does not inflate: a solver that
//! overran would have spent its CPU past the deadline. Run under `ulimit -v`, as every
//! test with a big input is.

use std::io::{BufWriter, Write};
use std::process::Command;

/// Writes one clause over variables 1..=n, then PHP(12, 11) on the next variables.
fn write_formula(path: &std::path::Path, n: u32) {
    let (p, h) = (12u32, 11u32);
    let var = |i: u32, j: u32| n + i * h + j + 1;
    let mut clauses: Vec<Vec<i64>> = Vec::new();
    for i in 0..p {
        clauses.push((0..h).map(|j| var(i, j) as i64).collect());
    }
    for j in 0..h {
        for a in 0..p {
            for b in a + 1..p {
                clauses.push(vec![-(var(a, j) as i64), -(var(b, j) as i64)]);
            }
        }
    }
    let mut out = BufWriter::new(std::fs::File::create(path).unwrap());
    writeln!(out, "p cnf {} {}", n + p * h, clauses.len() + 1).unwrap();
    for v in 1..=n {
        write!(out, "{v} ").unwrap();
    }
    writeln!(out, "0").unwrap();
    for c in clauses {
        for l in c {
            write!(out, "{l} ").unwrap();
        }
        writeln!(out, "0").unwrap();
    }
    out.flush().unwrap();
}

/// The value of a `c key: value` line of the solver's output.
fn reported<'a>(out: &'a str, key: &str) -> Option<&'a str> {
    out.lines()
        .find_map(|l| l.strip_prefix("c ")?.strip_prefix(key)?.strip_prefix(": "))
}

#[test]
fn a_clause_of_millions_of_literals_stops_at_the_timeout() {
    let n: u32 = if cfg!(debug_assertions) {
        1_000_000
    } else {
        10_000_000
    };
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("huge-clause.cnf");
    write_formula(&cnf, n);
    let timeout = 1.0;
    // 6 GiB of address space: the solver needs about 1.2 GB for ten million variables.
    let run = Command::new("bash")
        .arg("-c")
        .arg(r#"ulimit -v 6291456 && exec "$@""#)
        .arg("_")
        .arg(env!("CARGO_BIN_EXE_bench"))
        .args([
            "solve",
            "--solver",
            "native",
            "--timeout",
            &timeout.to_string(),
        ])
        .arg(&cnf)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&run.stdout);
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{out}\n{err}");
    assert_eq!(reported(&out, "status"), Some("TIMEOUT"), "{out}\n{err}");
    let secs = |key: &str| -> f64 {
        reported(&out, key)
            .and_then(|v| v.strip_suffix(" s"))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no `{key}` in {out}"))
    };
    let (cpu, wall) = (secs("cpu time"), secs("wall time"));
    // A solver that looked at its limits only between search steps would spend about
    // 8.5 s of CPU here (loading, listing occurrences, eliminating) before its first look.
    assert!(
        cpu <= timeout + 1.5,
        "{cpu} s of CPU against a {timeout} s timeout"
    );
    // Hang detection only: the machine may be shared.
    assert!(wall <= timeout + 60.0, "{wall} s of wall time");
}
