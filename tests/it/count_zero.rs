//! `--count` on a puzzle without solution: the `solutions` column says 0, not nothing.

use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;
use bench::results::read_rows;

#[test]
fn an_unsat_puzzle_counts_zero_solutions() {
    let dir = tempfile::tempdir().unwrap();
    // Two 5s in the first row: no solution.
    let clash =
        "55..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n";
    let good =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n";
    std::fs::write(dir.path().join("p.txt"), format!("{clash}{good}")).unwrap();
    let out = Command::cargo_bin("bench")
        .unwrap()
        .current_dir(dir.path())
        .args([
            "run",
            "p.txt",
            "--count",
            "2",
            "--timeout",
            "10",
            "--out",
            "r",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = read_rows(&dir.path().join("r/results.csv"), true).unwrap();
    let unsat = rows
        .iter()
        .find(|r| r.instance.as_str() == "p.txt:1")
        .unwrap();
    assert_eq!(unsat.status.as_str(), "UNSAT");
    assert_eq!(unsat.solutions, Some(0));
    let sat = rows
        .iter()
        .find(|r| r.instance.as_str() == "p.txt:2")
        .unwrap();
    assert_eq!(sat.solutions, Some(1));
}
