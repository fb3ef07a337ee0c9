//! A run through the exec helper (see `exec_helper.rs`), in a control group when there can
//! be one: the helper's command line and pipes, stopping the run through the helper, and
//! the one line of measures the helper reports; and finding a helper that speaks this
//! build's protocol.

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::watch::{Watch, wait_for};
use super::{
    Finished, Kind, LimitsHit, Spec, StdoutConsumer, containment, is_executable, kill_group,
};
use crate::cgroup::{Group, Version};

/// Numbers the groups of this process's runs.
static GROUP_SERIAL: AtomicU64 = AtomicU64::new(0);

/// A run through the exec helper, in a control group when there can be one.
pub(super) fn run_contained<C: StdoutConsumer + 'static>(
    spec: &Spec,
    helper: &Path,
    consumer: C,
) -> io::Result<(Finished, Option<C>)> {
    let group = new_group(spec.mem_limit_mb, spec.pids_limit)?;
    let result = run_helper(spec, helper, group.as_ref(), consumer);
    if let Some(g) = &group {
        // The helper has emptied and removed it; this is the net for a helper that died.
        if g.dirs.iter().any(|(_, d)| d.exists()) {
            g.kill_all(&mut || {});
            let _ = g.remove();
        }
    }
    result
}

/// A new run group (`bench-<pid>-<n>`) with its limits set, where this machine gives
/// groups; None where it does not. Also for programs bench starts without the helper
/// (which join it between fork and exec with [`crate::exec_helper::join_group`]).
pub fn new_group(mem_limit_mb: Option<u64>, pids_limit: Option<u64>) -> io::Result<Option<Group>> {
    let Some(parents) = &containment().parents else {
        return Ok(None);
    };
    let name = format!(
        "bench-{}-{}",
        std::process::id(),
        GROUP_SERIAL.fetch_add(1, Ordering::Relaxed)
    );
    let bytes = mem_limit_mb.map(|mb| mb.saturating_mul(1 << 20));
    Group::create(parents, &name, bytes, pids_limit)
        .map(Some)
        .map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("cannot make the run's control group: {e}"),
            )
        })
}

/// The helper's command line: its pipes, the grace, the group or the fallback's memory
/// limit, the temporary folder, then the program. `fds` (the report pipe's write end,
/// the control pipe's read end) are made inheritable in the helper alone.
fn helper_command(spec: &Spec, helper: &Path, group: Option<&Group>, fds: [RawFd; 2]) -> Command {
    let mut command = Command::new(helper);
    command
        .arg(crate::exec_helper::HELPER_MODE)
        .arg("--report")
        .arg(fds[0].to_string())
        .arg("--control")
        .arg(fds[1].to_string())
        .arg("--grace-ms")
        .arg(spec.grace.as_millis().to_string());
    match group {
        Some(g) => {
            command.arg("--cgroup").arg(g.to_arg());
        }
        None => {
            // The fallback's memory limit: per process, set by the helper in the solver
            // alone (the helper itself must never be the one that runs out).
            if let Some(mb) = spec.mem_limit_mb {
                command
                    .arg("--as-limit")
                    .arg(mb.saturating_mul(1 << 20).to_string());
            }
        }
    }
    if let Some(tmp) = spec.tmp_dir {
        command.arg("--tmp").arg(tmp);
    }
    command.arg("--").arg(spec.program).args(spec.args);
    // The helper passes its environment on to the program.
    command.envs(spec.env.iter().map(|(k, v)| (k, v)));
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    // The CPU-time backstop is set on the helper and inherited by the solver and all it
    // starts (the helper's own CPU time, a few milliseconds, is far below it).
    let cpu_rlimit = spec.cpu_limit.map(|l| super::cpu::backstop(l, spec.grace));
    // SAFETY: the closure runs between fork and exec and calls only fcntl and setrlimit,
    // which are async-signal-safe; it allocates nothing and touches no lock.
    unsafe {
        command.pre_exec(move || {
            for fd in fds {
                if libc::fcntl(fd, libc::F_SETFD, 0) != 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            crate::reap::limit_cpu(cpu_rlimit)
        });
    }
    command
}

fn run_helper<C: StdoutConsumer + 'static>(
    spec: &Spec,
    helper: &Path,
    group: Option<&Group>,
    consumer: C,
) -> io::Result<(Finished, Option<C>)> {
    // Both pipes are CLOEXEC here, so no other child inherits them; the helper's ends
    // are made inheritable in its child alone, between fork and exec.
    let (report_read, report_write) = pipe()?;
    let (control_read, control_write) = pipe()?;
    let fds = [report_write.as_raw_fd(), control_read.as_raw_fd()];
    let mut command = helper_command(spec, helper, group, fds);
    let start = Instant::now();
    let spawned = command.spawn();
    // Only the helper may hold these ends: the report must reach EOF when it exits, and
    // the control pipe's read end must be the helper's alone.
    drop(report_write);
    drop(control_read);
    // If the run cannot be watched, the helper is told (its control pipe closes) before
    // it is killed.
    let mut control = Some(File::from(control_write));
    let watch = Watch::start(spawned?, consumer, || drop(control.take()))?;
    let Some(mut control) = control else {
        unreachable!("the control pipe is closed only when watching fails");
    };
    // The run's CPU time so far: its group's counter, else its tree's under the helper
    // (what the helper reaped, and every living descendant's).
    let helper_pid = watch.pid;
    let cpu_used = || match group {
        Some(g) => g.cpu_us().map(Duration::from_micros),
        None => super::cpu::tree(helper_pid, false),
    };
    let (mut stopped, exited_at) = wait_for(spec, start, &watch.exit_rx, &cpu_used);
    if stopped.is_some() {
        stop_through(&mut control, &watch.exit_rx, watch.pid, group, spec.grace);
    }
    let wall = exited_at.unwrap_or_else(Instant::now) - start;
    let (helper_status, _, output, consumer) = watch.end(spec.grace)?;
    drop(control);

    let mut text = String::new();
    let _ = File::from(report_read).read_to_string(&mut text);
    let kind = match group {
        Some(g) if g.version == Version::V2 => Kind::CgroupV2,
        Some(_) => Kind::CgroupV1,
        None => Kind::Subreaper,
    };
    let (status, wall, measured) = match parse_report(&text) {
        Some(Report::Status(m)) => {
            // The program's own wall time, without the helper's start and the group
            // join, unless it was stopped (then the wall is this side's clock).
            let wall = match (m.wall_us, stopped) {
                (Some(us), None) => Duration::from_micros(us),
                _ => wall,
            };
            let hit = LimitsHit {
                grouped: group.is_some(),
                oom_kills: m.oom_kills,
                mem_limit_hits: m.mem_limit_hits,
                forks_refused: m.forks_refused,
            };
            let cpu = Some(Duration::from_micros(m.run_cpu_us()));
            stopped = stopped.or_else(|| super::cpu::backstop_hit(spec, m.status, cpu));
            (m.status, wall, (cpu, Some(m.run_peak_kb()), hit))
        }
        Some(Report::Error(errno)) => return Err(io::Error::from_raw_os_error(errno)),
        // The helper died before it could report: the exit status is the helper's, the
        // run's costs are unknown.
        None => (helper_status, wall, (None, None, LimitsHit::default())),
    };
    let done = Finished::new(status, stopped, output, wall, measured, kind);
    Ok((done, consumer))
}

/// Stops a run through its helper: `s` (SIGTERM to all of it, SIGKILL after the grace),
/// then `k`, then, for a helper that does not end, the helper killed with its run.
fn stop_through(
    control: &mut File,
    exit_rx: &mpsc::Receiver<io::Result<()>>,
    pid: libc::pid_t,
    group: Option<&Group>,
    grace: Duration,
) {
    let _ = control.write_all(b"s");
    let patience = grace + Duration::from_secs(3);
    if exit_rx.recv_timeout(patience).is_err() {
        let _ = control.write_all(b"k");
        if exit_rx.recv_timeout(Duration::from_secs(2)).is_err() {
            kill_group(pid, libc::SIGKILL);
            if let Some(g) = group {
                g.kill_all(&mut || {});
            }
            let _ = exit_rx.recv();
        }
    }
}

/// The measures in the helper's report.
#[derive(Debug, Default, PartialEq, Eq)]
struct Measures {
    /// The solver's wait status.
    status: libc::c_int,
    /// The solver's own CPU time (and that of the children it reaped), µs.
    cpu_us: u64,
    /// The solver's own peak RSS, KiB.
    rss_kb: u64,
    /// The solver's wall time from its exec to its exit, µs (as the helper saw it).
    wall_us: Option<u64>,
    /// The group's CPU time, µs.
    group_cpu_us: Option<u64>,
    /// The group's peak memory, KiB.
    group_peak_kb: Option<u64>,
    /// Without a group: CPU time of every reaped descendant, µs.
    tree_cpu_us: Option<u64>,
    /// Without a group: the largest peak RSS of any reaped descendant, KiB.
    tree_rss_kb: Option<u64>,
    oom_kills: u64,
    mem_limit_hits: u64,
    forks_refused: u64,
}

impl Measures {
    /// The run's CPU time: the group's, else every reaped descendant's, else the solver's.
    fn run_cpu_us(&self) -> u64 {
        self.group_cpu_us
            .or(self.tree_cpu_us)
            .unwrap_or(self.cpu_us)
            .max(self.cpu_us)
    }

    /// The run's peak memory: the larger of the solver's own peak RSS and the group's
    /// peak (the memory charged to all its processes together: a group is not charged
    /// for shared pages others brought in, so a lone solver's RSS can exceed it), else
    /// the largest process's peak RSS.
    fn run_peak_kb(&self) -> u64 {
        self.group_peak_kb
            .or(self.tree_rss_kb)
            .unwrap_or(0)
            .max(self.rss_kb)
    }
}

/// What the helper reported.
#[derive(Debug, PartialEq, Eq)]
enum Report {
    /// The solver's wait status and the run's measures.
    Status(Measures),
    /// The solver could not be started (errno).
    Error(i32),
}

fn parse_report(text: &str) -> Option<Report> {
    let mut words = text.split_whitespace();
    match words.next()? {
        "status" => {
            let mut m = Measures {
                status: words.next()?.parse().ok()?,
                ..Measures::default()
            };
            let mut seen_cpu = false;
            for w in words {
                let (k, v) = w.split_once('=')?;
                let n = if v == "-" {
                    None
                } else {
                    Some(v.parse::<u64>().ok()?)
                };
                match k {
                    "cpu_us" => {
                        m.cpu_us = n?;
                        seen_cpu = true;
                    }
                    "rss_kb" => m.rss_kb = n?,
                    "wall_us" => m.wall_us = n,
                    "group_cpu_us" => m.group_cpu_us = n,
                    "group_peak_kb" => m.group_peak_kb = n,
                    "tree_cpu_us" => m.tree_cpu_us = n,
                    "tree_rss_kb" => m.tree_rss_kb = n,
                    "oom_kills" => m.oom_kills = n.unwrap_or(0),
                    "mem_limit_hits" => m.mem_limit_hits = n.unwrap_or(0),
                    "forks_refused" => m.forks_refused = n.unwrap_or(0),
                    _ => {}
                }
            }
            seen_cpu.then_some(Report::Status(m))
        }
        "error" => Some(Report::Error(words.next()?.parse().ok()?)),
        _ => None,
    }
}

/// The environment variable that names the helper binary explicitly (a bench binary,
/// started as `$BENCH_EXEC bench-exec …`); naming nothing executable turns the helper off.
pub const HELPER_ENV: &str = "BENCH_EXEC";

/// What `bench bench-exec --protocol` prints. Only a helper that answers with this line is
/// used: a bench binary from another build may speak another protocol, and is passed over
/// (with a warning).
pub const HELPER_PROTOCOL: &str = "bench-exec protocol 2";

/// The small helper binary's name: `sandbox-exec` (`src/bin/sandbox-exec.rs`, the exec
/// helper and nothing else), built beside bench's own binary.
pub const HELPER_BINARY: &str = "sandbox-exec";

/// The helper (see `exec_helper.rs`): `$BENCH_EXEC` when set; else [`HELPER_BINARY`]
/// beside the running executable, or one directory up (cargo puts test executables in
/// `deps/`), when it speaks this build's protocol; else the running executable when it
/// serves as its own helper (bench's `main`); else the `bench` binary beside it or one
/// directory up. The small binary costs a run far less CPU to start than bench's own.
pub fn helper() -> Option<&'static Path> {
    static HELPER: OnceLock<Option<PathBuf>> = OnceLock::new();
    HELPER
        .get_or_init(|| {
            if let Some(p) = std::env::var_os(HELPER_ENV).filter(|p| !p.is_empty()) {
                let p = PathBuf::from(p);
                return (is_executable(&p) && speaks_protocol(&p, true)).then_some(p);
            }
            let exe = std::env::current_exe().ok()?;
            let dir = exe.parent()?;
            let up = dir.parent();
            let small = [Some(dir), up]
                .into_iter()
                .flatten()
                .map(|d| d.join(HELPER_BINARY))
                .find(|p| is_executable(p));
            if let Some(p) = small.filter(|p| speaks_protocol(p, false)) {
                return Some(p);
            }
            if crate::exec_helper::self_is_helper() {
                return Some(exe);
            }
            let found = [Some(dir), up]
                .into_iter()
                .flatten()
                .map(|d| d.join("bench"))
                .find(|p| is_executable(p))?;
            speaks_protocol(&found, true).then_some(found)
        })
        .as_deref()
}

/// True if `binary bench-exec --protocol` answers [`HELPER_PROTOCOL`]; warns if not and
/// `warn`.
fn speaks_protocol(binary: &Path, warn: bool) -> bool {
    let answer = Command::new(binary)
        .args([crate::exec_helper::HELPER_MODE, "--protocol"])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output();
    let ok = answer
        .as_ref()
        .is_ok_and(|a| String::from_utf8_lossy(&a.stdout).trim() == HELPER_PROTOCOL);
    if !ok && warn {
        eprintln!(
            "bench: {} does not serve as this bench's exec helper (another build?); \
             running solvers without it",
            binary.display()
        );
    }
    ok
}

/// A pipe whose both ends are close-on-exec.
fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: pipe2 writes two descriptors into the array.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both descriptors were just created and are owned by nobody else.
    unsafe {
        use std::os::fd::FromRawFd;
        Ok((OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helper_reports() {
        let grouped = "status 2560 cpu_us=1750000 rss_kb=4096 group_cpu_us=2000000 \
                       group_peak_kb=9000 oom_kills=1 mem_limit_hits=3 forks_refused=0\n";
        let Some(Report::Status(m)) = parse_report(grouped) else {
            panic!("not read")
        };
        assert_eq!(m.status, 2560);
        assert_eq!(m.run_cpu_us(), 2_000_000);
        assert_eq!(m.run_peak_kb(), 9000);
        assert_eq!(m.oom_kills, 1);
        let tree = "status 0 cpu_us=10 rss_kb=4096 wall_us=77 tree_cpu_us=30 tree_rss_kb=5000\n";
        let Some(Report::Status(m)) = parse_report(tree) else {
            panic!("not read")
        };
        assert_eq!((m.run_cpu_us(), m.run_peak_kb()), (30, 5000));
        assert_eq!(m.wall_us, Some(77));
        let unknown = "status 0 cpu_us=10 rss_kb=1 group_cpu_us=- group_peak_kb=-\n";
        assert!(parse_report(unknown).is_some());
        assert_eq!(parse_report("error 2\n"), Some(Report::Error(2)));
        assert_eq!(parse_report(""), None);
        assert_eq!(parse_report("status 1 cpu_us"), None);
    }
}
