//! The CPU-time limit (`--cpu-limit`), end to end through `bench run`, in each containment
//! this machine has (a control group's CPU counter; without groups, the CPU the kernel
//! accounts to the run's process tree): a solver that spins ends at its CPU limit (limit
//! `cpu`), one that sleeps at its wall limit (limit `wall`), and a solver of two spinning
//! processes is charged for both. The solvers are shell scripts (no real solver spins or
//! sleeps on demand), and native on a hard formula shows an in-process solver held to its
//! thread's CPU clock; `bench solve` and `bench shrink` take the same limit. No assertion
//! bounds a wall time from above: a CPU limit holds whatever the load, and every wall
//! limit here is far beyond the CPU limit.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::support::contained::{Mode, modes, script, show, tiny};
use bench::results::{Row, read_rows};
use bench::solver::{LimitHit, Limits, Status, by_name};

fn bench(mode: Mode) -> Command {
    let mut c = crate::support::bench();
    mode.apply(&mut c);
    c
}

/// `bench run` of `solver` (a script) on a tiny formula with `limits` (flags), in `mode`:
/// its one row.
fn run_one(mode: Mode, dir: &Path, solver: &Path, limits: &[&str]) -> Row {
    let out = dir.join(format!("out-{mode:?}"));
    let o = bench(mode)
        .arg("run")
        .arg(tiny(dir))
        .args(["--solver", &format!("s='{}' {{cnf}}", solver.display())])
        .args(["--solvers", "s", "--jobs", "1", "--out"])
        .arg(&out)
        .args(limits)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{mode:?}: {}", show(&o));
    let rows = read_rows(&out.join("results.csv"), false).unwrap();
    assert_eq!(rows.len(), 1, "{mode:?}");
    rows.into_iter().next().unwrap()
}

#[test]
fn a_spinning_solver_ends_at_its_cpu_limit() {
    for mode in modes() {
        let dir = tempfile::tempdir().unwrap();
        let spin = script(dir.path(), "spin.sh", "while :; do :; done");
        let r = run_one(
            mode,
            dir.path(),
            &spin,
            &["--cpu-limit", "1", "--timeout", "600"],
        );
        assert_eq!(r.status, Status::Timeout, "{mode:?}: {r:?}");
        assert_eq!(r.limit, Some(LimitHit::Cpu), "{mode:?}: {r:?}");
        assert_eq!((r.cpu_limit_s, r.timeout_s), (Some(1.0), 600.0), "{mode:?}");
        let cpu = r.cpu_s.expect("a CPU time");
        assert!(
            cpu >= 1.0,
            "{mode:?}: stopped at {cpu} s of CPU, before its limit"
        );
    }
}

#[test]
fn a_sleeping_solver_ends_at_its_wall_limit() {
    for mode in modes() {
        let dir = tempfile::tempdir().unwrap();
        let sleep = script(dir.path(), "sleep.sh", "sleep 600");
        let r = run_one(
            mode,
            dir.path(),
            &sleep,
            &["--cpu-limit", "60", "--timeout", "1"],
        );
        assert_eq!(r.status, Status::Timeout, "{mode:?}: {r:?}");
        assert_eq!(r.limit, Some(LimitHit::Wall), "{mode:?}: {r:?}");
        assert!(r.cpu_s.expect("a CPU time") < 60.0, "{mode:?}: {r:?}");
        assert!(r.wall_s >= 1.0, "{mode:?}: {r:?}");
    }
}

/// Two processes spin, each writing its own CPU time (bash's `times`) when stopped: the
/// run's CPU time is more than either spent, so it counts both.
#[test]
fn a_solver_of_two_spinning_processes_is_charged_for_both() {
    for mode in modes() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().display();
        // The first waits for the second to have written before it exits (the rest of a
        // run is killed once its first process has ended).
        let body = format!(
            "trap \"times > '{d}/a'; wait; exit 0\" TERM\n\
             ( trap \"times > '{d}/b'; exit 0\" TERM; while :; do :; done ) &\n\
             while :; do :; done"
        );
        let two = script(dir.path(), "two.sh", &body);
        let r = run_one(
            mode,
            dir.path(),
            &two,
            &["--cpu-limit", "2", "--timeout", "600"],
        );
        assert_eq!(r.status, Status::Timeout, "{mode:?}: {r:?}");
        assert_eq!(r.limit, Some(LimitHit::Cpu), "{mode:?}: {r:?}");
        let cpu = r.cpu_s.expect("a CPU time");
        assert!(cpu >= 2.0, "{mode:?}: {cpu}");
        // Each process's own user + system time, from the first line of `times`
        // (`0m1.020s 0m0.004s`).
        let own = |name: &str| -> f64 {
            let text = std::fs::read_to_string(dir.path().join(name)).unwrap_or_default();
            let first = text.lines().next().unwrap_or_default();
            first
                .split_whitespace()
                .filter_map(|t| {
                    let (m, s) = t.trim_end_matches('s').split_once('m')?;
                    Some(m.parse::<f64>().ok()? * 60.0 + s.parse::<f64>().ok()?)
                })
                .sum()
        };
        let (a, b) = (own("a"), own("b"));
        assert!(a > 0.0 && b > 0.0, "{mode:?}: both spun: a {a} s, b {b} s");
        assert!(
            cpu > a.max(b),
            "{mode:?}: the run's {cpu} s of CPU is no more than one process's (a {a}, b {b})"
        );
        eprintln!(
            "{mode:?}: two spinners, wall {} s, CPU {cpu} s (a {a}, b {b})",
            r.wall_s
        );
    }
}

/// A hard formula for native: pigeonhole 12/11 (minutes for every solver).
fn pigeonhole_file(dir: &Path) -> PathBuf {
    let cnf = crate::support::external::pigeonhole(12, 11);
    let path = dir.join("php-12-11.cnf");
    let mut text = format!("p cnf {} {}\n", cnf.num_vars(), cnf.num_clauses());
    for c in cnf.clauses() {
        for l in c {
            text.push_str(&format!("{} ", l.dimacs()));
        }
        text.push_str("0\n");
    }
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn native_ends_at_its_cpu_limit_on_a_hard_formula() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = crate::support::bench()
        .arg("run")
        .arg(pigeonhole_file(dir.path()))
        .args([
            "--solvers",
            "native",
            "--jobs",
            "1",
            "--cpu-limit",
            "0.5",
            // A wall limit no load reaches: the CPU limit must be what ends the run
            // (the convention's own wall limit is a unit test of run/limits.rs).
            "--timeout",
            "600",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    let rows = read_rows(&out.join("results.csv"), false).unwrap();
    let r = &rows[0];
    assert_eq!(r.status, Status::Timeout, "{r:?}");
    assert_eq!(r.limit, Some(LimitHit::Cpu), "{r:?}");
    assert_eq!((r.cpu_limit_s, r.timeout_s), (Some(0.5), 600.0));
    assert!(r.cpu_s.expect("a CPU time") >= 0.5, "{r:?}");
    let record = std::fs::read_to_string(out.join("run.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&record).unwrap();
    assert_eq!(json["plan"]["cpu_limit_s"], 0.5, "{record}");
    assert_eq!(json["plan"]["timeout_s"], 600.0, "{record}");
}

/// `bench solve` under `--cpu-limit` on a hard formula: native in-process and minisat as
/// a child process each end at the CPU limit and say so (`s UNKNOWN`, a `c stopped at`
/// line), the wall limit being one no load reaches.
#[test]
fn bench_solve_ends_at_its_cpu_limit() {
    let dir = tempfile::tempdir().unwrap();
    let php = pigeonhole_file(dir.path());
    let mut solvers = vec!["native"];
    if crate::support::require_tool("minisat").is_some() {
        solvers.push("minisat");
    }
    for solver in solvers {
        let o = crate::support::bench()
            .arg("solve")
            .arg(&php)
            .args(["--solver", solver, "--cpu-limit", "0.5", "--timeout", "600"])
            .output()
            .unwrap();
        let said = show(&o);
        assert_eq!(o.status.code(), Some(0), "{solver}: {said}");
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert!(stdout.contains("s UNKNOWN"), "{solver}: {said}");
        assert!(
            stdout.contains("c stopped at the CPU-time limit (--cpu-limit 0.5 s)"),
            "{solver}: {said}"
        );
        let cpu: f64 = stdout
            .lines()
            .find_map(|l| l.strip_prefix("c cpu time: "))
            .and_then(|t| t.trim_end_matches(" s").parse().ok())
            .unwrap_or_else(|| panic!("{solver}: no CPU time: {said}"));
        assert!(cpu >= 0.5, "{solver}: {said}");
    }
}

/// `bench shrink` holds every solve to `--cpu-limit`: native on a hard formula reaches it
/// at the first solve, so nothing fails and nothing is shrunk, and the error says which
/// limit ended the solve.
#[test]
fn bench_shrink_passes_its_cpu_limit_on() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("small.cnf");
    let o = crate::support::bench()
        .args(["shrink", "--cnf"])
        .arg(pigeonhole_file(dir.path()))
        .args([
            "--solver",
            "native",
            "--cpu-limit",
            "0.5",
            "--timeout",
            "600",
            "-o",
        ])
        .arg(&out)
        .output()
        .unwrap();
    let said = show(&o);
    assert_ne!(o.status.code(), Some(0), "{said}");
    assert!(said.contains("TIMEOUT at its CPU-time limit"), "{said}");
    assert!(!out.exists());
}

/// In-process, through the solver interface: native's and dpll's search stop at the
/// thread's CPU clock, and say so.
#[test]
fn in_process_solvers_hold_their_threads_cpu_clock() {
    let cnf = crate::support::external::pigeonhole(12, 11);
    let limits = Limits {
        timeout: Some(Duration::from_secs(600)),
        cpu_limit: Some(Duration::from_millis(300)),
        ..Limits::default()
    };
    for name in ["native", "dpll"] {
        let solver = by_name(name, &Default::default()).unwrap();
        let out = solver.solve(&cnf, &limits);
        assert_eq!(out.status, Status::Timeout, "{name}: {:?}", out.error);
        assert_eq!(out.limit, Some(LimitHit::Cpu), "{name}");
        assert!(
            out.cpu.expect("measured") >= Duration::from_millis(300),
            "{name}: {:?}",
            out.cpu
        );
    }
}
