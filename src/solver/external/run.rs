//! Running one child process under bench's limits, and measuring it.
//!
//! The child gets its own process group, a null stdin and (optionally) an address-space
//! limit. Its stdout and stderr are drained on their own threads, so a chatty child never
//! blocks on a full pipe; stdout is kept up to a cap ([`STDOUT_CAP`]) and the rest is
//! read and thrown away, stderr keeps only its tail. A reaper thread waits for the child's
//! exit *without* reaping it (`waitid(WNOWAIT)`), which keeps its pid — and so its process
//! group id — reserved while bench signals the group: on a timeout or an interrupt the
//! whole group gets SIGTERM, then SIGKILL after a grace period, and after every run the
//! group gets a final SIGKILL, so no grandchild outlives its run. Only then is the child
//! reaped with `wait4`, whose `rusage` is the kernel's own account of its CPU time and
//! peak RSS (children it reaped included), as `/usr/bin/time` measures it.
//!
//! Peak RSS needs one more step. Linux carries a process's resident memory at `exec` into
//! its `ru_maxrss`, and a forked child's resident memory is its parent's, so a solver
//! forked straight from a bench holding 300 MiB of formulas would report 300 MiB however
//! little it used (measured: 308,240 KiB for a 3 MiB minisat run). So when the
//! `bench-exec` helper binary is found (next to the bench executable, or at
//! `$BENCH_EXEC`), the child is the helper: a fresh ~1 MiB process that forks the solver,
//! reaps it with `wait4`, and reports the solver's own status and rusage on a pipe. The
//! helper ignores SIGTERM so that it survives a stop long enough to report; if it is
//! SIGKILLed after the grace too, the solver's CPU time and peak RSS are unknown (None).
//! Without the helper the child is the solver itself and its peak RSS has bench's
//! resident memory at the fork as a floor.

use std::ffi::OsString;
use std::io::{self, Read};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

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
    /// Run through the `bench-exec` helper when it is found (exact peak RSS).
    pub use_helper: bool,
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
    /// Peak resident set size in KiB (`ru_maxrss`), None like `cpu`.
    pub max_rss_kb: Option<u64>,
}

impl Finished {
    /// True if stdout was longer than the cap (the kept part is a prefix).
    pub fn stdout_overflowed(&self) -> bool {
        self.stdout_len > self.stdout.len() as u64
    }
}

/// Runs `spec` to the end (or until stopped) and measures it. Errors only when the child
/// cannot be started; everything the child does is in [`Finished`].
pub fn run(spec: &Spec) -> io::Result<Finished> {
    let helper = if spec.use_helper { helper() } else { None };
    // The report pipe: CLOEXEC in bench, so no other child inherits it; the write end is
    // made inheritable only in this child, between fork and exec.
    let report = helper.map(|_| pipe()).transpose()?;
    let mut command = match (helper, &report) {
        (Some(h), Some((_, write))) => {
            let mut c = Command::new(h);
            // The address-space limit goes to the helper, which sets it in the solver
            // alone: the helper itself must never be the one that runs out.
            let limit = spec.mem_limit_mb.map_or(0, |mb| mb.saturating_mul(1 << 20));
            c.arg(write.as_raw_fd().to_string())
                .arg(limit.to_string())
                .arg(spec.program)
                .args(spec.args);
            c
        }
        _ => {
            let mut c = Command::new(spec.program);
            c.args(spec.args);
            c
        }
    };
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let mem_bytes = spec
        .mem_limit_mb
        .filter(|_| helper.is_none())
        .map(|mb| mb.saturating_mul(1 << 20));
    let report_fd = report.as_ref().map(|(_, w)| w.as_raw_fd());
    // SAFETY: the closure runs between fork and exec and calls only setrlimit and fcntl,
    // which are async-signal-safe; it allocates nothing and touches no lock.
    unsafe {
        command.pre_exec(move || {
            if let Some(fd) = report_fd
                && libc::fcntl(fd, libc::F_SETFD, 0) != 0
            {
                return Err(io::Error::last_os_error());
            }
            // No core files: a solver that aborts on a failed allocation would otherwise
            // spend seconds writing one, inside its measured time.
            let no_core = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            libc::setrlimit(libc::RLIMIT_CORE, &no_core);
            if let Some(bytes) = mem_bytes {
                let limit = libc::rlimit {
                    rlim_cur: bytes,
                    rlim_max: bytes,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }

    let start = Instant::now();
    let spawned = command.spawn();
    // Only the child may hold the write end, or the report would never reach EOF.
    let report = report.map(|(read, _write)| read);
    let mut child = spawned?;
    let pid = child.id() as libc::pid_t;
    let stdout = child.stdout.take().expect("stdout is piped");
    let stderr = child.stderr.take().expect("stderr is piped");
    // `child` is never waited on through std: the reaper below owns the exit.
    drop(child);

    let (out_tx, out_rx) = mpsc::channel();
    let cap = spec.stdout_cap;
    let out_thread = thread::Builder::new()
        .name("child-stdout".into())
        .spawn(move || {
            let _ = out_tx.send(read_capped(stdout, cap));
        });
    let (err_tx, err_rx) = mpsc::channel();
    let err_thread = thread::Builder::new()
        .name("child-stderr".into())
        .spawn(move || {
            let _ = err_tx.send(read_tail(stderr, STDERR_TAIL));
        });
    let (exit_tx, exit_rx) = mpsc::channel();
    let reaper = thread::Builder::new()
        .name("child-exit".into())
        .spawn(move || {
            let _ = exit_tx.send(wait_exited(pid));
        });
    if out_thread.is_err() || err_thread.is_err() || reaper.is_err() {
        // Without its threads the run cannot be watched: end it rather than leak it.
        kill_group(pid, libc::SIGKILL);
        let _ = reap(pid);
        return Err(io::Error::other(
            "cannot start the threads that watch a child",
        ));
    }

    let deadline = spec.timeout.map(|t| start + t);
    let mut stopped = None;
    let mut exited_at = None;
    loop {
        let now = Instant::now();
        if deadline.is_some_and(|d| now >= d) {
            stopped = Some(Stop::Timeout);
            break;
        }
        if spec
            .interrupt
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
        {
            stopped = Some(Stop::Interrupt);
            break;
        }
        let slice = match (deadline, spec.interrupt) {
            (Some(d), Some(_)) => (d - now).min(POLL),
            (Some(d), None) => d - now,
            (None, Some(_)) => POLL,
            (None, None) => Duration::from_secs(3600),
        };
        match exit_rx.recv_timeout(slice) {
            Ok(_) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                exited_at = Some(Instant::now());
                break;
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
    }
    if stopped.is_some() {
        kill_group(pid, libc::SIGTERM);
        if exit_rx.recv_timeout(spec.grace).is_err() {
            kill_group(pid, libc::SIGKILL);
            let _ = exit_rx.recv();
        }
    }
    let wall = exited_at.unwrap_or_else(Instant::now) - start;
    // The leader is a zombie (not yet reaped), so the group id cannot have been reused:
    // whatever else is left in the group (a forked helper that ignored SIGTERM, or one
    // the solver simply left running) is killed now.
    kill_group(pid, libc::SIGKILL);
    let (status, usage) = reap(pid)?;

    // The pipes reach EOF once every process holding them is dead. A process that left
    // the group (setsid) could keep them open forever: do not wait for it past the grace.
    let drain = spec.grace.max(Duration::from_secs(1));
    let (stdout, stdout_len, out_ok) = match out_rx.recv_timeout(drain) {
        Ok((buf, len)) => (buf, len, true),
        Err(_) => (Vec::new(), 0, false),
    };
    let (stderr_tail, err_ok) = match err_rx.recv_timeout(drain) {
        Ok(buf) => (buf, true),
        Err(_) => (Vec::new(), false),
    };
    let _ = err_ok;

    let mut cpu = Some(timeval(usage.ru_utime) + timeval(usage.ru_stime));
    let mut max_rss_kb = Some(usage.ru_maxrss.max(0) as u64);
    let mut status = status;
    if let Some(read) = report {
        let mut text = String::new();
        let _ = std::fs::File::from(read).read_to_string(&mut text);
        match parse_report(&text) {
            Some(Report::Status {
                status: s,
                cpu: c,
                max_rss_kb: m,
            }) => {
                status = s;
                cpu = Some(c);
                max_rss_kb = Some(m);
            }
            Some(Report::Error(errno)) => return Err(io::Error::from_raw_os_error(errno)),
            // The helper died before the solver did (SIGKILL after the grace): the exit
            // status is the helper's, the solver's costs are unknown.
            None => {
                cpu = None;
                max_rss_kb = None;
            }
        }
    }
    let exit = if libc::WIFSIGNALED(status) {
        Exit::Signal(libc::WTERMSIG(status))
    } else {
        Exit::Code(libc::WEXITSTATUS(status))
    };
    Ok(Finished {
        exit,
        stopped,
        stdout,
        stdout_len,
        stdout_complete: out_ok,
        stderr_tail,
        wall,
        cpu,
        max_rss_kb,
    })
}

/// What the helper reported.
#[derive(Debug, PartialEq, Eq)]
enum Report {
    /// The solver's wait status, CPU time and peak RSS.
    Status {
        status: libc::c_int,
        cpu: Duration,
        max_rss_kb: u64,
    },
    /// The solver could not be started (errno).
    Error(i32),
}

fn parse_report(text: &str) -> Option<Report> {
    let mut words = text.split_whitespace();
    match words.next()? {
        "status" => {
            let mut num = || words.next()?.parse::<i64>().ok();
            let status = num()? as libc::c_int;
            let user = num()?.max(0) as u64;
            let system = num()?.max(0) as u64;
            let rss = num()?.max(0) as u64;
            Some(Report::Status {
                status,
                cpu: Duration::from_micros(user + system),
                max_rss_kb: rss,
            })
        }
        "error" => Some(Report::Error(words.next()?.parse().ok()?)),
        _ => None,
    }
}

/// The environment variable that names the helper binary explicitly.
pub const HELPER_ENV: &str = "BENCH_EXEC";

/// The `bench-exec` helper: `$BENCH_EXEC`, else next to the running executable (or one
/// directory up, where cargo puts the binaries of a test executable in `deps/`).
pub fn helper() -> Option<&'static Path> {
    static HELPER: OnceLock<Option<PathBuf>> = OnceLock::new();
    HELPER
        .get_or_init(|| {
            if let Some(p) = std::env::var_os(HELPER_ENV).filter(|p| !p.is_empty()) {
                return super::locate::is_executable(Path::new(&p)).then(|| PathBuf::from(p));
            }
            let exe = std::env::current_exe().ok()?;
            let dir = exe.parent()?;
            [dir.join("bench-exec"), dir.parent()?.join("bench-exec")]
                .into_iter()
                .find(|p| super::locate::is_executable(p))
        })
        .as_deref()
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

/// Blocks until `pid` has exited, leaving it a zombie (WNOWAIT) so that its pid and
/// process group id stay reserved until [`reap`].
fn wait_exited(pid: libc::pid_t) -> io::Result<()> {
    loop {
        // SAFETY: siginfo_t is plain data; waitid only writes into it.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: plain syscall on our own child.
        let r = unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        if r == 0 {
            return Ok(());
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// Reaps `pid`, returning its wait status and the kernel's resource usage for it.
fn reap(pid: libc::pid_t) -> io::Result<(libc::c_int, libc::rusage)> {
    loop {
        let mut status: libc::c_int = 0;
        // SAFETY: rusage is plain data; wait4 only writes into it.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: plain syscall on our own child.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            return Ok((status, usage));
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// Sends `signal` to every process in the group led by `pid` (ESRCH, an empty group, is
/// fine: there is nothing left to stop).
fn kill_group(pid: libc::pid_t, signal: libc::c_int) {
    // SAFETY: plain syscall; a negative pid addresses the process group.
    unsafe {
        libc::kill(-pid, signal);
    }
}

fn timeval(t: libc::timeval) -> Duration {
    Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
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
        assert_eq!(
            parse_report("status 2560 1500000 250000 4096\n"),
            Some(Report::Status {
                status: 2560,
                cpu: Duration::from_millis(1750),
                max_rss_kb: 4096
            })
        );
        assert_eq!(parse_report("error 2\n"), Some(Report::Error(2)));
        assert_eq!(parse_report(""), None);
        assert_eq!(parse_report("status 1 2"), None);
    }

    #[test]
    fn signal_names() {
        assert_eq!(signal_name(11), "SIGSEGV");
        assert_eq!(signal_name(64), "signal 64");
    }
}
