//! The in-process paths that need only the Rust toolchain: native's incremental puzzle
//! mode (rules loaded once, givens as assumptions, `--count 2` by an activation literal)
//! against one fresh formula per puzzle, its limits, configured solvers as solvers of
//! their own, the `augmented` encoding checked by minisat, and what a build without the
//! library solvers says about them.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::support::inprocess::{
    assert_expected, assert_timeouts_recover, bench, corpus, facts, lateness, run,
};
use bench::cnf_gen::pigeonhole;
use bench::solver::{Limits, SolverConfig, Status, by_name};

fn corpora() -> Vec<String> {
    [
        "minimal-9x9.txt",
        "nosolution.txt",
        "multisolution.txt",
        "pairs-4x4.csv",
        "latin-10.txt",
    ]
    .iter()
    .map(|c| corpus(c).display().to_string())
    .collect()
}

#[test]
fn incremental_and_fresh_formulas_agree_with_count_2() {
    let dir = tempfile::tempdir().unwrap();
    let corpora = corpora();
    let mut args: Vec<&str> = corpora.iter().map(String::as_str).collect();
    args.extend([
        "--solvers",
        "native,native:restart=luby,phase=random",
        "--encodings",
        "minimal,extended,augmented,pruned",
        "--count",
        "2",
    ]);
    let (inc, out) = run(dir.path(), "inc", &args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    args.push("--no-incremental");
    let (fresh, _) = run(dir.path(), "fresh", &args);
    assert_expected(&inc);
    assert_expected(&fresh);
    assert_eq!(inc.len(), (100 + 20 + 20 + 10 + 20) * 4 * 2);
    assert_eq!(facts(&inc), facts(&fresh));
}

/// A full 16×16 sudoku (the pattern grid) with one blank per row: solved by propagation.
fn easy_16() -> String {
    pattern_16(16)
}

/// The 16×16 pattern grid with one blank in each of the first `rows` rows.
fn pattern_16(rows: usize) -> String {
    let (k, n) = (4, 16);
    let sym = |v: usize| {
        std::char::from_digit(v as u32, 36)
            .unwrap()
            .to_ascii_uppercase()
    };
    let mut line = String::new();
    for r in 0..n {
        for c in 0..n {
            if r < rows && c == (r * 5) % n {
                line.push('.');
            } else {
                line.push(sym((r * k + r / k + c) % n + 1));
            }
        }
    }
    line
}

#[test]
fn timeouts_in_the_incremental_mode_are_timeouts_and_the_session_recovers() {
    // After a stopped call the session is dropped and built again for the next puzzle.
    // A row's wall time on a loaded machine: the README's promise of at most 1 s past the
    // limit (the CPU past the deadline is bounded by `native_sessions_stop_at_the_deadline…`).
    assert_timeouts_recover(&["native", "native:restart=luby"], 1.0);
}

#[test]
fn native_sessions_stop_at_the_deadline_and_on_interrupt() {
    let native = by_name("native", &SolverConfig::default()).unwrap();
    let php = pigeonhole(13, 12);
    let load = || {
        let mut s = native.session(0).expect("native has sessions");
        for c in php.clauses() {
            s.add_clause(c);
        }
        s
    };
    let late = lateness(3, Duration::from_millis(200), |limits| {
        load().solve(&[], limits)
    });
    // A few ms of CPU past the deadline; a solver that never looked at its clock would
    // run on for seconds here.
    assert!(late <= Duration::from_millis(300), "{late:?} late");
    // The same session answers after a stopped call (native keeps no interrupt state).
    let mut s = load();
    let flag = Arc::new(AtomicBool::new(false));
    let setter = {
        let flag = flag.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            flag.store(true, Ordering::SeqCst);
        })
    };
    let o = s.solve(
        &[],
        &Limits {
            interrupt: Some(flag.clone()),
            ..Limits::default()
        },
    );
    setter.join().unwrap();
    assert_eq!(o.status, Status::Unknown);
    // The interrupt came at 100 ms; the README's promise is 1 s past it at any load.
    assert!(o.wall < Duration::from_millis(100 + 1000), "{:?}", o.wall);
    assert!(s.usable());
    // Assuming pigeon 0 sits nowhere refutes at once.
    let nowhere: Vec<_> = php.clause(0).iter().map(|&l| !l).collect();
    let o = s.solve(&nowhere, &Limits::default());
    assert_eq!(o.status, Status::Unsat);
}

#[test]
fn a_configured_solver_is_a_solver_of_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let easy = corpus("easy.txt");
    let (rows, out) = run(
        dir.path(),
        "c",
        &[
            easy.to_str().unwrap(),
            "--solvers",
            "native,native:restart=luby,luby-unit=50,phase=random,dpll",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let names: std::collections::BTreeSet<_> = rows.iter().map(|r| r.solver.as_str()).collect();
    assert_eq!(
        names.into_iter().collect::<Vec<_>>(),
        [
            "dpll",
            "native",
            "native:restart=luby,luby-unit=50,phase=random"
        ]
    );
    let summary = std::fs::read_to_string(dir.path().join("c/summary.md")).unwrap();
    assert!(summary.contains("native:restart=luby,luby-unit=50,phase=random"));
}

#[test]
fn a_bad_configuration_names_the_allowed_range() {
    let easy = corpus("easy.txt");
    for (solvers, says) in [
        (
            "native:var-decay=1.5",
            "var-decay=1.5 is out of range: a number 0.5..1",
        ),
        ("native:restart=sometimes", "luby, glucose or never"),
        ("native:speed=11", "unknown setting `speed`"),
        ("dpll:x=1", "takes no settings"),
    ] {
        let out = bench()
            .arg("run")
            .arg(&easy)
            .args(["--solvers", solvers, "--out"])
            .arg(tempfile::tempdir().unwrap().path().join("x"))
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{solvers}: {err}");
    }
}

/// Runs minisat on `bench encode`'s output and has `bench check` decode it.
fn minisat_solves(dir: &std::path::Path, puzzle: &str, args: &[&str]) -> (u64, String) {
    let p = dir.join("p.txt");
    std::fs::write(&p, format!("{puzzle}\n")).unwrap();
    let out = bench().arg("encode").arg(&p).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let clauses: u64 = text
        .lines()
        .find(|l| l.starts_with("p cnf"))
        .and_then(|l| l.split_whitespace().nth(3))
        .unwrap()
        .parse()
        .unwrap();
    let cnf = dir.join("p.cnf");
    std::fs::write(&cnf, text).unwrap();
    let res = dir.join("p.res");
    assert!(
        std::path::Path::new("/usr/bin/minisat").exists(),
        "minisat is missing: run scripts/install-solvers.sh"
    );
    // Under a 1 GiB address-space limit and a 60 s CPU limit: a solver gone wrong must
    // not take the shared machine's memory. Without cargo's LD_LIBRARY_PATH, which with
    // the feature rustsat-solvers holds the crates' own libminisat.so.2.
    let status = std::process::Command::new("bash")
        .env_remove("LD_LIBRARY_PATH")
        .arg("-c")
        .arg("ulimit -v 1048576 -t 60; exec /usr/bin/minisat -verb=0 \"$0\" \"$1\"")
        .arg(&cnf)
        .arg(&res)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(10), "minisat on {puzzle} {args:?}");
    let out = bench().arg("check").arg(&cnf).arg(&res).output().unwrap();
    let said = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success() && said.starts_with("model-ok"),
        "{said}"
    );
    (clauses, said)
}

#[test]
fn augmented_is_counted_exactly_and_decodes_through_minisat() {
    if !crate::support::external::require_all(&["minisat"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let sudoku =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let givens = sudoku.chars().filter(|&c| c != '.').count() as u64;
    let (clauses, _) = minisat_solves(dir.path(), sudoku, &["--encoding", "augmented"]);
    assert_eq!(clauses, 15_228 + givens);
    minisat_solves(
        dir.path(),
        sudoku,
        &["--encoding", "augmented", "--amo", "sequential"],
    );
    // 16×16 (box 4) and a Latin square (no boxes: the same as extended).
    minisat_solves(dir.path(), &easy_16(), &["--encoding", "augmented"]);
    let latin: String = (0..25)
        .map(|i| {
            if i % 6 == 0 {
                '.'
            } else {
                char::from(b'1' + ((i / 5 + i % 5) % 5) as u8)
            }
        })
        .collect();
    minisat_solves(
        dir.path(),
        &latin,
        &["--encoding", "augmented", "--kind", "latin"],
    );
}

#[cfg(not(feature = "rustsat-solvers"))]
#[test]
fn a_build_without_the_library_solvers_says_how_to_get_them() {
    let out = bench()
        .arg("run")
        .arg(corpus("easy.txt"))
        .args(["--solvers", "native,minisat-lib", "--out"])
        .arg(tempfile::tempdir().unwrap().path().join("x"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--features rustsat-solvers"), "{err}");
    let out = bench().arg("solvers").output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    for name in ["minisat-lib", "glucose-lib", "cadical-lib"] {
        assert!(
            said.lines()
                .any(|l| l.starts_with(name) && l.contains("missing")),
            "{said}"
        );
    }
    assert!(said.contains("--features rustsat-solvers"), "{said}");
}

#[test]
fn with_proofs_native_solves_one_formula_and_its_unsat_proofs_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let nosolution = corpus("nosolution.txt");
    let (rows, out) = run(dir.path(), "p", &[nosolution.to_str().unwrap(), "--proofs"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(rows.len(), 20);
    for r in &rows {
        assert_eq!(
            (r.status.as_str(), r.check.as_str()),
            ("UNSAT", "proof-ok"),
            "{r:?}"
        );
    }
}

#[test]
fn an_answer_past_a_limit_is_a_timeout_at_that_limit() {
    // One unit clause: every engine answers it before its first look at a clock, so
    // with limits of a nanosecond the answer comes past them and must be scored as a
    // timeout at the limit it passed, with no model to check.
    let cnf = bench::cnf::Cnf::from_dimacs_clauses(1, &[vec![1]]);
    let tiny = Duration::from_nanos(1);
    let wall = Limits {
        timeout: Some(tiny),
        ..Limits::default()
    };
    let cpu = Limits {
        cpu_limit: Some(tiny),
        ..Limits::default()
    };
    for name in ["native", "dpll"] {
        let solver = by_name(name, &SolverConfig::default()).unwrap();
        for (limits, hit) in [(&wall, "wall"), (&cpu, "cpu")] {
            let mut outcomes = vec![("fresh", solver.solve(&cnf, limits))];
            if let Some(mut session) = solver.session(0) {
                session.add_clause(cnf.clauses().next().unwrap());
                outcomes.push(("session", session.solve(&[], limits)));
            }
            for (mode, o) in outcomes {
                assert_eq!(o.status, Status::Timeout, "{name} {mode} {hit}: {o:?}");
                assert_eq!(
                    o.limit.map(|l| l.to_string()).as_deref(),
                    Some(hit),
                    "{name} {mode}: {o:?}"
                );
                assert!(o.model.is_none(), "{name} {mode} {hit}");
            }
        }
    }
}
