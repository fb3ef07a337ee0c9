//! `bench run` end to end: results, run.json and summary; wrong answers caught and listed
//! first; SIGKILL then `--resume` gives exactly the rows of an uninterrupted run; Ctrl-C
//! leaves no solver process alive. The fault scripts here (a liar, a slow wrapper) are the
//! only fakes: they show what a real solver cannot on demand.

use crate::support::bench;
use std::collections::BTreeSet;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use bench::results::{Row, read_rows};

fn bench_path() -> PathBuf {
    assert_cmd::cargo::cargo_bin("bench")
}

const SUDOKUS: &str = "\
53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79
4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......
..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..
";

/// `copies` (at most 27) distinct copies of [`SUDOKUS`]: copy k has every digit d
/// relabelled to (d−1)·m + k + 1 (mod 9), m = 1, 2, 4 for k < 9, 18, 27: a different
/// puzzle of the same difficulty (an instance is its content: a repeated puzzle would run
/// once).
fn relabelled(copies: usize) -> String {
    let mut out = String::new();
    for k in 0..copies {
        for c in SUDOKUS.chars() {
            out.push(match c.to_digit(10) {
                Some(d) if d > 0 => {
                    let m = [1, 2, 4][k / 9];
                    char::from_digit(((d - 1) * m + k as u32) % 9 + 1, 10).unwrap()
                }
                _ => c,
            });
        }
    }
    out
}

fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// Asserts `result` exited with `code`, showing both outputs if not; returns stdout.
fn assert_exit(result: &std::process::Output, code: i32) -> String {
    let stdout = String::from_utf8_lossy(&result.stdout).into_owned();
    assert_eq!(
        result.status.code(),
        Some(code),
        "{stdout}{}",
        String::from_utf8_lossy(&result.stderr)
    );
    stdout
}

/// A temporary folder holding the corpus `s.txt` with `text`.
fn corpus_of(text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("s.txt");
    std::fs::write(&corpus, text).unwrap();
    (dir, corpus)
}

fn keys(rows: &[Row]) -> Vec<(String, String, String, u32)> {
    let mut k: Vec<_> = rows
        .iter()
        .map(|r| {
            let (i, e, s, n) = r.key();
            (i.to_string(), e.to_string(), s.to_string(), n)
        })
        .collect();
    k.sort();
    k
}

#[test]
fn a_plain_run_writes_results_run_json_and_summary() {
    let (dir, corpus) = corpus_of(&format!("# three puzzles and a bad line\n{SUDOKUS}12\n"));
    let out = dir.path().join("out");
    let result = bench()
        .arg("run")
        .arg(&corpus)
        .args([
            "--encodings",
            "minimal,extended,pruned",
            "--jobs",
            "2",
            "--timeout",
            "30",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&result.stdout);
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert_eq!(result.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        stderr.contains("s.txt:5:"),
        "the bad line is reported with file and line: {stderr}"
    );
    let rows = read_rows(&out.join("results.csv"), false).unwrap();
    assert_eq!(rows.len(), 9);
    assert!(
        rows.iter()
            .all(|r| r.status.as_str() == "SAT" && r.check.as_str() == "model-ok" && !r.wrong),
        "{rows:?}"
    );
    assert!(
        rows.iter()
            .all(|r| r.instance.starts_with("s.txt:") && r.jobs == 2)
    );
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    assert!(
        meta["end"].is_string()
            && meta["measurement"]["machine"]["logical_cpus"]
                .as_u64()
                .unwrap()
                >= 1
    );
    assert_eq!(meta["skipped_inputs"], 1);
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(
        summary.contains("| native | pruned | fresh | 0 | 3 | 3 |"),
        "{summary}"
    );
    // Never overwrite an earlier run.
    let again = bench()
        .arg("run")
        .arg(&corpus)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(2));
    // A resume with nothing to do leaves the record of the run it would finish.
    let recorded = std::fs::read(out.join("run.json")).unwrap();
    let resumed = bench()
        .args(["run", "--resume"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(resumed.status.code(), Some(0), "{resumed:?}");
    assert_eq!(std::fs::read(out.join("run.json")).unwrap(), recorded);
}

#[test]
fn a_liar_is_wrong_listed_first_and_fails_the_run() {
    if !crate::support::external::require_all(&["minisat", "kissat", "cadical"]) {
        return;
    }
    let (dir, corpus) = corpus_of(SUDOKUS);
    let liar = script(dir.path(), "liar.sh", "echo 's UNSATISFIABLE'\nexit 20");
    let bad_model = script(
        dir.path(),
        "badmodel.sh",
        "echo 's SATISFIABLE'\necho 'v -1 -2 -3 0'\nexit 10",
    );
    let out = dir.path().join("out");
    let result = bench()
        .arg("run")
        .arg(&corpus)
        .args(["--solvers", "native,liar,badmodel"])
        .arg("--solver")
        .arg(format!("liar={} {{cnf}}", liar.display()))
        .arg("--solver")
        .arg(format!("badmodel={} {{cnf}}", bad_model.display()))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stdout = assert_exit(&result, 1);
    let first = stdout.lines().next().unwrap();
    assert!(first.starts_with("WRONG "), "{stdout}");
    let rows = read_rows(&out.join("results.csv"), false).unwrap();
    for r in &rows {
        match r.solver.as_str() {
            "liar" => assert!(
                r.wrong && r.status.as_str() == "UNSAT" && r.error.contains("contradicted"),
                "{r:?}"
            ),
            "badmodel" => assert!(r.wrong && r.check.as_str() == "model-wrong", "{r:?}"),
            _ => assert!(!r.wrong && r.check.as_str() == "model-ok", "{r:?}"),
        }
    }
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(summary.find("WRONG answers").unwrap() < summary.find("| solver |").unwrap());
}

/// The benchmark as users run it: a 9×9 corpus × the real native, minisat, kissat and
/// cadical × two encodings, one row per run, every SAT answer `model-ok`, and a summary
/// line per solver × encoding.
#[test]
fn real_solvers_times_encodings_give_one_checked_row_per_run() {
    if !crate::support::external::require_all(&["minisat", "kissat", "cadical", "glucose"]) {
        return;
    }
    let (dir, corpus) = corpus_of(SUDOKUS);
    let out = dir.path().join("out");
    let result = bench()
        .arg("run")
        .arg(&corpus)
        .args([
            "--solvers",
            "native,minisat,kissat,cadical",
            "--encodings",
            "minimal,extended",
            "--timeout",
            "60",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_exit(&result, 0);
    let rows = read_rows(&out.join("results.csv"), false).unwrap();
    assert_eq!(rows.len(), 3 * 4 * 2);
    let distinct: BTreeSet<_> = keys(&rows).into_iter().collect();
    assert_eq!(distinct.len(), rows.len(), "a run is recorded twice");
    for r in &rows {
        assert!(
            r.status.as_str() == "SAT" && r.check.as_str() == "model-ok" && !r.wrong,
            "{r:?}"
        );
        assert!(r.cpu_s.is_some() && r.wall_s > 0.0, "{r:?}");
    }
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    for solver in ["native", "minisat", "kissat", "cadical"] {
        let mode = if solver == "native" {
            "session"
        } else {
            "process"
        };
        for encoding in ["minimal", "extended"] {
            assert!(
                summary.contains(&format!("| {solver} | {encoding} | {mode} | 0 | 3 | 3 |")),
                "{solver} × {encoding} missing from the summary:\n{summary}"
            );
        }
    }
}

/// `--proofs`: native (in bench and as a child), kissat, cadical and glucose write DRAT
/// proofs of their UNSAT answers and `rate` verifies each (`proof-ok`); minisat writes
/// none (`unchecked`). A solver that answers UNSAT rightly but with a bogus proof is
/// caught by the proof check alone: `proof-failed`, WRONG, exit status 1.
#[test]
fn proofs_are_checked_and_a_bogus_proof_is_wrong() {
    if !crate::support::external::require_all(&["minisat", "kissat", "cadical", "glucose"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("none.txt");
    let unsolvable: String = include_str!("../../corpora/nosolution.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(3)
        .map(|l| format!("{}\n", l.split_whitespace().next().unwrap()))
        .collect();
    std::fs::write(&corpus, unsolvable).unwrap();
    let cnf = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/cnf/php-7-6.cnf");
    let run = |solvers: &str, extra: &[String], out: &Path| {
        bench()
            .arg("run")
            .arg(&corpus)
            .arg(&cnf)
            .args(["--proofs", "--timeout", "60", "--solvers", solvers])
            .args(extra)
            .arg("--out")
            .arg(out)
            .output()
            .unwrap()
    };
    let out = dir.path().join("real");
    let result = run(
        "native,native-proc,kissat,cadical,glucose,minisat",
        &[],
        &out,
    );
    assert_exit(&result, 0);
    let rows = read_rows(&out.join("results.csv"), false).unwrap();
    assert_eq!(rows.len(), 4 * 6);
    for r in &rows {
        let expected = if r.solver == "minisat" {
            "unchecked"
        } else {
            "proof-ok"
        };
        assert!(
            r.status.as_str() == "UNSAT" && r.check.as_str() == expected && !r.wrong,
            "{r:?}"
        );
    }

    // kissat's command line, a right answer, and a proof that proves nothing.
    let fake = script(
        dir.path(),
        "kissat",
        "[ \"$1\" = --version ] && { echo fake; exit 0; }\n\
         for last; do :; done\nprintf 'd 1 0\\n' > \"$last\"\necho 's UNSATISFIABLE'\nexit 20",
    );
    let out = dir.path().join("fake");
    let path = vec![
        "--solver-path".to_string(),
        format!("kissat={}", fake.display()),
    ];
    let result = run("native,kissat", &path, &out);
    assert_exit(&result, 1);
    let rows = read_rows(&out.join("results.csv"), false).unwrap();
    for r in &rows {
        // The spoiled sudokus fall to unit propagation alone, so any proof certifies
        // them (rightly); pigeonhole needs real lemmas.
        if r.solver == "kissat" && r.instance.starts_with("php") {
            assert!(r.wrong && r.check.as_str() == "proof-failed", "{r:?}");
        } else {
            assert!(!r.wrong && r.check.as_str() == "proof-ok", "{r:?}");
        }
    }
}

#[test]
fn sigkill_then_resume_gives_exactly_the_uninterrupted_rows() {
    let (dir, corpus) = corpus_of(&relabelled(4));
    // A real solver, slowed down so that the kill lands half-way.
    let slow = script(
        dir.path(),
        "slow.sh",
        &format!(
            "sleep 0.3\nexec {} solve --solver native \"$1\"",
            bench_path().display()
        ),
    );
    let args = |out: &Path| {
        let mut c = bench();
        c.arg("run")
            .arg(&corpus)
            .args([
                "--solvers",
                "native,slow",
                "--encodings",
                "minimal,extended",
                "--jobs",
                "2",
            ])
            .arg("--solver")
            .arg(format!("slow={} {{cnf}}", slow.display()))
            .arg("--out")
            .arg(out);
        c
    };
    let full = dir.path().join("full");
    assert!(args(&full).output().unwrap().status.success());
    let expected = keys(&read_rows(&full.join("results.csv"), false).unwrap());
    assert_eq!(expected.len(), 12 * 2 * 2);

    let part = dir.path().join("part");
    let mut child = args(&part)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        std::thread::sleep(Duration::from_millis(50));
        let done =
            std::fs::read_to_string(part.join("results.csv")).map_or(0, |t| t.lines().count());
        if done > 10 || start.elapsed() > Duration::from_secs(30) {
            break;
        }
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before = read_rows(&part.join("results.csv"), false)
        .map(|r| r.len())
        .unwrap_or(0);
    assert!(
        before > 0 && before < expected.len(),
        "killed after {before} rows"
    );

    let resumed = bench().arg("run").arg("--resume").arg(&part).output();
    assert_exit(&resumed.unwrap(), 0);
    let rows = read_rows(&part.join("results.csv"), false).unwrap();
    assert_eq!(keys(&rows), expected, "no duplicates, none missing");
}

/// A disk that fills up mid-run (here a file-size limit, which fails writes part-way just
/// as a full disk does): bench stops with an error naming results.csv, the file holds
/// only whole rows (a strict read accepts it), and once there is room `--resume` finishes
/// with exactly the rows of an uninterrupted run.
#[test]
fn a_full_disk_keeps_every_whole_row_and_resume_finishes() {
    let (dir, corpus) = corpus_of(&relabelled(20));
    let out = dir.path().join("out");
    let args = [
        "--encodings",
        "minimal,efficient,extended",
        "--solvers",
        "native,dpll",
    ];
    // 4 KiB files (8 blocks of 512 bytes, sh's unit): run.json, then the header and
    // about thirty rows of results, of 360.
    let limited = Command::new("sh")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 8; exec \"$@\"")
        .arg("sh")
        .arg(bench_path())
        .arg("run")
        .arg(&corpus)
        .args(args)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&limited.stderr);
    assert_ne!(limited.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("results.csv") && stderr.contains("--resume"),
        "{stderr}"
    );
    let csv = out.join("results.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.ends_with('\n'), "a broken last line was left behind");
    let kept = read_rows(&csv, false).unwrap();
    assert!(!kept.is_empty() && kept.len() < 360, "{} rows", kept.len());

    let resumed = bench().arg("run").arg("--resume").arg(&out).output();
    assert_exit(&resumed.unwrap(), 0);
    let rows = read_rows(&csv, false).unwrap();
    assert_eq!(rows.len(), 20 * 3 * 3 * 2);
    let distinct: BTreeSet<_> = keys(&rows).into_iter().collect();
    assert_eq!(distinct.len(), rows.len(), "a run is recorded twice");
    assert!(rows.iter().all(|r| r.check.as_str() == "model-ok"));
}

/// A run stopped by the clock is TIMEOUT for every solver alike: the in-process native
/// and dpll as well as the child processes (which the harness kills), so PAR-2 and the
/// timeout counts compare like with like.
#[test]
fn the_clock_stops_every_solver_as_timeout() {
    if !crate::support::external::require_all(&["minisat"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("php-12-11.cnf");
    let file = std::fs::File::create(&cnf).unwrap();
    bench::cnf::dimacs::write_cnf(file, &bench::cnf_gen::pigeonhole(12, 11), &[]).unwrap();
    let out = dir.path().join("out");
    let result = bench()
        .arg("run")
        .arg(&cnf)
        .args([
            "--solvers",
            "native,dpll,native-proc,minisat",
            "--timeout",
            "0.5",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_exit(&result, 0);
    let rows = read_rows(&out.join("results.csv"), false).unwrap();
    assert_eq!(rows.len(), 4);
    for r in &rows {
        assert!(r.status.as_str() == "TIMEOUT" && !r.wrong, "{r:?}");
        // Never early; not late by the CPU spent (which load does not stretch), and
        // within a bound only a hang passes on wall time.
        assert!(r.wall_s >= 0.5 && r.wall_s < 60.0, "{r:?}");
        assert!(r.cpu_s.unwrap_or(r.wall_s) < 3.0, "{r:?}");
    }
}

#[test]
fn ctrl_c_stops_every_solver_and_keeps_finished_rows() {
    let (dir, corpus) = corpus_of(SUDOKUS);
    let pids = dir.path().join("pids");
    let hang = script(
        dir.path(),
        "hang.sh",
        &format!(
            "echo $$ >> {}\nsleep 60 &\necho $! >> {}\nwait",
            pids.display(),
            pids.display()
        ),
    );
    let out = dir.path().join("out");
    let mut child = bench()
        .arg("run")
        .arg(&corpus)
        .args(["--solvers", "native,hang", "--jobs", "2"])
        .arg("--solver")
        .arg(format!("hang={} {{cnf}}", hang.display()))
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while std::fs::read_to_string(&pids).map_or(0, |t| t.lines().count()) < 2 {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the hanging solver never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert!(start.elapsed() < Duration::from_secs(20));
    for pid in std::fs::read_to_string(&pids).unwrap().lines() {
        // Orphans are reaped by init a moment after bench exits.
        let gone = (0..100).any(|_| {
            std::thread::sleep(Duration::from_millis(20));
            !Path::new(&format!("/proc/{pid}")).exists()
        });
        assert!(gone, "solver process {pid} outlived Ctrl-C");
    }
    let rows = read_rows(&out.join("results.csv"), false).unwrap();
    let solvers: BTreeSet<_> = rows.iter().map(|r| r.solver.as_str()).collect();
    assert!(
        !solvers.contains("hang"),
        "an interrupted run is not recorded"
    );
}
