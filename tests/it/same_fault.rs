//! The same fault, the same fate: an unreadable puzzle file, an empty one and a garbage
//! `.cnf` among good inputs are each skipped with file and line, and the rest runs;
//! `--strict` makes any of them fatal.

use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;
use bench::results::read_rows;

const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n";

#[test]
fn unreadable_empty_and_garbage_inputs_cost_only_themselves() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("good.txt"), PUZZLE).unwrap();
    // Not UTF-8: the whole file cannot be read as text.
    std::fs::write(d.join("binary.txt"), b"53..7\xff\xfe\x00garbage\n").unwrap();
    std::fs::write(d.join("empty.txt"), b"\n\n").unwrap();
    std::fs::write(d.join("garbage.cnf"), b"p cnf 2 1\n1 x 0\n").unwrap();
    let inputs = ["binary.txt", "empty.txt", "garbage.cnf", "good.txt"];
    let out = Command::cargo_bin("bench")
        .unwrap()
        .current_dir(d)
        .arg("run")
        .args(inputs)
        .args(["--timeout", "10", "--out", "r"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("binary.txt:1: not UTF-8"), "{err}");
    assert!(err.contains("empty.txt: no puzzle"), "{err}");
    assert!(err.contains("garbage.cnf:2:"), "{err}");
    let rows = read_rows(&d.join("r/results.csv"), true).unwrap();
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0].instance.as_str(), "good.txt:1");
    assert_eq!(rows[0].check.as_str(), "model-ok");
    let summary = std::fs::read_to_string(d.join("r/summary.md")).unwrap();
    assert!(summary.contains("binary.txt"), "{summary}");

    // --strict: the unreadable file stops the run before anything runs.
    let out = Command::cargo_bin("bench")
        .unwrap()
        .current_dir(d)
        .arg("run")
        .args([
            "binary.txt",
            "good.txt",
            "--strict",
            "--timeout",
            "10",
            "--out",
            "s",
        ])
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0));
    assert!(!d.join("s/results.csv").exists());
    assert!(String::from_utf8_lossy(&out.stderr).contains("binary.txt:1"));
}
