//! The limits of solve calls: [`SolveLimits`] as a caller sets them (per call, or up to a
//! deadline; on the wall clock, or on the calling thread's CPU clock), [`SearchBudget`] as
//! one call looks at them, and how often it looks.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Limits of each solve call (each counted from the start of the call).
#[derive(Clone, Debug, Default)]
pub struct SolveLimits {
    /// Wall-clock time per call.
    pub timeout: Option<Duration>,
    /// CPU time per call: the calling thread's CPU clock (`CLOCK_THREAD_CPUTIME_ID`), so
    /// other threads, and a machine shared with other work, do not count.
    pub cpu_time: Option<Duration>,
    /// Conflicts per call.
    pub conflicts: Option<u64>,
    /// Stop when another thread sets this flag.
    pub interrupt: Option<Arc<AtomicBool>>,
    /// Bytes the clauses may take (arena and watches): past it the call stops, and
    /// [`CdclSolver::out_of_memory`] says why.
    pub memory: Option<u64>,
    /// An instant past which loading and every call stop (with `timeout`, the earlier of
    /// the two): a caller whose time limit covers loading the formula sets it before
    /// [`CdclSolver::add_cnf_limited`].
    pub deadline: Option<Instant>,
    /// A value of the calling thread's CPU clock ([`thread_cpu_time`]) at which loading
    /// and every call stop (with `cpu_time`, the earlier of the two).
    pub cpu_deadline: Option<Duration>,
}

/// The calling thread's CPU time (user + system), from `CLOCK_THREAD_CPUTIME_ID`.
pub fn thread_cpu_time() -> Option<Duration> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the timespec we pass, which lives on our stack.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then(|| {
        Duration::new(
            ts.tv_sec.max(0) as u64,
            ts.tv_nsec.clamp(0, 999_999_999) as u32,
        )
    })
}

/// Propagation ticks (mostly literals of long clauses scanned for new watches) between
/// two looks at the limits (about a millisecond of propagation).
pub const TICK_CHECK: u64 = 1 << 20;

/// Literals loaded, or occurrences listed, between two looks at the limits.
pub(crate) const LOAD_CHECK: usize = 1 << 16;

/// The limits of one solve call, made absolute.
#[derive(Default)]
pub(crate) struct SearchBudget {
    /// Stop after this instant.
    pub(crate) deadline: Option<Instant>,
    /// Stop when the conflict counter reaches this.
    pub(crate) conflict_limit: Option<u64>,
    /// Stop when this flag is set.
    pub(crate) interrupt: Option<Arc<AtomicBool>>,
    /// Stop when the clauses take more bytes than this.
    pub(crate) memory: Option<u64>,
    /// Stop when the calling thread's CPU clock reaches this.
    pub(crate) cpu_deadline: Option<Duration>,
}

impl SearchBudget {
    /// True when the deadline or the CPU deadline passed or the interrupt flag is set.
    pub(crate) fn exhausted(&self) -> bool {
        self.interrupt
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .cpu_deadline
                .is_some_and(|d| thread_cpu_time().is_some_and(|now| now >= d))
    }
}
