//! Forgetting between calls: an incremental session that solves unrelated problems one
//! after another (puzzles of the same rules, each under its own givens as assumptions)
//! keeps its learnt clauses only from one call to the next.
//!
//! A clause learnt under assumptions follows from the clauses alone, so it stays true for
//! every later call; but it was learnt about other givens, and on a 9×9 sudoku it is
//! seldom of use to the next puzzle, while every learnt clause is visited by propagation
//! whenever one of its two watched literals turns false. Measured in a session over
//! 10,100 minimal 9×9 (extended encoding, 1.2 conflicts a puzzle): with every learnt
//! clause kept (about 2,700 in the database on average, reduced on glucose's schedule)
//! propagation visited 7,750 long watchers a puzzle, with the earlier calls' clauses
//! dropped 1,100, and the session ran about 3× faster with the same conflicts and
//! decisions. So with [`Options::forget_between_calls`](super::Options) the end of each
//! call deletes the learnt clauses of the calls before it and marks its own as earlier:
//! they survive one more call, which is often the same puzzle again (the uniqueness check
//! of `--count 2`, with the found solution blocked). Only the watch lists of the deleted
//! clauses' two watched literals are purged, so forgetting costs in proportion to what is
//! forgotten, not to the formula.

use super::solver::CdclSolver;

impl CdclSolver {
    /// At level 0, after a call: deletes the learnt clauses of the earlier calls (except a
    /// reason of a level-0 unit) and marks the ones learnt in this call as earlier.
    pub(super) fn forget_earlier_learnts(&mut self) {
        debug_assert_eq!(self.decision_level(), 0);
        let learnts = std::mem::take(&mut self.learnts);
        for c in learnts {
            if self.arena.is_earlier(c) && !self.locked(c) {
                self.remove_clause(c);
            } else {
                self.arena.set_earlier(c);
                self.learnts.push(c);
            }
        }
        self.after_deletions();
    }
}

#[cfg(test)]
mod tests {
    use crate::{CdclSolver, Options, SolveResult};
    use cnf_core::rng::SplitMix64;
    use cnf_core::{Lit, Var};

    /// A satisfiable-looking random 3-SAT formula near the threshold (150 variables).
    fn random_3sat(seed: u64) -> Vec<Vec<Lit>> {
        let mut rng = SplitMix64::new(seed);
        (0..600)
            .map(|_| {
                (0..3)
                    .map(|_| Var::new(rng.below(150) as u32).lit(rng.next_u64() & 1 == 1))
                    .collect()
            })
            .collect()
    }

    fn solver(forget: bool, clauses: &[Vec<Lit>]) -> CdclSolver {
        let mut s = CdclSolver::with_options(Options {
            forget_between_calls: forget,
            ..Options::plain()
        });
        for c in clauses {
            s.add_clause(c);
        }
        s
    }

    fn satisfies(s: &CdclSolver, clauses: &[Vec<Lit>], assumptions: &[Lit]) -> bool {
        let t = |l: &Lit| s.value(*l) == Some(true);
        clauses.iter().all(|c| c.iter().any(t)) && assumptions.iter().all(t)
    }

    #[test]
    fn a_calls_learnt_clauses_live_one_more_call_and_answers_stay_right() {
        let clauses = random_3sat(5);
        let mut s = solver(true, &clauses);
        let mut plain = solver(false, &clauses);
        let mut rng = SplitMix64::new(9);
        let mut forgotten = 0;
        for call in 0..40 {
            let assumptions: Vec<Lit> = (0..4)
                .map(|_| Var::new(rng.below(150) as u32).lit(rng.next_u64() & 1 == 1))
                .collect();
            let before = s.num_learnts();
            let learnt_before = s.stats().learnt;
            let r = s.solve_with(&assumptions);
            assert_eq!(r, plain.solve_with(&assumptions), "call {call}");
            if r == SolveResult::Sat {
                assert!(satisfies(&s, &clauses, &assumptions), "call {call}");
            }
            // What is left: at most this call's clauses and none of the earlier ones.
            let learnt_now = (s.stats().learnt - learnt_before) as usize;
            assert!(s.num_learnts() <= learnt_now, "call {call}");
            forgotten += before.saturating_sub(s.num_learnts());
            for list in s.watches.iter().chain(s.bin_watches.iter()) {
                assert!(list.iter().all(|w| !s.arena.is_deleted(w.cref)));
            }
        }
        assert!(forgotten > 0, "the formula is too easy to show forgetting");
        assert!(plain.num_learnts() > s.num_learnts());
    }
}
