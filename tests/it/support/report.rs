//! Shared by the `report_*` tests: hand-made result rows, written with the real
//! `ResultsWriter`, so the tests read exactly what `bench run` writes.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use bench::results::{Check, ResultsWriter, Row};
use bench::solver::Status;

pub use super::bench;

/// A row: `solver` on `instance` under `encoding` said `status` in `wall` seconds.
pub fn row(instance: &str, encoding: &str, solver: &str, status: &str, wall: f64) -> Row {
    let (vars, clauses) = match encoding {
        "minimal" => (729, 8_829 + 30),
        "extended" => (729, 11_988 + 30),
        _ => (729, 10_000),
    };
    Row {
        corpus: "hard.txt".into(),
        instance: instance.into(),
        hash: Default::default(),
        kind: bench::results::InstanceKind::Puzzle(bench::puzzle::Kind::Sudoku),
        side: 9,
        encoding: encoding.into(),
        vars,
        clauses,
        solver: solver.into(),
        mode: None,
        run: 1,
        status: Status::parse(status).expect("a status"),
        check: match status {
            "SAT" => Check::ModelOk,
            _ => Check::Unchecked,
        },
        wall_s: wall,
        cpu_s: Some(wall * 0.9),
        max_rss_kb: Some(20_000),
        exit_code: None,
        timeout_s: 10.0,
        jobs: 2,
        error: if status == "ERROR" {
            "exit code 134".into()
        } else {
            String::new()
        },
        wrong: false,
        solutions: None,
        count_wall_s: None,
        count_cpu_s: None,
        givens: Some(30),
        family: "hard.txt".into(),
        ..Row::default()
    }
}

/// Writes `rows` as a results CSV at `path`.
pub fn write_csv(path: &Path, rows: &[Row]) -> PathBuf {
    let mut writer = ResultsWriter::append(path).unwrap();
    for r in rows {
        writer.write(r).unwrap();
    }
    path.to_path_buf()
}

pub const SOLVERS: [&str; 3] = ["native", "minisat", "kissat"];
pub const ENCODINGS: [&str; 2] = ["minimal", "extended"];

/// 3 solvers × 2 encodings × 10 instances: mostly SAT, two UNSAT instances, timeouts
/// (instance 9 beats everyone under `minimal`), an error, and one WRONG answer.
pub fn corpus_rows() -> Vec<Row> {
    let mut rows = Vec::new();
    for i in 1..=10u32 {
        let instance = format!("hard.txt:{i}");
        for (e, encoding) in ENCODINGS.iter().enumerate() {
            for (s, solver) in SOLVERS.iter().enumerate() {
                // Spread over four decades, each solver and encoding its own speed.
                let wall =
                    0.002 * f64::from(i * i) * (1.0 + s as f64 * 1.7) * (1.0 + e as f64 * 0.6);
                let unsat = i == 7 || i == 8;
                let mut r = row(
                    &instance,
                    encoding,
                    solver,
                    if unsat { "UNSAT" } else { "SAT" },
                    wall,
                );
                if i == 10 && *solver != "kissat" || i == 9 && *encoding == "minimal" {
                    r.status = Status::Timeout;
                    r.check = Check::Unchecked;
                    r.wall_s = 10.0;
                }
                if i == 6 && *solver == "minisat" && *encoding == "extended" {
                    r.status = Status::Error;
                    r.check = Check::Unchecked;
                    r.error = "exit code 3: PARSE ERROR!".into();
                    r.wall_s = 0.004;
                }
                if i == 5 && *solver == "native" && *encoding == "minimal" {
                    r.check = Check::ModelWrong;
                    r.wrong = true;
                    r.error = "cell (3,4) holds 7 twice in row 3".into();
                }
                rows.push(r);
            }
        }
    }
    rows
}

/// The SVG elements in `html`, each parsed as XML (panics if one is not well-formed).
pub fn inlined_svgs(html: &str) -> Vec<String> {
    let mut svgs = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find("<svg") {
        let end = rest[start..].find("</svg>").expect("an unclosed <svg>") + start + 6;
        let svg = &rest[start..end];
        roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("inlined SVG: {e}"));
        svgs.push(svg.to_string());
        rest = &rest[end..];
    }
    svgs
}
