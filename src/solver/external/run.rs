//! Running one child process under bench's limits, and measuring it.
//!
//! The usual way is through the exec helper (bench itself in helper mode, or the binary
//! at `$BENCH_EXEC`), which contains the run (see its file): bench makes the run's
//! control group when the machine allows it ([`containment`], detected once; see
//! `cgroup.rs`), and starts the helper with a report pipe (the helper's one line of
//! measures) and a control pipe (bench writes `s` to stop the run; its end of file, when
//! bench dies however it dies, makes the helper kill the run and remove its temporary
//! folder and group). The helper is a fresh ~1 MiB process, so the solver's peak RSS is
//! not bench's resident memory carried over by fork (measured before the helper existed:
//! 308,240 KiB for a 3 MiB minisat run). With a group, the memory limit is the group's
//! (all its processes together) and CPU time and peak memory are the group's; without
//! one (the fallback), the limit is an address-space limit (RLIMIT_AS) per process, CPU
//! time is the sum over every descendant the helper reaped, and peak RSS that of the
//! largest process.
//!
//! The child's stdout and stderr are drained on their own threads, so a chatty child
//! never blocks on a full pipe; stdout is kept up to a cap ([`STDOUT_CAP`]) and the rest
//! is read and thrown away, stderr keeps only its tail. On a timeout or an interrupt bench
//! tells the helper to stop the run (SIGTERM to all of it, SIGKILL after the grace); if
//! the helper itself does not end, bench kills it and empties the group itself.
//!
//! Without the helper (`use_helper` off: version probes) the child is the program itself,
//! in its own process group, which gets SIGTERM, then SIGKILL after the grace, and a final
//! SIGKILL after every run; its `rusage` comes from `wait4`.

use std::ffi::OsString;
use std::io::{self, Read};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use super::cgroup::{self, Group, Parents};
use super::reap::{cpu_time, has_exited, limit_child, reap};
use crate::solver::output::{
    AnswerStream, Claim, ModelBounds, OutputError, OutputFormat, answer_stream,
};

/// The most of a child's stdout that bench keeps: 64 MiB. A model is about 8 bytes a
/// variable, so this holds the model of a formula with ~8 million variables (a 64×64
/// sudoku has 262,144 grid variables). Anything beyond the cap is read and discarded, so
/// a runaway child costs bench at most this much memory per run; a run whose stdout
/// overflowed is reported as an ERROR, since its answer may have been cut.
pub const STDOUT_CAP: usize = 64 << 20;

/// How much of the end of a child's stderr bench keeps (for error messages).
pub const STDERR_TAIL: usize = 16 << 10;

/// The default time between SIGTERM and SIGKILL.
pub const DEFAULT_GRACE: Duration = Duration::from_secs(1);

/// The default process limit of a run: far above what a solver's threads need, far below
/// what a fork bomb would take from the machine.
pub const DEFAULT_PIDS_LIMIT: u64 = 1024;

/// How often the wait loop looks at the interrupt flag.
const POLL: Duration = Duration::from_millis(20);

/// What to run and under which limits.
#[derive(Clone, Debug)]
pub struct Spec<'a> {
    /// The executable.
    pub program: &'a Path,
    /// Its arguments.
    pub args: &'a [OsString],
    /// Wall-clock limit.
    pub timeout: Option<Duration>,
    /// Time between SIGTERM and SIGKILL when the run is stopped.
    pub grace: Duration,
    /// RLIMIT_AS for the child, in MiB.
    pub mem_limit_mb: Option<u64>,
    /// Stops the run when it becomes true (Ctrl-C).
    pub interrupt: Option<&'a AtomicBool>,
    /// How much stdout to keep.
    pub stdout_cap: usize,
    /// Run through the exec helper when it is found (containment, exact peak RSS).
    pub use_helper: bool,
    /// The run's temporary folder: the helper removes it if bench dies during the run.
    pub tmp_dir: Option<&'a Path>,
    /// The most processes (and threads) the run may have at once, where a control group
    /// can enforce it.
    pub pids_limit: Option<u64>,
    /// Read stdout in this format while it arrives, the model straight into an assignment
    /// within these bounds (see [`AnswerStream`]): no model is too big to keep, and
    /// `stdout_cap` then caps only the other lines.
    pub model: Option<(OutputFormat, ModelBounds)>,
}

impl<'a> Spec<'a> {
    /// A spec with no limits, the default grace and the default stdout cap.
    pub fn new(program: &'a Path, args: &'a [OsString]) -> Spec<'a> {
        Spec {
            program,
            args,
            timeout: None,
            grace: DEFAULT_GRACE,
            mem_limit_mb: None,
            interrupt: None,
            stdout_cap: STDOUT_CAP,
            use_helper: true,
            tmp_dir: None,
            pids_limit: Some(DEFAULT_PIDS_LIMIT),
            model: None,
        }
    }
}

/// How the child ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// It exited with this code.
    Code(i32),
    /// It was killed by this signal.
    Signal(i32),
}

/// Why bench stopped the child.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The wall-clock limit passed.
    Timeout,
    /// The interrupt flag was set.
    Interrupt,
}

/// A finished run: how it ended, what it printed, what it cost.
#[derive(Clone, Debug)]
pub struct Finished {
    /// Exit code or signal.
    pub exit: Exit,
    /// Set when bench stopped the child (its exit is then bench's doing).
    pub stopped: Option<Stop>,
    /// The first `stdout_cap` bytes of stdout.
    pub stdout: Vec<u8>,
    /// Total bytes the child wrote to stdout (more than `stdout.len()` if it overflowed).
    pub stdout_len: u64,
    /// False if stdout could not be read to its end (a process outside the group kept
    /// the pipe open): the output may be incomplete.
    pub stdout_complete: bool,
    /// The last [`STDERR_TAIL`] bytes of stderr.
    pub stderr_tail: Vec<u8>,
    /// Wall-clock time from spawn to exit.
    pub wall: Duration,
    /// User + system CPU time of the child and the descendants it reaped (None when the
    /// helper was killed before it could report).
    pub cpu: Option<Duration>,
    /// Peak memory in KiB: the group's peak with a control group, else the largest
    /// `ru_maxrss` of the run's processes; None like `cpu`.
    pub max_rss_kb: Option<u64>,
    /// Which limits the run ran into (what its control group counted).
    pub limits_hit: LimitsHit,
    /// The answer read from stdout as it arrived, when [`Spec::model`] asked for it (then
    /// `stdout` holds the other lines, without the `v` lines).
    pub streamed: Option<Result<Claim, OutputError>>,
}

impl Finished {
    /// A run that ended with wait status `status`, having printed `output`.
    fn new(
        status: libc::c_int,
        stopped: Option<Stop>,
        output: Drained,
        wall: Duration,
        cpu: Option<Duration>,
        max_rss_kb: Option<u64>,
        limits_hit: LimitsHit,
    ) -> Finished {
        let (stdout, stdout_len, stdout_complete, stderr_tail, streamed) = output;
        let exit = if libc::WIFSIGNALED(status) {
            Exit::Signal(libc::WTERMSIG(status))
        } else {
            Exit::Code(libc::WEXITSTATUS(status))
        };
        Finished {
            exit,
            stopped,
            stdout,
            stdout_len,
            stdout_complete,
            stderr_tail,
            wall,
            cpu,
            max_rss_kb,
            limits_hit,
            streamed,
        }
    }
}

/// What a run's control group counted of its limits (all zero without a group).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LimitsHit {
    /// The run had a control group (so the counters below mean something).
    pub grouped: bool,
    /// Processes the OOM killer ended because the group reached its memory limit.
    pub oom_kills: u64,
    /// Times the group reached its memory limit.
    pub mem_limit_hits: u64,
    /// Forks the process limit refused.
    pub forks_refused: u64,
}

impl Finished {
    /// True if stdout was longer than the cap (the kept part is a prefix).
    pub fn stdout_overflowed(&self) -> bool {
        self.stdout_len > self.stdout.len() as u64
    }
}

/// How runs are contained on this machine: detected once per process.
#[derive(Clone, Debug)]
pub struct Containment {
    /// Where run groups are made, if they can be.
    pub parents: Option<Parents>,
    /// Why no group can be made (the fallback's reason).
    pub fallback_reason: Option<String>,
}

impl Containment {
    /// One line for `bench run`'s start and run.json's `containment_detail`: the
    /// [`kind`](Self::kind), then what it means here.
    pub fn describe(&self) -> String {
        let detail = match (&self.parents, helper()) {
            (_, None) => "no usable exec helper ($BENCH_EXEC names none that speaks this \
                          bench's protocol): each solver runs in a process group of its \
                          own, with an address-space limit per process"
                .to_string(),
            (Some(p), Some(_)) => format!(
                "{}: one group per run, memory limit and measures over all its processes, \
                 at most {DEFAULT_PIDS_LIMIT} processes",
                p.describe()
            ),
            (None, Some(_)) => format!(
                "no cgroups ({}): process group and child subreaper, address-space limit \
                 per process, CPU time summed over reaped descendants",
                self.fallback_reason.as_deref().unwrap_or("unavailable")
            ),
        };
        format!("{}: {detail}", self.kind())
    }

    /// The state's one name, on stderr and in run.json alike: `cgroup-v2`, `cgroup-v1`,
    /// `subreaper` or `process-group`.
    pub fn kind(&self) -> &'static str {
        match (&self.parents, helper()) {
            (_, None) => "process-group",
            (Some(p), _) if p.version == cgroup::Version::V2 => "cgroup-v2",
            (Some(_), _) => "cgroup-v1",
            (None, _) => "subreaper",
        }
    }
}

/// The containment runs get here (cgroups are looked for once; `BENCH_NO_CGROUPS=1`
/// turns them off).
pub fn containment() -> &'static Containment {
    static CONTAINMENT: OnceLock<Containment> = OnceLock::new();
    CONTAINMENT.get_or_init(|| match cgroup::detect() {
        Ok(p) => Containment {
            parents: Some(p),
            fallback_reason: None,
        },
        Err(e) => Containment {
            parents: None,
            fallback_reason: Some(e),
        },
    })
}

/// The prefix of every temporary folder bench makes: `bench-run-<pid>-`, so that a later
/// bench can tell the folders of a killed one ([`remove_stale`]).
pub fn temp_prefix() -> String {
    format!("bench-run-{}-", std::process::id())
}

/// A new temporary folder named with [`temp_prefix`].
pub fn temp_dir() -> io::Result<tempfile::TempDir> {
    tempfile::Builder::new().prefix(&temp_prefix()).tempdir()
}

/// Removes the temporary folders (`bench-run-<pid>-*`) and control groups
/// (`bench-<pid>-*`) of bench processes that no longer exist; returns how many of each.
pub fn remove_stale() -> (usize, usize) {
    let mut dirs = 0;
    if let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if cgroup::owner_pid(&name, "bench-run-").is_some_and(|p| !cgroup::alive(p))
                && e.file_type().is_ok_and(|t| t.is_dir())
                && std::fs::remove_dir_all(e.path()).is_ok()
            {
                dirs += 1;
            }
        }
    }
    let groups = containment()
        .parents
        .as_ref()
        .map_or(0, cgroup::remove_stale);
    (dirs, groups)
}

/// Runs `spec` to the end (or until stopped) and measures it. Errors only when the child
/// cannot be started; everything the child does is in [`Finished`].
pub fn run(spec: &Spec) -> io::Result<Finished> {
    match helper().filter(|_| spec.use_helper) {
        Some(h) => run_contained(spec, h),
        None => run_direct(spec),
    }
}

/// What was read of a run's output: (stdout, its full length, complete, stderr tail, the
/// answer read as it arrived).
type Drained = (
    Vec<u8>,
    u64,
    bool,
    Vec<u8>,
    Option<Result<Claim, OutputError>>,
);

/// What the stdout thread read: the kept text, the full length, the streamed answer.
type StdoutRead = (Vec<u8>, u64, Option<Result<Claim, OutputError>>);

/// The pipes and threads that drain a child's stdout and stderr.
struct Drains {
    out: mpsc::Receiver<StdoutRead>,
    err: mpsc::Receiver<Vec<u8>>,
}

impl Drains {
    fn start(
        child: &mut std::process::Child,
        cap: usize,
        model: Option<(OutputFormat, ModelBounds)>,
    ) -> io::Result<Drains> {
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| io::Error::other("no stdout pipe"))?;
        let stderr = child
            .stderr
            .take()
            .ok_or_else(|| io::Error::other("no stderr pipe"))?;
        let (out_tx, out) = mpsc::channel();
        thread::Builder::new()
            .name("child-stdout".into())
            .spawn(move || {
                let read = match model {
                    Some((format, bounds)) => {
                        read_streamed(stdout, answer_stream(format, bounds, cap))
                    }
                    None => {
                        let (kept, total) = read_capped(stdout, cap);
                        (kept, total, None)
                    }
                };
                let _ = out_tx.send(read);
            })?;
        let (err_tx, err) = mpsc::channel();
        thread::Builder::new()
            .name("child-stderr".into())
            .spawn(move || {
                let _ = err_tx.send(read_tail(stderr, STDERR_TAIL));
            })?;
        Ok(Drains { out, err })
    }

    /// What was read: (stdout, its full length, complete, stderr tail). The pipes reach
    /// EOF once every process holding them is dead; do not wait past `drain` for one that
    /// escaped.
    fn finish(self, drain: Duration) -> Drained {
        let (stdout, stdout_len, out_ok, streamed) = match self.out.recv_timeout(drain) {
            Ok((buf, len, streamed)) => (buf, len, true, streamed),
            Err(_) => (Vec::new(), 0, false, None),
        };
        let stderr_tail = self.err.recv_timeout(drain).unwrap_or_default();
        (stdout, stdout_len, out_ok, stderr_tail, streamed)
    }
}

/// Waits for the child's exit (reported on `exit_rx`), the deadline or the interrupt,
/// whichever comes first; returns why bench stopped it (None: it exited by itself) and
/// when it exited.
fn wait_for(
    spec: &Spec,
    start: Instant,
    exit_rx: &mpsc::Receiver<io::Result<()>>,
) -> (Option<Stop>, Option<Instant>) {
    let deadline = spec.timeout.map(|t| start + t);
    loop {
        let now = Instant::now();
        if deadline.is_some_and(|d| now >= d) {
            return (Some(Stop::Timeout), None);
        }
        if spec
            .interrupt
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
        {
            return (Some(Stop::Interrupt), None);
        }
        let slice = match (deadline, spec.interrupt) {
            (Some(d), Some(_)) => (d - now).min(POLL),
            (Some(d), None) => d - now,
            (None, Some(_)) => POLL,
            (None, None) => Duration::from_secs(3600),
        };
        match exit_rx.recv_timeout(slice) {
            Ok(_) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                return (None, Some(Instant::now()));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
    }
}

/// A spawned run being watched: its process group leader, the threads draining its
/// stdout and stderr, and the thread that reports (without reaping) the leader's exit.
/// Both ways of running a solver, through the exec helper or directly, go through it: start
/// watching, wait, then [`Watch::end`] kills what is left of the group and reaps.
struct Watch {
    /// The leader (the child bench spawned), also the process group id.
    pid: libc::pid_t,
    /// The output being read.
    drains: Drains,
    /// Receives once the leader has exited (it stays a zombie until reaped).
    exit_rx: mpsc::Receiver<io::Result<()>>,
}

impl Watch {
    /// Starts watching `child`, which std never waits on: the exit watcher and
    /// [`Watch::end`] own its exit. If the threads cannot start, the run cannot be
    /// watched: `before_kill` runs, then the group is killed and the leader reaped.
    fn start(
        mut child: std::process::Child,
        spec: &Spec,
        before_kill: impl FnOnce(),
    ) -> io::Result<Watch> {
        let pid = child.id() as libc::pid_t;
        let started = Drains::start(&mut child, spec.stdout_cap, spec.model).and_then(|drains| {
            let (exit_tx, exit_rx) = mpsc::channel();
            thread::Builder::new()
                .name("child-exit".into())
                .spawn(move || {
                    let _ = exit_tx.send(has_exited(pid, true).map(drop));
                })?;
            Ok((drains, exit_rx))
        });
        drop(child);
        match started {
            Ok((drains, exit_rx)) => Ok(Watch {
                pid,
                drains,
                exit_rx,
            }),
            Err(e) => {
                before_kill();
                kill_group(pid, libc::SIGKILL);
                let _ = reap(pid);
                Err(e)
            }
        }
    }

    /// After the leader's exit (or its stop): kills whatever is left of its group, reaps
    /// it, and takes what was read of its output (waiting at most `grace`, at least 1 s,
    /// for pipes a fugitive still holds). Returns the wait status, the leader's resource
    /// usage and the output.
    fn end(self, grace: Duration) -> io::Result<(libc::c_int, libc::rusage, Drained)> {
        // The leader is a zombie (not yet reaped), so the group id cannot have been reused.
        kill_group(self.pid, libc::SIGKILL);
        let (status, usage) = reap(self.pid)?;
        let output = self.drains.finish(grace.max(Duration::from_secs(1)));
        Ok((status, usage, output))
    }
}

/// Numbers the groups of this process's runs.
static GROUP_SERIAL: AtomicU64 = AtomicU64::new(0);

/// A run through the exec helper, in a control group when there can be one.
fn run_contained(spec: &Spec, helper: &Path) -> io::Result<Finished> {
    let group = match &containment().parents {
        Some(parents) => {
            let name = format!(
                "bench-{}-{}",
                std::process::id(),
                GROUP_SERIAL.fetch_add(1, Ordering::Relaxed)
            );
            let bytes = spec.mem_limit_mb.map(|mb| mb.saturating_mul(1 << 20));
            Some(
                Group::create(parents, &name, bytes, spec.pids_limit).map_err(|e| {
                    io::Error::new(
                        e.kind(),
                        format!("cannot make the run's control group: {e}"),
                    )
                })?,
            )
        }
        None => None,
    };
    let result = run_helper(spec, helper, group.as_ref());
    if let Some(g) = &group {
        // The helper has emptied and removed it; this is the net for a helper that died.
        if g.dirs.iter().any(|(_, d)| d.exists()) {
            g.kill_all(&mut || {});
            let _ = g.remove();
        }
    }
    result
}

fn run_helper(spec: &Spec, helper: &Path, group: Option<&Group>) -> io::Result<Finished> {
    // Both pipes are CLOEXEC in bench, so no other child inherits them; the helper's ends
    // are made inheritable in its child alone, between fork and exec.
    let (report_read, report_write) = pipe()?;
    let (control_read, control_write) = pipe()?;
    let mut command = Command::new(helper);
    command
        .arg(super::exec_helper::HELPER_MODE)
        .arg("--report")
        .arg(report_write.as_raw_fd().to_string())
        .arg("--control")
        .arg(control_read.as_raw_fd().to_string())
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
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let fds = [report_write.as_raw_fd(), control_read.as_raw_fd()];
    // SAFETY: the closure runs between fork and exec and calls only fcntl, which is
    // async-signal-safe; it allocates nothing and touches no lock.
    unsafe {
        command.pre_exec(move || {
            for fd in fds {
                if libc::fcntl(fd, libc::F_SETFD, 0) != 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    let start = Instant::now();
    let spawned = command.spawn();
    // Only the helper may hold these ends: the report must reach EOF when it exits, and
    // the control pipe's read end must be the helper's alone.
    drop(report_write);
    drop(control_read);
    // If the run cannot be watched, the helper is told (its control pipe closes) before
    // it is killed.
    let mut control = Some(std::fs::File::from(control_write));
    let watch = Watch::start(spawned?, spec, || drop(control.take()))?;
    let Some(mut control) = control else {
        unreachable!("the control pipe is closed only when watching fails");
    };
    let (pid, exit_rx) = (watch.pid, &watch.exit_rx);
    let (stopped, exited_at) = wait_for(spec, start, exit_rx);
    if stopped.is_some() {
        use std::io::Write;
        // The helper stops the run: SIGTERM to all of it, SIGKILL after the grace.
        let _ = control.write_all(b"s");
        let patience = spec.grace + Duration::from_secs(3);
        if exit_rx.recv_timeout(patience).is_err() {
            let _ = control.write_all(b"k");
            if exit_rx.recv_timeout(Duration::from_secs(2)).is_err() {
                // A helper that does not end is killed with its run.
                kill_group(pid, libc::SIGKILL);
                if let Some(g) = group {
                    g.kill_all(&mut || {});
                }
                let _ = exit_rx.recv();
            }
        }
    }
    let wall = exited_at.unwrap_or_else(Instant::now) - start;
    let (helper_status, _, output) = watch.end(spec.grace)?;
    drop(control);

    let mut text = String::new();
    let _ = std::fs::File::from(report_read).read_to_string(&mut text);
    let mut wall = wall;
    let (status, cpu, max_rss_kb, limits_hit) = match parse_report(&text) {
        Some(Report::Status(m)) => (
            {
                // The solver's own wall time, without the helper's start and the group
                // join, unless bench stopped it (then the wall is bench's clock).
                if let (Some(us), None) = (m.wall_us, stopped) {
                    wall = Duration::from_micros(us);
                }
                m.status
            },
            Some(Duration::from_micros(m.run_cpu_us())),
            Some(m.run_peak_kb()),
            LimitsHit {
                grouped: group.is_some(),
                oom_kills: m.oom_kills,
                mem_limit_hits: m.mem_limit_hits,
                forks_refused: m.forks_refused,
            },
        ),
        Some(Report::Error(errno)) => return Err(io::Error::from_raw_os_error(errno)),
        // The helper died before it could report: the exit status is the helper's, the
        // run's costs are unknown.
        None => (helper_status, None, None, LimitsHit::default()),
    };
    Ok(Finished::new(
        status, stopped, output, wall, cpu, max_rss_kb, limits_hit,
    ))
}

/// A run of the program itself as the child (no helper): process group, RLIMIT_AS,
/// `wait4`.
fn run_direct(spec: &Spec) -> io::Result<Finished> {
    let mut command = Command::new(spec.program);
    command
        .args(spec.args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let mem_bytes = spec.mem_limit_mb.map(|mb| mb.saturating_mul(1 << 20));
    // SAFETY: the closure runs between fork and exec and calls only setrlimit
    // (`limit_child`), which is async-signal-safe; it allocates nothing and touches no lock.
    unsafe {
        command.pre_exec(move || limit_child(mem_bytes));
    }
    let start = Instant::now();
    let watch = Watch::start(command.spawn()?, spec, || {})?;
    let (pid, exit_rx) = (watch.pid, &watch.exit_rx);
    let (stopped, exited_at) = wait_for(spec, start, exit_rx);
    if stopped.is_some() {
        kill_group(pid, libc::SIGTERM);
        if exit_rx.recv_timeout(spec.grace).is_err() {
            kill_group(pid, libc::SIGKILL);
            let _ = exit_rx.recv();
        }
    }
    let wall = exited_at.unwrap_or_else(Instant::now) - start;
    let (status, usage, output) = watch.end(spec.grace)?;
    Ok(Finished::new(
        status,
        stopped,
        output,
        wall,
        Some(cpu_time(&usage)),
        Some(usage.ru_maxrss.max(0) as u64),
        LimitsHit::default(),
    ))
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

/// The helper (see `exec_helper.rs`): `$BENCH_EXEC` when set; else the running executable
/// when it is bench itself; else, for a test executable that links the library, the
/// `bench` binary next to it or one directory up (cargo puts test executables in `deps/`).
pub fn helper() -> Option<&'static Path> {
    static HELPER: OnceLock<Option<PathBuf>> = OnceLock::new();
    HELPER
        .get_or_init(|| {
            if let Some(p) = std::env::var_os(HELPER_ENV).filter(|p| !p.is_empty()) {
                let p = PathBuf::from(p);
                return (is_executable(&p) && speaks_protocol(&p)).then_some(p);
            }
            let exe = std::env::current_exe().ok()?;
            if super::exec_helper::self_is_helper() {
                return Some(exe);
            }
            let dir = exe.parent()?;
            let found = [dir.join("bench"), dir.parent()?.join("bench")]
                .into_iter()
                .find(|p| is_executable(p))?;
            speaks_protocol(&found).then_some(found)
        })
        .as_deref()
}

/// True if `binary bench-exec --protocol` answers [`HELPER_PROTOCOL`]; warns if not.
fn speaks_protocol(binary: &Path) -> bool {
    let answer = Command::new(binary)
        .args([super::exec_helper::HELPER_MODE, "--protocol"])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output();
    let ok = answer
        .as_ref()
        .is_ok_and(|a| String::from_utf8_lossy(&a.stdout).trim() == HELPER_PROTOCOL);
    if !ok {
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

/// Reads `r` to its end through `stream`: returns the kept text of the other lines, the
/// total length and the answer.
pub fn read_streamed(
    mut r: impl Read,
    mut stream: Box<dyn AnswerStream>,
) -> (Vec<u8>, u64, Option<Result<Claim, OutputError>>) {
    let mut chunk = vec![0u8; 64 << 10];
    loop {
        match r.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => stream.feed(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    let (claim, kept, total) = stream.finish();
    (kept, total, Some(claim))
}

/// Reads `r` to its end, keeping the first `cap` bytes; returns them and the total length.
fn read_capped(mut r: impl Read, cap: usize) -> (Vec<u8>, u64) {
    let mut kept = Vec::new();
    let mut chunk = vec![0u8; 64 << 10];
    let mut total = 0u64;
    loop {
        match r.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => {
                total += n as u64;
                let room = cap.saturating_sub(kept.len());
                kept.extend_from_slice(&chunk[..n.min(room)]);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    (kept, total)
}

/// Reads `r` to its end, keeping the last `tail` bytes.
fn read_tail(mut r: impl Read, tail: usize) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut chunk = vec![0u8; 16 << 10];
    loop {
        match r.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => {
                kept.extend_from_slice(&chunk[..n]);
                // Trim in batches (at twice the tail) so a long stderr costs amortised
                // linear time, not a memmove per read.
                if kept.len() > 2 * tail {
                    kept.drain(..kept.len() - tail);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    if kept.len() > tail {
        kept.drain(..kept.len() - tail);
    }
    kept
}

/// Sends `signal` to every process in the group led by `pid` (ESRCH, an empty group, is
/// fine: there is nothing left to stop).
fn kill_group(pid: libc::pid_t, signal: libc::c_int) {
    // SAFETY: plain syscall; a negative pid addresses the process group.
    unsafe {
        libc::kill(-pid, signal);
    }
}

/// The name of a signal, for messages (`SIGSEGV`).
pub fn signal_name(signal: i32) -> String {
    let name = match signal {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGUSR1 => "SIGUSR1",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGUSR2 => "SIGUSR2",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        _ => return format!("signal {signal}"),
    };
    name.to_string()
}

/// True for an existing regular file (after symlinks) with an execute bit.
pub fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capped_and_tail_readers() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i % 251) as u8).collect();
        let (kept, total) = read_capped(&data[..], 100);
        assert_eq!(total, 1000);
        assert_eq!(kept, &data[..100]);
        assert_eq!(read_tail(&data[..], 100), &data[900..]);
        assert_eq!(read_tail(&data[..10], 100), &data[..10]);
    }

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

    #[test]
    fn signal_names() {
        assert_eq!(signal_name(11), "SIGSEGV");
        assert_eq!(signal_name(64), "signal 64");
    }
}
