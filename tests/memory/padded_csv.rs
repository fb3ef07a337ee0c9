//! A results CSV padded with millions of blank lines is read in memory that grows with its
//! rows, never with its lines: `bench report` and `bench run --resume` on one with 3 M
//! blank lines run under an address-space limit far below what a vector sized by the line
//! count would ask (3 M rows' worth).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output};

/// Blank lines appended to the CSV.
const LINES: usize = 3_000_000;
/// The address-space limit bench runs under, KiB (`ulimit -v`).
const LIMIT_KB: usize = 500_000;

/// `bench ARGS` in `dir` under `ulimit -v LIMIT_KB`.
fn limited(dir: &Path, args: &str) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {LIMIT_KB}; exec '{}' {args}",
            assert_cmd::cargo::cargo_bin("bench").display()
        ))
        .current_dir(dir)
        .output()
        .unwrap()
}

fn said(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn blank_lines_cost_no_memory_in_report_or_resume() {
    // The test means something: a vector sized by the lines would not fit.
    assert!(LINES * std::mem::size_of::<bench::results::Row>() > LIMIT_KB * 1024);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let puzzle =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n";
    std::fs::write(d.join("p.txt"), puzzle).unwrap();
    let o = Command::new(assert_cmd::cargo::cargo_bin("bench"))
        .current_dir(d)
        .args([
            "run",
            "p.txt",
            "--solvers",
            "native",
            "--jobs",
            "1",
            "--out",
            "out",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", said(&o));
    let csv = d.join("out/results.csv");
    let mut f = std::fs::OpenOptions::new().append(true).open(&csv).unwrap();
    f.write_all(&vec![b'\n'; LINES]).unwrap();
    drop(f);
    let o = limited(d, "report out/results.csv --out rep");
    assert!(o.status.success(), "{}", said(&o));
    assert!(d.join("rep/index.html").exists());
    let o = limited(d, "run --resume out");
    assert!(o.status.success(), "{}", said(&o));
    assert!(
        said(&o).contains("0 runs to do (1 already done)"),
        "{}",
        said(&o)
    );
}
