//! `--count all` end to end in each mode, with real solvers: native in a session, native
//! on fresh formulas (`--no-incremental`), minisat as a child process. Every mode finds the
//! same counts; the row's `count_wall_s`/`count_cpu_s` cover every solve of the count
//! (`wall_s`/`cpu_s` the first alone); `--solutions` keeps every grid found, each a
//! distinct solution of its puzzle; the counts show in the terminal table, summary.md,
//! summary.json and the page.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;
use bench::results::{Mode, read_rows};

/// Two puzzles of `corpora/multisolution.txt` (lines 2 and 9): 18 and 5 solutions.
const PUZZLES: [(&str, usize); 2] = [
    (
        "000006020002500800008002004930700000010000070200400906000000500400309080007800000",
        18,
    ),
    (
        "076000023000087500904003000000710052090600700000000000300900045408000007000000000",
        5,
    ),
];

/// True if `grid` (81 digits) is a solved sudoku that keeps the givens of `puzzle`.
fn solves(puzzle: &str, grid: &str) -> bool {
    let p: Vec<u8> = puzzle.bytes().map(|b| b - b'0').collect();
    let g: Vec<u8> = grid.bytes().map(|b| b.wrapping_sub(b'0')).collect();
    if g.len() != 81 || g.iter().any(|&v| !(1..=9).contains(&v)) {
        return false;
    }
    let kept = p.iter().zip(&g).all(|(&a, &b)| a == 0 || a == b);
    let unit_ok = |cells: Vec<usize>| {
        let seen: BTreeSet<u8> = cells.iter().map(|&i| g[i]).collect();
        seen.len() == 9
    };
    let rows = (0..9).all(|r| unit_ok((0..9).map(|c| r * 9 + c).collect()));
    let cols = (0..9).all(|c| unit_ok((0..9).map(|r| r * 9 + c).collect()));
    let boxes = (0..9).all(|b| {
        unit_ok(
            (0..9)
                .map(|k| (b / 3 * 3 + k / 3) * 9 + b % 3 * 3 + k % 3)
                .collect(),
        )
    });
    kept && rows && cols && boxes
}

/// Runs `bench run` in `dir` on the two puzzles with `extra` arguments; stdout.
fn count_all(dir: &Path, out: &str, extra: &[&str]) -> String {
    let corpus = dir.join("multi.txt");
    let text: String = PUZZLES.iter().map(|(p, _)| format!("{p}\n")).collect();
    std::fs::write(&corpus, text).unwrap();
    let result = Command::cargo_bin("bench")
        .unwrap()
        .current_dir(dir)
        .args([
            "run",
            "multi.txt",
            "--count",
            "all",
            "--solutions",
            "--jobs",
            "1",
        ])
        .args(["--timeout", "60", "--out", out])
        .args(extra)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&result.stdout).to_string();
    assert_eq!(
        result.status.code(),
        Some(0),
        "{stdout}\n{}",
        String::from_utf8_lossy(&result.stderr)
    );
    stdout
}

/// Every mode: the same counts, the count's time beyond the first solve's, every grid kept.
fn check_mode(dir: &Path, out: &str, solver: &str, mode: Mode, stdout: &str) {
    let out = dir.join(out);
    let rows = read_rows(&out.join("results.csv"), false).unwrap();
    assert_eq!(rows.len(), 2);
    for (r, (_, want)) in rows.iter().zip(PUZZLES) {
        assert_eq!(
            (r.mode, r.solutions),
            (Some(mode), Some(want as u32)),
            "{r:?}"
        );
        let (count_wall, count_cpu) = (r.count_wall_s.unwrap(), r.count_cpu_s.unwrap());
        // Several solves against one: the count's time is the sum, more than the first.
        assert!(count_wall > r.wall_s, "{r:?}");
        assert!(count_cpu > r.cpu_s.unwrap(), "{r:?}");
    }
    // Every solution found, in its puzzle's block, each distinct and right.
    let file = out.join(format!("solutions/multi.{solver}.extended.txt"));
    let text = std::fs::read_to_string(&file).unwrap();
    let blocks: Vec<&str> = text.split("# solution of ").skip(1).collect();
    assert_eq!(blocks.len(), 2, "{text}");
    for (block, (puzzle, want)) in blocks.iter().zip(PUZZLES) {
        assert!(
            block
                .lines()
                .next()
                .unwrap()
                .ends_with(&format!("SAT, {want} solutions")),
            "{block}"
        );
        let grids: Vec<&str> = block
            .lines()
            .skip(1)
            .filter(|l| !l.starts_with('#'))
            .collect();
        assert_eq!(grids.len(), want, "{block}");
        let distinct: BTreeSet<&str> = grids.iter().copied().collect();
        assert_eq!(distinct.len(), want, "a solution kept twice");
        assert!(grids.iter().all(|g| solves(puzzle, g)), "{block}");
    }
    // The counts in the terminal table, summary.md, summary.json and the page.
    assert!(stdout.contains("solutions (runs)"), "{stdout}");
    assert!(stdout.contains("23 (2)"), "{stdout}");
    let md = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(
        md.contains("| solutions (runs) | count total (s) |"),
        "{md}"
    );
    assert!(md.contains("| 23 (2) |"), "{md}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(json["scores"][0]["solutions"], 23);
    let total = json["scores"][0]["count_total_s"].as_f64().unwrap();
    let first: f64 = rows.iter().map(|r| r.cpu_s.unwrap()).sum();
    assert!(total > first, "{total} {first}");
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(page.contains("18 solutions in "), "page per-instance table");
    assert!(page.contains("5 solutions in "), "page per-instance table");
}

#[test]
fn a_count_in_a_session() {
    let dir = tempfile::tempdir().unwrap();
    let stdout = count_all(dir.path(), "s", &[]);
    check_mode(dir.path(), "s", "native", Mode::Session, &stdout);
}

#[test]
fn a_count_on_fresh_formulas() {
    let dir = tempfile::tempdir().unwrap();
    let stdout = count_all(dir.path(), "f", &["--no-incremental"]);
    check_mode(dir.path(), "f", "native", Mode::Fresh, &stdout);
}

#[test]
fn a_count_by_a_child_process() {
    if crate::support::require_tool("minisat").is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let stdout = count_all(dir.path(), "p", &["--solvers", "minisat"]);
    check_mode(dir.path(), "p", "minisat", Mode::Process, &stdout);
}
