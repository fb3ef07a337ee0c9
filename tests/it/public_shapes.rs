//! Two shapes found in public collections: a pair CSV whose two boards are separated by a
//! line holding only whitespace, and a whole puzzle written as one line of space-separated
//! integers (16×16 and 25×25 in public solver repositories). Both read, and solve.

use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;
use bench::puzzle::Kind;
use bench::puzzle::format::{Format, ReadOptions, read_str};
use bench::results::read_rows;

/// A 4×4 pair (sudoku pair rules: the boards differ in every cell), as rows.
const S1: [&str; 4] = ["1,2,0,0", "0,0,1,2", "2,1,0,0", "0,0,2,1"];
const S2: [&str; 4] = ["2,1,0,0", "0,0,2,1", "1,2,0,0", "0,0,1,2"];

fn pair_csv(separator: &str) -> String {
    format!("{}\n{separator}\n{}\n", S1.join("\n"), S2.join("\n"))
}

#[test]
fn a_whitespace_line_between_two_boards_makes_a_pair() {
    for kind in [None, Some(Kind::Pair)] {
        let opts = ReadOptions {
            kind,
            ..ReadOptions::default()
        };
        let file = read_str(&pair_csv(" "), "pair.csv", &opts).unwrap();
        assert_eq!(file.format, Format::Csv);
        assert_eq!(file.entries.len(), 1, "{:?}", file.entries);
        let p = &file.entries[0].as_ref().unwrap().puzzle;
        assert_eq!((p.kind(), p.side()), (Kind::Pair, 4));
    }
    // An empty line still separates two puzzles; --kind sudoku keeps boards apart.
    let file = read_str(&pair_csv(""), "two.csv", &ReadOptions::default()).unwrap();
    assert_eq!(file.entries.len(), 2);
    let opts = ReadOptions {
        kind: Some(Kind::Sudoku),
        ..ReadOptions::default()
    };
    let file = read_str(&pair_csv(" \t"), "two.csv", &opts).unwrap();
    assert_eq!(file.entries.len(), 2);
}

/// A 16×16 sudoku (a solved grid from the pattern (r·4 + r/4 + c) mod 16, then blanks).
fn sixteen() -> Vec<u16> {
    let mut cells = Vec::new();
    for r in 0..16 {
        for c in 0..16 {
            let v = ((r * 4 + r / 4 + c) % 16 + 1) as u16;
            cells.push(if (r * 7 + c * 3) % 5 == 0 { 0 } else { v });
        }
    }
    cells
}

#[test]
fn a_puzzle_on_one_line_of_integers_reads_and_solves() {
    let line: Vec<String> = sixteen().iter().map(u16::to_string).collect();
    let text = line.join(" ") + "\n";
    let file = read_str(&text, "16.txt", &ReadOptions::default()).unwrap();
    assert_eq!(file.format, Format::Grid);
    let p = &file.entries[0].as_ref().unwrap().puzzle;
    assert_eq!((p.kind(), p.side()), (Kind::Sudoku, 16));
    // A value beyond the side is an error at its line.
    let bad = text.replacen("0 ", "17 ", 1);
    let file = read_str(&bad, "bad.txt", &ReadOptions::default());
    let message = match file {
        Ok(f) => f.entries[0].as_ref().unwrap_err().to_string(),
        Err(e) => e.to_string(),
    };
    assert!(message.contains("bad.txt:1"), "{message}");

    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("16.txt"), &text).unwrap();
    std::fs::write(dir.path().join("pair.csv"), pair_csv(" ")).unwrap();
    let out = Command::cargo_bin("bench")
        .unwrap()
        .current_dir(dir.path())
        .args(["run", "16.txt", "pair.csv", "--timeout", "20", "--out", "r"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = read_rows(&dir.path().join("r/results.csv"), true).unwrap();
    assert_eq!(rows.len(), 2);
    for r in &rows {
        assert_eq!(r.check.as_str(), "model-ok", "{r:?}");
    }
}
