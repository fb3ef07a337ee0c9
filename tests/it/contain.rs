//! Containment of `bench run`, end to end, with control groups and with the fallback
//! (`BENCH_NO_CGROUPS=1`): a solver tree that escapes its process group (setsid, a
//! double fork, SIGTERM ignored) leaves no process after a timeout, Ctrl-C, SIGTERM or a
//! SIGKILL of bench, and no temporary folder; a memory hog made of three processes is
//! MEMOUT under a limit each alone would fit (cgroups: the limit is the group's); a
//! Python `MemoryError` is MEMOUT; a fork bomb is stopped by the process limit (run only
//! where the limit is in force before it starts, i.e. with cgroups); a header claiming
//! 2·10⁹ variables and a blank 200×200 Latin square give rows, not aborts; false SAT
//! claims are WRONG; the CSV holds times to the microsecond and no control bytes; and
//! `bench run` exits non-zero when nothing ran. The fault scripts are the only fakes: no
//! real solver misbehaves on demand.
//!
//! Anything hostile runs contained: hogs under `--mem-limit`, bench itself under an
//! address-space limit where an old bench would have grown without bound.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::support::contained::{Mode, cgroups_here, modes, script, show, tiny};
use bench::results::{Row, read_rows};

/// The bench under test: this build's, or `$BENCH_TEST_BIN` (to show that an older
/// bench fails these tests; the fork bomb is then not run, since an older bench sets no
/// process limit).
fn bench_bin() -> PathBuf {
    std::env::var_os("BENCH_TEST_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_bench")))
}

fn bench(mode: Mode) -> Command {
    let mut c = Command::new(bench_bin());
    mode.apply(&mut c);
    // An old bench allocated for header claims: never let a test grow without bound.
    // SAFETY: setrlimit between fork and exec, async-signal-safe.
    unsafe {
        c.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 6 << 30,
                rlim_max: 6 << 30,
            };
            libc::setrlimit(libc::RLIMIT_AS, &limit);
            Ok(())
        });
    }
    c
}

/// A solver tree that escapes: two setsid children (one with a child of its own), a
/// double-forked grandchild, all ignoring SIGTERM, every process named `TAG-…`.
fn escaping_solver(dir: &Path, tag: &str) -> PathBuf {
    script(
        dir,
        "escape.sh",
        &format!(
            "trap '' TERM\n\
             setsid bash -c \"trap '' TERM; exec -a {tag}-setsid sleep 300\" &\n\
             ( ( trap '' TERM; exec -a {tag}-double sleep 300 ) & ) &\n\
             setsid bash -c \"trap '' TERM; ( exec -a {tag}-nested sleep 300 ) & wait\" &\n\
             exec -a {tag}-main sleep 300"
        ),
    )
}

/// Processes whose argv[0] starts with `tag-`.
fn tagged(tag: &str) -> Vec<i32> {
    let prefix = format!("{tag}-");
    let mut pids = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(e.path().join("cmdline")) else {
            continue;
        };
        let argv0 = cmdline.split(|&b| b == 0).next().unwrap_or_default();
        if argv0.starts_with(prefix.as_bytes()) {
            pids.push(pid);
        }
    }
    pids
}

/// Waits up to `within` for no `tag` process to be left; kills leftovers (so a failing
/// test does not leak them) and returns how many there were.
fn survivors(tag: &str, within: Duration) -> usize {
    let until = Instant::now() + within;
    loop {
        let left = tagged(tag);
        if left.is_empty() {
            return 0;
        }
        if Instant::now() > until {
            for p in &left {
                // SAFETY: plain syscall on a test process.
                unsafe {
                    libc::kill(*p, libc::SIGKILL);
                }
            }
            return left.len();
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn wait_for(what: &str, within: Duration, mut f: impl FnMut() -> bool) {
    let until = Instant::now() + within;
    while !f() {
        assert!(Instant::now() < until, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// bench's temporary folders for the process `pid`.
fn temp_dirs_of(pid: u32) -> Vec<PathBuf> {
    let prefix = format!("bench-run-{pid}-");
    std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .map(|e| e.path())
        .collect()
}

fn rows(out: &Path) -> Vec<Row> {
    read_rows(&out.join("results.csv"), false).unwrap()
}

fn solver_arg(name: &str, path: &Path) -> String {
    format!("{name}='{}' {{cnf}}", path.display())
}

#[test]
fn an_escaping_tree_is_gone_after_the_timeout() {
    for mode in modes() {
        let dir = tempfile::tempdir().unwrap();
        let tag = format!("ct-timeout-{mode:?}-{}", std::process::id());
        let solver = escaping_solver(dir.path(), &tag);
        let out = dir.path().join("out");
        let o = bench(mode)
            .arg("run")
            .arg(tiny(dir.path()))
            .args(["--solver", &solver_arg("escape", &solver)])
            .args(["--solvers", "escape", "--timeout", "1", "--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{mode:?}: {}", show(&o));
        assert_eq!(survivors(&tag, Duration::from_secs(2)), 0, "{mode:?}");
        let r = &rows(&out)[0];
        assert_eq!(r.status.as_str(), "TIMEOUT", "{mode:?}");
        // The CPU time until the kill is measured.
        assert!(r.cpu_s.is_some(), "{mode:?}: a TIMEOUT row without cpu_s");
        let meta = std::fs::read_to_string(out.join("run.json")).unwrap();
        let expected = match mode {
            Mode::Cgroups => "\"containment\": \"cgroup-v",
            Mode::Fallback => "\"containment\": \"subreaper\"",
        };
        assert!(meta.contains(expected), "{mode:?}: {meta}");
    }
}

/// Each containment state has one name, the same on stderr and in run.json: bench is its
/// own exec helper (no second binary to build), so a plain build runs contained; without
/// a helper (`BENCH_EXEC` naming nothing) the state is `process-group` on both.
#[test]
fn each_containment_state_has_one_name_on_stderr_and_in_run_json() {
    if !crate::support::external::require_all(&["minisat"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut cases: Vec<(&str, Command)> = Vec::new();
    for mode in modes() {
        cases.push((
            if mode == Mode::Cgroups {
                "cgroup"
            } else {
                "subreaper"
            },
            bench(mode),
        ));
    }
    let mut without = bench(Mode::Fallback);
    without.env("BENCH_EXEC", dir.path().join("no-such-helper"));
    cases.push(("process-group", without));
    for (i, (expected, mut command)) in cases.into_iter().enumerate() {
        let out = dir.path().join(format!("out-{i}"));
        let o = command
            .arg("run")
            .arg(tiny(dir.path()))
            .args(["--solvers", "minisat", "--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{expected}: {}", show(&o));
        let meta: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
        let name = meta["containment"].as_str().unwrap_or_default();
        assert!(name.starts_with(expected), "{expected}: {meta}");
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(
            stderr.contains(&format!("bench: containment: {name}: ")),
            "{name}: {stderr}"
        );
    }
}

/// Starts `bench run` on the escaping solver, waits until the whole tree is up, sends
/// `signal` to bench; returns bench's output and the tag.
fn signal_bench(mode: Mode, dir: &Path, signal: i32, name: &str) -> (Output, String, u32) {
    let tag = format!("ct-{name}-{mode:?}-{}", std::process::id());
    let solver = escaping_solver(dir, &tag);
    let child = bench(mode)
        .arg("run")
        .arg(tiny(dir))
        .args(["--solver", &solver_arg("escape", &solver)])
        .args(["--solvers", "escape", "--timeout", "3", "--out"])
        .arg(dir.join("out"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    wait_for("the solver tree", Duration::from_secs(10), || {
        tagged(&tag).len() >= 4
    });
    // SAFETY: plain syscall on our own child.
    unsafe {
        libc::kill(pid as i32, signal);
    }
    let o = child.wait_with_output().unwrap();
    (o, tag, pid)
}

#[test]
fn ctrl_c_sigterm_and_sighup_stop_the_run_and_keep_the_report() {
    for mode in modes() {
        for (signal, name) in [
            (libc::SIGINT, "int"),
            (libc::SIGTERM, "term"),
            (libc::SIGHUP, "hup"),
        ] {
            let dir = tempfile::tempdir().unwrap();
            let (o, tag, pid) = signal_bench(mode, dir.path(), signal, name);
            assert_eq!(o.status.code(), Some(130), "{mode:?} {name}: {}", show(&o));
            assert_eq!(
                survivors(&tag, Duration::from_secs(2)),
                0,
                "{mode:?} {name}: processes outlived the run"
            );
            assert!(
                dir.path().join("out/summary.md").exists(),
                "{mode:?} {name}: no report"
            );
            assert!(temp_dirs_of(pid).is_empty(), "{mode:?} {name}");
        }
    }
}

#[test]
fn a_killed_bench_takes_its_runs_and_temporary_folders_with_it() {
    for mode in modes() {
        let dir = tempfile::tempdir().unwrap();
        let (_, tag, pid) = signal_bench(mode, dir.path(), libc::SIGKILL, "kill");
        assert_eq!(
            survivors(&tag, Duration::from_secs(3)),
            0,
            "{mode:?}: processes outlived a killed bench"
        );
        wait_for("the temporary folder to go", Duration::from_secs(3), || {
            temp_dirs_of(pid).is_empty()
        });
        // A folder left by a bench killed before its helper could clean up (a dead pid),
        // and a resume: the resumed run removes it, and leaves none of its own.
        let gone = dead_pid();
        let stale = std::env::temp_dir().join(format!("bench-run-{gone}-stale"));
        std::fs::create_dir_all(&stale).unwrap();
        std::fs::write(stale.join("input.cnf"), "p cnf 1 1\n1 0\n").unwrap();
        // And, with control groups, a group of that dead bench.
        let stale_groups: Vec<PathBuf> = match mode {
            Mode::Cgroups => bench::solver::external::cgroup::detect()
                .unwrap()
                .dirs
                .iter()
                .map(|(_, d)| d.join(format!("bench-{gone}-0")))
                .collect(),
            Mode::Fallback => Vec::new(),
        };
        for g in &stale_groups {
            std::fs::create_dir(g).unwrap();
        }
        let child = bench(mode)
            .arg("run")
            .arg("--resume")
            .arg(dir.path().join("out"))
            .output()
            .unwrap();
        assert_eq!(child.status.code(), Some(0), "{mode:?}: {}", show(&child));
        assert!(!stale.exists(), "{mode:?}: the stale folder is still there");
        for g in &stale_groups {
            assert!(
                !g.exists(),
                "{mode:?}: the stale group {} is still there",
                g.display()
            );
        }
        assert_eq!(survivors(&tag, Duration::from_secs(2)), 0, "{mode:?}");
        assert_eq!(rows(&dir.path().join("out")).len(), 1);
    }
}

/// A pid that no process has now.
fn dead_pid() -> u32 {
    (4_000_000..4_100_000)
        .find(|p| !Path::new(&format!("/proc/{p}")).exists())
        .unwrap()
}

#[test]
fn three_processes_together_over_the_limit_are_memout() {
    if crate::support::require_tool("python3").is_none() {
        return;
    }
    for mode in modes() {
        let dir = tempfile::tempdir().unwrap();
        // Each 300 MB alone fits --mem-limit 400; the three together do not.
        let hog = script(
            dir.path(),
            "hog.sh",
            "for i in 1 2 3; do python3 -c \"a=b'x'*(300<<20); import time; time.sleep(3)\" & done\n\
             wait\necho 's UNKNOWN'\nexit 0",
        );
        let py = script(
            dir.path(),
            "py.sh",
            "exec python3 -c \"a=[b'x'*(50<<20) for i in range(40)]\"",
        );
        let out = dir.path().join("out");
        let o = bench(mode)
            .arg("run")
            .arg(tiny(dir.path()))
            .args(["--solver", &solver_arg("hog", &hog)])
            .args(["--solver", &solver_arg("py", &py)])
            .args([
                "--solvers",
                "hog,py",
                "--timeout",
                "20",
                "--mem-limit",
                "400",
            ])
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{mode:?}: {}", show(&o));
        let rows = rows(&out);
        let of = |s: &str| rows.iter().find(|r| r.solver == s).unwrap().clone();
        // Python's own MemoryError under either limit.
        assert_eq!(
            of("py").status.as_str(),
            "MEMOUT",
            "{mode:?}: {:?}",
            of("py")
        );
        let hog = of("hog");
        match mode {
            Mode::Cgroups => {
                assert_eq!(hog.status.as_str(), "MEMOUT", "{hog:?}");
                assert!(hog.error.contains("together"), "{hog:?}");
                // The peak is the group's: the limit, not one process's 300 MB.
                assert!(hog.max_rss_kb.unwrap() > 350 << 10, "{hog:?}");
            }
            // The fallback's limit is per process: each fits. What it cannot see is
            // stated in the README; here it must at least not be taken for an answer.
            Mode::Fallback => assert!(!hog.status.as_str().starts_with("SAT"), "{hog:?}"),
        }
    }
}

#[test]
fn a_fork_bomb_is_stopped_by_the_process_limit() {
    // Only where the limit is in force before the bomb starts: the run's group.
    if !cgroups_here() || std::env::var_os("BENCH_TEST_BIN").is_some() {
        eprintln!("skipped: no process limit in force here (no control groups, or another bench)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let tag = format!("ct-bomb-{}", std::process::id());
    let bomb = script(
        dir.path(),
        "bomb.sh",
        &format!("bomb() {{ bomb | bomb & }}\nbomb\nexec -a {tag}-main sleep 100"),
    );
    let out = dir.path().join("out");
    let o = bench(Mode::Cgroups)
        .arg("run")
        .arg(tiny(dir.path()))
        .args(["--solver", &solver_arg("bomb", &bomb)])
        .args(["--solvers", "bomb", "--timeout", "2", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    let r = &rows(&out)[0];
    assert_eq!(r.status.as_str(), "TIMEOUT", "{r:?}");
    assert!(r.error.contains("refused"), "{r:?}");
    assert_eq!(survivors(&tag, Duration::from_secs(2)), 0);
    // The bomb's shells are gone too.
    let left = std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|e| {
            std::fs::read_to_string(e.path().join("cmdline"))
                .is_ok_and(|c| c.contains(&*bomb.to_string_lossy()))
        })
        .count();
    assert_eq!(left, 0, "processes of the bomb outlived the run");
}

#[test]
fn huge_claims_and_huge_puzzles_are_rows_not_aborts() {
    let dir = tempfile::tempdir().unwrap();
    let huge = dir.path().join("huge-header.cnf");
    std::fs::write(&huge, "p cnf 2000000000 2\n1 2 0\n-1 0\n").unwrap();
    let out = dir.path().join("out");
    let o = bench(Mode::Cgroups)
        .arg("run")
        .arg(&huge)
        .args([
            "--solvers",
            "dpll,native,native-proc,dpll-proc",
            "--timeout",
            "20",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    let rows1 = rows(&out);
    assert_eq!(rows1.len(), 4);
    for r in &rows1 {
        assert_eq!(
            (r.status.as_str(), r.check.as_str()),
            ("SAT", "model-ok"),
            "{r:?}"
        );
    }
    // bench solve too, for each built-in solver.
    for s in ["native", "dpll"] {
        let o = bench(Mode::Cgroups)
            .args(["solve", "--solver", s])
            .arg(&huge)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(10), "{s}: {}", show(&o));
    }
    // A blank 200×200 Latin square (80 KB of legal input): refused with its size.
    let latin = dir.path().join("latin200.csv");
    let line = vec!["0"; 200].join(",");
    std::fs::write(&latin, vec![line; 200].join("\n") + "\n").unwrap();
    let out = dir.path().join("out-latin");
    let o = bench(Mode::Cgroups)
        .arg("run")
        .arg(&latin)
        .args([
            "--kind",
            "latin",
            "--solvers",
            "native,dpll",
            "--timeout",
            "5",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    let rows2 = rows(&out);
    assert_eq!(rows2.len(), 2);
    for r in &rows2 {
        assert_eq!(r.status.as_str(), "MEMOUT", "{r:?}");
        assert!(r.error.contains("2388120000 clauses"), "{r:?}");
    }
}

#[test]
fn every_false_claim_is_wrong_and_fails_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let both = script(
        dir.path(),
        "both.sh",
        "echo 's SATISFIABLE'\necho 'v 1 -1 2 0'\nexit 10",
    );
    let far = script(
        dir.path(),
        "far.sh",
        "echo 's SATISFIABLE'\necho 'v -1 2 2147483648 0'\nexit 10",
    );
    let beyond = script(
        dir.path(),
        "beyond.sh",
        "echo 's SATISFIABLE'\necho 'v -1 2 2000000000 0'\nexit 10",
    );
    let out = dir.path().join("out");
    let o = bench(Mode::Fallback)
        .arg("run")
        .arg(tiny(dir.path()))
        .args(["--solver", &solver_arg("both", &both)])
        .args(["--solver", &solver_arg("far", &far)])
        .args(["--solver", &solver_arg("beyond", &beyond)])
        .args(["--solvers", "both,far,beyond", "--timeout", "5", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", show(&o));
    for r in rows(&out) {
        assert!(r.wrong, "{r:?}");
        assert_eq!(
            (r.status.as_str(), r.check.as_str()),
            ("SAT", "model-wrong"),
            "{r:?}"
        );
    }
}

#[test]
fn the_csv_holds_clean_times_and_text() {
    if !crate::support::external::require_all(&["minisat"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let binary = script(
        dir.path(),
        "binary.sh",
        "printf 'garbage \\x1b[2J\\x00\\xff\\xfe\\x07 end\\n' >&2\nexit 1",
    );
    let out = dir.path().join("out");
    let o = bench(Mode::Fallback)
        .arg("run")
        .arg(tiny(dir.path()))
        .args(["--solver", &solver_arg("binary", &binary)])
        .args(["--solvers", "binary,minisat", "--timeout", "5", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    // minisat may be missing: only the row of the binary solver is needed.
    assert!(o.status.code().is_some(), "{}", show(&o));
    let text = std::fs::read(out.join("results.csv")).unwrap();
    assert!(
        !text.iter().any(|&b| b < 0x20 && b != b'\n'),
        "control bytes in the CSV"
    );
    let text = String::from_utf8(text).expect("the CSV is UTF-8");
    assert!(
        !text.contains('\u{fffd}'),
        "invalid UTF-8 was replaced, not escaped"
    );
    assert!(text.contains("\\xff\\xfe"), "{text}");
    for r in rows(&out) {
        for t in [Some(r.wall_s), r.cpu_s].into_iter().flatten() {
            assert_eq!((t * 1e6).round() / 1e6, t, "{t} is not to the microsecond");
        }
    }
    for line in text.lines().skip(1) {
        assert!(
            !line.contains("e-"),
            "a time in scientific notation: {line}"
        );
    }
}

#[test]
fn nothing_ran_is_a_failure() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.cnf");
    std::fs::write(&bad, "p cnf 2 1\n1 x 0\n").unwrap();
    let o = bench(Mode::Fallback)
        .arg("run")
        .arg(&bad)
        .args(["--solvers", "native", "--timeout", "5", "--out"])
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("nothing ran"));
}

#[test]
fn native_proc_out_of_memory_is_memout() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/25x25.txt");
    let line = std::fs::read_to_string(&corpus)
        .unwrap()
        .lines()
        .find(|l| !l.starts_with('#') && !l.trim().is_empty())
        .unwrap()
        .to_string();
    for mode in modes() {
        let dir = tempfile::tempdir().unwrap();
        let one = dir.path().join("one25.txt");
        std::fs::write(&one, format!("{line}\n")).unwrap();
        let out = dir.path().join("out");
        let o = bench(mode)
            .arg("run")
            .arg(&one)
            .args([
                "--solvers",
                "native-proc",
                "--timeout",
                "30",
                "--mem-limit",
                "25",
            ])
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{mode:?}: {}", show(&o));
        let r = &rows(&out)[0];
        // Aborting on a failed allocation (fallback) or ended by the OOM killer (group).
        assert_eq!(r.status.as_str(), "MEMOUT", "{mode:?}: {r:?}");
    }
}

/// The cgroup v2 way of ending a group (`cgroup.kill`) and reading its CPU time, on this
/// machine's unified hierarchy (mounted without the memory controller, so bench itself
/// uses v1 here): a setsid tree joined to a v2 group is gone after `kill_all`.
#[test]
fn a_v2_group_is_emptied_by_cgroup_kill() {
    use bench::solver::external::cgroup::{Group, Version};
    let unified = Path::new("/sys/fs/cgroup/unified");
    if !unified.join("cgroup.kill").exists() && !unified.join("cgroup.procs").exists() {
        eprintln!("skipped: no cgroup v2 here");
        return;
    }
    let dir = unified.join(format!("bench-{}-v2test", std::process::id()));
    if std::fs::create_dir(&dir).is_err() {
        eprintln!("skipped: cannot make a v2 group here");
        return;
    }
    let group = Group {
        version: Version::V2,
        dirs: vec![("unified".into(), dir.clone())],
    };
    let tag = format!("ct-v2-{}", std::process::id());
    let files = group.join_files();
    let mut command = Command::new("bash");
    command.arg("-c").arg(format!(
        "setsid bash -c 'exec -a {tag}-setsid sleep 300' & \
         ( ( exec -a {tag}-double sleep 300 ) & ) & \
         timeout 0.3 bash -c 'while :; do :; done'; exec -a {tag}-main sleep 300"
    ));
    // SAFETY: open/write/close between fork and exec, on paths built before the fork.
    unsafe {
        command.pre_exec(move || {
            for f in &files {
                let fd = libc::open(f.as_ptr(), libc::O_WRONLY);
                if fd < 0 || libc::write(fd, b"0".as_ptr().cast(), 1) != 1 {
                    return Err(std::io::Error::last_os_error());
                }
                libc::close(fd);
            }
            Ok(())
        });
    }
    let mut child = command.spawn().unwrap();
    wait_for("the v2 tree", Duration::from_secs(10), || {
        tagged(&tag).len() >= 3
    });
    assert!(group.members().len() >= 3, "{:?}", group.members());
    assert!(group.kill_all(&mut || {
        let _ = child.try_wait();
    }));
    let _ = child.wait();
    assert_eq!(survivors(&tag, Duration::from_secs(2)), 0);
    let cpu = group.stats().cpu_us.expect("cpu.stat");
    assert!(cpu > 10_000, "the group's CPU time: {cpu} µs");
    group.remove().unwrap();
    assert!(!dir.exists());
}

#[test]
fn native_whose_clauses_outgrow_the_budget_is_memout() {
    use bench::cnf_gen::pigeonhole;
    use bench::solver::cdcl::{CdclSolver, SolveLimits, SolveResult};
    // The solver stops itself once its learnt clauses pass the budget, and says why.
    let mut s = CdclSolver::new();
    s.add_cnf(&pigeonhole(9, 8));
    s.set_limits(SolveLimits {
        memory: Some(16 << 10),
        ..SolveLimits::default()
    });
    assert_eq!(s.solve(), SolveResult::Unknown);
    assert!(s.out_of_memory() && s.clause_bytes() > 16 << 10);
    // Through bench run: a MEMOUT row that names the budget, and the run goes on.
    let dir = tempfile::tempdir().unwrap();
    let php = dir.path().join("php-13-12.cnf");
    let mut text = String::new();
    let var = |i: u32, j: u32| i * 12 + j + 1;
    let mut clauses: Vec<String> = (0..13)
        .map(|i| {
            (0..12)
                .map(|j| format!("{} ", var(i, j)))
                .collect::<String>()
                + "0"
        })
        .collect();
    for j in 0..12 {
        for a in 0..13 {
            for b in a + 1..13 {
                clauses.push(format!("-{} -{} 0", var(a, j), var(b, j)));
            }
        }
    }
    text += &format!("p cnf 156 {}\n{}\n", clauses.len(), clauses.join("\n"));
    std::fs::write(&php, text).unwrap();
    let out = dir.path().join("out");
    let o = bench(Mode::Cgroups)
        .arg("run")
        .arg(&php)
        .args(["--solvers", "native", "--mem-limit", "4", "--timeout", "60"])
        // (4 MiB: the smallest --mem-limit; php 13/12 outgrows it within seconds)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    let rows = rows(&out);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].status.as_str(), "MEMOUT", "{:?}", rows[0]);
    assert!(
        rows[0].error.contains("outgrew its memory budget"),
        "{:?}",
        rows[0]
    );
}

#[test]
fn without_the_helper_solvers_run_direct_checked_and_stopped() {
    if !crate::support::external::require_all(&["minisat"]) {
        return;
    }
    // `BENCH_EXEC` naming nothing: no helper, so each solver is bench's own child in a
    // process group (what a bench whose `bench-exec` went missing does).
    let dir = tempfile::tempdir().unwrap();
    let tag = format!("ct-direct-{}", std::process::id());
    let hang = script(
        dir.path(),
        "hang.sh",
        &format!("trap '' TERM\nexec -a {tag}-main sleep 300"),
    );
    let liar = script(dir.path(), "liar.sh", "echo 's UNSATISFIABLE'\nexit 20");
    let out = dir.path().join("out");
    let start = Instant::now();
    let o = bench(Mode::Fallback)
        .env("BENCH_EXEC", dir.path().join("no-such-bench-exec"))
        .arg("run")
        .arg(tiny(dir.path()))
        .args(["--solver", &solver_arg("hang", &hang)])
        .args(["--solver", &solver_arg("liar", &liar)])
        .args(["--solvers", "minisat,hang,liar", "--timeout", "1", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    // The liar's UNSAT is refuted by the model the others found: WRONG, exit 1.
    assert_eq!(o.status.code(), Some(1), "{}", show(&o));
    assert!(start.elapsed() < Duration::from_secs(120));
    assert_eq!(survivors(&tag, Duration::from_secs(2)), 0);
    let rows = rows(&out);
    let of = |name: &str| {
        rows.iter()
            .find(|r| r.solver.as_str() == name)
            .unwrap_or_else(|| panic!("no {name} row: {rows:?}"))
    };
    let minisat = of("minisat");
    assert_eq!(
        (minisat.status.as_str(), minisat.check.as_str()),
        ("SAT", "model-ok"),
        "{minisat:?}"
    );
    assert!(
        minisat.cpu_s.is_some() && minisat.max_rss_kb.is_some(),
        "{minisat:?}"
    );
    let hang = of("hang");
    assert_eq!(hang.status.as_str(), "TIMEOUT", "{hang:?}");
    // The hang sleeps 300 s: far above this bound, which load does not reach.
    assert!(hang.wall_s < 60.0, "{hang:?}");
    assert!(of("liar").wrong, "{:?}", of("liar"));
    let meta = std::fs::read_to_string(out.join("run.json")).unwrap();
    assert!(
        meta.contains("\"containment\": \"process-group\""),
        "{meta}"
    );
}
