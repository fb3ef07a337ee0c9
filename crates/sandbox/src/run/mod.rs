//! Running one child process under limits, and measuring it.
//!
//! The usual way is through the exec helper (bench itself in helper mode, or the binary
//! at `$BENCH_EXEC`), which contains the run (see its file): bench takes the run's
//! control group when the machine allows it ([`containment`], detected once; see
//! `cgroup.rs`; an emptied group of an earlier run, reset, or a new one: see `slots`),
//! and starts the helper (a clone sharing bench's memory until the exec, see `spawn`) with a report pipe
//! (the helper's one line of measures) and a control pipe (bench writes `s` to stop the
//! run; its end of file, when bench dies however it dies, makes the helper kill the run
//! and remove its temporary folder and group). The helper is a fresh ~1 MiB process, so the solver's peak RSS is
//! not bench's resident memory carried over by fork (measured before the helper existed:
//! 308,240 KiB for a 3 MiB minisat run). With a group, the memory limit is the group's
//! (all its processes together) and CPU time and peak memory are the group's; without
//! one (the fallback), the limit is an address-space limit (RLIMIT_AS) per process, CPU
//! time is the sum over every descendant the helper reaped, and peak RSS that of the
//! largest process.
//!
//! The child's stdout and stderr are drained by one `poll` loop on the calling thread,
//! which also sees the child's exit (`watch`), so a chatty child never blocks on a full
//! pipe and a run starts no thread. Stdout goes to a [`StdoutConsumer`] as it arrives: the
//! caller's own (which reads what it needs as it streams by, in bounded memory), or
//! [`Capped`], which keeps it up to a cap ([`STDOUT_CAP`]) and reads the rest and throws
//! it away; stderr keeps only its tail. On a timeout or an interrupt bench
//! tells the helper to stop the run (SIGTERM to all of it, SIGKILL after the grace); if
//! the helper itself does not end, bench kills it and empties the group itself.
//!
//! Without the helper (`use_helper` off: version probes) the child is the program itself,
//! in its own process group, which gets SIGTERM, then SIGKILL after the grace, and a final
//! SIGKILL after every run; its `rusage` comes from `wait4`.
//!
//! A CPU-time limit ([`Spec::cpu_limit`]) holds the run's whole process tree: the wait
//! loop polls the control group's CPU counter (or, without a group, the CPU the kernel
//! accounts to the tree's processes, living and reaped) and stops the run like the wall
//! limit when it is reached; RLIMIT_CPU a little above it is each process's backstop
//! (see `cpu`).
//!
//! One concept a file: this one (the spec, the measured result, the direct run),
//! [`containment`] (what this machine allows, temporary folders), `watch` (draining the
//! pipes, waiting, ending a run), `helper` (a run through the exec helper, its report),
//! `spawn` (starting the helper without a copy of bench), `slots` (control groups reused
//! from run to run),
//! `cpu` (the run's CPU time while it runs, the backstop).

mod containment;
mod cpu;
mod helper;
mod slots;
mod spawn;
mod watch;

use std::ffi::OsString;
use std::io;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::reap::{cpu_time, limit_child, limit_cpu};
pub use containment::{
    Containment, Kind, RunDir, containment, remove_stale, temp_dir, temp_prefix,
};
pub use helper::{HELPER_ENV, HELPER_PROTOCOL, helper};
pub use slots::{LEFTOVER_MAX, new_group};
pub use watch::read_into;
use watch::{Drained, Watch, wait_for};

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
    /// CPU-time limit over the run's whole process tree (user + system): the control
    /// group's CPU counter where there is a group, else the tree's accounted CPU, polled
    /// while the run waits; RLIMIT_CPU per process a little above it as a backstop.
    pub cpu_limit: Option<Duration>,
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
    /// Environment variables set for the program (beside the inherited ones).
    pub env: &'a [(OsString, OsString)],
}

impl<'a> Spec<'a> {
    /// A spec with no limits, the default grace and the default stdout cap.
    pub fn new(program: &'a Path, args: &'a [OsString]) -> Spec<'a> {
        Spec {
            program,
            args,
            timeout: None,
            cpu_limit: None,
            grace: DEFAULT_GRACE,
            mem_limit_mb: None,
            interrupt: None,
            stdout_cap: STDOUT_CAP,
            use_helper: true,
            tmp_dir: None,
            pids_limit: Some(DEFAULT_PIDS_LIMIT),
            env: &[],
        }
    }
}

/// Takes a child's stdout as it arrives, on the thread that drains the pipe: the caller
/// parses what it needs as it streams by, in memory of its own choosing.
pub trait StdoutConsumer: Send {
    /// The next bytes, in chunks of any size.
    fn feed(&mut self, chunk: &[u8]);

    /// The end of stdout: what was kept of it (for [`Finished::stdout`]) and the total
    /// length read.
    fn finish(&mut self) -> (Vec<u8>, u64);
}

/// The plain consumer: keeps the first `cap` bytes, reads the rest and throws it away.
#[derive(Clone, Debug)]
pub struct Capped {
    cap: usize,
    kept: Vec<u8>,
    total: u64,
}

impl Capped {
    /// Keeps at most `cap` bytes.
    pub fn new(cap: usize) -> Capped {
        Capped {
            cap,
            kept: Vec::new(),
            total: 0,
        }
    }
}

impl StdoutConsumer for Capped {
    fn feed(&mut self, chunk: &[u8]) {
        self.total += chunk.len() as u64;
        let room = self.cap.saturating_sub(self.kept.len());
        self.kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
    }

    fn finish(&mut self) -> (Vec<u8>, u64) {
        (std::mem::take(&mut self.kept), self.total)
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
    /// The CPU-time limit passed (the run's whole process tree together).
    CpuLimit,
    /// The interrupt flag was set.
    Interrupt,
}

/// Which limit ended a run, when one did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// The wall-clock limit: the run was stopped.
    WallClock,
    /// The CPU-time limit: the run was stopped (or, as the backstop, the kernel ended a
    /// process at its RLIMIT_CPU).
    Cpu,
    /// The interrupt flag: the run was stopped.
    Interrupt,
    /// The memory limit: the OOM killer ended a process of the run's control group.
    Memory,
}

/// A finished run: how it ended, what it printed, what it cost.
#[derive(Clone, Debug)]
pub struct Finished {
    /// Exit code or signal.
    pub exit: Exit,
    /// Set when the run was stopped (its exit is then the stop's doing).
    pub stopped: Option<Stop>,
    /// What the [`StdoutConsumer`] kept of stdout ([`Capped`]: the first `stdout_cap`
    /// bytes).
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
    /// How the run was contained.
    pub containment: Kind,
}

impl Finished {
    /// A run that ended with wait status `status`, having printed `output`.
    fn new(
        status: libc::c_int,
        stopped: Option<Stop>,
        output: Drained,
        wall: Duration,
        measured: (Option<Duration>, Option<u64>, LimitsHit),
        containment: Kind,
    ) -> Finished {
        let (stdout, stdout_len, stdout_complete, stderr_tail) = output;
        let (cpu, max_rss_kb, limits_hit) = measured;
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
            containment,
        }
    }

    /// True if stdout was longer than what was kept (the kept part is a prefix).
    pub fn stdout_overflowed(&self) -> bool {
        self.stdout_len > self.stdout.len() as u64
    }

    /// The limit that ended the run, if one did.
    pub fn ended_by(&self) -> Option<Limit> {
        match self.stopped {
            Some(Stop::Timeout) => Some(Limit::WallClock),
            Some(Stop::CpuLimit) => Some(Limit::Cpu),
            Some(Stop::Interrupt) => Some(Limit::Interrupt),
            None if self.limits_hit.oom_kills > 0 => Some(Limit::Memory),
            None => None,
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

/// Runs `spec` to the end (or until stopped) and measures it, keeping stdout up to
/// [`Spec::stdout_cap`]. Errors only when the child cannot be started; everything the
/// child does is in [`Finished`].
pub fn run(spec: &Spec) -> io::Result<Finished> {
    run_with(spec, Capped::new(spec.stdout_cap)).map(|(done, _)| done)
}

/// [`run`] with stdout handed to `consumer` as it arrives; the consumer comes back after
/// the end of stdout (None when stdout was still open after the run: a process escaped).
pub fn run_with<C: StdoutConsumer + 'static>(
    spec: &Spec,
    consumer: C,
) -> io::Result<(Finished, Option<C>)> {
    match helper().filter(|_| spec.use_helper) {
        Some(h) => helper::run_contained(spec, h, consumer),
        None => run_direct(spec, consumer),
    }
}

/// A run of the program itself as the child (no helper): process group, RLIMIT_AS,
/// `wait4`.
fn run_direct<C: StdoutConsumer + 'static>(
    spec: &Spec,
    consumer: C,
) -> io::Result<(Finished, Option<C>)> {
    let mut command = Command::new(spec.program);
    command
        .args(spec.args)
        .envs(spec.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let mem_bytes = spec.mem_limit_mb.map(|mb| mb.saturating_mul(1 << 20));
    let cpu_rlimit = spec.cpu_limit.map(|l| cpu::backstop(l, spec.grace));
    // SAFETY: the closure runs between fork and exec and calls only setrlimit
    // (`limit_child`, `limit_cpu`), which is async-signal-safe; it allocates nothing and
    // touches no lock.
    unsafe {
        command.pre_exec(move || {
            limit_cpu(cpu_rlimit)?;
            limit_child(mem_bytes)
        });
    }
    let start = Instant::now();
    let mut child = command.spawn()?;
    let pid = child.id() as libc::pid_t;
    let (Some(stdout), Some(stderr)) = (child.stdout.take(), child.stderr.take()) else {
        unreachable!("both pipes were asked for");
    };
    // std never waits on `child`: the watch and `Watch::end` own its exit.
    drop(child);
    let mut watch = Watch::start(pid, stdout.into(), stderr.into(), consumer);
    let (stopped, mut exited_at) = wait_for(spec, start, &mut watch, &|| cpu::tree(pid, true));
    if stopped.is_some() {
        kill_group(pid, libc::SIGTERM);
        exited_at = watch.pump(Instant::now() + spec.grace);
        if exited_at.is_none() {
            kill_group(pid, libc::SIGKILL);
            let _ = crate::reap::has_exited(pid, true);
        }
    }
    let wall = exited_at.unwrap_or_else(Instant::now) - start;
    let (status, usage, output, consumer) = watch.end(spec.grace)?;
    let cpu = cpu_time(&usage);
    let stopped = stopped.or_else(|| cpu::backstop_hit(spec, status, Some(cpu)));
    let measured = (
        Some(cpu),
        Some(usage.ru_maxrss.max(0) as u64),
        LimitsHit::default(),
    );
    let done = Finished::new(status, stopped, output, wall, measured, Kind::ProcessGroup);
    Ok((done, consumer))
}

/// Sends `signal` to every process in the group led by `pid` (ESRCH, an empty group, is
/// fine: there is nothing left to stop).
pub(crate) fn kill_group(pid: libc::pid_t, signal: libc::c_int) {
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
    fn signal_names() {
        assert_eq!(signal_name(11), "SIGSEGV");
        assert_eq!(signal_name(64), "signal 64");
    }

    #[test]
    fn the_capped_consumer_keeps_a_prefix() {
        let mut c = Capped::new(4);
        c.feed(b"abc");
        c.feed(b"defg");
        assert_eq!(c.finish(), (b"abcd".to_vec(), 7));
    }
}
