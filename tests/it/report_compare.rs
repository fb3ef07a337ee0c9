//! `bench report --compare`: two configurations of native in one real run, the second
//! crippled on purpose (random decisions, no restarts), must show the flips and fail under
//! `--fail-on-regression`, and the comparison the other way round must not; a real run's
//! CSV edited on purpose (one instance lost, one 5× slower, one timeout at the limit, one
//! WRONG answer) must give exactly those changes and exit codes.

use std::path::{Path, PathBuf};

use crate::support::report::bench;
use bench::results::{Check, ResultsWriter, Row, Trust, read_rows};
use bench::solver::Status;
use serde_json::Value;

const CRIPPLED: &str = "native:random-var-freq=1,restart=never";

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/cnf")
}

/// `bench run` of `solvers` on corpora/cnf into `out`; its rows.
fn run(solvers: &str, timeout: &str, out: &Path) -> Vec<Row> {
    let result = bench()
        .arg("run")
        .arg(corpus())
        .args(["--solvers", solvers, "--timeout", timeout])
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    read_rows(&out.join("results.csv"), false).unwrap()
}

/// `bench report` with `args`: exit code, stdout, and compare.json from `out`.
fn report(args: &[&str], out: &Path) -> (i32, String, Value) {
    let result = bench()
        .arg("report")
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&result.stdout).into_owned();
    let code = result.status.code().unwrap();
    assert!(
        code == 0 || code == 1,
        "{stdout}{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let json = std::fs::read_to_string(out.join("compare.json")).unwrap();
    (code, stdout, serde_json::from_str(&json).unwrap())
}

fn count(c: &Value, change: &str) -> u64 {
    c["counts"]["by_change"][change].as_u64().unwrap_or(0)
}

#[test]
fn a_crippled_configuration_fails_and_the_reverse_passes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    run(&format!("native,{CRIPPLED}"), "3", &out);
    let csv = out.join("results.csv");
    let csv = csv.to_str().unwrap();
    let cmp = dir.path().join("cmp");
    let (code, stdout, c) = report(
        &[
            csv,
            "--compare",
            "native",
            CRIPPLED,
            "--fail-on-regression",
            "2",
        ],
        &cmp,
    );
    assert_eq!(code, 1, "{stdout}");
    assert!(c["counts"]["regressions"].as_u64().unwrap() >= 1, "{c}");
    assert_eq!(c["counts"]["compared"], 13);
    // Regressions are listed first.
    let first = &c["instances"][0];
    assert_eq!(first["regression"], true, "{c}");
    assert!(stdout.contains("REGRESSION"), "{stdout}");
    let svg = std::fs::read_to_string(cmp.join("compare-speedups.svg")).unwrap();
    roxmltree::Document::parse(&svg).unwrap();
    // The other way round, NEW only gains: no regression, exit 0.
    let (code, stdout, c) = report(
        &[
            csv,
            "--compare",
            CRIPPLED,
            "native",
            "--fail-on-regression",
            "2",
        ],
        &dir.path().join("back"),
    );
    assert_eq!(
        (code, c["counts"]["regressions"].as_u64()),
        (0, Some(0)),
        "{stdout}"
    );
    // Without --fail-on-regression the regressions are listed, the exit is 0.
    let (code, _, _) = report(
        &[csv, "--compare", "native", CRIPPLED],
        &dir.path().join("plain"),
    );
    assert_eq!(code, 0);
}

fn write(path: &Path, rows: &[Row]) -> String {
    let mut w = ResultsWriter::append(path).unwrap();
    for r in rows {
        w.write(r).unwrap();
    }
    path.to_str().unwrap().to_string()
}

#[test]
fn an_edited_csv_gives_exactly_the_planted_changes() {
    let dir = tempfile::tempdir().unwrap();
    let rows = run("native", "10", &dir.path().join("run"));
    assert_eq!(rows.len(), 13);
    let old = rows.clone();
    let mut new = rows.clone();
    let mut old_edit = old.clone();
    let find = |rows: &[Row], name: &str| rows.iter().position(|r| r.instance == name).unwrap();
    // Lost: php-7-6 times out.
    let i = find(&new, "php-7-6.cnf");
    new[i].status = Status::Timeout;
    new[i].check = Check::Unchecked;
    new[i].trust = Some(Trust::derive(Status::Timeout, Check::Unchecked, false));
    new[i].cpu_s = Some(10.0);
    // Slower: rand3-…-s1 five times slower and over the noise floor.
    let i = find(&new, "rand3-150-639-s1.cnf");
    new[i].cpu_s = Some(new[i].cpu_s.unwrap() * 5.0 + 0.5);
    // Flapping: OLD took 9.5 s of its 10 on rand3-…-s2, NEW times out.
    let i = find(&new, "rand3-150-639-s2.cnf");
    old_edit[i].cpu_s = Some(9.5);
    new[i].status = Status::Timeout;
    new[i].check = Check::Unchecked;
    new[i].trust = Some(Trust::derive(Status::Timeout, Check::Unchecked, false));
    new[i].cpu_s = Some(10.0);
    // WRONG in NEW on rand3-…-s3.
    let i = find(&new, "rand3-150-639-s3.cnf");
    new[i].wrong = true;
    new[i].error = "planted".into();
    if new[i].status == Status::Sat {
        new[i].check = Check::ModelWrong;
    }
    new[i].trust = Some(Trust::derive(new[i].status, new[i].check, true));
    let old_csv = write(&dir.path().join("old.csv"), &old_edit);
    let new_csv = write(&dir.path().join("new.csv"), &new);

    let (code, stdout, c) = report(
        &["--compare", &old_csv, &new_csv, "--fail-on-regression", "2"],
        &dir.path().join("a"),
    );
    assert_eq!(code, 1, "{stdout}");
    assert_eq!(
        (
            count(&c, "wrong"),
            count(&c, "lost"),
            count(&c, "slower"),
            count(&c, "flapping"),
            count(&c, "both-solved"),
            c["counts"]["regressions"].as_u64().unwrap()
        ),
        (1, 1, 1, 1, 9, 3),
        "{c}"
    );
    let order: Vec<&str> = c["instances"]
        .as_array()
        .unwrap()
        .iter()
        .take(4)
        .map(|i| i["instance"].as_str().unwrap())
        .collect();
    assert_eq!(
        order,
        [
            "rand3-150-639-s3.cnf",
            "php-7-6.cnf",
            "rand3-150-639-s1.cnf",
            "rand3-150-639-s2.cnf"
        ]
    );
    // Without a factor the slowdown is listed, not counted; still exit 1 (lost, WRONG).
    let (code, _, c) = report(
        &["--compare", &old_csv, &new_csv, "--fail-on-regression"],
        &dir.path().join("b"),
    );
    assert_eq!((code, c["counts"]["regressions"].as_u64()), (1, Some(2)));
    // A run against itself: nothing to report, exit 0.
    let same = write(&dir.path().join("same.csv"), &old);
    let (code, stdout, c) = report(
        &["--compare", &same, &same, "--fail-on-regression", "1.5"],
        &dir.path().join("c"),
    );
    assert_eq!((code, count(&c, "both-solved")), (0, 13), "{stdout}");
    // A factor below 1 is refused by the command line.
    let bad = bench()
        .args([
            "report",
            "--compare",
            &same,
            &same,
            "--fail-on-regression",
            "0.5",
        ])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("slowdown factor"));
}
