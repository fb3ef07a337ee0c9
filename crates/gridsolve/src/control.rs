//! The bookkeeping every search engine shares: counting nodes and guesses, checking the
//! stop condition every so many nodes, recording solutions against the limit, and
//! turning all of that into an [`Answer`].

use crate::answer::{Answer, Solution, Stats, Status};
use crate::limit::{Limit, Stop};

/// Search bookkeeping for one `solve` call.
pub(crate) struct Control<'a> {
    stop: Stop<'a>,
    limit: Limit,
    check_every: u64,
    next_check: u64,
    count: u64,
    stats: Stats,
    stopped: bool,
    full: bool,
    solutions: Vec<Solution>,
}

impl<'a> Control<'a> {
    /// Bookkeeping that checks `stop` at the start and then every `check_every` nodes.
    pub(crate) fn new(limit: Limit, stop: Stop<'a>, check_every: u64) -> Control<'a> {
        let stopped = stop.should_stop();
        Control {
            stop,
            limit,
            check_every: check_every.max(1),
            next_check: check_every.max(1),
            count: 0,
            stats: Stats::default(),
            stopped,
            full: false,
            solutions: Vec::new(),
        }
    }

    /// Counts a node; true when the search must end (stopped now or earlier, or the
    /// limit reached).
    #[inline]
    pub(crate) fn node(&mut self) -> bool {
        self.stats.nodes += 1;
        if self.stats.nodes >= self.next_check {
            self.next_check = self.stats.nodes + self.check_every;
            if !self.stop.is_never() && self.stop.should_stop() {
                self.stopped = true;
            }
        }
        self.done()
    }

    /// Whether the search stops at the first solution (so it may restart freely).
    pub(crate) fn wants_one(&self) -> bool {
        self.limit.max() == Some(1)
    }

    /// Nodes so far.
    pub(crate) fn nodes(&self) -> u64 {
        self.stats.nodes
    }

    /// Counts a guess.
    #[inline]
    pub(crate) fn guess(&mut self) {
        self.stats.guesses += 1;
    }

    /// True when the search must end: stopped, or the limit's `max` reached.
    #[inline]
    pub(crate) fn done(&self) -> bool {
        self.stopped || self.full
    }

    /// Records a solution (built by `make` only if it is kept).
    pub(crate) fn found(&mut self, make: impl FnOnce() -> Solution) {
        if self.count == 0 {
            self.stats.solved_without_guess = self.stats.guesses == 0;
        }
        self.count += 1;
        if self.solutions.len() < self.limit.keep() {
            self.solutions.push(make());
        }
        if self.limit.max().is_some_and(|m| self.count >= m) {
            self.full = true;
        }
    }

    /// The answer.
    pub(crate) fn finish(self) -> Answer {
        let status = if self.stopped {
            Status::Stopped
        } else if self.count > 0 {
            Status::Solved
        } else {
            Status::NoSolution
        };
        Answer {
            status,
            solutions: self.solutions,
            count: self.count,
            complete: !self.stopped && !self.full,
            stats: self.stats,
        }
    }
}
