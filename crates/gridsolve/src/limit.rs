//! What a caller asks of one search: how many solutions to look for and to keep
//! ([`Limit`]), and when to give up early ([`Stop`]: an interrupt flag, a deadline, and a
//! value of the searching thread's CPU clock).

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

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
    cpu_deadline: Option<Duration>,
}

impl<'a> Stop<'a> {
    /// Never stop early.
    pub fn never() -> Stop<'static> {
        Stop {
            interrupt: None,
            deadline: None,
            cpu_deadline: None,
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

    /// Also stop once the searching thread's CPU clock ([`thread_cpu_time`]) reaches
    /// `cpu_deadline`.
    pub fn cpu_deadline(self, cpu_deadline: Duration) -> Stop<'a> {
        Stop {
            cpu_deadline: Some(cpu_deadline),
            ..self
        }
    }

    /// Whether the flag is set or the deadline or the CPU deadline has passed now.
    pub fn should_stop(&self) -> bool {
        if self
            .interrupt
            .is_some_and(|flag| flag.load(std::sync::atomic::Ordering::Relaxed))
        {
            return true;
        }
        matches!(self.deadline, Some(d) if Instant::now() >= d)
            || self
                .cpu_deadline
                .is_some_and(|d| thread_cpu_time().is_some_and(|now| now >= d))
    }

    /// Whether this stop condition can ever fire.
    pub fn is_never(&self) -> bool {
        self.interrupt.is_none() && self.deadline.is_none() && self.cpu_deadline.is_none()
    }
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
