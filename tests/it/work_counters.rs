//! The solvers' own work counters, end to end: every external solver's statistics read
//! from its real output (the counts equal those of the same binary run by hand on the same
//! file, where the solver is deterministic), its model still read and checked; the
//! library solvers' through RustSAT; a real `bench run` on corpora/cnf fills the columns,
//! and its report gives them per solver, ranks by one (`--score`), and sets them beside
//! the time ratios (`--compare`). Noise: a run with `--repeat` gives the spread, a noisy
//! CSV is warned about and a steady one is not, and run.json records the load averages.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::external::{SUDOKU_9, require, sudoku_cnf};
use crate::support::report::{bench, row, write_csv};
use bench::check::check_model;
use bench::cnf::Cnf;
use bench::cnf::dimacs::{ParseOptions, read_path};
use bench::results::read_rows;
use bench::solver::work::Work;
use bench::solver::{Limits, Status};
use serde_json::Value;

/// An UNSAT random 3-SAT formula of corpora/cnf that takes every solver some thousands
/// of conflicts.
fn rand3() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/cnf/rand3-150-639-s1.cnf")
}

fn read(path: &Path) -> Cnf {
    read_path(path, ParseOptions::default()).unwrap().cnf
}

fn limits() -> Limits {
    Limits {
        timeout: Some(std::time::Duration::from_secs(120)),
        ..Limits::default()
    }
}

/// `counter`'s value in `text` as the solver printed it, found by hand: the last line
/// naming it with a colon (`conflicts : 12`, `c conflicts: 12`), or picosat's `c 12
/// conflicts`.
fn by_hand(text: &str, counter: &str) -> Option<u64> {
    text.lines()
        .rev()
        .filter_map(|l| {
            let words: Vec<&str> = l
                .split(|c: char| c.is_whitespace() || c == ':')
                .filter(|w| !w.is_empty() && *w != "c")
                .collect();
            match words.as_slice() {
                [name, value, ..] if *name == counter => value.parse().ok(),
                [value, name] if *name == counter => value.parse().ok(),
                _ => None,
            }
        })
        .next()
}

/// The binary's own output on `file`, run by hand with the flags bench gives it.
fn run_by_hand(binary: &Path, args: &[&str], file: &Path) -> String {
    let out = Command::new(binary)
        .args(args)
        .arg(file)
        .args(if binary.ends_with("minisat") {
            vec![std::env::temp_dir().join(format!("work-counters-{}.res", std::process::id()))]
        } else {
            vec![]
        })
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `name` on rand3 (UNSAT) and on a sudoku (SAT, the model checked): every counter read,
/// and for a deterministic solver equal to the binary's own output run by hand.
fn counters_of(name: &str, flags: &[&str], deterministic: bool) {
    let Some(solver) = require(name) else {
        return;
    };
    let out = solver.solve(&read(&rand3()), &limits());
    assert_eq!(out.status, Status::Unsat, "{name}: {:?}", out.error);
    let work = Work::of(&out.stats);
    for (counter, value) in [
        ("conflicts", work.conflicts),
        ("decisions", work.decisions),
        ("propagations", work.propagations),
    ] {
        let value = value.unwrap_or_else(|| panic!("{name} gave no {counter}: {:?}", out.stats));
        assert!(value > 0, "{name}: {counter} {value}");
        if deterministic {
            let binary = solver.path().unwrap();
            let text = run_by_hand(&binary, flags, &rand3());
            assert_eq!(Some(value), by_hand(&text, counter), "{name}'s {counter}");
        }
    }
    // Asking for statistics leaves the model as it was: read whole and checked.
    let cnf = sudoku_cnf(SUDOKU_9);
    let out = solver.solve(&cnf, &limits());
    assert_eq!(out.status, Status::Sat, "{name}: {:?}", out.error);
    check_model(&cnf, out.model.as_ref().unwrap()).unwrap();
    assert!(
        Work::of(&out.stats).decisions.is_some(),
        "{name}: {:?}",
        out.stats
    );
}

#[test]
fn minisat_counters() {
    counters_of("minisat", &["-verb=1"], true);
}

#[test]
fn glucose_counters() {
    counters_of("glucose", &["-verb=1", "-model"], true);
}

#[test]
fn kissat_counters() {
    counters_of("kissat", &[], true);
}

#[test]
fn cadical_counters() {
    counters_of("cadical", &[], true);
}

#[test]
fn picosat_counters() {
    counters_of("picosat", &["-v"], true);
}

/// cryptominisat prints propagations above 20,000 in thousands (`132K`): not compared by
/// hand, only read.
#[test]
fn cryptominisat_counters() {
    counters_of("cryptominisat", &["--verb", "1"], false);
}

#[cfg(feature = "rustsat-solvers")]
#[test]
fn library_solvers_give_every_counter() {
    use bench::solver::{SolverConfig, by_name};
    for name in ["minisat-lib", "glucose-lib", "cadical-lib"] {
        let solver = by_name(name, &SolverConfig::default()).unwrap();
        let out = solver.solve(&read(&rand3()), &limits());
        assert_eq!(out.status, Status::Unsat, "{name}: {:?}", out.error);
        let w = Work::of(&out.stats);
        for v in [w.conflicts, w.decisions, w.propagations] {
            assert!(v.is_some_and(|v| v > 0), "{name}: {:?}", out.stats);
        }
    }
}

/// `bench` with `args`, which must succeed: its stdout and stderr.
fn ok(args: &[&std::ffi::OsStr]) -> (String, String) {
    let out = bench().args(args).output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    assert!(out.status.success(), "{stdout}{stderr}");
    (stdout, stderr)
}

fn os(s: &str) -> &std::ffi::OsStr {
    std::ffi::OsStr::new(s)
}

/// A real run of native, minisat and kissat on three corpora/cnf formulas, twice each:
/// every solved row carries the three counters; the report gives them per solver, the
/// spread across the repetitions, and the ranking by conflicts; run.json holds the load
/// averages at the start and the end.
#[test]
fn a_real_run_fills_the_counters_and_its_report_shows_them() {
    if !["minisat", "kissat"].iter().all(|n| require(n).is_some()) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("cnf");
    std::fs::create_dir(&corpus).unwrap();
    for f in [
        "php-7-6.cnf",
        "rand3-150-639-s1.cnf",
        "rand3-150-639-s2.cnf",
    ] {
        let from = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("corpora/cnf")
            .join(f);
        std::fs::copy(from, corpus.join(f)).unwrap();
    }
    let out = dir.path().join("out");
    ok(&[
        os("run"),
        corpus.as_os_str(),
        os("--solvers"),
        os("native,minisat,kissat"),
        os("--repeat"),
        os("2"),
        os("--timeout"),
        os("120"),
        os("--out"),
        out.as_os_str(),
    ]);
    let rows = read_rows(&out.join("results.csv"), false).unwrap();
    assert_eq!(rows.len(), 18);
    for r in &rows {
        assert!(r.solved(), "{r:?}");
        let w = r.work();
        assert!(
            w.conflicts.is_some() && w.decisions.is_some() && w.propagations.is_some(),
            "{} on {}: {w:?}",
            r.solver,
            r.instance
        );
    }
    let md = std::fs::read_to_string(out.join("summary.md")).unwrap();
    for text in [
        "## Work counters",
        "per CPU-second",
        "propagations",
        "## Spread across repetitions",
        "median CV",
    ] {
        assert!(md.contains(text), "{text}: {md}");
    }
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(page.contains("Spread across repetitions") && page.contains("per CPU-second"));
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let work = json["work"].as_array().unwrap();
    assert_eq!(work.len(), 3);
    for w in work {
        let counters = w["counters"].as_array().unwrap();
        let names: Vec<&str> = counters
            .iter()
            .map(|c| c["counter"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["conflicts", "decisions", "propagations"], "{w}");
        for c in counters {
            assert_eq!(c["runs"], 6);
            assert!(c["total"].as_u64().unwrap() > 0 && c["per_cpu_s"].as_f64().unwrap() > 0.0);
        }
    }
    let noise = json["noise"].as_array().unwrap();
    assert_eq!(noise.len(), 3);
    assert!(
        noise
            .iter()
            .all(|s| s["instances"] == 3 && s["repetitions"] == 2)
    );
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    for key in ["load_start", "load_end"] {
        let load = &record[key];
        assert!(
            load["one"].as_f64().is_some_and(|x| x >= 0.0),
            "{key}: {record}"
        );
        assert!(load["fifteen"].as_f64().is_some(), "{key}: {record}");
    }

    // Ranked by conflicts: on the terminal and in the report.
    let report = dir.path().join("report");
    let (stdout, _) = ok(&[
        os("report"),
        out.join("results.csv").as_os_str(),
        os("--score"),
        os("conflicts"),
        os("--out"),
        report.as_os_str(),
    ]);
    assert!(stdout.contains("Ranked by conflicts"), "{stdout}");
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(report.join("summary.json")).unwrap())
            .unwrap();
    let ranking = &json["ranking"];
    assert_eq!(ranking["counter"], "conflicts");
    assert_eq!(ranking["common"], 3);
    let medians: Vec<f64> = ranking["ranked"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["median"].as_f64().unwrap())
        .collect();
    assert!(medians.windows(2).all(|w| w[0] <= w[1]), "{medians:?}");
    let md = std::fs::read_to_string(report.join("summary.md")).unwrap();
    assert!(md.contains("## Ranked by conflicts"));

    // Two solvers of the run compared: the counters' ratios beside the time ratios.
    let compared = dir.path().join("compare");
    let (stdout, _) = ok(&[
        os("report"),
        out.join("results.csv").as_os_str(),
        os("--compare"),
        os("minisat"),
        os("kissat"),
        os("--out"),
        compared.as_os_str(),
    ]);
    assert!(stdout.contains("propagations"), "{stdout}");
    let c: Value =
        serde_json::from_str(&std::fs::read_to_string(compared.join("compare.json")).unwrap())
            .unwrap();
    let counters = c["counters"].as_array().unwrap();
    let names: Vec<&str> = counters
        .iter()
        .map(|x| x["counter"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["conflicts", "decisions", "propagations"]);
    for x in counters {
        assert_eq!(x["ratios"]["both_solved"], 3, "{x}");
    }
    assert!(
        std::fs::read_to_string(compared.join("compare.md"))
            .unwrap()
            .contains("Time and work ratios")
    );
}

/// Hand-made rows of one solver, two repetitions of four instances with the times given.
fn repeated(solver: &str, times: &[(f64, f64)]) -> Vec<bench::results::Row> {
    let mut rows = Vec::new();
    for (i, &(a, b)) in times.iter().enumerate() {
        for (run, t) in [(1, a), (2, b)] {
            let mut r = row(&format!("hard.txt:{}", i + 1), "extended", solver, "SAT", t);
            r.run = run;
            rows.push(r);
        }
    }
    rows
}

/// A CSV whose repetitions differ by a third is warned about, on stderr and in the
/// summary; one whose repetitions differ by 1 % is not.
#[test]
fn noisy_repetitions_are_warned_about_and_steady_ones_are_not() {
    let dir = tempfile::tempdir().unwrap();
    let noisy = write_csv(
        &dir.path().join("noisy.csv"),
        &repeated("native", &[(1.0, 1.5), (2.0, 3.0), (0.5, 0.4), (1.0, 1.3)]),
    );
    let steady = write_csv(
        &dir.path().join("steady.csv"),
        &repeated(
            "native",
            &[(1.0, 1.01), (2.0, 2.02), (0.5, 0.505), (1.0, 0.99)],
        ),
    );
    let out = dir.path().join("n");
    let (_, stderr) = ok(&[
        os("report"),
        noisy.as_os_str(),
        os("--out"),
        out.as_os_str(),
    ]);
    assert!(stderr.contains("noisy times: native"), "{stderr}");
    let md = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(
        md.contains("(noisy)") && md.contains("- noisy times: native"),
        "{md}"
    );
    let out = dir.path().join("s");
    let (_, stderr) = ok(&[
        os("report"),
        steady.as_os_str(),
        os("--out"),
        out.as_os_str(),
    ]);
    assert!(!stderr.contains("noisy"), "{stderr}");
    let md = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(
        md.contains("## Spread across repetitions")
            && !md.contains("(noisy)")
            && !md.contains("noisy times"),
        "{md}"
    );
}
