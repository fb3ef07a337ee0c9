//! The numbers of `summary.json` against a computation by hand on a small hand-made set
//! of rows: solved counts, PAR-2, the virtual best solver and the speedup.

use crate::support::report::row;
use bench::report::{ReportOptions, TimeBasis, render_report};
use serde_json::Value;

/// Two solvers, four instances, timeout 10 s:
///
/// | instance | a            | b           |
/// |----------|--------------|-------------|
/// | i1       | SAT 1.0      | SAT 0.5     |
/// | i2       | UNSAT 2.0    | TIMEOUT     |
/// | i3       | TIMEOUT      | ERROR 0.3   |
/// | i4       | SAT 4.0 WRONG| SAT 3.0     |
fn rows() -> Vec<bench::results::Row> {
    let mut wrong = row("i4", "e", "a", "SAT", 4.0);
    wrong.check = bench::results::Check::ModelWrong;
    wrong.wrong = true;
    vec![
        row("i1", "e", "a", "SAT", 1.0),
        row("i2", "e", "a", "UNSAT", 2.0),
        row("i3", "e", "a", "TIMEOUT", 10.0),
        wrong,
        row("i1", "e", "b", "SAT", 0.5),
        row("i2", "e", "b", "TIMEOUT", 10.0),
        row("i3", "e", "b", "ERROR", 0.3),
        row("i4", "e", "b", "SAT", 3.0),
    ]
}

fn summary(opts: &ReportOptions) -> Value {
    let files = render_report(&rows(), opts).unwrap();
    let json = files.iter().find(|f| f.name == "summary.json").unwrap();
    serde_json::from_slice(&json.bytes).unwrap()
}

/// The hand computations below are in wall seconds.
fn wall() -> ReportOptions {
    ReportOptions {
        time: TimeBasis::Wall,
        ..ReportOptions::default()
    }
}

fn close(value: &Value, expected: f64) {
    let v = value
        .as_f64()
        .unwrap_or_else(|| panic!("not a number: {value}"));
    assert!((v - expected).abs() < 1e-9, "{v} != {expected}");
}

#[test]
fn scores_vbs_and_speedup_by_hand() {
    let s = summary(&wall());
    let a = &s["scores"][0];
    assert_eq!(a["solver"], "a");
    assert_eq!(
        (
            &a["solved"],
            &a["sat"],
            &a["unsat"],
            &a["timeouts"],
            &a["errors"],
            &a["wrong"]
        ),
        (
            &Value::from(2),
            &Value::from(1),
            &Value::from(1),
            &Value::from(1),
            &Value::from(0),
            &Value::from(1)
        )
    );
    close(&a["par2"], (1.0 + 2.0 + 20.0 + 20.0) / 4.0);
    close(&a["mean_s"], 1.5);
    close(&a["median_s"], 1.5);
    close(&a["total_s"], 17.0);

    let b = &s["scores"][1];
    assert_eq!(
        (&b["solved"], &b["timeouts"], &b["errors"]),
        (&Value::from(2), &Value::from(1), &Value::from(1))
    );
    close(&b["par2"], (0.5 + 20.0 + 20.0 + 3.0) / 4.0);
    close(&b["total_s"], 13.8);

    // VBS: i1 0.5 (b), i2 2.0 (a), i3 unsolved (2 × 10), i4 3.0 (b: a's answer is wrong).
    let v = &s["virtual_best"];
    assert_eq!(
        (&v["instances"], &v["solved"], &v["sat"], &v["unsat"]),
        (
            &Value::from(4),
            &Value::from(3),
            &Value::from(2),
            &Value::from(1)
        )
    );
    close(&v["par2"], (0.5 + 2.0 + 20.0 + 3.0) / 4.0);
    close(&v["median_s"], 2.0);
    close(&v["total_s"], 5.5);
    assert_eq!(v["contributions"][0]["solver"], "b");
    assert_eq!(v["contributions"][0]["instances"], 2);

    // Against a (the first solver): only i1 is solved right by both: 1.0 / 0.5.
    assert_eq!(s["baseline"], "a");
    let speedup = &s["speedups"][0];
    assert_eq!(speedup["both_solved"], 1);
    close(&speedup["median"], 2.0);
    close(&speedup["ci_low"], 2.0);
    close(&speedup["ci_high"], 2.0);

    assert_eq!(s["wrong_answers"][0]["instance"], "i4");
}

#[test]
fn a_report_timeout_rescores_late_answers() {
    let s = summary(&ReportOptions {
        timeout: Some(1.5),
        ..wall()
    });
    // a: i1 1.0 solved; i2 2.0 is past 1.5 s: a timeout now. (1 + 3 + 3 + 3) / 4.
    let a = &s["scores"][0];
    assert_eq!(
        (&a["solved"], &a["timeouts"]),
        (&Value::from(1), &Value::from(2))
    );
    close(&a["par2"], 2.5);
    // VBS: only i1 (0.5). (0.5 + 3 + 3 + 3) / 4.
    close(&s["virtual_best"]["par2"], 9.5 / 4.0);
    assert_eq!(s["timeout_s"], 1.5);
}

/// By default the report scores CPU time (the rows' `cpu_s`, 0.9 × wall here), says so on
/// every chart, and compares against a child-process solver when in-process ones are there.
#[test]
fn cpu_time_by_default_and_a_child_process_baseline() {
    let s = summary(&ReportOptions::default());
    assert_eq!(s["time"], "cpu");
    // a: i1 0.9 + i2 1.8 solved; i3 and i4 (WRONG) 20 each.
    close(&s["scores"][0]["par2"], (0.9 + 1.8 + 20.0 + 20.0) / 4.0);
    let files = render_report(&rows(), &ReportOptions::default()).unwrap();
    for f in files.iter().filter(|f| f.name.ends_with(".svg")) {
        let text = String::from_utf8_lossy(&f.bytes);
        assert!(
            text.contains("CPU time") && !text.contains("wall time"),
            "{}",
            f.name
        );
    }
    let md = files.iter().find(|f| f.name == "summary.md").unwrap();
    assert!(String::from_utf8_lossy(&md.bytes).contains("Times are CPU time in seconds"));
    let walled = render_report(&rows(), &wall()).unwrap();
    let cactus = walled.iter().find(|f| f.name == "cactus.svg").unwrap();
    assert!(String::from_utf8_lossy(&cactus.bytes).contains("wall time"));

    // b ran as a child process (an exit code), a in bench: b is the baseline.
    let mut mixed = rows();
    for r in mixed.iter_mut().filter(|r| r.solver == "b") {
        r.exit_code = Some(10);
    }
    let files = render_report(&mixed, &ReportOptions::default()).unwrap();
    let json = files.iter().find(|f| f.name == "summary.json").unwrap();
    let s: Value = serde_json::from_slice(&json.bytes).unwrap();
    assert_eq!(s["baseline"], "b");
    assert_eq!(summary(&ReportOptions::default())["baseline"], "a");
}

/// The summary.json a run writes is `bench report` on that run's own results.csv, figure
/// for figure: every number comes from the file, none from times bench kept unrounded.
#[test]
fn a_runs_summary_is_bench_report_on_its_own_csv() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let status = crate::support::bench()
        .args(["run", "corpora/easy.txt", "--solvers"])
        .arg("native,native:restart=luby,dpll")
        .arg("--out")
        .arg(&out)
        .current_dir(crate::support::root())
        .output()
        .unwrap();
    assert!(status.status.success(), "{status:?}");
    let report = dir.path().join("report");
    let again = crate::support::bench()
        .arg("report")
        .arg(out.join("results.csv"))
        .arg("--out")
        .arg(&report)
        .output()
        .unwrap();
    assert!(again.status.success(), "{again:?}");
    let read = |p: &std::path::Path| -> Value {
        let mut v: Value =
            serde_json::from_str(&std::fs::read_to_string(p.join("summary.json")).unwrap())
                .unwrap();
        // What the two commands say about their inputs, not figures of the rows.
        v.as_object_mut().unwrap().remove("notes");
        v
    };
    let (run, report) = (read(&out), read(&report));
    assert!(
        run["stats"].to_string().contains("wilcoxon"),
        "{}",
        run["stats"]
    );
    assert_eq!(run, report);
}
