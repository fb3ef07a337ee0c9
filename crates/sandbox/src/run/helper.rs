//! A run through the exec helper (see `exec_helper.rs`), in a control group when there can
//! be one: the helper's command line and pipes, stopping the run through the helper, and
//! the one line of measures the helper reports; and finding a helper that speaks this
//! build's protocol.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use super::slots::{self, SlotGroup};
use super::spawn::{CONTROL_FD, EXTRA_FD, REPORT_FD, spawn};
use super::watch::{Watch, wait_for};
use super::{Finished, Kind, LimitsHit, Spec, StdoutConsumer, is_executable, kill_group};
use crate::cgroup::{Group, Version};
use crate::group_files::GroupFiles;
use crate::reap::has_exited;

/// A run through the exec helper, in a control group when there can be one (a group of
/// the pool, see `slots`).
pub(super) fn run_contained<C: StdoutConsumer + 'static>(
    spec: &Spec,
    helper: &Path,
    consumer: C,
) -> io::Result<(Finished, Option<C>)> {
    let slot = slots::take(spec.mem_limit_mb, spec.pids_limit)?;
    let group = slot.as_ref().map(SlotGroup::group);
    let files = slot.as_ref().and_then(SlotGroup::files);
    let result = run_helper(spec, helper, group, files, consumer);
    if let Some(slot) = slot {
        // Clean: the helper reported (it emptied the group) and no counter that cannot be
        // reset moved.
        let clean = result.as_ref().is_ok_and(|(done, _)| {
            done.cpu.is_some()
                && done.limits_hit.oom_kills == 0
                && done.limits_hit.forks_refused == 0
        });
        slot.give_back(clean);
    }
    result
}

/// The helper's arguments: its pipes (as [`REPORT_FD`] and [`CONTROL_FD`]), the grace,
/// the group (and, for a reused group, its open files as [`EXTRA_FD`] on: the
/// `cgroup.procs` files, then `pids.current`) or the fallback's memory limit, the
/// CPU-time backstop, the temporary folder, then the program and its arguments.
fn helper_args(spec: &Spec, group: Option<&Group>, files: Option<&GroupFiles>) -> Vec<OsString> {
    let mut args: Vec<OsString> = Vec::with_capacity(16 + spec.args.len());
    let mut push = |a: &str| args.push(a.into());
    push(crate::exec_helper::HELPER_MODE);
    push("--report");
    push(&REPORT_FD.to_string());
    push("--control");
    push(&CONTROL_FD.to_string());
    push("--grace-ms");
    push(&spec.grace.as_millis().to_string());
    match group {
        Some(g) => {
            push("--cgroup");
            push(&g.to_arg());
            if let Some(f) = files {
                let n = f.join_fds().len() as i32;
                let joins: Vec<String> =
                    (EXTRA_FD..EXTRA_FD + n).map(|fd| fd.to_string()).collect();
                push("--keep-group");
                push("--join-fds");
                push(&joins.join(","));
                push("--tasks-fd");
                push(&(EXTRA_FD + n).to_string());
            }
        }
        None => {
            // The fallback's memory limit: per process, set by the helper in the solver
            // alone (the helper itself must never be the one that runs out).
            if let Some(mb) = spec.mem_limit_mb {
                push("--as-limit");
                push(&mb.saturating_mul(1 << 20).to_string());
            }
        }
    }
    // The CPU-time backstop, set by the helper in the solver and so inherited by all it
    // starts.
    if let Some(l) = spec.cpu_limit {
        push("--cpu-rlimit");
        push(&super::cpu::backstop(l, spec.grace).to_string());
    }
    if let Some(tmp) = spec.tmp_dir {
        args.push("--tmp".into());
        args.push(tmp.into());
    }
    args.push("--".into());
    args.push(spec.program.into());
    args.extend(spec.args.iter().cloned());
    args
}

fn run_helper<C: StdoutConsumer + 'static>(
    spec: &Spec,
    helper: &Path,
    group: Option<&Group>,
    files: Option<&GroupFiles>,
    consumer: C,
) -> io::Result<(Finished, Option<C>)> {
    // Both pipes are CLOEXEC here, so no other child inherits them; the helper gets its
    // ends as 3 and 4, a reused group's files from 5 on (see `spawn`).
    let (report_read, report_write) = pipe()?;
    let (control_read, control_write) = pipe()?;
    let args = helper_args(spec, group, files);
    let args: Vec<&OsStr> = args.iter().map(OsString::as_os_str).collect();
    let extra: Vec<RawFd> = files.map_or_else(Vec::new, |f| {
        let mut fds = f.join_fds();
        fds.push(f.tasks_fd());
        fds
    });
    let start = Instant::now();
    let spawned = spawn(
        helper,
        &args,
        spec.env,
        &report_write,
        &control_read,
        &extra,
    )?;
    // Only the helper may hold these ends: the report must reach EOF when it exits, and
    // the control pipe's read end must be the helper's alone.
    drop(report_write);
    drop(control_read);
    let mut control = File::from(control_write);
    let mut watch = Watch::start(spawned.pid, spawned.stdout, spawned.stderr, consumer);
    // The run's CPU time so far: its group's counter, else its tree's under the helper
    // (what the helper reaped, and every living descendant's).
    let helper_pid = watch.pid;
    let cpu_used = || match (files, group) {
        (Some(f), _) => f.cpu_us().map(Duration::from_micros),
        (None, Some(g)) => g.cpu_us().map(Duration::from_micros),
        (None, None) => super::cpu::tree(helper_pid, false),
    };
    let (mut stopped, exited_at) = wait_for(spec, start, &mut watch, &cpu_used);
    let exited_at = match stopped {
        Some(_) => stop_through(&mut control, &mut watch, group, spec.grace),
        None => exited_at,
    };
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
        Some(Report::Status(mut m)) => {
            if let Some(f) = files {
                // A reused group's measures bench reads itself (the helper emptied it).
                m.add_group(f.stats());
            }
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
/// Returns when the helper exited.
fn stop_through<C: StdoutConsumer>(
    control: &mut File,
    watch: &mut Watch<C>,
    group: Option<&Group>,
    grace: Duration,
) -> Option<Instant> {
    let _ = control.write_all(b"s");
    let patience = grace + Duration::from_secs(3);
    if let Some(at) = watch.pump(Instant::now() + patience) {
        return Some(at);
    }
    let _ = control.write_all(b"k");
    if let Some(at) = watch.pump(Instant::now() + Duration::from_secs(2)) {
        return Some(at);
    }
    kill_group(watch.pid, libc::SIGKILL);
    if let Some(g) = group {
        g.kill_all(&mut || {});
    }
    let _ = has_exited(watch.pid, true);
    None
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
    /// The group's measures, read by bench.
    fn add_group(&mut self, s: crate::cgroup::Stats) {
        self.group_cpu_us = s.cpu_us;
        self.group_peak_kb = s.peak_bytes.map(|b| b / 1024);
        self.oom_kills = s.oom_kills;
        self.mem_limit_hits = s.mem_limit_hits;
        self.forks_refused = s.forks_refused;
    }

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
pub const HELPER_PROTOCOL: &str = "bench-exec protocol 6";

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
pub(super) fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
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
