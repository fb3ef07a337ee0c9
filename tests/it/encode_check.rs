//! `bench encode` and `bench check` end to end, with minisat as the independent solver:
//! every encoding and kind decodes to the right grid, a flipped literal is caught, and
//! malformed input gets a one-line `file:line:` error.

use crate::support::bench;
use std::path::{Path, PathBuf};
use std::process::Command;

use bench::puzzle::symbols::value_symbol;

fn minisat() -> PathBuf {
    let path = PathBuf::from("/usr/bin/minisat");
    assert!(
        path.exists(),
        "minisat is missing: run scripts/install-solvers.sh (or apt-get install minisat)"
    );
    path
}

/// A full sudoku of box size k: the pattern grid `(r·k + r/k + c) mod n + 1`, relabelled
/// by `shift` so that different shifts give boards that differ in every cell.
fn full_sudoku(k: usize, shift: usize) -> Vec<u16> {
    let n = k * k;
    let mut cells = Vec::new();
    for r in 0..n {
        for c in 0..n {
            cells.push(((r * k + r / k + c + shift) % n + 1) as u16);
        }
    }
    cells
}

/// A full Latin square of side n.
fn full_latin(n: usize) -> Vec<u16> {
    (0..n * n)
        .map(|i| ((i / n + i % n) % n + 1) as u16)
        .collect()
}

/// Blanks one cell per row (a different column each time): each blank is the only one in
/// its row, so the solution is unique whatever the kind.
fn blank_diagonal(cells: &[u16], n: usize) -> Vec<u16> {
    let mut out = cells.to_vec();
    for r in 0..n {
        out[r * n + (r * 3) % n] = 0;
    }
    out
}

fn symbols(cells: &[u16]) -> String {
    cells.iter().map(|&v| value_symbol(v).unwrap()).collect()
}

/// Runs minisat on `cnf`, returns its result file.
fn run_minisat(dir: &Path, cnf: &Path) -> PathBuf {
    let res = dir.join(format!(
        "{}.res",
        cnf.file_name().unwrap().to_str().unwrap()
    ));
    let status = Command::new(minisat())
        .arg("-verb=0")
        .arg(cnf)
        .arg(&res)
        // minisat prints a warning and its verdict on stdout even with -verb=0: the
        // test's output is the test's own.
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert_eq!(
        status.code(),
        Some(10),
        "minisat says not SAT for {}",
        cnf.display()
    );
    res
}

/// Encodes the one puzzle in `text` to a file; returns the CNF path and the header counts.
fn encode(dir: &Path, text: &str, encoding: &str, extra: &[&str]) -> (PathBuf, u64, u64) {
    let puzzle = dir.join(format!("p-{encoding}.txt"));
    std::fs::write(&puzzle, text).unwrap();
    let out = bench()
        .arg("encode")
        .arg(&puzzle)
        .args(["--encoding", encoding])
        .args(extra)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cnf = dir.join(format!("p-{encoding}.cnf"));
    std::fs::write(&cnf, &out.stdout).unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("c bench "),
        "the first line is the self-describing header"
    );
    let header = text.lines().find(|l| l.starts_with("p cnf")).unwrap();
    let nums: Vec<u64> = header
        .split_whitespace()
        .skip(2)
        .map(|t| t.parse().unwrap())
        .collect();
    (cnf, nums[0], nums[1])
}

/// The symbols of the grid that `bench check` prints after `model-ok`.
fn checked_grid(cnf: &Path, answer: &Path) -> String {
    let out = bench().arg("check").arg(cnf).arg(answer).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "bench check failed: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.starts_with("model-ok"), "{stdout}");
    stdout
        .lines()
        .skip(1)
        .flat_map(|l| l.chars())
        .filter(|c| !c.is_whitespace() && *c != ',')
        .collect()
}

#[test]
fn counts_of_a_30_given_9x9() {
    let dir = tempfile::tempdir().unwrap();
    // Norvig's "hardest" puzzle has 17 givens; this one has exactly 30.
    let puzzle =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n";
    let givens = puzzle
        .chars()
        .filter(|c| c.is_ascii_digit() && *c != '0')
        .count();
    assert_eq!(givens, 30);
    let expect = [
        ("minimal", 8_859),
        ("efficient", 11_775),
        ("extended", 12_018),
    ];
    for (encoding, clauses) in expect {
        let (_, vars, got) = encode(dir.path(), puzzle, encoding, &[]);
        assert_eq!((vars, got), (729, clauses), "{encoding}");
    }
    let (_, vars, pruned) = encode(dir.path(), puzzle, "pruned", &[]);
    assert_eq!(vars, 729);
    assert!(pruned < 12_018 / 3, "pruned has {pruned} clauses");
}

#[test]
fn every_encoding_and_kind_decodes_to_the_solution() {
    if !crate::support::external::require_all(&["minisat"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let sudoku = full_sudoku(3, 0);
    let latin = full_latin(7);
    let s1 = full_sudoku(2, 0);
    let s2 = full_sudoku(2, 1);
    let cases: Vec<(&str, String, String, Vec<&str>)> = vec![
        (
            "sudoku",
            symbols(&blank_diagonal(&sudoku, 9)),
            symbols(&sudoku),
            vec![],
        ),
        (
            "latin",
            symbols(&blank_diagonal(&latin, 7)),
            symbols(&latin),
            vec![],
        ),
        (
            "pair",
            symbols(&blank_diagonal(&s1, 4)) + &symbols(&blank_diagonal(&s2, 4)),
            symbols(&s1) + &symbols(&s2),
            vec!["--kind", "pair"],
        ),
    ];
    for (kind, puzzle, solution, extra) in &cases {
        for encoding in ["minimal", "efficient", "extended", "pruned"] {
            for amo in ["pairwise", "sequential"] {
                let mut args = extra.clone();
                args.extend(["--amo", amo]);
                let (cnf, ..) = encode(dir.path(), &format!("{puzzle}\n"), encoding, &args);
                let res = run_minisat(dir.path(), &cnf);
                assert_eq!(
                    &checked_grid(&cnf, &res),
                    solution,
                    "{kind} {encoding} {amo}"
                );
            }
        }
    }
}

#[test]
fn a_flipped_literal_is_caught_naming_the_clause() {
    if !crate::support::external::require_all(&["minisat"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let sudoku = full_sudoku(3, 0);
    let (cnf, ..) = encode(
        dir.path(),
        &(symbols(&blank_diagonal(&sudoku, 9)) + "\n"),
        "extended",
        &[],
    );
    let res = run_minisat(dir.path(), &cnf);
    let text = std::fs::read_to_string(&res).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("SAT"));
    let lits: Vec<i64> = lines
        .next()
        .unwrap()
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    for flip in [0, 1, 100, 728] {
        let mut wrong = lits.clone();
        wrong[flip] = -wrong[flip];
        let body: Vec<String> = wrong.iter().map(|l| l.to_string()).collect();
        let bad = dir.path().join("bad.res");
        std::fs::write(&bad, format!("SAT\n{}\n", body.join(" "))).unwrap();
        let out = bench().arg("check").arg(&cnf).arg(&bad).output().unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert_eq!(out.status.code(), Some(1), "{stdout}");
        assert!(stdout.starts_with("model-wrong: clause "), "{stdout}");
        assert!(stdout.contains("is not satisfied"), "{stdout}");
    }
}

#[test]
fn malformed_inputs_give_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("bad.cnf");
    std::fs::write(&cnf, "c fine\np cnf 3 2\n1 2 0\n1 4 0\n").unwrap();
    let answer = dir.path().join("a.txt");
    std::fs::write(&answer, "s SATISFIABLE\nv 1 2 3 0\n").unwrap();
    let out = bench()
        .arg("check")
        .arg(&cnf)
        .arg(&answer)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        stderr.trim(),
        format!(
            "bench: {}:4: literal 4 exceeds the header's 3 variables",
            cnf.display()
        )
    );

    let puzzles = dir.path().join("bad.txt");
    let good = symbols(&blank_diagonal(&full_sudoku(3, 0), 9));
    // A line one symbol short breaks the format; givens that clash do not (that puzzle has
    // no solution, and its formula is written, UNSAT).
    let short = &good[1..];
    let dup = format!("11{}", &good[2..]);
    std::fs::write(
        &puzzles,
        format!("# three puzzles, one bad\n{good}\n{short}\n{dup}\n"),
    )
    .unwrap();
    let out_dir = dir.path().join("out");
    let out = bench()
        .arg("encode")
        .arg(&puzzles)
        .arg("-o")
        .arg(&out_dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    let first = stderr.lines().next().unwrap();
    assert!(
        first.starts_with(&format!("{}:3: ", puzzles.display())),
        "{stderr}"
    );
    assert!(
        out_dir.join("bad-2.cnf").exists(),
        "the good puzzle is still written"
    );
    assert!(!out_dir.join("bad-3.cnf").exists());
    assert!(stderr.contains(":4: the givens clash"), "{stderr}");
    assert!(out_dir.join("bad-4.cnf").exists());
}
