//! native honours its time limit on formulas that make single steps long: one clause of
//! ten million literals (a million in debug builds), beside a pigeonhole formula that keeps
//! the search busy. Loading, the simplification round and propagation over the long clause
//! all look at the deadline, so `bench solve --timeout T` stops with its own status
//! TIMEOUT having used little more than T of CPU. The bound is on the CPU time the solver
//! reports (its thread's clock), which a loaded machine does not inflate: a solver that
//! overran would have spent its CPU past the deadline. And beside two busy loops, `bench
//! run`'s row of native on the same formula records at most its timeout plus the 1 s the
//! README promises, wherever the deadline falls (a loaded machine stretches every step:
//! the call runs on a thread of its own and is abandoned past its deadline). Run under
//! `ulimit -v`, as every test with a big input is.

use std::process::Command;

use crate::support::loaded::{assert_the_margin_holds_beside_busy_loops, huge_clause_and_pigeons};

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
    huge_clause_and_pigeons(&cnf, n);
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

#[test]
fn native_rows_keep_to_the_promised_margin_beside_busy_loops() {
    // The deadline falls in reading (the shorter one, on a loaded machine: reading the
    // 79 MB took up to 8 s of wall time at a load of 20), in loading or the first
    // simplification round, or in the search: each row at most 1 s past it.
    assert_the_margin_holds_beside_busy_loops(&["native"], &[4.0, 12.0]);
}
