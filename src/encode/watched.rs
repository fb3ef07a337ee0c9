//! A clause sink that watches the time and a stop flag: an encoding in progress ends at
//! its deadline or on Ctrl-C/SIGTERM instead of running to the end (a 961×961 sudoku's
//! clauses take far longer to write than any time limit). It looks at the clock once every
//! [`CHECK_EVERY`] clauses; once stopped, it drops every further clause and the encoders,
//! which look at [`ClauseSink::stopped`] between groups, return early.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::cnf::{ClauseSink, Lit};

/// How many clauses pass between two looks at the clock.
pub const CHECK_EVERY: u32 = 4096;

/// Why an encoding was stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The deadline passed.
    Deadline,
    /// The stop flag was set (Ctrl-C, SIGTERM).
    Interrupted,
}

/// `inner`, watched: clauses pass to it until the deadline or the stop flag.
pub struct Watched<'a> {
    inner: &'a mut dyn ClauseSink,
    deadline: Option<Instant>,
    interrupt: Option<&'a AtomicBool>,
    since: u32,
    stop: Option<Stop>,
}

impl<'a> Watched<'a> {
    /// `inner` watched against `deadline` and `interrupt` (either may be absent).
    pub fn new(
        inner: &'a mut dyn ClauseSink,
        deadline: Option<Instant>,
        interrupt: Option<&'a AtomicBool>,
    ) -> Watched<'a> {
        let mut w = Watched {
            inner,
            deadline,
            interrupt,
            since: 0,
            stop: None,
        };
        w.look();
        w
    }

    /// Why it stopped, if it did.
    pub fn stop(&self) -> Option<Stop> {
        self.stop
    }

    fn look(&mut self) {
        if self.interrupt.is_some_and(|f| f.load(Ordering::Relaxed)) {
            self.stop = Some(Stop::Interrupted);
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stop = Some(Stop::Deadline);
        }
    }
}

impl ClauseSink for Watched<'_> {
    fn add_clause(&mut self, lits: &[Lit]) {
        if self.stop.is_some() {
            return;
        }
        self.since += 1;
        if self.since >= CHECK_EVERY {
            self.since = 0;
            self.look();
            if self.stop.is_some() {
                return;
            }
        }
        self.inner.add_clause(lits);
    }

    fn stopped(&self) -> bool {
        self.stop.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::Cnf;
    use crate::encode::{EncodeOptions, encode};
    use crate::puzzle::{Kind, Puzzle};

    #[test]
    fn an_encoding_past_its_deadline_or_stopped_ends_early() {
        let big = Puzzle::empty(Kind::Latin, 120).unwrap();
        let mut cnf = Cnf::new(0);
        let mut w = Watched::new(&mut cnf, Some(Instant::now()), None);
        encode(&big, EncodeOptions::default(), &mut w);
        assert_eq!(w.stop(), Some(Stop::Deadline));
        assert_eq!(cnf.num_clauses(), 0);
        let flag = AtomicBool::new(true);
        let mut cnf = Cnf::new(0);
        let mut w = Watched::new(&mut cnf, None, Some(&flag));
        encode(&big, EncodeOptions::default(), &mut w);
        assert_eq!(w.stop(), Some(Stop::Interrupted));
        // Unwatched in effect: the whole encoding.
        let small = Puzzle::empty(Kind::Sudoku, 9).unwrap();
        let mut cnf = Cnf::new(0);
        let mut w = Watched::new(&mut cnf, None, None);
        encode(&small, EncodeOptions::default(), &mut w);
        assert_eq!(w.stop(), None);
        assert_eq!(cnf.num_clauses(), 11_988);
    }
}
