//! The CPU time of a run while it runs, for its CPU-time limit: the control group's
//! counter (`cpu.stat` `usage_usec`, or `cpuacct.usage`) when the run has a group, else the
//! CPU the kernel accounts to the run's process tree read from `/proc`: every living
//! process's own time and that of the children it reaped, plus what the root reaped (the
//! exec helper, a child subreaper, reaps every orphan). How often the wait loop looks
//! ([`poll`]) follows from what is left: the tree cannot use more than one second of CPU
//! per core and second, so a look a quarter of that ahead is never late by more than
//! [`POLL_MIN`]. And the backstop: RLIMIT_CPU per process a little above the limit
//! ([`backstop`]), and how a run ended by it is told ([`backstop_hit`]).

use std::collections::HashSet;
use std::sync::OnceLock;
use std::time::Duration;

use super::{Exit, Spec, Stop};

/// The shortest time between two looks at a run's CPU time.
pub(super) const POLL_MIN: Duration = Duration::from_millis(5);
/// The longest time between two looks at a run's CPU time.
pub(super) const POLL_MAX: Duration = Duration::from_millis(100);

/// How long the wait loop may sleep with `left` CPU time to go.
pub(super) fn poll(left: Duration) -> Duration {
    static CORES: OnceLock<u32> = OnceLock::new();
    let cores = *CORES.get_or_init(|| {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(4096) as u32)
    });
    (left / cores / 2).clamp(POLL_MIN, POLL_MAX)
}

/// The RLIMIT_CPU of each process of a run limited to `limit`: whole seconds, past the
/// limit and the grace of its stop, so that the wait loop's stop comes first and the
/// kernel's only for a run that outran it.
pub(crate) fn backstop(limit: Duration, grace: Duration) -> u64 {
    (limit + grace).as_secs() + 2
}

/// A run that bench did not stop but that ended at its CPU-time limit all the same: killed
/// by SIGXCPU (RLIMIT_CPU's soft limit) or SIGKILL (its hard limit) with at least the
/// limit used.
pub(super) fn backstop_hit(
    spec: &Spec,
    status: libc::c_int,
    cpu: Option<Duration>,
) -> Option<Stop> {
    let limit = spec.cpu_limit?;
    let exit = if libc::WIFSIGNALED(status) {
        Exit::Signal(libc::WTERMSIG(status))
    } else {
        Exit::Code(libc::WEXITSTATUS(status))
    };
    let at_limit = cpu.is_some_and(|c| c >= limit);
    match exit {
        Exit::Signal(libc::SIGXCPU) => Some(Stop::CpuLimit),
        Exit::Signal(libc::SIGKILL) if at_limit => Some(Stop::CpuLimit),
        _ => None,
    }
}

/// The CPU time of the process tree under `root` (counting `root`'s own time only with
/// `with_root`; the exec helper's is not the run's): each living process's user and
/// system time and its reaped children's, `root`'s reaped children's. None when `root`
/// is gone.
pub(super) fn tree(root: libc::pid_t, with_root: bool) -> Option<Duration> {
    let ticks = clock_ticks();
    let (own, reaped) = times(root)?;
    let mut total = reaped + if with_root { own } else { 0 };
    let mut seen = HashSet::from([root]);
    let mut todo = children(root);
    while let Some(pid) = todo.pop() {
        if !seen.insert(pid) || seen.len() > 100_000 {
            continue;
        }
        if let Some((own, reaped)) = times(pid) {
            total += own + reaped;
            todo.extend(children(pid));
        }
    }
    Some(Duration::from_secs_f64(total as f64 / ticks as f64))
}

/// A process's CPU clock ticks: (its own user + system, its reaped children's), from
/// `/proc/PID/stat` (fields 14 to 17).
fn times(pid: libc::pid_t) -> Option<(u64, u64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_times(&stat)
}

/// [`times`] from the text of a `stat` file: the fields after the command's closing
/// parenthesis (the command may hold spaces and parentheses).
fn parse_times(stat: &str) -> Option<(u64, u64)> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // fields[0] is field 3 (the state): utime, stime, cutime, cstime are 14 to 17.
    let n = |i: usize| fields.get(i - 3)?.parse::<u64>().ok();
    Some((n(14)? + n(15)?, n(16)? + n(17)?))
}

/// The children of every thread of `pid`.
fn children(pid: libc::pid_t) -> Vec<libc::pid_t> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("children")).ok())
        .flat_map(|text| {
            text.split_whitespace()
                .filter_map(|w| w.parse().ok())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Clock ticks per second (`_SC_CLK_TCK`, 100 almost everywhere).
fn clock_ticks() -> u64 {
    static TICKS: OnceLock<u64> = OnceLock::new();
    // SAFETY: plain libc call.
    *TICKS.get_or_init(|| match unsafe { libc::sysconf(libc::_SC_CLK_TCK) } {
        t if t > 0 => t as u64,
        _ => 100,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_fields_after_an_odd_command_name() {
        let stat = "4242 (a) b (c) R 1 4242 4242 0 -1 4194304 100 0 0 0 250 50 7 3 20 0 1 0";
        assert_eq!(parse_times(stat), Some((300, 10)));
        assert_eq!(parse_times("1 (x) R 1"), None);
    }

    #[test]
    fn the_poll_shrinks_as_the_limit_nears() {
        assert_eq!(poll(Duration::from_secs(100)), POLL_MAX);
        assert_eq!(poll(Duration::ZERO), POLL_MIN);
    }

    #[test]
    fn this_process_tree_is_measured() {
        // SAFETY: plain syscall.
        let me = unsafe { libc::getpid() };
        let start = tree(me, true).unwrap();
        // Spins until the tree's CPU time moves (a tick is 10 ms): bounded only as a net.
        let t = std::time::Instant::now();
        let mut x = 0u64;
        while tree(me, true).unwrap() <= start && t.elapsed() < Duration::from_secs(120) {
            for _ in 0..100_000 {
                x = x.wrapping_add(std::hint::black_box(1));
            }
        }
        std::hint::black_box(x);
        assert!(tree(me, true).unwrap() > start);
    }
}
