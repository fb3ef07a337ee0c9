//! Control groups reused from run to run (cgroup v1: one group per worker slot, emptied and
//! reset between runs), through the sandbox as bench's external runs use it: after a run
//! that left an escapee, held 60 MB and spun a second of CPU, the next run in the same
//! group is measured alone (its CPU time and peak memory are its own) and held to the
//! same limits (CPU, processes, memory); a run that counted a refused fork or an OOM kill
//! ends its group, and the next run gets a new one. Where groups are not reused (v2, or no
//! groups), the same runs are measured alone all the same. The solvers are shell scripts:
//! no real solver escapes, hogs or spins on demand. No assertion bounds a wall time.

use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;

use crate::support::contained::script;
use bench::solver::external::run::{self, Finished, Kind, Limit, Spec, Stop};

/// This test's limits, used by no other test, so that no other test takes its groups.
const MEM_MB: u64 = 233;
const PIDS: u64 = 37;

/// Runs `program` through the sandbox with this test's limits (and `cpu_limit`).
fn run_in_slot(program: &Path, cpu_limit: Option<Duration>) -> Finished {
    let args: Vec<OsString> = Vec::new();
    let mut spec = Spec::new(program, &args);
    spec.mem_limit_mb = Some(MEM_MB);
    spec.pids_limit = Some(PIDS);
    spec.timeout = Some(Duration::from_secs(600));
    spec.cpu_limit = cpu_limit;
    run::run(&spec).unwrap()
}

/// The run's control group as its solver saw it (the first stderr line that names a
/// `bench-` group in `/proc/self/cgroup`: the freezer's on v1, the unified one on v2).
fn group_of(done: &Finished) -> Option<String> {
    String::from_utf8_lossy(&done.stderr_tail)
        .lines()
        .find(|l| l.contains("/bench-") && (l.contains(":freezer:") || l.starts_with("0::")))
        .map(str::to_string)
}

/// Processes whose argv[0] starts with `tag-`.
fn tagged(tag: &str) -> Vec<i32> {
    let prefix = format!("{tag}-");
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let pid = e.file_name().to_string_lossy().parse::<i32>().ok()?;
            let cmdline = std::fs::read(e.path().join("cmdline")).ok()?;
            let argv0 = cmdline.split(|&b| b == 0).next()?.to_vec();
            argv0.starts_with(prefix.as_bytes()).then_some(pid)
        })
        .collect()
}

/// The first line every script writes: its groups, to stderr.
const SHOW_GROUP: &str = "cat /proc/self/cgroup >&2";

#[test]
fn a_run_after_an_escapee_and_a_hog_is_measured_and_limited_alone() {
    let dir = tempfile::tempdir().unwrap();
    let tag = format!("reuse{}", std::process::id());
    // Run 1: an escapee (setsid, SIGTERM ignored), 60 MB held, a second of CPU.
    let hog = script(
        dir.path(),
        "hog.sh",
        &format!(
            "{SHOW_GROUP}\n\
             setsid bash -c \"trap '' TERM; exec -a {tag}-escapee sleep 300\" &\n\
             x=$(head -c 60000000 /dev/zero | tr '\\0' x)\n\
             while read -ra s < /proc/$$/stat; (( s[13] + s[14] < 100 )); do :; done\n\
             echo ${{#x}}"
        ),
    );
    let quick = script(dir.path(), "quick.sh", SHOW_GROUP);
    let spin = script(
        dir.path(),
        "spin.sh",
        &format!("{SHOW_GROUP}\nwhile :; do :; done"),
    );
    let first = run_in_slot(&hog, None);
    let (cpu1, peak1) = (first.cpu.unwrap(), first.max_rss_kb.unwrap());
    assert!(cpu1 >= Duration::from_secs(1), "{first:?}");
    assert!(peak1 >= 60_000, "{first:?}");
    assert!(tagged(&tag).is_empty(), "the escapee outlived its run");

    // Run 2: its own CPU time and peak, not run 1's.
    let second = run_in_slot(&quick, None);
    assert_eq!(second.exit, run::Exit::Code(0), "{second:?}");
    assert!(
        second.cpu.unwrap() < Duration::from_millis(500),
        "{second:?}"
    );
    assert!(second.max_rss_kb.unwrap() < 30_000, "{second:?}");

    // Run 3: the CPU limit counts this run's CPU alone (run 1's second would end it at
    // once, charged at least that second).
    let third = run_in_slot(&spin, Some(Duration::from_millis(500)));
    assert_eq!(third.stopped, Some(Stop::CpuLimit), "{third:?}");
    let cpu3 = third.cpu.unwrap();
    assert!(
        cpu3 >= Duration::from_millis(500) && cpu3 < cpu1,
        "{third:?}"
    );

    let reused = third.containment == Kind::CgroupV1;
    if reused {
        let g = group_of(&first).expect("run 1's group");
        assert_eq!(
            group_of(&second).as_ref(),
            Some(&g),
            "run 2 reuses run 1's group"
        );
        assert_eq!(group_of(&third).as_ref(), Some(&g), "run 3 too");
    }

    // Run 4: the process limit holds in the reused group; a refused fork ends the group.
    let forks = script(
        dir.path(),
        "forks.sh",
        // dash, which gives up on a refused fork (bash retries it for 15 s).
        &format!(
            "{SHOW_GROUP}\nexec sh -c 'i=0; while [ $i -lt {} ]; do sleep 30 & i=$((i+1)); done'",
            PIDS * 2
        ),
    );
    let fourth = run_in_slot(&forks, None);
    if reused {
        assert!(fourth.limits_hit.forks_refused > 0, "{fourth:?}");
        assert_eq!(
            group_of(&fourth),
            group_of(&first),
            "run 4 reuses the group"
        );
    }

    // Run 5: a new group; run 6 reuses it and is held to the memory limit (its OOM kill
    // ends that group in turn); run 7 gets another new one.
    let fifth = run_in_slot(&quick, None);
    let big = script(
        dir.path(),
        "big.sh",
        &format!(
            "{SHOW_GROUP}\nx=$(head -c {} /dev/zero | tr '\\0' x)",
            (MEM_MB + 50) << 20
        ),
    );
    let sixth = run_in_slot(&big, None);
    let seventh = run_in_slot(&quick, None);
    assert!(seventh.max_rss_kb.unwrap() < 30_000, "{seventh:?}");
    if reused {
        assert_ne!(
            group_of(&fifth),
            group_of(&first),
            "run 4's group was ended"
        );
        assert_eq!(
            group_of(&sixth),
            group_of(&fifth),
            "run 6 reuses run 5's group"
        );
        assert_eq!(sixth.ended_by(), Some(Limit::Memory), "{sixth:?}");
        assert_ne!(
            group_of(&seventh),
            group_of(&sixth),
            "run 6's group was ended"
        );
    }
}
