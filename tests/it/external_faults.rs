//! Misbehaving solvers, played by small shell scripts (the only fakes: no real solver
//! misbehaves on demand) run through the `--solver NAME='cmd {cnf}'` route: one that
//! forks a helper and ignores SIGTERM, one that leaves a helper behind after answering,
//! one that prints a wrong model, one that prints nothing, one that dies of SIGSEGV, one
//! that contradicts itself, and ones that flood stdout or stderr with 100 MB.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::support::external::*;
use bench::check::check_model;
use bench::cnf::Cnf;
use bench::solver::external::run::DEFAULT_GRACE;
use bench::solver::{Limits, Outcome, Status, by_name};

fn tiny() -> Cnf {
    // (x1 ∨ x2) ∧ ¬x1: the only models set x2.
    Cnf::from_dimacs_clauses(2, &[vec![1, 2], vec![-1]])
}

fn run_script(dir: &Path, body: &str, limits: &Limits) -> Outcome {
    let path = script(dir, "solver.sh", body);
    let solver = by_name("fault", &command_config("fault", &path)).expect("the script runs");
    solver.solve(&tiny(), limits)
}

fn pgid_of(dir: &Path) -> i32 {
    let text = std::fs::read_to_string(dir.join("pid")).expect("the script wrote its pid");
    text.trim().parse().expect("a pid")
}

#[test]
fn forked_helper_ignoring_sigterm_is_killed_with_its_group() {
    let dir = tempfile::tempdir().unwrap();
    let body = format!(
        "echo $$ > '{}/pid'\ntrap '' TERM\n( while :; do sleep 0.05; done ) &\nwhile :; do sleep 0.05; done",
        dir.path().display()
    );
    let limits = Limits {
        timeout: Some(Duration::from_secs(1)),
        ..Limits::default()
    };
    let started = Instant::now();
    let out = run_script(dir.path(), &body, &limits);
    let took = started.elapsed();
    assert_eq!(out.status, Status::Timeout, "{:?}", out.error);
    // Against a hang only: a loaded machine delays the stop's wake-ups, not the limit.
    assert!(
        took < Duration::from_secs(1) + DEFAULT_GRACE + Duration::from_secs(10),
        "{took:?}"
    );
    let pgid = pgid_of(dir.path());
    assert!(
        !group_alive(pgid),
        "a process of group {pgid} outlived its run"
    );
    // Zombies (dead, waiting for init to reap them, since their parent died) still
    // answer kill(-pgid, 0) for a moment; the group must be gone entirely soon after.
    let gone = (0..100).any(|_| {
        // SAFETY: kill with signal 0 only checks for existence.
        let r = unsafe { libc::kill(-pgid, 0) };
        let esrch = r == -1 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
        if !esrch {
            std::thread::sleep(Duration::from_millis(20));
        }
        esrch
    });
    assert!(gone, "group {pgid} still exists 2 s after the run");
}

#[test]
fn helper_left_behind_after_the_answer_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    let body = format!(
        "echo $$ > '{}/pid'\n( trap '' TERM; sleep 30 ) &\necho 's SATISFIABLE'\necho 'v -1 2 0'\nexit 10",
        dir.path().display()
    );
    let started = Instant::now();
    let out = run_script(dir.path(), &body, &Limits::default());
    // The helper sleeps 30 s: a run that waited for it is far above this bound, which
    // load does not reach.
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "waited for the helper"
    );
    assert_eq!(out.status, Status::Sat, "{:?}", out.error);
    check_model(&tiny(), out.model.as_ref().unwrap()).expect("the script's model is right");
    assert!(!group_alive(pgid_of(dir.path())));
}

#[test]
fn wrong_model_is_rejected_by_the_check() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_script(
        dir.path(),
        "echo 's SATISFIABLE'\necho 'v 1 -2 0'\nexit 10",
        &Limits::default(),
    );
    assert_eq!(out.status, Status::Sat);
    let err = check_model(&tiny(), out.model.as_ref().unwrap()).unwrap_err();
    assert!(err.to_string().contains("not satisfied"), "{err}");
}

#[test]
fn silence_is_an_error_not_unknown() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_script(
        dir.path(),
        "echo 'parse trouble' >&2\nexit 0",
        &Limits::default(),
    );
    assert_eq!(out.status, Status::Error);
    let why = out.error.unwrap();
    assert!(why.contains("no result line"), "{why}");
    assert!(why.contains("parse trouble"), "stderr tail missing: {why}");
    assert_eq!(out.exit_code, Some(0));
}

#[test]
fn sigsegv_is_an_error_naming_the_signal() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_script(
        dir.path(),
        "echo 'about to crash' >&2\nkill -SEGV $$",
        &Limits::default(),
    );
    assert_eq!(out.status, Status::Error);
    let why = out.error.unwrap();
    assert!(why.contains("SIGSEGV"), "{why}");
    assert!(why.contains("about to crash"), "{why}");
    assert_eq!(out.exit_code, Some(128 + libc::SIGSEGV));
}

#[test]
fn exit_code_contradicting_the_answer_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_script(
        dir.path(),
        "echo 's UNSATISFIABLE'\nexit 10",
        &Limits::default(),
    );
    assert_eq!(out.status, Status::Error);
    assert!(out.error.unwrap().contains("contradicts"));
}

/// Peak RSS of this process in KiB.
fn own_peak_rss_kb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn hundred_megabytes_of_output_neither_deadlock_nor_bloat() {
    let dir = tempfile::tempdir().unwrap();
    let limits = Limits {
        timeout: Some(Duration::from_secs(60)),
        ..Limits::default()
    };
    let before = own_peak_rss_kb();
    // stderr first: the tail is all that stays; the answer itself is fine.
    let out = run_script(
        dir.path(),
        "head -c 100000000 /dev/zero | tr '\\0' 'e' >&2\necho 's SATISFIABLE'\necho 'v -1 2 0'\nexit 10",
        &limits,
    );
    assert_eq!(out.status, Status::Sat, "{:?}", out.error);
    // stdout: 100 MB of comment beyond the cap is read as it comes and dropped past the
    // cap; the answer after it is read whole, and no deadlock.
    let out = run_script(
        dir.path(),
        "echo 's SATISFIABLE'\nhead -c 100000000 /dev/zero | tr '\\0' 'c'\necho\necho 'v -1 2 0'\nexit 10",
        &limits,
    );
    assert_eq!(out.status, Status::Sat, "{:?}", out.error);
    assert!(out.model.is_some());
    let grew_mb = (own_peak_rss_kb() - before) / 1024;
    // At most the 64 MiB cap (plus read buffers), never the 100 MB the child wrote.
    assert!(grew_mb < 90, "bench grew by {grew_mb} MiB");
}

#[test]
fn interrupt_stops_the_group() {
    let dir = tempfile::tempdir().unwrap();
    let flag = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        interrupt: Some(flag.clone()),
        ..Limits::default()
    };
    let setter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        flag.store(true, Ordering::Relaxed);
    });
    let body = format!(
        "echo $$ > '{}/pid'\nwhile :; do sleep 0.05; done",
        dir.path().display()
    );
    let started = Instant::now();
    let out = run_script(dir.path(), &body, &limits);
    setter.join().unwrap();
    assert_eq!(out.status, Status::Unknown, "{:?}", out.error);
    // Against a hang only (the script loops forever): load delays the stop, not the flag.
    assert!(started.elapsed() < Duration::from_secs(15));
    assert!(!group_alive(pgid_of(dir.path())));
}

#[test]
fn unknown_solver_and_bad_command_say_what_to_do() {
    let config = bench::solver::SolverConfig::default();
    let err = by_name("nosuch", &config).err().unwrap().to_string();
    assert!(err.contains("--solver nosuch="), "{err}");
    let config = command_config("x", Path::new("/nonexistent/solver"));
    let err = by_name("x", &config).err().unwrap().to_string();
    assert!(err.contains("not an executable"), "{err}");
}
