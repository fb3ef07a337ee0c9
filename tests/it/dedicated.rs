//! The dedicated mode end to end: `bench run --solvers gridsolve,native` runs gridsolve on
//! the puzzles themselves (mode `dedicated`, encoding `none`) beside native on their
//! formulas, each answer checked alike; counts agree with native's, a puzzle without
//! solution is UNSAT and held against the corpus's records, a CNF instance has no
//! gridsolve run (said once), and the mode is labelled in every table and chart.

use std::collections::BTreeMap;
use std::path::Path;

use bench::results::{InstanceKind, Mode, Row};
use bench::solver::Status;

use crate::support::inprocess::{corpus, run};

/// The first `n` puzzle lines of a corpus file of the repository, into `dir/name`, each
/// with `suffix` appended.
fn first_lines(dir: &Path, from: &str, name: &str, n: usize, suffix: &str) -> String {
    let text = std::fs::read_to_string(corpus(from)).unwrap();
    let lines: Vec<String> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(n)
        .map(|l| format!("{}{suffix}", l.split_whitespace().next().unwrap()))
        .collect();
    let path = dir.join(name);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn gridsolve_runs_in_its_own_mode_and_agrees_with_native() {
    let dir = tempfile::tempdir().unwrap();
    let multi = first_lines(dir.path(), "multisolution.txt", "multi.txt", 4, "");
    // A puzzle without solution that the record says has one: UNSAT held against it.
    let none = first_lines(dir.path(), "nosolution.txt", "none.txt", 3, ":1:");
    let latin = first_lines(dir.path(), "latin-10.txt", "latin.txt", 2, "");
    let pairs = corpus("pairs-4x4.csv");
    let cnf = corpus("cnf");
    let (rows, out) = run(
        dir.path(),
        "out",
        &[
            &multi,
            &none,
            &latin,
            pairs.to_str().unwrap(),
            cnf.to_str().unwrap(),
            "--solvers",
            "gridsolve,native",
            "--count",
            "all",
            "--timeout",
            "60",
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let note = "gridsolve solves puzzles, not CNF formulas";
    assert_eq!(stderr.matches(note).count(), 1, "{stderr}");
    let gs: Vec<&Row> = rows.iter().filter(|r| r.solver == "gridsolve").collect();
    let puzzles = rows
        .iter()
        .filter(|r| r.solver == "native" && r.kind.is_puzzle())
        .count();
    assert_eq!(gs.len(), puzzles, "one gridsolve run a puzzle");
    for r in &gs {
        assert_eq!(r.mode, Some(Mode::Dedicated), "{r:?}");
        assert_eq!(r.encoding, "none");
        assert_ne!(r.kind, InstanceKind::Cnf);
        assert!(r.cpu_s.is_some());
    }
    // The same counts as native's, every solution checked; UNSAT against the record: wrong.
    let by = |solver: &str| -> BTreeMap<String, (Status, Option<u32>, bool)> {
        rows.iter()
            .filter(|r| r.solver == solver && r.kind.is_puzzle())
            .map(|r| (r.instance.to_string(), (r.status, r.solutions, r.wrong)))
            .collect()
    };
    assert_eq!(by("gridsolve"), by("native"));
    for r in &gs {
        if r.instance.starts_with("none.txt") {
            assert_eq!(
                (r.status, r.solutions, r.wrong),
                (Status::Unsat, Some(0), true)
            );
            assert!(
                r.error.contains("the corpus records 1 solutions"),
                "{}",
                r.error
            );
        } else {
            assert_eq!(r.status, Status::Sat, "{r:?}");
            assert!(!r.wrong && r.solutions.unwrap() >= 1, "{r:?}");
        }
    }
    assert!(
        gs.iter()
            .any(|r| r.instance.starts_with("multi.txt") && r.solutions.unwrap() > 1)
    );
    // Labelled in the terminal table, the summary, the page and the charts.
    let label = "gridsolve · none · dedicated";
    let out_dir = dir.path().join("out");
    assert!(stdout.contains("gridsolve  none"), "{stdout}");
    for file in ["summary.md", "index.html", "cactus.svg", "summary.json"] {
        let text = std::fs::read_to_string(out_dir.join(file)).unwrap();
        let wanted = if file == "summary.json" {
            "\"dedicated\""
        } else {
            label
        };
        assert!(text.contains(wanted), "{file} lacks {wanted}");
    }
    let md = std::fs::read_to_string(out_dir.join("summary.md")).unwrap();
    assert!(md.contains(note), "the summary says it once too");
    mixed_page_parts(&out_dir);
}

/// The page of a run of puzzles and DIMACS files, gridsolve beside native: gridsolve's
/// cell stands in each instance row beside native's (no row of encoding `none` where
/// native ran too); the DIMACS files have a cactus plot and a per-family matrix of their
/// own.
fn mixed_page_parts(out_dir: &Path) {
    let table = std::fs::read_to_string(out_dir.join("instances.csv")).unwrap();
    let mut lines = table.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (encoding, gs, native) = (col("encoding"), col("gridsolve"), col("native"));
    let mut puzzle_rows = 0;
    for line in lines {
        let cells: Vec<&str> = line.split(',').collect();
        assert_ne!(cells[encoding], "none", "native ran every puzzle: {line}");
        assert!(!cells[native].is_empty(), "{line}");
        if cells[encoding] != "dimacs" {
            assert!(!cells[gs].is_empty(), "gridsolve's cell in the row: {line}");
            puzzle_rows += 1;
        }
    }
    assert!(puzzle_rows > 0);
    let puzzles = std::fs::read_to_string(out_dir.join("cactus.svg")).unwrap();
    let cnf = std::fs::read_to_string(out_dir.join("cactus-cnf.svg")).unwrap();
    assert!(puzzles.contains("gridsolve") && !puzzles.contains("dimacs"));
    assert!(cnf.contains("native · dimacs") && !cnf.contains("gridsolve"));
    let page = std::fs::read_to_string(out_dir.join("index.html")).unwrap();
    assert!(page.contains("<h3>Puzzles</h3>") && page.contains("<h3>DIMACS files</h3>"));
    assert!(page.contains("id=\"cactus-cnf\""));
}

#[test]
fn work_counters_fill_their_columns_and_old_csvs_still_read() {
    let dir = tempfile::tempdir().unwrap();
    let hard = first_lines(dir.path(), "hard.txt", "hard.txt", 6, "");
    let (rows, _) = run(
        dir.path(),
        "out",
        &[&hard, "--solvers", "gridsolve,native", "--timeout", "60"],
    );
    for r in &rows {
        let w = r.work();
        if r.solver == "gridsolve" {
            assert!(w.guesses.is_some() && w.conflicts.is_none(), "{r:?}");
        } else {
            assert!(w.guesses.is_none(), "{r:?}");
            assert!(w.conflicts.is_some() && w.decisions.is_some() && w.propagations.is_some());
        }
    }
    let out_dir = dir.path().join("out");
    // A resumed run knows the dedicated rows as done.
    let resumed = crate::support::bench()
        .args(["run", "--resume"])
        .arg(&out_dir)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&resumed.stderr);
    assert!(said.contains(" 0 runs to do (12 already done)"), "{said}");
    for file in ["summary.md", "index.html"] {
        let text = std::fs::read_to_string(out_dir.join(file)).unwrap();
        assert!(text.contains("Work counters"), "{file}");
        assert!(text.contains("guesses / puzzle") && text.contains("solved without a guess"));
        assert!(text.contains("per CPU-second"));
    }
    let json = std::fs::read_to_string(out_dir.join("summary.json")).unwrap();
    assert!(json.contains("\"guesses_per_puzzle\""));
    // The same CSV without the work columns (an older bench's) reads, counters empty.
    let csv = std::fs::read_to_string(out_dir.join("results.csv")).unwrap();
    let old: Vec<String> = csv
        .lines()
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            // Without the work columns and the limit columns after them.
            cells[..cells.len() - 6].join(",")
        })
        .collect();
    assert!(old[0].ends_with(",check_rss_kb"), "{}", old[0]);
    let old_path = dir.path().join("old.csv");
    std::fs::write(&old_path, old.join("\n") + "\n").unwrap();
    let back = bench::results::read_rows(&old_path, false).unwrap();
    assert_eq!(back.len(), rows.len());
    assert!(back.iter().all(|r| r.work() == Default::default()));
    let report = crate::support::bench()
        .args(["report", old_path.to_str().unwrap(), "--out"])
        .arg(dir.path().join("report"))
        .output()
        .unwrap();
    assert!(report.status.success(), "{report:?}");
}
