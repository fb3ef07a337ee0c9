//! The report's paired statistics, unique solves and contributions to the virtual best
//! solver, held against an independent computation: `tests/it/stats_scipy.py` recomputes
//! every figure from the results CSV (the Wilcoxon signed-rank test with
//! `scipy.stats.wilcoxon`, the interval with `scipy.stats.bootstrap`, Holm's correction and
//! the VBS by their definitions) and compares it with `summary.json`. Once on a real run
//! (native, minisat, kissat and cadical on `corpora/` puzzles and CNFs), once on a results
//! CSV made to need each of the three ways scipy computes the p-value.
//!
//! scipy comes from the venv `scripts/install-solvers.sh` makes (`.solvers/venv`), or the
//! Python named by `BENCH_PYTHON`; without it the tests skip, or fail where the tools are
//! required (`support::require`).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::report::{bench, row, write_csv};

/// A Python with scipy 1.15 or later, under the one rule for a missing tool (`None`: the
/// test skips).
fn python() -> Option<PathBuf> {
    crate::support::require("scipy", find_python)
}

fn find_python() -> Result<PathBuf, String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut candidates: Vec<PathBuf> = std::env::var_os("BENCH_PYTHON")
        .map(PathBuf::from)
        .into_iter()
        .collect();
    candidates.push(root.join(".solvers/venv/bin/python"));
    if let Some(dir) = std::env::var_os("BENCH_SOLVERS_DIR") {
        candidates.push(PathBuf::from(dir).join("../venv/bin/python"));
    }
    let check = "import scipy, sys; \
                 sys.exit(tuple(map(int, scipy.__version__.split('.')[:2])) < (1, 15))";
    candidates
        .into_iter()
        .find(|p| {
            Command::new(p)
                .args(["-c", check])
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .ok_or_else(|| {
            "no Python with scipy >= 1.15: run scripts/install-solvers.sh (it installs \
                 scipy into .solvers/venv) or set BENCH_PYTHON"
                .to_string()
        })
}

/// Runs the independent check of `summary` against `results`; returns what it printed.
fn scipy_check(python: &Path, results: &Path, summary: &Path) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/stats_scipy.py");
    let out = Command::new(python)
        .arg(script)
        .arg(results)
        .arg(summary)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "the statistics disagree with scipy:\n{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// The number of pairs the check found computed by `method`.
fn pairs_by(stdout: &str, method: &str) -> usize {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{method}: ")))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no `{method}` line in:\n{stdout}"))
}

/// Timeout 10 s. x and y ran instances 1–60 (the normal approximation: more than 50
/// pairs; both time out on 3 and 4, equal on 20–25, y wrong on 7), z ran 1–10 (against x
/// and y: 10 pairs with zero differences, so every sign flip is enumerated), w ran 11–30
/// and 61 (against x and y: 20 pairs, distinct non-zero differences, the exact
/// distribution; 61 is its unique solve).
fn crafted() -> Vec<bench::results::Row> {
    let mut rows = Vec::new();
    let timed = |i: u32, solver: &str, t: f64, timeout: bool| {
        let instance = format!("i{i:02}");
        if timeout {
            row(&instance, "minimal", solver, "TIMEOUT", 10.0)
        } else {
            row(&instance, "minimal", solver, "SAT", t)
        }
    };
    for i in 1..=60u32 {
        let x = 0.01 * f64::from(i);
        rows.push(timed(i, "x", x, i == 3 || i == 4));
        let y = if (20..=25).contains(&i) { x } else { x * 1.3 };
        let mut r = timed(i, "y", y, i == 3 || i == 4 || i == 5);
        if i == 7 {
            r.check = bench::results::Check::ModelWrong;
            r.wrong = true;
            r.error = "clause 3 is false".into();
        }
        rows.push(r);
    }
    for i in 1..=10u32 {
        rows.push(timed(i, "z", 0.02 * f64::from(i), i == 3));
    }
    for i in (11..=30u32).chain([61]) {
        let f = f64::from(i);
        rows.push(timed(i, "w", 0.013 * f + 0.0001 * f * f, false));
    }
    rows
}

#[test]
fn each_of_scipys_three_methods_agrees_on_a_crafted_csv() {
    let Some(python) = python() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let csv = write_csv(&dir.path().join("results.csv"), &crafted());
    let out = dir.path().join("report");
    let result = bench()
        .arg("report")
        .arg(&csv)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let stdout = scipy_check(&python, &csv, &out.join("summary.json"));
    // x–y normal; x–z, y–z permutation; x–w, y–w exact; z–w share nothing.
    assert_eq!(
        (
            pairs_by(&stdout, "exact"),
            pairs_by(&stdout, "permutation"),
            pairs_by(&stdout, "normal")
        ),
        (2, 2, 1),
        "{stdout}"
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let w = &summary["stats"]["by_solver"][3];
    assert_eq!((&w["solver"], &w["unique"]), (&"w".into(), &1.into()));
}

/// corpora/cnf's files in two folders, `php` and `rand`, below `dir/sat`.
fn cnf_families(dir: &Path) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/cnf");
    let sat = dir.join("sat");
    for entry in std::fs::read_dir(&root).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let family = if name.starts_with("php") {
            "php"
        } else {
            "rand"
        };
        std::fs::create_dir_all(sat.join(family)).unwrap();
        std::fs::copy(&path, sat.join(family).join(&name)).unwrap();
    }
    sat
}

#[test]
fn a_real_run_agrees_with_scipy_and_shows_the_matrix() {
    if !crate::support::external::require_all(&["minisat", "kissat", "cadical"]) {
        return;
    }
    let Some(python) = python() else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let sat = cnf_families(dir.path());
    let result = bench()
        .arg("run")
        .arg(&sat)
        .args(["easy.txt", "hard.txt"].map(|c| root.join("corpora").join(c)))
        .args([
            "--solvers",
            "native,minisat,kissat,cadical",
            "--encodings",
            "minimal,extended",
            "--timeout",
            "20",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        result.status.success(),
        "{}{}",
        String::from_utf8_lossy(&result.stdout),
        String::from_utf8_lossy(&result.stderr)
    );
    // The report `bench run` drew read the times before the CSV rounded them to the
    // microsecond: the one drawn again from the CSV is the one the CSV can check.
    let csv = out.join("results.csv");
    let report = dir.path().join("report");
    let redrawn = bench()
        .arg("report")
        .arg(&csv)
        .args(["--by", "family"])
        .arg("--out")
        .arg(&report)
        .output()
        .unwrap();
    assert!(
        redrawn.status.success(),
        "{}",
        String::from_utf8_lossy(&redrawn.stderr)
    );
    let stdout = scipy_check(&python, &csv, &report.join("summary.json"));
    // 13 CNFs: pairs of dimacs configurations, exact unless times tie; 100 puzzles under
    // two encodings: normal.
    assert!(pairs_by(&stdout, "normal") >= 20, "{stdout}");
    assert_eq!(
        pairs_by(&stdout, "exact") + pairs_by(&stdout, "permutation") + pairs_by(&stdout, "normal"),
        6 + 28,
        "{stdout}"
    );
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(
        page.contains("Paired comparisons: Wilcoxon signed-rank test")
            && page.contains("class=\"matrix\""),
        "no matrix on the page"
    );
    let md = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(md.contains("## Paired comparisons") && md.contains("## Unique solves"));
    // Four families (php, rand, easy.txt, hard.txt), each held by the check above; with
    // --by family, a cactus plot of each.
    assert!(stdout.contains("families: 4 agree"), "{stdout}");
    for family in ["php", "rand", "easy.txt", "hard.txt"] {
        let svg = std::fs::read_to_string(report.join(format!("cactus-family-{family}.svg")))
            .unwrap_or_else(|e| panic!("no cactus of {family}: {e}"));
        roxmltree::Document::parse(&svg).unwrap();
        assert!(svg.contains(&format!("family {family}")));
    }
    let page = std::fs::read_to_string(report.join("index.html")).unwrap();
    assert!(
        page.contains("id=\"families\""),
        "no family table on the page"
    );

    // A families file moves php-9-8 into a family of its own.
    let file = dir.path().join("families.csv");
    std::fs::write(&file, "path,family\nphp/php-9-8.cnf,big-pigeons\n").unwrap();
    let moved = dir.path().join("moved");
    let result = bench()
        .arg("report")
        .arg(&csv)
        .arg("--families")
        .arg(&file)
        .arg("--out")
        .arg(&moved)
        .output()
        .unwrap();
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(moved.join("summary.json")).unwrap())
            .unwrap();
    let families: Vec<(String, u64)> = summary["families"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["family"].as_str().unwrap().to_string(),
                f["instances"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        families,
        [
            ("big-pigeons".to_string(), 1),
            ("easy.txt".into(), 50),
            ("hard.txt".into(), 50),
            ("php".into(), 2),
            ("rand".into(), 10)
        ]
    );
}
