//! What ties a study together, tried as a user would: instances known by their content
//! (two files of one name are two instances, one content under two names is one; the hash
//! is gbd-tools' own), the plan recorded typed and held to on resume, one judgement
//! wherever rows meet, and one writer per output folder.

use crate::support::bench;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use bench::results::{Row, read_rows};

/// Asserts `result` exited with `code`, showing both outputs if not; returns stdout+stderr.
fn assert_exit(result: &Output, code: i32) -> String {
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&result.stdout),
        String::from_utf8_lossy(&result.stderr)
    );
    assert_eq!(result.status.code(), Some(code), "{text}");
    text
}

/// `bench run --resume OUT`, run in `d`.
fn resume(d: &Path, out: &Path) -> Output {
    bench()
        .current_dir(d)
        .args(["run", "--resume"])
        .arg(out)
        .output()
        .unwrap()
}

fn rows(dir: &Path) -> Vec<Row> {
    read_rows(&dir.join("results.csv"), false).unwrap()
}

fn write(path: &Path, text: &str) -> PathBuf {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
    path.to_path_buf()
}

const SAT: &str = "p cnf 2 2\n1 2 0\n-1 0\n";
const UNSAT: &str = "p cnf 2 3\n1 2 0\n-1 0\n-2 0\n";

#[test]
fn two_files_of_one_name_are_two_instances() {
    if !crate::support::external::require_all(&["minisat"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(&d.join("e1/a.cnf"), SAT);
    write(&d.join("e2/a.cnf"), UNSAT);
    let out = d.join("o");
    let result = bench()
        .current_dir(d)
        .args([
            "run",
            "e1",
            "e2",
            "--solvers",
            "native,minisat",
            "--jobs",
            "1",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_exit(&result, 0);
    let rows = rows(&out);
    assert_eq!(rows.len(), 4);
    for r in &rows {
        assert!(!r.wrong, "{r:?}");
        let expected = if r.instance == "e1/a.cnf" {
            "SAT"
        } else {
            "UNSAT"
        };
        assert!(
            ["e1/a.cnf", "e2/a.cnf"].contains(&r.instance.as_str()),
            "{}",
            r.instance
        );
        assert_eq!(r.status.as_str(), expected, "{r:?}");
        assert_eq!(r.hash.len(), 32);
    }
    assert_ne!(rows[0].hash, rows.iter().last().unwrap().hash);
}

#[test]
fn two_puzzle_files_of_one_name_are_two_instances_and_a_copy_is_one() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let a = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n";
    let b = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
    write(&d.join("p/x.txt"), a);
    write(&d.join("q/x.txt"), b);
    // The same formula under another name, with other comments and spacing.
    write(&d.join("c/one.cnf"), SAT);
    write(
        &d.join("c/copy.cnf"),
        "c the same\np cnf 2 2\n 1  2 0\n\n-1 0\n",
    );
    let out = d.join("o");
    let result = bench()
        .current_dir(d)
        .args(["run", "p/x.txt", "q/x.txt", "c", "--solvers", "native"])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let text = assert_exit(&result, 0);
    let rows = rows(&out);
    let mut ids: Vec<&str> = rows.iter().map(|r| r.instance.as_str()).collect();
    ids.sort();
    assert_eq!(ids, vec!["copy.cnf", "p/x.txt:1", "q/x.txt:1"], "{text}");
    assert!(
        text.contains("one.cnf is the same instance as copy.cnf"),
        "{text}"
    );
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(
        summary.contains("one.cnf is the same instance as copy.cnf"),
        "{summary}"
    );
}

/// The Python of a venv with gbd-tools: `BENCH_GBD_PYTHON`, else the one
/// `scripts/install-solvers.sh` makes; under the one rule for a missing tool.
fn gbd_python() -> Option<PathBuf> {
    crate::support::require("gbd-tools", || {
        let candidates = [
            std::env::var_os("BENCH_GBD_PYTHON").map(PathBuf::from),
            Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".solvers/venv/bin/python")),
        ];
        candidates
            .into_iter()
            .flatten()
            .find(|p| {
                Command::new(p)
                    .args(["-c", "import gbd_init.gbdhash"])
                    .output()
                    .is_ok_and(|o| o.status.success())
            })
            .ok_or_else(|| "no Python with gbd_init: scripts/install-solvers.sh installs it".into())
    })
}

#[test]
fn the_hash_is_gbd_tools_own() {
    let Some(python) = gbd_python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/corpora/cnf"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
    files.sort();
    let odd = [
        ("plain.cnf", "p cnf 3 2\n1 -2 0\n2 3 0\n"),
        (
            "spaces.cnf",
            "c made by hand\n\n  p cnf 3 2\n 1\t-2   0\n2 3 0   \n",
        ),
        ("crlf.cnf", "p cnf 3 2\r\n1 -2 0\r\n2 3 0\r\n"),
        ("no-last-zero.cnf", "p cnf 3 2\n1 -2 0\n2 3"),
        ("comment-mid.cnf", "p cnf 3 2\n1 -2 0\nc between\n2 3 0\n"),
        ("multi-line-clause.cnf", "p cnf 3 2\n1\n-2 0 2\n3 0\n"),
        ("empty.cnf", "p cnf 0 0\n"),
        ("plus.cnf", "p cnf 3 2\n+1 -2 0\n2 +3 0\n"),
        ("zeros.cnf", "p cnf 3 2\n01 -2 0\n2 3 0\n"),
        ("open-clause.cnf", "p cnf 3 2\n1 -2 0\n2 3\n"),
        ("last-zero-at-end.cnf", "p cnf 3 2\n1 -2 0\n2 3 0"),
        ("tabs-vt.cnf", "p cnf 3 2\n1\x0b-2\x0c0\n2 3 0\n"),
    ];
    for (name, text) in odd {
        files.push(write(&dir.path().join(name), text));
    }
    // Compressed copies of a real one.
    let src = std::fs::read(&files[0]).unwrap();
    let gz = dir.path().join("c.cnf.gz");
    {
        use std::io::Write;
        let mut e = flate2::write::GzEncoder::new(
            std::fs::File::create(&gz).unwrap(),
            flate2::Compression::default(),
        );
        e.write_all(&src).unwrap();
        e.finish().unwrap();
    }
    files.push(gz);
    let xz = dir.path().join("c.cnf.xz");
    {
        use std::io::Write;
        let mut e = xz2::write::XzEncoder::new(std::fs::File::create(&xz).unwrap(), 6);
        e.write_all(&src).unwrap();
        e.finish().unwrap();
    }
    files.push(xz);
    let script = "import sys\nfrom gbd_init.gbdhash import cnf_hash\n\
                  for f in sys.argv[1:]: print(cnf_hash(f))";
    let out = Command::new(&python)
        .args(["-c", script])
        .args(&files)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let theirs: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(theirs.len(), files.len());
    for (file, theirs) in files.iter().zip(theirs) {
        let ours = bench::identity::gbd_hash_file(file).unwrap();
        assert_eq!(ours, theirs, "{}", file.display());
    }
    // A SATLIB file (gbd-tools refuses its `%` / `0` trailer): bench's hash is gbd-tools'
    // of the file without the trailer, the formula bench reads.
    let clean = dir.path().join("uf3-clean.cnf");
    let body = std::fs::read_to_string(&files[0]).unwrap();
    std::fs::write(&clean, &body).unwrap();
    let satlib = write(&dir.path().join("uf3.cnf"), &format!("{body}%\n0\n\n"));
    let out = Command::new(&python)
        .args(["-c", script, clean.to_str().unwrap()])
        .output()
        .unwrap();
    let theirs = String::from_utf8(out.stdout).unwrap();
    let ours = bench::identity::gbd_hash_file(&satlib).unwrap();
    assert_eq!(ours, theirs.trim(), "{}", satlib.display());
}

#[test]
fn resume_runs_the_recorded_plan_and_refuses_another() {
    if !crate::support::external::require_all(&["minisat"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(&d.join("e1/a.cnf"), SAT);
    write(&d.join("e1/b.cnf"), UNSAT);
    let out = d.join("o");
    let first = bench()
        .current_dir(d)
        .args([
            "run",
            "e1",
            "--solvers",
            "native",
            "--jobs",
            "1",
            "--timeout",
            "100",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_exit(&first, 0);
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    assert_eq!(record["version"], 2);
    assert_eq!(record["plan"]["timeout_s"], 100.0);
    // Options beside --resume that differ from the plan: refused, each named with both
    // values, and nothing appended.
    let other = bench()
        .current_dir(d)
        .args(["run", "--resume"])
        .arg(&out)
        .args(["--timeout", "5", "--solvers", "native,minisat"])
        .output()
        .unwrap();
    let text = assert_exit(&other, 2);
    assert!(
        text.contains("--timeout: the run has 100.0, this command gives 5.0"),
        "{text}"
    );
    assert!(
        text.contains("--solvers: the run has native, this command gives native,minisat"),
        "{text}"
    );
    let corpus = bench()
        .current_dir(d)
        .args(["run", "e2", "--resume"])
        .arg(&out)
        .output()
        .unwrap();
    let text = assert_exit(&corpus, 2);
    assert!(
        text.contains("corpus: the run has e1, this command gives e2"),
        "{text}"
    );
    assert_eq!(rows(&out).len(), 2);
    // The same options, or none: the recorded plan, nothing left to run. From another
    // folder too: the plan's paths are the plan's, not the current folder's.
    let same = bench()
        .current_dir(&out)
        .args(["run", "--resume", ".", "--timeout", "100"])
        .output()
        .unwrap();
    let text = assert_exit(&same, 0);
    assert!(text.contains("0 runs to do (2 already done)"), "{text}");
    assert_eq!(rows(&out).len(), 2);
}

#[test]
fn a_second_writer_on_one_folder_is_refused_at_once() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(&d.join("c/a.cnf"), SAT);
    // A solver that waits while `hold` exists, then answers (x1 false, x2 true): a wait a
    // real solver does not make on demand.
    let hold = write(&d.join("hold"), "");
    let hang = write(
        &d.join("hang.sh"),
        &format!(
            "#!/bin/sh\nwhile [ -f {} ]; do sleep 0.05; done\necho 's SATISFIABLE'\necho 'v -1 2 0'\n",
            hold.display()
        ),
    );
    std::fs::set_permissions(&hang, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = d.join("o");
    let mut first = bench()
        .current_dir(d)
        .args(["run", "c", "--solvers", "hang", "--timeout", "30"])
        .arg("--solver")
        .arg(format!("hang={} {{cnf}}", hang.display()))
        .arg("--out")
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait (bounded by the first bench's own life) for it to hold the folder.
    let lock = out.join(".bench.lock");
    while std::fs::read_to_string(&lock).map_or(true, |s| s.trim().is_empty())
        || !out.join("run.json").exists()
    {
        assert!(first.try_wait().unwrap().is_none(), "the first bench ended");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let second = resume(d, &out);
    let text = assert_exit(&second, 2);
    assert!(
        text.contains(&format!("in use by another bench (pid {})", first.id())),
        "{text}"
    );
    // Killed outright: the kernel frees the folder, and the resume runs what is missing.
    first.kill().unwrap();
    first.wait().unwrap();
    std::fs::remove_file(&hold).unwrap();
    let after = resume(d, &out);
    assert_exit(&after, 0);
    assert_eq!(rows(&out).len(), 1);
}

/// A solver that says UNSAT to everything: a liar, which real solvers are not on demand.
fn liar(dir: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = write(
        &dir.join("liar.sh"),
        "#!/bin/sh\necho 's UNSATISFIABLE'\nexit 20\n",
    );
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
fn a_lie_in_one_csv_is_wrong_against_a_verified_model_in_another() {
    if !crate::support::external::require_all(&["kissat"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(&d.join("c/a.cnf"), SAT);
    let liar = liar(d);
    let a = d.join("a");
    let lied = bench()
        .current_dir(d)
        .args(["run", "c", "--solvers", "liar", "--solver"])
        .arg(format!("liar={} {{cnf}}", liar.display()))
        .arg("--out")
        .arg(&a)
        .output()
        .unwrap();
    // Alone, nothing contradicts it: an unchecked UNSAT.
    assert_exit(&lied, 0);
    let b = d.join("b");
    let kissat = bench()
        .current_dir(d)
        .args(["run", "c", "--solvers", "kissat", "--out"])
        .arg(&b)
        .output()
        .unwrap();
    assert_exit(&kissat, 0);
    let report = bench()
        .current_dir(d)
        .arg("report")
        .arg(a.join("results.csv"))
        .arg(b.join("results.csv"))
        .arg("--out")
        .arg(d.join("r"))
        .output()
        .unwrap();
    let text = assert_exit(&report, 0);
    assert!(
        text.contains("WRONG liar on a.cnf")
            && text.contains("UNSAT contradicted by the verified model of kissat"),
        "{text}"
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("r/summary.json")).unwrap()).unwrap();
    let text = summary.to_string();
    assert!(text.contains("\"wrong\":1"), "{text}");
}

#[test]
fn merge_refuses_a_row_whose_planned_columns_changed() {
    if !crate::support::external::require_all(&["minisat"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(&d.join("c/a.cnf"), SAT);
    write(&d.join("c/b.cnf"), UNSAT);
    let study = d.join("st");
    let shard = bench()
        .current_dir(d)
        .args([
            "run",
            "c",
            "--solvers",
            "native,minisat",
            "--shard",
            "0/1",
            "--out",
        ])
        .arg(&study)
        .output()
        .unwrap();
    assert_exit(&shard, 0);
    let csv = study.join("shards/0-of-1/results.csv");
    let original = std::fs::read_to_string(&csv).unwrap();
    let merged = bench()
        .current_dir(d)
        .arg("merge")
        .arg(&study)
        .output()
        .unwrap();
    assert_exit(&merged, 0);
    // Each column the plan decides, changed in one row: refused, naming the column.
    let header: Vec<&str> = original.lines().next().unwrap().split(',').collect();
    for (column, value) in [
        ("timeout_s", "5"),
        ("jobs", "7"),
        ("clauses", "99"),
        ("corpus", "elsewhere"),
    ] {
        let at = header.iter().position(|h| *h == column).unwrap();
        let mut lines: Vec<String> = original.lines().map(str::to_string).collect();
        let mut fields: Vec<String> = lines[1].split(',').map(str::to_string).collect();
        fields[at] = value.to_string();
        lines[1] = fields.join(",");
        std::fs::write(&csv, lines.join("\n") + "\n").unwrap();
        let refused = bench()
            .current_dir(d)
            .arg("merge")
            .arg(&study)
            .output()
            .unwrap();
        let text = assert_exit(&refused, 2);
        // Named with the value it holds, against the plan's or its formula's other runs.
        assert!(
            text.contains("refused to merge")
                && text.contains(&format!("column {column} is"))
                && text.contains(value),
            "{column}: {text}"
        );
    }
}

#[test]
fn an_unreadable_cnf_costs_only_itself() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(&d.join("c/a.cnf"), SAT);
    // A link to nothing, and a gzip file cut short: neither can be read.
    std::os::unix::fs::symlink(d.join("gone.cnf"), d.join("c/b.cnf")).unwrap();
    std::fs::write(d.join("c/c.cnf.gz"), [0x1f, 0x8b, 8, 0, 0, 0]).unwrap();
    let out = d.join("o");
    let run = bench()
        .current_dir(d)
        .args(["run", "c", "--solvers", "native", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let text = assert_exit(&run, 0);
    assert!(
        text.contains("b.cnf: not readable") && text.contains("c.cnf.gz: not readable"),
        "{text}"
    );
    assert_eq!(rows(&out).len(), 1);
    let strict = bench()
        .current_dir(d)
        .args(["run", "c", "--solvers", "native", "--strict", "--out"])
        .arg(d.join("o2"))
        .output()
        .unwrap();
    assert_exit(&strict, 2);
}

/// A run.json of this schema written by an older bench (no `checker_timeout_s`, no
/// `puzzle_solver_commands`, no `measurement`, the machine in its older place) is read
/// typed and resumed; one from before the plan was recorded (its command line alone) is
/// refused with the command that starts its runs again, and nothing is appended.
#[test]
fn an_older_run_json_is_read_typed_or_refused_saying_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(&d.join("e1/a.cnf"), SAT);
    write(&d.join("e1/b.cnf"), UNSAT);
    let out = d.join("o");
    let first = bench()
        .current_dir(d)
        .args(["run", "e1", "--solvers", "native", "--jobs", "1", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_exit(&first, 0);
    // The run as an older bench of this schema left it: its second row not yet run.
    let csv = out.join("results.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    let kept: Vec<&str> = text.lines().take(2).collect();
    std::fs::write(&csv, kept.join("\n") + "\n").unwrap();
    let path = out.join("run.json");
    let mut record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let object = record.as_object_mut().unwrap();
    for newer in ["measurement", "duplicate_inputs", "not_started"] {
        object.remove(newer);
    }
    object.insert(
        "machine".into(),
        serde_json::json!({"host": "old", "cores": 2, "cpu_model": "Old CPU",
                           "mem_total_kb": 1024, "kernel": "6.1"}),
    );
    assert!(record["plan"].get("checker_timeout_s").is_none());
    assert!(record["plan"].get("puzzle_solver_commands").is_none());
    std::fs::write(&path, record.to_string()).unwrap();
    let resumed = resume(d, &out);
    let said = assert_exit(&resumed, 0);
    assert!(said.contains("1 runs to do (1 already done)"), "{said}");
    assert_eq!(rows(&out).len(), 2);
    // From before the plan was recorded: refused, saying what to do.
    std::fs::write(
        &path,
        r#"{"command_line": ["bench", "run", "e1", "--solvers", "native", "--out", "o"],
            "bench_version": "0.1.0", "solvers": [{"name": "native", "version": null}],
            "start": "2026-11-25T10:00:00Z", "containment": "subreaper"}"#,
    )
    .unwrap();
    let old = resume(d, &out);
    let said = assert_exit(&old, 2);
    assert!(said.contains("cannot be resumed"), "{said}");
    assert!(
        said.contains("bench run e1 --solvers native --out NEW"),
        "{said}"
    );
    assert_eq!(rows(&out).len(), 2, "nothing appended");
}
