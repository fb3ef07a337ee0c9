//! The exec helper: the small process between bench and a solver. It contains the run —
//! nothing the solver starts outlives it — and measures it.
//!
//! bench runs `HELPER bench-exec --report FD --control FD --grace-ms MS [--as-limit BYTES]
//! [--cpu-rlimit SECS] [--cgroup GROUP [--keep-group [--join-fds FD,… --tasks-fd FD]]]
//! [--tmp DIR] -- PROGRAM ARGS…` (started with
//! a clone that shares bench's memory until the exec, every signal blocked, which the
//! helper unblocks first, the pipes as descriptors 3 and 4: see `run/spawn.rs`), and the helper's
//! `main` hands such a command line to [`run_if_requested`] before it does anything else. HELPER is
//! `sandbox-exec` (bench's small binary that is this file and nothing else, found beside
//! bench's: see `run/helper.rs`), else bench itself, whose `main` does the same, so every
//! build has its helper.
//! The helper, a freshly executed process that touches only this file's code (a few MiB
//! resident, so the solver's peak RSS is not bench's memory carried over by fork), makes
//! itself a child subreaper (`PR_SET_CHILD_SUBREAPER`: every orphaned descendant of the
//! solver comes back to it, whatever `setsid` or double fork it did), starts the solver
//! (`vfork.rs`: a clone that shares the helper's memory until the exec) in a process group
//! of its own and, when bench made one, in the run's control group (joined before the
//! exec, so the limits hold from the first instruction; see `cgroup.rs`), and then watches two descriptors with `poll`: a pidfd of the solver and
//! the control pipe from bench. On the pipe, `s` means stop: SIGTERM to every process of
//! the run, SIGKILL after the grace. End of file on the pipe means bench is gone (killed,
//! out of memory, preempted): the helper kills the whole run, removes the run's temporary
//! folder (`--tmp`) and the group, and exits, so a dead bench leaves no solver running.
//! Otherwise the group is removed at the end of the run, unless `--keep-group` says bench
//! reuses it (emptied, for its next run: see `run/slots.rs`). A reused group's files bench
//! keeps open (`group_files.rs`) and hands to the helper: its `cgroup.procs` descriptors
//! (`--join-fds`, one per hierarchy in the group's order), which the solver joins through,
//! and its `pids.current` (`--tasks-fd`), which tells what is left of the run; bench then
//! reads the group's measures itself, through its own descriptors, and the report holds
//! none of them.
//!
//! When the solver has exited, every process left in the run is killed (the group is
//! frozen and emptied, or, without a group, the process group and every descendant that
//! came back to the subreaper are killed until none is left); then the helper writes one
//! line to the report descriptor: `status <wait status> cpu_us=… rss_kb=… wall_us=…` with
//! the solver's own `rusage` and wall time (monotonic, from just before the clone to the
//! solver's exit), and the whole run's measures: with a group its CPU time, peak
//! memory, OOM kills, memory-limit hits and refused forks; without one the `rusage` of
//! all reaped descendants (CPU time summed, peak RSS of the largest). `error <errno>` if
//! the solver could not be started. It ignores SIGTERM and SIGHUP (restored in the
//! solver), so a signal meant for the run does not end its warden, and SIGPIPE (also
//! restored), so a report to a bench that is gone fails as a write, not as the helper's end.
//! It uses nothing but std, libc and its siblings `cgroup.rs`, `group_files.rs`, `reap.rs`
//! and `vfork.rs`, to stay small.

use std::ffi::{CString, OsString};
use std::io::{Read, Write};
use std::os::fd::FromRawFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::cgroup::Group;
use crate::reap::{cpu_time, has_exited, reap};
use crate::run::HELPER_PROTOCOL;
use crate::vfork::Exec;

/// The first argument that puts bench in helper mode.
pub const HELPER_MODE: &str = "bench-exec";

/// Set when the running executable is bench's own `main` (which can be its own helper);
/// a test executable that links the library is not.
static SELF_IS_HELPER: AtomicBool = AtomicBool::new(false);

/// True if the running executable serves as its own helper ([`run_if_requested`] ran in
/// its `main`).
pub fn self_is_helper() -> bool {
    SELF_IS_HELPER.load(Ordering::Relaxed)
}

/// The command line.
struct Args {
    report: i32,
    control: i32,
    grace: Duration,
    as_limit: u64,
    cpu_rlimit: Option<u64>,
    group: Option<Group>,
    /// The group outlives the run (bench reuses it): not removed at the end, unless bench
    /// is gone.
    keep_group: bool,
    /// The group's `cgroup.procs` files, open (empty: joined through their paths).
    join_fds: Vec<i32>,
    /// The group's `pids.current`, open: bench reads the group's measures itself.
    tasks_fd: Option<i32>,
    tmp: Option<std::path::PathBuf>,
    program: OsString,
    args: Vec<OsString>,
}

/// The helper's command line after `bench-exec`.
fn parse_args(mut it: impl Iterator<Item = OsString>) -> Option<Args> {
    let mut report = None;
    let mut control = None;
    let mut grace = Duration::from_secs(1);
    let mut as_limit = 0;
    let mut cpu_rlimit = None;
    let mut group = None;
    let mut tmp = None;
    let mut keep_group = false;
    let mut join_fds = Vec::new();
    let mut tasks_fd = None;
    let fd = |v: &str| v.parse::<i32>().ok().filter(|&fd| fd > 2);
    loop {
        let flag = it.next()?;
        let flag = flag.to_str()?.to_string();
        if flag == "--" {
            break;
        }
        if flag == "--keep-group" {
            keep_group = true;
            continue;
        }
        let value = it.next()?;
        match flag.as_str() {
            "--report" => report = value.to_str()?.parse().ok().filter(|&fd| fd > 2),
            "--control" => control = value.to_str()?.parse().ok().filter(|&fd| fd > 2),
            "--grace-ms" => grace = Duration::from_millis(value.to_str()?.parse().ok()?),
            "--as-limit" => as_limit = value.to_str()?.parse().ok()?,
            "--cpu-rlimit" => cpu_rlimit = Some(value.to_str()?.parse().ok()?),
            "--cgroup" => group = Some(Group::from_arg(value.to_str()?)?),
            "--tmp" => tmp = Some(value.into()),
            "--join-fds" => {
                join_fds = value
                    .to_str()?
                    .split(',')
                    .map(fd)
                    .collect::<Option<Vec<_>>>()?;
            }
            "--tasks-fd" => tasks_fd = Some(fd(value.to_str()?)?),
            _ => return None,
        }
    }
    let program = it.next()?;
    Some(Args {
        report: report?,
        control: control?,
        grace,
        as_limit,
        cpu_rlimit,
        group,
        keep_group,
        join_fds,
        tasks_fd,
        tmp,
        program,
        args: it.collect(),
    })
}

/// Called first thing in `main`: with `bench-exec` as the first argument this process is
/// a helper, runs the solver and exits here; otherwise it records that this executable
/// can be its own helper and returns. `bench bench-exec --protocol` prints
/// [`HELPER_PROTOCOL`], so bench uses only a helper that speaks its protocol.
pub fn run_if_requested() {
    let mut argv = std::env::args_os().skip(1).peekable();
    if argv.next().is_none_or(|a| a != HELPER_MODE) {
        SELF_IS_HELPER.store(true, Ordering::Relaxed);
        return;
    }
    // bench starts the helper with every signal blocked (see `vfork.rs`).
    crate::vfork::unblock_signals();
    if argv.peek().is_some_and(|a| a == "--protocol") {
        println!("{HELPER_PROTOCOL}");
        std::process::exit(0);
    }
    let Some(args) = parse_args(argv) else {
        eprintln!(
            "usage: bench bench-exec --report FD --control FD [--grace-ms MS] \
             [--as-limit BYTES] [--cpu-rlimit SECS] \
             [--cgroup GROUP [--keep-group [--join-fds FD,... --tasks-fd FD]]] [--tmp DIR] \
             -- PROGRAM [ARGS...] \
             (run by bench, not by hand)"
        );
        std::process::exit(127);
    };
    // SAFETY: the descriptors are the pipes bench set up for this process; nothing else
    // owns them.
    let mut report = unsafe { std::fs::File::from_raw_fd(args.report) };
    // SAFETY: as above.
    let mut control = unsafe { std::fs::File::from_raw_fd(args.control) };
    // SAFETY: plain fcntl/signal/prctl calls. The solver must not inherit the pipes (bench
    // reads the report to its end once the helper is gone, and watches nothing else of
    // the control pipe); SIGTERM and SIGHUP are for the solver alone; a write to a closed
    // pipe must fail, not end the helper (whose `main` may not have ignored SIGPIPE).
    unsafe {
        for fd in [args.report, args.control]
            .into_iter()
            .chain(args.join_fds.iter().copied())
            .chain(args.tasks_fd)
        {
            libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
        }
        libc::signal(libc::SIGTERM, libc::SIG_IGN);
        libc::signal(libc::SIGHUP, libc::SIG_IGN);
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    }
    let (pid, started) = spawn_run(&args, &mut report);
    let run = Run {
        pid,
        group: args.group.clone(),
        tasks_fd: args.tasks_fd.filter(|_| args.group.is_some()),
    };

    let watched = watch(&run, &mut control, args.grace);
    let wall = started.elapsed();
    match watched {
        Watched::Exited => {}
        Watched::BenchGone => {
            run.kill_all();
            let _ = reap(pid);
            run.kill_all();
            finish(&args, true);
            exit_now(0);
        }
    }
    // The solver is a zombie now (not reaped: its pid, and so its process group id, stay
    // reserved): whatever else of the run is left is killed before it is reaped. When
    // nothing is (the usual end), nothing can appear after the reap either.
    let alone = run.nothing_left();
    if !alone {
        run.kill_all();
    }
    let (status, own) = match reap(pid) {
        Ok(r) => r,
        Err(e) => {
            let _ = writeln!(report, "error {}", e.raw_os_error().unwrap_or(0));
            finish(&args, false);
            exit_now(127);
        }
    };
    if !alone {
        run.kill_all();
    }
    // The group's measures, unless bench reads them itself.
    let measured = run.group.as_ref().filter(|_| run.tasks_fd.is_none());
    let line = report_line(status, &own, wall, run.group.as_ref(), measured);
    // One write, so bench reads the whole line or nothing.
    let _ = report.write_all(line.as_bytes());
    drop(report);
    finish(&args, false);
    exit_now(0);
}

/// Ends the helper at once: it buffers nothing (the report goes through its descriptor in
/// one write), so std's exit work, which would set up stdout's buffer only to flush it, is
/// skipped.
fn exit_now(code: i32) -> ! {
    // SAFETY: ends the process; nothing of it is left to flush.
    unsafe { libc::_exit(code) }
}

/// Starts the program in a process group of its own (joining the run's group and taking
/// its limits before its exec: see `vfork.rs`); returns its pid and the instant just
/// before the start. If it cannot start, reports `error <errno>` and exits.
fn spawn_run(args: &Args, report: &mut std::fs::File) -> (libc::pid_t, Instant) {
    let join = match &args.group {
        Some(_) if !args.join_fds.is_empty() => (Vec::new(), args.join_fds.clone()),
        Some(g) => (g.join_files(), Vec::new()),
        None => (Vec::new(), Vec::new()),
    };
    let fail = |e: std::io::Error, report: &mut std::fs::File| -> ! {
        let _ = writeln!(report, "error {}", e.raw_os_error().unwrap_or(0));
        finish(args, false);
        exit_now(127);
    };
    let exec = match Exec::solver(
        &args.program,
        &args.args,
        join,
        args.as_limit,
        args.cpu_rlimit,
    ) {
        Ok(e) => e,
        Err(e) => fail(e, report),
    };
    // The run's clock, monotonic, in the process that starts the solver: from just before
    // the clone to the solver's exit. It holds everything the solver's CPU time holds (the
    // dynamic loader, the group join), so wall ≥ CPU for a single-threaded solver however
    // short its run.
    let started = Instant::now();
    match exec.spawn() {
        Ok(pid) => (pid, started),
        Err(e) => fail(e, report),
    }
}

/// The report's one line: the program's wait status, its own rusage and wall time, and
/// the whole run's measures: the group's (`measured`; none when bench reads them itself),
/// or without a `group` every reaped descendant's.
fn report_line(
    status: libc::c_int,
    own: &libc::rusage,
    wall: Duration,
    group: Option<&Group>,
    measured: Option<&Group>,
) -> String {
    let mut line = format!(
        "status {status} cpu_us={} rss_kb={} wall_us={}",
        cpu_time(own).as_micros(),
        own.ru_maxrss.max(0),
        wall.as_micros()
    );
    match (group, measured) {
        (Some(_), None) => {}
        (_, Some(g)) => {
            let s = g.stats();
            let opt = |v: Option<u64>| v.map_or("-".to_string(), |v| v.to_string());
            line.push_str(&format!(
                " group_cpu_us={} group_peak_kb={} oom_kills={} mem_limit_hits={} forks_refused={}",
                opt(s.cpu_us),
                opt(s.peak_bytes.map(|b| b / 1024)),
                s.oom_kills,
                s.mem_limit_hits,
                s.forks_refused
            ));
        }
        (None, None) => {
            // Every descendant has been reaped (by its parent or, orphaned, by this
            // subreaper), so the children's rusage covers the whole run.
            // SAFETY: rusage is plain data that getrusage fills in.
            let mut all: libc::rusage = unsafe { std::mem::zeroed() };
            // SAFETY: plain syscall.
            unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut all) };
            line.push_str(&format!(
                " tree_cpu_us={} tree_rss_kb={}",
                cpu_time(&all).as_micros(),
                all.ru_maxrss.max(0)
            ));
        }
    }
    line.push('\n');
    line
}

/// Writes `0` (this process) into a `cgroup.procs` file, with async-signal-safe calls
/// (between fork, or clone, and exec).
pub fn join_group(file: &CString) -> std::io::Result<()> {
    // SAFETY: plain syscalls on a NUL-terminated path built before the fork.
    let fd = unsafe { libc::open(file.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC) };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    let joined = crate::group_files::join_fd(fd);
    // SAFETY: the descriptor opened above, closed once.
    unsafe { libc::close(fd) };
    joined
}

/// The end of a run: the temporary folder (only when bench is gone: otherwise bench
/// removes it itself, after reading the result file) and the group (unless bench keeps it
/// for its next run and is still there to).
fn finish(args: &Args, bench_gone: bool) {
    if bench_gone && let Some(tmp) = &args.tmp {
        let _ = std::fs::remove_dir_all(tmp);
    }
    if let Some(g) = &args.group
        && (bench_gone || !args.keep_group)
    {
        let _ = g.remove();
    }
}

/// The solver and how it is contained.
struct Run {
    pid: libc::pid_t,
    group: Option<Group>,
    /// The group's `pids.current`, open (from bench).
    tasks_fd: Option<i32>,
}

impl Run {
    /// Signals every process of the run: the whole group, or the solver's process group
    /// and every descendant that came back to this subreaper (the solver's own pid is
    /// skipped once it has exited, so the zombie stays for `reap`).
    fn signal(&self, sig: libc::c_int) {
        if let Some(g) = &self.group {
            g.signal(sig);
        }
        // SAFETY: plain syscall; a negative pid addresses the process group.
        unsafe {
            libc::kill(-self.pid, sig);
        }
        for child in children() {
            // SAFETY: plain syscalls on our own children.
            unsafe {
                libc::kill(-child, sig);
                libc::kill(child, sig);
            }
        }
    }

    /// Kills every process of the run except the solver's zombie, reaping the others.
    fn kill_all(&self) {
        if self.nothing_left() {
            return;
        }
        let mut reap_others = || reap_all_but(self.pid);
        if let Some(g) = &self.group {
            g.kill_all(&mut reap_others);
        }
        // Without a group (and as a second net with one): kill what came back to the
        // subreaper until nothing does. Each round kills the children now known; their
        // orphans come back and are killed in the next round.
        let until = Instant::now() + Duration::from_secs(5);
        loop {
            self.signal(libc::SIGKILL);
            reap_others();
            let left: Vec<_> = children().into_iter().filter(|&c| c != self.pid).collect();
            if left.is_empty() || Instant::now() > until {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

impl Run {
    /// True when the solver has exited (a zombie, not yet reaped) and nothing else of the
    /// run is alive: the group (if any) holds no other member (its `cgroup.procs` may
    /// list the zombie; its task count, with bench's `--tasks-fd`, is at most 1, the
    /// zombie's, counted until it is reaped) and the solver is this process's only child. Orphans come back to this
    /// subreaper as their parent exits, so a live process of the run would be in the group
    /// or a child here. The usual end of a run, and the cheap one: no freezing, no signals.
    fn nothing_left(&self) -> bool {
        let only_solver = |pids: Vec<libc::pid_t>| pids.iter().all(|&p| p == self.pid);
        // With the group's task count: at most the solver's zombie (reaped, it leaves).
        let group_alone = |g: &Group| match self.tasks_fd {
            Some(fd) => crate::group_files::read_at(fd)
                .and_then(|t| t.trim().parse::<u64>().ok())
                .is_some_and(|n| n <= 1),
            None => only_solver(g.members()),
        };
        has_exited(self.pid, false).unwrap_or(false)
            && self.group.as_ref().is_none_or(group_alone)
            && only_solver(children())
    }
}

/// This process's children, from `/proc/self/task/<tid>/children`.
fn children() -> Vec<libc::pid_t> {
    // SAFETY: plain syscall.
    let tid = unsafe { libc::getpid() };
    std::fs::read_to_string(format!("/proc/self/task/{tid}/children"))
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect()
}

/// Reaps every exited child except `keep`.
fn reap_all_but(keep: libc::pid_t) {
    for child in children() {
        if child == keep {
            continue;
        }
        let mut status = 0;
        // SAFETY: plain syscall on our own child.
        unsafe {
            libc::waitpid(child, &mut status, libc::WNOHANG);
        }
    }
}

/// How watching the solver ended.
enum Watched {
    /// The solver exited (it is a zombie, not reaped).
    Exited,
    /// The control pipe reached its end: bench is gone.
    BenchGone,
}

/// Waits for the solver's exit, obeying the control pipe meanwhile.
fn watch(run: &Run, control: &mut std::fs::File, grace: Duration) -> Watched {
    // SAFETY: plain syscall; the pidfd is owned here and closed at exit.
    let pidfd = unsafe { libc::syscall(libc::SYS_pidfd_open, run.pid, 0) } as i32;
    let control_fd = std::os::fd::AsRawFd::as_raw_fd(control);
    let mut kill_at: Option<Instant> = None;
    loop {
        if pidfd < 0 {
            // No pidfd (an old kernel): poll the solver's state instead.
            if has_exited(run.pid, false).unwrap_or(false) {
                return Watched::Exited;
            }
        }
        let timeout_ms = match kill_at {
            Some(t) => t
                .saturating_duration_since(Instant::now())
                .as_millis()
                .min(20) as i32,
            None if pidfd < 0 => 20,
            None => -1,
        };
        let mut fds = [
            libc::pollfd {
                fd: if pidfd < 0 { -1 } else { pidfd },
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: control_fd,
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        // SAFETY: poll reads and writes the two pollfds we own.
        let n = unsafe { libc::poll(fds.as_mut_ptr(), 2, timeout_ms) };
        if n < 0 {
            continue; // EINTR
        }
        if fds[0].revents != 0 {
            return Watched::Exited;
        }
        if fds[1].revents != 0 {
            let mut buf = [0u8; 64];
            match control.read(&mut buf) {
                Ok(0) | Err(_) => return Watched::BenchGone,
                Ok(k) => {
                    if buf[..k].contains(&b's') && kill_at.is_none() {
                        run.signal(libc::SIGTERM);
                        kill_at = Some(Instant::now() + grace);
                    }
                    if buf[..k].contains(&b'k') {
                        kill_at = Some(Instant::now());
                    }
                }
            }
        }
        if kill_at.is_some_and(|t| Instant::now() >= t) {
            run.signal(libc::SIGKILL);
            if let Some(g) = &run.group {
                g.kill_all(&mut || reap_all_but(run.pid));
            }
            kill_at = Some(Instant::now() + Duration::from_millis(100));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Option<Args> {
        parse_args(line.split(' ').map(OsString::from))
    }

    #[test]
    fn a_reused_groups_descriptors_on_the_command_line() {
        let a = args(
            "--report 3 --control 4 --cgroup v1|freezer=/f/g|pids=/p/g --keep-group \
             --join-fds 5,6 --tasks-fd 7 -- prog x",
        )
        .unwrap();
        assert_eq!(
            (a.join_fds, a.tasks_fd, a.keep_group),
            (vec![5, 6], Some(7), true)
        );
        assert_eq!(a.program, "prog");
        let plain = args("--report 3 --control 4 -- prog").unwrap();
        assert!(plain.join_fds.is_empty() && plain.tasks_fd.is_none());
        // Standard streams are never the group's files.
        assert!(args("--report 3 --control 4 --join-fds 5,1 -- prog").is_none());
        assert!(args("--report 3 --control 4 --tasks-fd x -- prog").is_none());
    }
}
