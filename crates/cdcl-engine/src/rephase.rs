//! Target and best phases, and rephasing (as in CaDiCaL's `rephase` and Kissat's
//! `phases`): which value a decision gives its variable, beyond plain phase saving.
//!
//! At every conflict, the trail below the conflicting decision level is a consistent
//! partial assignment. When it is longer than any before, its values are copied into the
//! *best* phases (longest since the last rephase) and the *target* phases (likewise, but
//! forgotten at every rephase as well); both are copied from the trail only, so a
//! variable keeps its old value where the trail says nothing. The target phases steer
//! decisions towards the largest conflict-free assignment seen, which helps on
//! satisfiable structured formulas; they are used when the search is *stable* (Luby
//! restarts or none), not under glucose's frequent restarts, where the saved phases
//! already are that assignment (Kissat uses targets in stable mode only, too).
//!
//! Under mode switching (`restart=modes`, see `restart.rs`) rephasing happens in the
//! stable phases only, as in Kissat. Rephasing is off in native's defaults: with learnt
//! clauses reduced by activity it no longer paid on random 3-SAT, and it cost time on
//! the unsatisfiable structured families (pigeonhole, Tseitin, parity, ordering), up to
//! 3× on parity. The target phases alone (option `target`, on in native's defaults: the
//! stable phases decide by them, and nothing resets the saved phases) keep most of the
//! gain: with mode switching they found the models of random 3-SAT and colouring
//! formulas in half the conflicts, at 1.2× on parity.
//!
//! Rephasing resets the saved phases every `REPHASE_INTERVAL · k` conflicts (k the rephase
//! count, so the intervals grow arithmetically), alternating between best and original
//! (false, the initial phase): the best phases bring the search back to its most
//! promising region, the original ones shake it out of a rut. (Kissat and CaDiCaL also
//! use inverted phases, all true; measured here, they made colouring and Tseitin
//! formulas take twice as long, since on exactly-one encodings "all true" is the worst
//! start.) Phases are not part of
//! the proof: nothing here adds or deletes a clause.

use super::solver::CdclSolver;

/// Conflicts before the first rephase; the k-th interval is k times as long.
const REPHASE_INTERVAL: u64 = 1_000;

/// Target and best phases and the rephase schedule.
#[derive(Clone, Debug, Default)]
pub struct Phases {
    /// Per variable: its value in the longest consistent trail since the last rephase.
    pub target: Vec<bool>,
    /// Per variable: its value in the longest consistent trail since the last rephase
    /// to best phases.
    pub best: Vec<bool>,
    /// Length of the trail the target phases were taken from.
    pub target_assigned: usize,
    /// Length of the trail the best phases were taken from.
    pub best_assigned: usize,
    /// Conflict count of the next rephase.
    pub next_rephase: u64,
    /// Rephases so far.
    pub rephases: u64,
}

impl Phases {
    /// Room for one more variable (initial phase false, as the saved phases).
    pub fn add_var(&mut self) {
        self.target.push(false);
        self.best.push(false);
    }
}

impl CdclSolver {
    /// Called at a conflict at level > 0, before backjumping: the trail below the current
    /// level is consistent; keeps it as target and best phases when it is the longest.
    #[inline]
    pub(super) fn update_target_and_best(&mut self) {
        let level = self.decision_level() as usize;
        if level == 0 {
            return;
        }
        let consistent = self.trail_lim[level - 1];
        // Targets are read in stable search only: copying them otherwise is wasted work.
        if self.use_target_phase() && consistent > self.phases.target_assigned {
            for &l in &self.trail[..consistent] {
                self.phases.target[l.var().index()] = l.is_positive();
            }
            self.phases.target_assigned = consistent;
        }
        // Best phases are read by rephasing only.
        if self.options.rephase && consistent > self.phases.best_assigned {
            for &l in &self.trail[..consistent] {
                self.phases.best[l.var().index()] = l.is_positive();
            }
            self.phases.best_assigned = consistent;
        }
    }

    /// True when the search keeps target phases (with rephasing or on their own).
    #[inline]
    pub(super) fn keeps_target_phases(&self) -> bool {
        self.options.rephase || self.options.target_phase
    }

    /// True when decisions take the target phase rather than the saved one.
    #[inline]
    pub(super) fn use_target_phase(&self) -> bool {
        self.keeps_target_phases() && self.restarts.is_stable()
    }

    /// At level 0 between restarts: resets the saved phases when a rephase is due.
    pub(super) fn maybe_rephase(&mut self) {
        if !self.options.rephase || self.stats.conflicts < self.phases.next_rephase {
            return;
        }
        if self.restarts.switches_modes() && !self.restarts.is_stable() {
            return; // under mode switching, the focused phases keep their saved phases
        }
        let p = &mut self.phases;
        let kind = p.rephases % 2;
        p.rephases += 1;
        p.next_rephase = self.stats.conflicts + REPHASE_INTERVAL * (p.rephases + 1);
        if self.stats.conflicts == 0 {
            return; // the first call only sets the schedule
        }
        self.stats.rephases += 1;
        let n = self.order.phase.len();
        if kind == 0 {
            self.order.phase.copy_from_slice(&self.phases.best[..n]);
            self.phases.best_assigned = 0;
        } else {
            self.order.phase.iter_mut().for_each(|x| *x = false);
        }
        self.phases.target[..n].copy_from_slice(&self.order.phase);
        self.phases.target_assigned = 0;
    }
}
