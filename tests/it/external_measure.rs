//! bench's measurements of a child agree with `/usr/bin/time -v`'s (both read the
//! kernel's `wait4` accounting). Both measure the *same* run: bench runs
//! `/usr/bin/time -v -o REPORT minisat …` as its solver, so the machine's load cannot set
//! the two apart; only `/usr/bin/time`'s own few milliseconds can. `/usr/bin/time` comes
//! from apt's `time` package (scripts/install-solvers.sh).

use std::time::Duration;

use crate::support::external::*;
use bench::solver::external::{ExternalSolver, adapters};
use bench::solver::{Limits, Solver};

/// (CPU seconds, peak RSS KiB) from a `/usr/bin/time -v` report.
fn gnu_time(report: &str) -> (f64, u64) {
    let field = |key: &str| -> f64 {
        let line = report
            .lines()
            .find(|l| l.trim_start().starts_with(key))
            .unwrap_or_else(|| panic!("{key} in {report}"));
        line.rsplit(':').next().unwrap().trim().parse().unwrap()
    };
    let cpu = field("User time (seconds)") + field("System time (seconds)");
    (cpu, field("Maximum resident set size (kbytes)") as u64)
}

#[test]
fn cpu_and_rss_agree_with_usr_bin_time() {
    let time = crate::support::require("time", || {
        let path = std::path::Path::new("/usr/bin/time");
        path.is_file()
            .then_some(())
            .ok_or_else(|| "no /usr/bin/time: the apt package time installs it".to_string())
    });
    if time.is_none() || require("minisat").is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("time.txt");
    let command = format!(
        "/usr/bin/time -v -o {} minisat -verb=0 {{cnf}} {{res}}",
        report.display()
    );
    let timed = ExternalSolver::from_command("timed-minisat", &command)
        .unwrap()
        .with_adapter(adapters::adapter("minisat").unwrap());
    // Random 3-SAT at the threshold: about a second of minisat.
    let cnf = random_3sat_with(245, 1043);
    let out = timed.solve(
        &cnf,
        &Limits {
            timeout: Some(Duration::from_secs(120)),
            ..Limits::default()
        },
    );
    assert!(out.status.is_solved(), "{:?} {:?}", out.status, out.error);
    let (our_cpu, our_rss) = (out.cpu.unwrap().as_secs_f64(), out.max_rss_kb.unwrap());
    let (their_cpu, their_rss) = gnu_time(&std::fs::read_to_string(&report).unwrap());
    eprintln!(
        "bench: {our_cpu:.3} s {our_rss} KiB; /usr/bin/time: {their_cpu:.3} s {their_rss} KiB"
    );
    assert!(
        their_cpu > 0.2,
        "the instance is too easy to compare: {their_cpu} s"
    );
    // bench's figure covers /usr/bin/time too (a few ms, a few hundred KiB at most);
    // /usr/bin/time prints CPU to 10 ms.
    let close = |a: f64, b: f64, slack: f64| (a - b).abs() <= 0.05 * b + slack;
    assert!(
        close(our_cpu, their_cpu, 0.03),
        "cpu: bench {our_cpu} s, /usr/bin/time {their_cpu} s"
    );
    assert!(
        close(our_rss as f64, their_rss as f64, 1024.0),
        "rss: bench {our_rss} KiB, /usr/bin/time {their_rss} KiB"
    );
}

/// A solver's peak RSS is its own, not bench's: with 300 MiB resident in the test
/// process, a 3 MiB minisat run still reports a few MiB (through the exec helper;
/// forked straight from this process it would report over 300 MiB).
#[test]
fn peak_rss_is_the_solvers_not_benchs() {
    let Some(minisat) = require("minisat") else {
        return;
    };
    assert!(
        bench::solver::external::run::helper().is_some(),
        "no exec helper: the bench binary is not built next to the test executable"
    );
    let ballast = vec![1u8; 300 << 20];
    let out = minisat.solve(&pigeonhole(5, 4), &Limits::default());
    let rss = out.max_rss_kb.expect("measured");
    assert!(rss < 50 << 10, "minisat's peak RSS reads {rss} KiB");
    assert_eq!(ballast.iter().map(|&b| b as u64).sum::<u64>(), 300 << 20);
}

/// The exec helper is the small `sandbox-exec`, built beside bench (cargo builds every
/// binary of the package for the integration tests), not bench's own binary; and an
/// external run through it comes back measured.
#[test]
fn the_helper_is_the_small_binary() {
    let Some(minisat) = require("minisat") else {
        return;
    };
    let helper = bench::solver::external::run::helper().expect("an exec helper");
    assert_eq!(
        helper.file_name().and_then(|n| n.to_str()),
        Some("sandbox-exec"),
        "{}",
        helper.display()
    );
    let out = minisat.solve(&pigeonhole(4, 3), &Limits::default());
    assert_eq!(out.status, bench::solver::Status::Unsat);
    assert!(out.cpu.is_some() && out.max_rss_kb.is_some());
}
