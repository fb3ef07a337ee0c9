//! Sizes inside the documented ranges, each under `ulimit -v 4000000`: they run within the
//! limit or are refused up front with the size they would need, never an abort. A blank
//! 961×961 sudoku (box 31) is a MEMOUT row in `bench run` and a MEMOUT line in `bench
//! solve`; `bench gen --box 31` and `--side 1000 --kind latin` are refused naming their
//! clauses; an encoding that outlasts the time limit is a TIMEOUT row; `bench gen
//! --min-rating 1e308` gives up with the best rating it saw.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use bench::results::read_rows;

const LIMIT_KB: u64 = 4_000_000;

fn bench_path() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_bench"))
}

/// `bench ARGS` under `ulimit -v`, from `dir`.
fn limited(dir: &Path, args: &[&str]) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {LIMIT_KB} && exec \"$0\" \"$@\""))
        .arg(bench_path())
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// A blank puzzle of side `n`, written as whitespace-separated integers on one line.
fn blank(dir: &Path, name: &str, n: usize) {
    let line = vec!["0"; n * n].join(" ");
    std::fs::write(dir.join(name), format!("{line}\n")).unwrap();
}

#[test]
fn a_blank_961_sudoku_is_refused_with_its_size() {
    let dir = tempfile::tempdir().unwrap();
    blank(dir.path(), "b961.txt", 961);
    let o = limited(
        dir.path(),
        &[
            "run",
            "b961.txt",
            "--solvers",
            "native",
            "--timeout",
            "10",
            "--out",
            "r",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let rows = read_rows(&dir.path().join("r/results.csv"), true).unwrap();
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0].status.as_str(), "MEMOUT");
    assert!(
        rows[0].error.contains("refused") && rows[0].error.contains("1704010761604 clauses"),
        "{}",
        rows[0].error
    );

    let o = limited(dir.path(), &["solve", "b961.txt"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("# b961.txt:1: MEMOUT refused"), "{}", text(&o));
}

#[test]
fn gen_refuses_shapes_it_cannot_hold() {
    let dir = tempfile::tempdir().unwrap();
    for (args, clauses) in [
        (&["gen", "--box", "31"][..], "1704010761604 clauses"),
        (
            &["gen", "--side", "1000", "--kind", "latin"][..],
            "1498503000000 clauses",
        ),
    ] {
        let o = limited(dir.path(), args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("too big to generate") && err.contains(clauses),
            "{err}"
        );
    }
}

#[test]
fn an_unreachable_rating_ends_with_the_best_seen() {
    let dir = tempfile::tempdir().unwrap();
    let o = limited(dir.path(), &["gen", "--min-rating", "1e308", "--seed", "3"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("gave up: 0 of 1 puzzles reached --min-rating")
            && err.contains("highest rated"),
        "{err}"
    );
}

#[test]
fn an_encoding_that_outlasts_the_time_limit_is_a_timeout_row() {
    // 2·10⁷ clauses: within the memory limit, far more than 0.2 s of work (encoding it, or
    // loading it into the solver, whichever the time limit stops).
    let dir = tempfile::tempdir().unwrap();
    blank(dir.path(), "l60.txt", 60);
    let o = limited(
        dir.path(),
        &[
            "run",
            "l60.txt",
            "--kind",
            "latin",
            "--solvers",
            "native",
            "--no-incremental",
            "--timeout",
            "0.2",
            "--out",
            "r",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let rows = read_rows(&dir.path().join("r/results.csv"), true).unwrap();
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0].status.as_str(), "TIMEOUT", "{rows:?}");
    eprintln!("row: wall {} s, {}", rows[0].wall_s, rows[0].error);
}

#[test]
fn one_clause_of_ten_million_literals_is_a_row_not_an_abort() {
    // 79 MB of DIMACS: native's per-variable state for 10⁷ variables does not fit half the
    // address space the limit leaves, so it is refused up front (MEMOUT) instead of
    // failing an allocation inside bench.
    let dir = tempfile::tempdir().unwrap();
    let n = 10_000_000u32;
    let mut cnf = format!("p cnf {n} 1\n");
    for v in 1..=n {
        cnf += &v.to_string();
        cnf.push(' ');
    }
    cnf += "0\n";
    std::fs::write(dir.path().join("long.cnf"), cnf).unwrap();
    let o = limited(
        dir.path(),
        &[
            "run",
            "long.cnf",
            "--solvers",
            "native",
            "--timeout",
            "20",
            "--out",
            "r",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let rows = read_rows(&dir.path().join("r/results.csv"), true).unwrap();
    assert_eq!(rows.len(), 1, "{rows:?}");
    let status = rows[0].status.as_str();
    assert!(matches!(status, "MEMOUT" | "SAT" | "TIMEOUT"), "{rows:?}");
    eprintln!("native: {status} {}", rows[0].error);
}
