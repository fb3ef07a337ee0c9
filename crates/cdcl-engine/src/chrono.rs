//! Chronological backtracking (Nadel and Ryvchin, SAT 2018; as in CaDiCaL).
//!
//! After a conflict, the learnt clause asserts its first literal at the *jump level* (the
//! highest level among its other literals). A non-chronological backjump undoes every
//! level above it, and with them assignments that the search will mostly redo. With the
//! option `chrono = T`, a jump over more than `T` levels goes back one level only: the
//! asserting literal is assigned at the jump level all the same, but placed on the trail
//! after literals of higher levels. The trail then no longer lists the levels in order,
//! and three places take care of that:
//!
//! - propagation gives an implied literal the highest level among the false literals of
//!   its reason (the current level, unless the literal propagated is itself of a lower
//!   level: `propagate.rs`);
//! - a conflict may involve no literal of the current level: the search first goes back
//!   to the highest level in the conflicting clause ([`CdclSolver::back_to_conflict_level`]),
//!   and the 1UIP walk of `analyze.rs` resolves only literals of that level;
//! - backtracking to level `l` undoes the literals above `l` and keeps the others where
//!   they are, in order ([`CdclSolver::backtrack_keeping_lower`]); they are propagated
//!   again, since some of their consequences were of higher levels.
//!
//! Learnt units always go back to level 0 (the level-0 literals stay a prefix of the
//! trail, which the removal of satisfied clauses and the proof's units rely on). The
//! clauses learnt are the same as without the option: proofs need nothing new.

use super::clause::CRef;
use super::solver::CdclSolver;

impl CdclSolver {
    /// Goes back to the highest level of a literal in `conflict` (all false). Returns
    /// false when that level is 0: the formula is unsatisfiable.
    pub(super) fn back_to_conflict_level(&mut self, conflict: CRef) -> bool {
        let mut highest = 0;
        for &x in self.arena.lits(conflict) {
            highest = highest.max(self.level[(x >> 1) as usize]);
        }
        if highest == 0 {
            return false;
        }
        self.cancel_until(highest);
        true
    }

    /// The level to go back to after learning a clause asserting at `jump`: one level
    /// back when the jump would undo more than `chrono` levels (and the clause is not a
    /// unit), else `jump`.
    pub(super) fn backtrack_target(&mut self, jump: u32) -> u32 {
        let level = self.decision_level();
        let chrono = self.options.chrono;
        if chrono > 0 && jump > 0 && level - jump > chrono {
            self.stats.chronological += 1;
            level - 1
        } else {
            jump
        }
    }

    /// Undoes the assignments of levels above `level` (saving their phases when
    /// `save_phases`) and keeps, in trail order, the literals of lower levels that sit
    /// above the start of level `level + 1`. The caller resets the propagation queue to
    /// that start, so the kept literals are propagated again.
    pub(super) fn backtrack_keeping_lower(&mut self, level: u32, save_phases: bool) {
        let lim = self.trail_lim[level as usize];
        let mut kept = lim;
        for i in lim..self.trail.len() {
            let l = self.trail[i];
            let v = l.var().index();
            if self.level[v] > level {
                self.vals[l.code()] = 0;
                self.vals[l.code() ^ 1] = 0;
                self.reason[v] = super::clause::NO_REASON;
                if save_phases {
                    self.order.phase[v] = l.is_positive();
                }
                self.order.insert(v as u32);
            } else {
                self.trail[kept] = l;
                kept += 1;
            }
        }
        self.trail.truncate(kept);
    }
}
