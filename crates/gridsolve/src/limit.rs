//! What a caller asks of one search: how many solutions to look for and to keep
//! ([`Limit`]), and when to give up early ([`Stop`]: an interrupt flag and a deadline).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// How many solutions to count and how many of them to keep.
///
/// The search stops as soon as `max` solutions are found (if `max` is set); otherwise it
/// explores the whole space and counts every solution. Solutions are kept (returned) up
/// to `keep` of them, the first ones found; the count goes on past `keep`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    max: Option<u64>,
    keep: usize,
}

impl Limit {
    /// Find one solution and keep it.
    pub fn first() -> Limit {
        Limit::at_most(1)
    }

    /// Find up to `n` solutions (at least 1) and keep them all.
    pub fn at_most(n: u64) -> Limit {
        let n = n.max(1);
        Limit {
            max: Some(n),
            keep: usize::try_from(n).unwrap_or(usize::MAX),
        }
    }

    /// Count every solution, keeping all of them (cap with [`Limit::keeping`]).
    pub fn all() -> Limit {
        Limit {
            max: None,
            keep: usize::MAX,
        }
    }

    /// The same limit, keeping at most `keep` solutions (the first found); counting is
    /// unchanged.
    pub fn keeping(self, keep: usize) -> Limit {
        Limit { keep, ..self }
    }

    /// The number of solutions after which the search stops, if any.
    pub fn max(&self) -> Option<u64> {
        self.max
    }

    /// How many solutions are kept.
    pub fn keep(&self) -> usize {
        self.keep
    }
}

/// When a search must give up before it is finished: when an interrupt flag becomes true
/// or a deadline passes. Both are checked at the start and then every few thousand search
/// nodes (fewer on large sides), so a search ends at most a few milliseconds late.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stop<'a> {
    interrupt: Option<&'a AtomicBool>,
    deadline: Option<Instant>,
}

impl<'a> Stop<'a> {
    /// Never stop early.
    pub fn never() -> Stop<'static> {
        Stop {
            interrupt: None,
            deadline: None,
        }
    }

    /// Also stop once `flag` is true (read with relaxed ordering).
    pub fn interrupt(self, flag: &'a AtomicBool) -> Stop<'a> {
        Stop {
            interrupt: Some(flag),
            ..self
        }
    }

    /// Also stop once `deadline` has passed.
    pub fn deadline(self, deadline: Instant) -> Stop<'a> {
        Stop {
            deadline: Some(deadline),
            ..self
        }
    }

    /// Whether the flag is set or the deadline has passed now.
    pub fn should_stop(&self) -> bool {
        if self
            .interrupt
            .is_some_and(|flag| flag.load(std::sync::atomic::Ordering::Relaxed))
        {
            return true;
        }
        matches!(self.deadline, Some(d) if Instant::now() >= d)
    }

    /// Whether this stop condition can ever fire.
    pub fn is_never(&self) -> bool {
        self.interrupt.is_none() && self.deadline.is_none()
    }
}
