//! Any dedicated solver as a process (`--puzzle-solver NAME='CMD'`, the puzzle line
//! protocol): bench's own `bench solve --serve` end to end, answering as gridsolve does
//! in-process; a liar answering a wrong grid or an invalid line is WRONG; a solver that
//! says nothing gets TIMEOUT for that puzzle, and is started again for the rest; a memory
//! hog behind the protocol is held by `--mem-limit` under either containment (with
//! control groups the limit is over all its processes together, its answer MEMOUT with
//! the group's peak, and its group is gone when bench ends; without, the limit is per
//! process). The hog script is a fake: no real solver hogs on demand.

use std::collections::BTreeMap;
use std::os::unix::process::CommandExt;
use std::path::Path;

use bench::results::{Check, Mode, Row};
use bench::solver::Status;

use crate::support::bench;
use crate::support::external::script;
use crate::support::inprocess::{corpus, run};

/// The first `n` puzzle lines of a corpus file of the repository, into `dir/name`.
fn first_lines(dir: &Path, from: &str, name: &str, n: usize) -> String {
    let text = std::fs::read_to_string(corpus(from)).unwrap();
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(n)
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    let path = dir.join(name);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path.to_str().unwrap().to_string()
}

/// Rows of `solver` by instance: status, solutions, check, wrong.
fn by_instance(rows: &[Row], solver: &str) -> BTreeMap<String, (Status, Check, bool)> {
    rows.iter()
        .filter(|r| r.solver == solver)
        .map(|r| (r.instance.to_string(), (r.status, r.check, r.wrong)))
        .collect()
}

#[test]
fn bench_solve_serve_answers_through_the_protocol_as_gridsolve_does() {
    let dir = tempfile::tempdir().unwrap();
    let easy = first_lines(dir.path(), "easy.txt", "easy.txt", 4);
    let none = first_lines(dir.path(), "nosolution.txt", "none.txt", 3);
    let latin = first_lines(dir.path(), "latin-10.txt", "latin.txt", 2);
    let serve = format!("'{}' solve --serve", env!("CARGO_BIN_EXE_bench"));
    let (rows, out) = run(
        dir.path(),
        "out",
        &[
            &easy,
            &none,
            &latin,
            "--solvers",
            "gridsolve,gs",
            "--puzzle-solver",
            &format!("gs={serve}"),
            "--timeout",
            "60",
        ],
    );
    assert!(out.status.success(), "{out:?}");
    let gs = by_instance(&rows, "gs");
    assert_eq!(gs.len(), 9);
    assert_eq!(gs, by_instance(&rows, "gridsolve"));
    for r in rows.iter().filter(|r| r.solver == "gs") {
        assert_eq!(
            (r.mode, r.encoding.as_str()),
            (Some(Mode::Dedicated), "none")
        );
        assert!(r.cpu_s.is_some(), "CPU time measured per answer: {r:?}");
        assert!(r.max_rss_kb.is_some_and(|kb| kb > 0), "peak memory: {r:?}");
        let want = if r.instance.starts_with("none") {
            Status::Unsat
        } else {
            Status::Sat
        };
        assert_eq!((r.status, r.wrong), (want, false), "{r:?}");
    }
}

#[test]
fn liars_are_wrong_and_a_silent_solver_times_out_and_is_restarted() {
    let dir = tempfile::tempdir().unwrap();
    let easy = first_lines(dir.path(), "easy.txt", "easy.txt", 3);
    let none = first_lines(dir.path(), "nosolution.txt", "none.txt", 4);
    // The solution of easy.txt's first puzzle, whatever is asked: right once, then wrong.
    let first = "612593487345867219978412536256978143487136952139254678561389724723641895894725361";
    let same = script(
        dir.path(),
        "same.sh",
        &format!("while read l; do echo {first}; done"),
    );
    let garbage = script(
        dir.path(),
        "garbage.sh",
        "while read l; do echo hello; done",
    );
    // Silent on the 1st and 3rd puzzles of none.txt (blanks are sent as `.`), `none` on
    // the others: each silence is a TIMEOUT, and the program is started again for the rest.
    let silent = script(
        dir.path(),
        "silent.sh",
        "while read l; do case \"$l\" in ...8.9*|.....9*) sleep 1000;; *) echo none;; esac; done",
    );
    let quote = |p: &Path| format!("'{}'", p.display());
    let (rows, _) = run(
        dir.path(),
        "out",
        &[
            &easy,
            &none,
            "--solvers",
            "same,garbage,silent",
            "--puzzle-solver",
            &format!("same={}", quote(&same)),
            "--puzzle-solver",
            &format!("garbage={}", quote(&garbage)),
            "--puzzle-solver",
            &format!("silent={}", quote(&silent)),
            // Far above what a line of `none` takes at any load; the silent puzzles
            // wait it out.
            "--timeout",
            "10",
        ],
    );
    let same = by_instance(&rows, "same");
    assert_eq!(same["easy.txt:1"], (Status::Sat, Check::ModelOk, false));
    for i in ["easy.txt:2", "easy.txt:3", "none.txt:1"] {
        assert_eq!(same[i], (Status::Sat, Check::ModelWrong, true), "{i}");
    }
    for (i, answer) in by_instance(&rows, "garbage") {
        assert_eq!(answer, (Status::Sat, Check::ModelWrong, true), "{i}");
    }
    let silent = by_instance(&rows, "silent");
    for i in ["none.txt:1", "none.txt:3"] {
        assert_eq!(silent[i].0, Status::Timeout, "{i}");
    }
    for i in ["none.txt:2", "none.txt:4"] {
        assert_eq!(silent[i], (Status::Unsat, Check::Unchecked, false), "{i}");
    }
    // `none` for a puzzle that has a solution: UNSAT, refuted by the verified model of
    // another solver (same's right answer to easy.txt:1), as any UNSAT is.
    let refuted = rows
        .iter()
        .find(|r| r.solver == "silent" && r.instance == "easy.txt:1")
        .unwrap();
    assert_eq!(refuted.status, Status::Unsat);
    assert!(refuted.wrong, "{refuted:?}");
}

#[test]
fn a_memory_hog_behind_the_protocol_is_held_by_the_limit_in_either_containment() {
    use bench::solver::external::cgroup;
    let cgroups = cgroup::detect().ok().filter(|_| !cgroup::disabled_by_env());
    let dir = tempfile::tempdir().unwrap();
    let easy = first_lines(dir.path(), "easy.txt", "easy.txt", 1);
    // Per puzzle: three processes of 300 MB at once (each alone fits 400 MB), then one
    // of 600 MB (which never fits); the answer says whether the big one got its memory.
    let hog = script(
        dir.path(),
        "hog.sh",
        "while read l; do\n\\
         for i in 1 2 3; do python3 -c \"a=b'x'*(300<<20); import time; time.sleep(2)\" & done\n\\
         wait\n\\
         python3 -c \"a=b'x'*(600<<20)\" 2>/dev/null && echo 'error got 600 MB' || echo 'error refused'\n\\
         done",
    );
    for grouped in [true, false] {
        if grouped && cgroups.is_none() {
            eprintln!("skipped the control-group half: no control groups here");
            continue;
        }
        let out = dir.path().join(format!("out-{grouped}"));
        let mut command = bench();
        if grouped {
            command.env_remove("BENCH_NO_CGROUPS");
        } else {
            command.env("BENCH_NO_CGROUPS", "1");
        }
        // bench itself never grows without bound here.
        // SAFETY: setrlimit between fork and exec, async-signal-safe.
        unsafe {
            command.pre_exec(|| {
                let limit = libc::rlimit {
                    rlim_cur: 6 << 30,
                    rlim_max: 6 << 30,
                };
                libc::setrlimit(libc::RLIMIT_AS, &limit);
                Ok(())
            });
        }
        let child = command
            .args(["run", &easy, "--solvers", "hog", "--puzzle-solver"])
            .arg(format!("hog='{}'", hog.display()))
            .args([
                "--mem-limit",
                "400",
                "--timeout",
                "60",
                "--jobs",
                "1",
                "--out",
            ])
            .arg(&out)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let pid = child.id();
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "{o:?}");
        let rows = bench::results::read_rows(&out.join("results.csv"), false).unwrap();
        let r = rows.iter().find(|r| r.solver == "hog").unwrap();
        if grouped {
            assert_eq!(r.status, Status::Memout, "{r:?}");
            assert!(r.error.contains("together"), "{r:?}");
            // The group's peak: near the limit, above any one process's 300 MB.
            assert!(r.max_rss_kb.unwrap() > 350 << 10, "{r:?}");
            // No group of that bench is left.
            for (_, parent) in &cgroups.as_ref().unwrap().dirs {
                let left: Vec<_> = std::fs::read_dir(parent)
                    .unwrap()
                    .flatten()
                    .filter(|e| {
                        e.file_name()
                            .to_string_lossy()
                            .starts_with(&format!("bench-{pid}-"))
                    })
                    .collect();
                assert!(left.is_empty(), "groups left: {left:?}");
            }
        } else {
            // Per process: the three fit, the big one is refused.
            assert_eq!(r.status, Status::Error, "{r:?}");
            assert!(r.error.contains("refused"), "{r:?}");
        }
    }
}
