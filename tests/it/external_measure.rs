//! bench's measurements of a child agree with `/usr/bin/time -v`'s (both read the
//! kernel's `wait4` accounting): CPU time and peak RSS of the same ~1 s minisat run within
//! 10%. `/usr/bin/time` comes from apt's `time` package (scripts/install-solvers.sh).

use std::process::Command;
use std::time::Duration;

use crate::support::external::*;
use bench::cnf::dimacs::write_cnf;
use bench::solver::Limits;

/// (CPU seconds, peak RSS KiB) of `minisat` on `cnf` under `/usr/bin/time -v`.
fn gnu_time(cnf: &std::path::Path, res: &std::path::Path) -> (f64, u64) {
    let out = Command::new("/usr/bin/time")
        .arg("-v")
        .arg("minisat")
        .arg("-verb=0")
        .arg(cnf)
        .arg(res)
        .output()
        .unwrap_or_else(|e| {
            panic!("/usr/bin/time missing ({e}): run scripts/install-solvers.sh (apt `time`)")
        });
    let text = String::from_utf8_lossy(&out.stderr);
    let field = |key: &str| -> f64 {
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with(key))
            .unwrap_or_else(|| panic!("{key} in {text}"));
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
    if time.is_none() {
        return;
    }
    let Some(minisat) = require("minisat") else {
        return;
    };
    // Random 3-SAT at the threshold: about 1.1 s of minisat.
    let cnf = random_3sat_with(245, 1043);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("r245.cnf");
    write_cnf(std::fs::File::create(&file).unwrap(), &cnf, &[]).unwrap();
    let res = dir.path().join("res");

    // The best of five, for both, to keep a loaded machine's noise out.
    let mut ours = Vec::new();
    let mut theirs = Vec::new();
    for _ in 0..5 {
        let out = minisat.solve(
            &cnf,
            &Limits {
                timeout: Some(Duration::from_secs(60)),
                ..Limits::default()
            },
        );
        assert!(out.status.is_solved(), "{:?} {:?}", out.status, out.error);
        ours.push((out.cpu.unwrap().as_secs_f64(), out.max_rss_kb.unwrap()));
        theirs.push(gnu_time(&file, &res));
    }
    let best = |v: &[(f64, u64)]| {
        let cpu = v.iter().map(|x| x.0).fold(f64::MAX, f64::min);
        let rss = v.iter().map(|x| x.1).min().unwrap();
        (cpu, rss)
    };
    let (our_cpu, our_rss) = best(&ours);
    let (their_cpu, their_rss) = best(&theirs);
    eprintln!(
        "bench: {our_cpu:.3} s {our_rss} KiB; /usr/bin/time: {their_cpu:.3} s {their_rss} KiB"
    );
    assert!(
        their_cpu > 0.2,
        "the instance is too easy to compare: {their_cpu} s"
    );
    let close = |a: f64, b: f64| (a - b).abs() <= 0.10 * b;
    assert!(
        close(our_cpu, their_cpu),
        "cpu: bench {our_cpu} s, /usr/bin/time {their_cpu} s"
    );
    assert!(
        close(our_rss as f64, their_rss as f64),
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
