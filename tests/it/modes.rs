//! The mode of a run (`session`, `fresh`, `process`) end to end, with real solvers (native
//! in bench, minisat from the system): recorded in the CSV's `mode` column, labelled in the
//! terminal table, summary.md, summary.json, the page and the chart legends; encodings
//! compared within one mode by default (pruned among others runs every encoding fresh,
//! said on stderr, in run.json and in the summary); a speedup across modes carries a note;
//! a CSV from before the column is still read, its modes inferred where they can be.

use crate::support::bench;
use std::path::Path;

use bench::results::{Mode, read_rows};

/// The first `n` puzzles of `corpora/easy.txt`, as a corpus file in `dir`.
fn easy(dir: &Path, n: usize) -> std::path::PathBuf {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/easy.txt"))
            .unwrap();
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(n)
        .collect();
    let path = dir.join("easy5.txt");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

/// Runs bench in `dir`; stdout and stderr.
fn run(dir: &Path, args: &[&str]) -> (String, String) {
    let out = bench().current_dir(dir).args(args).output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    );
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    (stdout, stderr)
}

#[test]
fn sessions_and_processes_are_labelled_everywhere() {
    if crate::support::require_tool("minisat").is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let corpus = easy(dir.path(), 5);
    let (stdout, _) = run(
        dir.path(),
        &[
            "run",
            corpus.to_str().unwrap(),
            "--solvers",
            "native,minisat",
            "--encodings",
            "minimal,extended",
            "--jobs",
            "1",
            "--timeout",
            "60",
            "--out",
            "out",
        ],
    );
    let out = dir.path().join("out");
    let rows = read_rows(&out.join("results.csv"), false).unwrap();
    assert_eq!(rows.len(), 20);
    for r in &rows {
        let want = if r.solver == "native" {
            Mode::Session
        } else {
            Mode::Process
        };
        assert_eq!(r.mode, Some(want), "{r:?}");
    }
    // The terminal table: a mode column, each row its mode.
    let header = stdout.lines().find(|l| l.starts_with("solver")).unwrap();
    assert!(header.contains("encoding  mode"), "{stdout}");
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("native") && l.contains("minimal   session")),
        "{stdout}"
    );
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("minisat") && l.contains("extended  process")),
        "{stdout}"
    );
    let md = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(md.contains("| solver | encoding | mode | WRONG |"), "{md}");
    assert!(md.contains("| native | extended | session |"), "{md}");
    // native in a session against minisat in a child process: a ratio across modes.
    assert!(md.contains("session vs process (across modes)"), "{md}");
    assert!(md.contains("ratios compare two modes"), "{md}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let modes: Vec<(&str, &str)> = json["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["solver"].as_str().unwrap(), s["mode"].as_str().unwrap()))
        .collect();
    assert_eq!(modes.len(), 4);
    for (solver, mode) in modes {
        assert_eq!(
            mode,
            if solver == "native" {
                "session"
            } else {
                "process"
            }
        );
    }
    assert_eq!(json["speedups"][0]["baseline_mode"], "process");
    let cactus = std::fs::read_to_string(out.join("cactus.svg")).unwrap();
    assert!(
        cactus.contains("native · minimal · session"),
        "cactus legend"
    );
    assert!(
        cactus.contains("minisat · extended · process"),
        "cactus legend"
    );
    let scatter = [
        "scatter-minisat-vs-native.svg",
        "scatter-native-vs-minisat.svg",
    ]
    .iter()
    .find_map(|name| std::fs::read_to_string(out.join(name)).ok())
    .expect("a scatter plot");
    assert!(scatter.contains("native (session)"), "scatter axis");
    assert!(scatter.contains("across modes"), "scatter subtitle");
    let encodings = std::fs::read_to_string(out.join("encodings.svg")).unwrap();
    // The modes in the tables' order (session, fresh, process, dedicated), whichever ran
    // first.
    assert!(
        encodings.contains("minimal · session, process"),
        "encodings legend"
    );
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(page.contains("<th>mode</th>"), "page scores table");
    assert!(
        page.contains("native: session; minisat: process"),
        "page header"
    );
}

#[test]
fn pruned_among_others_runs_every_encoding_fresh_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = easy(dir.path(), 3);
    let (_, stderr) = run(
        dir.path(),
        &[
            "run",
            corpus.to_str().unwrap(),
            "--encodings",
            "extended,pruned",
            "--jobs",
            "1",
            "--out",
            "out",
        ],
    );
    assert!(
        stderr.contains("in-process solvers solve every encoding fresh"),
        "{stderr}"
    );
    let out = dir.path().join("out");
    let rows = read_rows(&out.join("results.csv"), false).unwrap();
    assert_eq!(rows.len(), 6);
    assert!(rows.iter().all(|r| r.mode == Some(Mode::Fresh)), "{rows:?}");
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    assert_eq!(record["plan"]["incremental"], false);
    let md = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(md.contains("compared within one mode"), "{md}");
    assert!(!md.contains("encodings ran in different modes"), "{md}");

    // Without pruned, the same solver runs its encodings in sessions.
    let (_, stderr) = run(
        dir.path(),
        &[
            "run",
            corpus.to_str().unwrap(),
            "--encodings",
            "minimal,extended",
            "--jobs",
            "1",
            "--out",
            "out2",
        ],
    );
    assert!(!stderr.contains("fresh"), "{stderr}");
    let rows = read_rows(&dir.path().join("out2/results.csv"), false).unwrap();
    assert!(rows.iter().all(|r| r.mode == Some(Mode::Session)));

    // Comparing the two runs: the speed-ups are across modes, and the comparison says so.
    let result = bench()
        .current_dir(dir.path())
        .args([
            "report",
            "--compare",
            "out/results.csv",
            "out2/results.csv",
            "--out",
            "cmp",
        ])
        .output()
        .unwrap();
    assert!(result.status.success(), "{result:?}");
    let md = std::fs::read_to_string(dir.path().join("cmp/compare.md")).unwrap();
    assert!(
        md.contains("Across modes: OLD ran as fresh, NEW as session"),
        "{md}"
    );
}

/// A CSV written before bench recorded the mode: `bench report` reads it and labels what
/// it can tell (a solver with exit codes ran as a process, pruned never in a session); a
/// resume rewrites it with today's columns before appending.
#[test]
fn a_csv_without_the_mode_column_is_read_and_resumed() {
    if !crate::support::external::require_all(&["minisat"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("results.csv");
    std::fs::write(
        &csv,
        "corpus,instance,kind,side,encoding,vars,clauses,solver,run,status,check,wall_s,cpu_s,\
         max_rss_kb,exit_code,timeout_s,jobs,error,wrong,solutions,givens\n\
         p.txt,p.txt:1,sudoku,9,extended,729,12000,native,1,SAT,model-ok,0.003,0.002,,,60,1,,false,,17\n\
         p.txt,p.txt:1,sudoku,9,pruned,729,2000,native,1,SAT,model-ok,0.002,0.002,,,60,1,,false,,17\n\
         p.txt,p.txt:1,sudoku,9,extended,729,12000,minisat,1,SAT,model-ok,0.004,0.003,5000,10,60,1,,false,,17\n",
    )
    .unwrap();
    let out = dir.path().join("report");
    let result = bench()
        .arg("report")
        .arg(&csv)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(result.status.success(), "{result:?}");
    let md = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(md.contains("| native | extended | in-process |"), "{md}");
    assert!(md.contains("| native | pruned | fresh |"), "{md}");
    assert!(md.contains("| minisat | extended | process |"), "{md}");
    assert!(
        md.contains("native: the encodings ran in different modes"),
        "{md}"
    );
}

#[test]
fn a_resumed_csv_of_an_older_bench_gets_the_new_columns() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = easy(dir.path(), 2);
    run(
        dir.path(),
        &[
            "run",
            corpus.to_str().unwrap(),
            "--jobs",
            "1",
            "--out",
            "out",
        ],
    );
    // Take the run back to an older bench's columns, the second row not yet run.
    let csv = dir.path().join("out/results.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let old = ["mode", "count_wall_s", "count_cpu_s"];
    let keep: Vec<usize> = (0..header.len())
        .filter(|&i| !old.contains(&header[i]))
        .collect();
    let strip = |line: &str| {
        let cells: Vec<&str> = line.split(',').collect();
        keep.iter().map(|&i| cells[i]).collect::<Vec<_>>().join(",") + "\n"
    };
    let first = lines.next().unwrap();
    std::fs::write(&csv, strip(&header.join(",")) + &strip(first)).unwrap();
    run(dir.path(), &["run", "--resume", "out"]);
    let rows = read_rows(&csv, false).unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].mode, None, "the old row keeps what it recorded");
    assert_eq!(rows[1].mode, Some(Mode::Session));
}
