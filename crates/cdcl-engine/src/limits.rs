//! The limits of solve calls: [`SolveLimits`] as a caller sets them (per call, or up to a
//! deadline), [`SearchBudget`] as one call looks at them, and how often it looks.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Limits of each solve call (each counted from the start of the call).
#[derive(Clone, Debug, Default)]
pub struct SolveLimits {
    /// Wall-clock time per call.
    pub timeout: Option<Duration>,
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
}

impl SearchBudget {
    /// True when the deadline passed or the interrupt flag is set.
    pub(crate) fn exhausted(&self) -> bool {
        self.interrupt
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}
