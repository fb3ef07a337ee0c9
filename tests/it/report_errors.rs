//! A results CSV with a malformed row stops `bench report` with `file:line`, and nothing
//! is written: no report that looks complete but is not, and no staging folder.

use std::io::Write;

use crate::support::report::{bench, corpus_rows, write_csv};

#[test]
fn a_malformed_row_names_its_line_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let good = write_csv(&dir.path().join("good.csv"), &corpus_rows());
    let bad = write_csv(&dir.path().join("bad.csv"), &corpus_rows()[..3]);
    // Line 5: a row whose side is not a number.
    let mut f = std::fs::OpenOptions::new().append(true).open(&bad).unwrap();
    f.write_all(b"hard.txt,hard.txt:99,sudoku,nine,minimal,729,8859,native,1,SAT,model-ok,0.1,,,,10,2,,false,,\n")
        .unwrap();
    drop(f);
    let out = dir.path().join("report");
    let result = bench()
        .arg("report")
        .args([&good, &bad])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert_ne!(result.status.code(), Some(0));
    assert!(stderr.contains("bad.csv:5:"), "{stderr}");
    assert!(!out.exists(), "the output folder was created");

    // Into the CSVs' own folder (the default): nothing but the two CSVs is there after.
    let result = bench().arg("report").args([&bad, &good]).output().unwrap();
    assert_ne!(result.status.code(), Some(0));
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["bad.csv", "good.csv"]);
}

#[test]
fn an_unusable_timeout_is_refused_before_writing() {
    let dir = tempfile::tempdir().unwrap();
    let csv = write_csv(&dir.path().join("results.csv"), &corpus_rows());
    let result = bench()
        .arg("report")
        .arg(&csv)
        .args(["--timeout", "0"])
        .output()
        .unwrap();
    assert_ne!(result.status.code(), Some(0));
    assert!(!dir.path().join("index.html").exists());
}
