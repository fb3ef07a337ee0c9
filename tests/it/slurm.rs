//! A study on a real SLURM (the one-node cluster of `scripts/slurm-local.sh`, or any the
//! environment's `SLURM_CONF` points to): `bench slurm --submit` runs a 3-task array job over
//! a small corpus with native and minisat; one task is cancelled mid-run with `scancel`;
//! `bench merge` names its missing runs and the command that completes them; that command
//! completes them; the merge then equals one machine's `bench run` of the same plan, key by
//! key and status by status; and two studies of different plans are refused.
//!
//! Every wait has a bound. SLURM is a tool under the one rule for a missing tool
//! (`support::require`): without it the test says it was skipped and why, unless the tools
//! are required (`BENCH_REQUIRE_TOOLS`, set by scripts/test.sh, which as root starts the
//! one-node cluster, so CI runs it for real), which makes a missing SLURM a failure.

use crate::support::study::{key_status, ok, text};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use bench::results::read_rows;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The SLURM_CONF of the local cluster, unless the environment names one.
fn slurm_conf() -> Option<PathBuf> {
    if std::env::var_os("SLURM_CONF").is_some() {
        return None;
    }
    let dir = std::env::var_os("BENCH_SLURM_DIR")
        .map_or_else(|| PathBuf::from("/tmp/bench-slurm"), PathBuf::from);
    Some(dir.join("slurm.conf"))
}

fn cmd(program: impl AsRef<std::ffi::OsStr>) -> Command {
    let mut c = Command::new(program);
    if let Some(conf) = slurm_conf() {
        c.env("SLURM_CONF", conf);
    }
    c
}

fn bench() -> Command {
    cmd(env!("CARGO_BIN_EXE_bench"))
}

/// Runs `c` with a time bound (SLURM clients hang when a daemon is gone).
fn bounded(c: &mut Command, limit: Duration) -> Option<Output> {
    let mut child = c
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .ok()?;
    let start = Instant::now();
    while start.elapsed() < limit {
        if child.try_wait().ok()?.is_some() {
            return child.wait_with_output().ok();
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

fn slurm_answers() -> Result<(), String> {
    match bounded(cmd("scontrol").arg("ping"), Duration::from_secs(20)) {
        Some(o) if o.status.success() && String::from_utf8_lossy(&o.stdout).contains("UP") => {}
        Some(o) => return Err(format!("`scontrol ping`: {}", text(&o).trim())),
        None => return Err("`scontrol` is not installed or did not answer within 20 s".into()),
    }
    match bounded(
        cmd("sinfo").args(["-h", "-o", "%T"]),
        Duration::from_secs(20),
    ) {
        Some(o)
            if String::from_utf8_lossy(&o.stdout)
                .lines()
                .any(|l| ["idle", "mixed", "allocated"].contains(&l.trim())) =>
        {
            Ok(())
        }
        Some(o) => Err(format!("no node up: `sinfo`: {}", text(&o).trim())),
        None => Err("`sinfo` did not answer within 20 s".into()),
    }
}

/// SLURM answering, or started with scripts/slurm-local.sh (without installing anything).
fn slurm() -> Result<(), String> {
    let first = slurm_answers();
    if first.is_ok() || slurm_conf().is_none() {
        return first;
    }
    {
        let started = bounded(
            Command::new("bash")
                .arg(root().join("scripts/slurm-local.sh"))
                .arg("start")
                .env("BENCH_SLURM_NO_INSTALL", "1"),
            Duration::from_secs(120),
        );
        if let Some(o) = &started
            && !o.status.success()
        {
            return Err(format!(
                "scripts/slurm-local.sh start failed: {}",
                text(o).trim()
            ));
        }
    }
    slurm_answers()
}

/// Waits for `done` with a bound; panics with `what` when it passes.
fn wait_until(limit: Duration, what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < limit,
            "gave up after {limit:?} waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(25));
    }
}

fn queued(job: &str) -> String {
    bounded(
        cmd("squeue").args(["-h", "-j", job, "-o", "%i %T"]),
        Duration::from_secs(20),
    )
    .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
    .unwrap_or_else(|| "squeue did not answer".into())
}

fn rows_in(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |t| t.matches('\n').count().saturating_sub(1))
}

/// 6 25×25 sudokus (about half a second a run), 6 easy ones, 2 without a solution, 3 CNFs.
fn corpus(dir: &Path) -> Vec<PathBuf> {
    let lines = |file: &str, n: usize| -> String {
        std::fs::read_to_string(root().join("corpora").join(file))
            .unwrap()
            .lines()
            .take(n + 1)
            .map(|l| format!("{l}\n"))
            .collect()
    };
    let big = dir.join("big.txt");
    std::fs::write(&big, lines("25x25.txt", 6)).unwrap();
    let small = dir.join("small.txt");
    std::fs::write(&small, lines("easy.txt", 6) + &lines("nosolution.txt", 2)).unwrap();
    let cnf = dir.join("cnf");
    std::fs::create_dir_all(&cnf).unwrap();
    for f in ["php-7-6.cnf", "php-8-7.cnf", "rand3-150-639-s1.cnf"] {
        std::fs::copy(root().join("corpora/cnf").join(f), cnf.join(f)).unwrap();
    }
    vec![big, small, cnf]
}

const OPTS: &[&str] = &[
    "--solvers",
    "native,minisat",
    "--timeout",
    "120",
    "--jobs",
    "1",
];

#[test]
fn a_study_on_slurm_merges_into_what_one_machine_gives() {
    let found = crate::support::require("slurm", || {
        slurm().map_err(|why| {
            format!("{why}; start one with `bash scripts/slurm-local.sh start` (as root)")
        })
    });
    if found.is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let corpora = corpus(dir.path());
    let study = dir.path().join("study");

    // Submit: 3 shards, at most 2 at once (this node's CPUs).
    let out = ok(bench()
        .arg("slurm")
        .args(&corpora)
        .args(OPTS)
        .args(["--shards", "3", "--max-parallel", "2", "--submit", "--out"])
        .arg(&study));
    eprintln!("{out}");
    let job = out
        .lines()
        .find_map(|l| l.strip_prefix("submitted job "))
        .unwrap_or_else(|| panic!("no job id in:\n{out}"))
        .trim()
        .to_string();
    let script = std::fs::read_to_string(study.join("bench.sbatch")).unwrap();
    assert!(script.contains("#SBATCH --array=0-2%2"), "{script}");

    // Cancel task 1 once it has written its first row (it has 6 or more runs to go).
    let shard1 = study.join("shards/1-of-3/results.csv");
    wait_until(Duration::from_secs(300), "shard 1's first row", || {
        rows_in(&shard1) >= 1
    });
    ok(cmd("scancel").arg(format!("{job}_1")));
    let at_cancel = rows_in(&shard1);
    eprintln!("cancelled task {job}_1 after {at_cancel} row(s)");
    wait_until(
        Duration::from_secs(300),
        "the array job to leave the queue",
        || queued(&job).trim().is_empty(),
    );
    let status = ok(bench().arg("status").arg(&study));
    eprintln!("{status}");
    assert!(status.contains("0-of-3") && status.contains("2-of-3"));
    for k in [0, 2] {
        let log = std::fs::read_dir(study.join("logs"))
            .unwrap()
            .flatten()
            .find(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with(&format!("shard-{k}."))
            })
            .unwrap_or_else(|| panic!("no log of task {k}"));
        assert!(log.path().exists());
    }

    // The merge names shard 1's missing runs and the command that completes them.
    let o = bench().arg("merge").arg(&study).output().unwrap();
    let said = text(&o);
    eprintln!("{said}");
    assert_eq!(o.status.code(), Some(1), "{said}");
    let resume = format!(
        "bench run --resume {}",
        study.join("shards/1-of-3").display()
    );
    assert!(
        said.contains("shard 1-of-3:") && said.contains(&resume),
        "{said}"
    );
    assert!(
        said.contains(&format!(
            "sbatch --array=1 {}",
            study.join("bench.sbatch").display()
        )),
        "{said}"
    );
    assert!(
        !said.contains("shard 0-of-3:") && !said.contains("shard 2-of-3:"),
        "{said}"
    );
    // Complete them with the printed command.
    let done = ok(bench().args(resume.split(' ').skip(1)));
    eprintln!(
        "{}",
        done.lines()
            .find(|l| l.contains("runs to do"))
            .unwrap_or("")
    );
    let merged_out = ok(bench().arg("merge").arg(&study));
    eprintln!("{merged_out}");
    let merged = read_rows(&study.join("results.csv"), false).unwrap();
    assert!(study.join("index.html").exists() && study.join("cactus.svg").exists());

    // One machine, the same plan: the same keys and statuses.
    let local = dir.path().join("local");
    ok(bench()
        .arg("run")
        .args(&corpora)
        .args(OPTS)
        .arg("--out")
        .arg(&local));
    let single = read_rows(&local.join("results.csv"), false).unwrap();
    assert_eq!(merged.len(), single.len());
    assert_eq!(key_status(&merged), key_status(&single));
    eprintln!(
        "merged {} runs = one machine's {} runs, key by key and status by status",
        merged.len(),
        single.len()
    );

    // Two studies of different plans are refused.
    let other = dir.path().join("other");
    ok(bench()
        .arg("slurm")
        .args(&corpora)
        .args([
            "--solvers",
            "native,minisat",
            "--timeout",
            "60",
            "--jobs",
            "1",
            "--shards",
            "3",
            "--out",
        ])
        .arg(&other));
    let o = bench()
        .arg("merge")
        .arg(&study)
        .arg(&other)
        .output()
        .unwrap();
    eprintln!("{}", text(&o));
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("another plan"), "{}", text(&o));
}
