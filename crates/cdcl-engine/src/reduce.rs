//! Clause database maintenance: reducing the learnt clauses, removing clauses satisfied at
//! level 0, and compacting the arena.
//!
//! Learnt clauses slow propagation down, so every `2000 + 300·k` conflicts (glucose's
//! schedule) half of them are deleted. Clauses of LBD ≤ 2 ("glue" or core clauses, which
//! link only two decision levels) and binary clauses are kept for good; the others are
//! ranked by LBD and then by activity (how often they took part in recent conflicts) —
//! or, with the `reduce_activity` option (native's default), by activity alone as in
//! MiniSat, which measured better on ordering, pigeonhole, colouring, parity and the
//! sudokus (see the README) — and the worse half goes, except clauses that are the
//! reason of a current assignment
//! (locked). At level 0, clauses satisfied by the top-level units are useless forever and
//! are removed too; the units are written to the proof first so that a DRAT checker keeps
//! them after their reasons disappear. Deleting only marks clauses; their watchers are
//! purged at once, and the arena is compacted when a fifth of it is garbage (a
//! simplification round, which drops and rebuilds every watch anyway, skips the purge and
//! compacts before re-attaching). With the
//! `tiers` option the choice of what goes is `tiers.rs`'s instead of the worse half.

use super::clause::{CRef, ClauseArena, NO_REASON};
use super::solver::CdclSolver;
use super::watch;

impl CdclSolver {
    /// True when clause `c` is the reason of a current assignment.
    pub(super) fn locked(&self, c: CRef) -> bool {
        let lits = self.arena.lits(c);
        let check = if lits.len() == 2 { 2 } else { 1 };
        lits[..check]
            .iter()
            .any(|&x| self.vals[x as usize] == 1 && self.reason[(x >> 1) as usize] == c)
    }

    /// Deletes clause `c`, recording the deletion in the proof (an irredundant clause stays
    /// in occurrence lists until they are cleaned).
    pub(super) fn remove_clause(&mut self, c: CRef) {
        if let Some(proof) = &mut self.proof {
            proof.delete(self.arena.lits(c));
        }
        if self.arena.is_learnt(c) {
            self.stats.deleted += 1;
        }
        self.free_clause(c);
    }

    /// Frees clause `c` in the arena, without a word to the proof (the callers log it):
    /// an irredundant clause's variables lost a clause, so elimination may try them again.
    /// Its watched literals' lists are smudged, for the next purge.
    pub(super) fn free_clause(&mut self, c: CRef) {
        if !self.arena.is_learnt(c) {
            self.mark_dirty(c, super::inprocess::DIRTY_ELIM);
        }
        let lits = self.arena.lits(c);
        self.smudged.extend_from_slice(&lits[..lits.len().min(2)]);
        self.arena.delete(c);
    }

    /// Deletes the worse half of the non-core learnt clauses.
    pub(super) fn reduce_db(&mut self) {
        self.stats.reductions += 1;
        if self.options.tiers {
            self.reduce_tiered();
            self.after_deletions();
            return;
        }
        let mut learnts = std::mem::take(&mut self.learnts);
        self.sort_worst_first(&mut learnts);
        self.learnts = learnts;
        let target = self.learnts.len() / 2;
        let mut removed = 0;
        let mut kept = Vec::with_capacity(self.learnts.len());
        for i in 0..self.learnts.len() {
            let c = self.learnts[i];
            if removed < target && !self.is_core(c) && !self.locked(c) {
                self.remove_clause(c);
                removed += 1;
            } else {
                kept.push(c);
            }
        }
        self.learnts = kept;
        self.after_deletions();
    }

    /// At level 0: removes every clause satisfied by a top-level unit.
    pub(super) fn remove_satisfied(&mut self) {
        self.remove_satisfied_unwatched();
        self.after_deletions();
    }

    /// [`Self::remove_satisfied`] for a caller that drops every watch next (a
    /// simplification round rebuilds them and compacts the arena at its end): deletes the
    /// clauses satisfied at level 0 (the units go to the proof first) and leaves the
    /// watchers of the deleted clauses as they are, no compaction.
    pub(super) fn remove_satisfied_unwatched(&mut self) {
        debug_assert_eq!(self.decision_level(), 0);
        // The units survive their reasons: write them to the proof, forget the reasons.
        for i in self.proof_units..self.trail.len() {
            let l = self.trail[i];
            if let Some(proof) = &mut self.proof {
                proof.add(&[l.code() as u32]);
            }
            self.reason[l.var().index()] = NO_REASON;
        }
        self.proof_units = self.trail.len();
        let learnts = std::mem::take(&mut self.learnts);
        self.learnts = self.drop_satisfied(learnts);
        let originals = std::mem::take(&mut self.originals);
        self.originals = self.drop_satisfied(originals);
    }

    /// Deletes the clauses of `clauses` that a true literal satisfies; returns the others.
    fn drop_satisfied(&mut self, mut clauses: Vec<CRef>) -> Vec<CRef> {
        clauses.retain(|&c| {
            let satisfied = self
                .arena
                .lits(c)
                .iter()
                .any(|&x| self.vals[x as usize] == 1);
            if satisfied {
                self.remove_clause(c);
            }
            !satisfied
        });
        clauses
    }

    /// Purges watchers of deleted clauses; compacts the arena when it is 20% garbage.
    pub(super) fn after_deletions(&mut self) {
        self.purge_smudged();
        self.maybe_compact();
    }

    /// Drops the watchers of deleted clauses from the smudged lists, the only ones that
    /// can hold them: a purge costs in proportion to what was deleted, not to the
    /// formula (MiniSat's `OccLists::smudge`).
    pub(super) fn purge_smudged(&mut self) {
        watch::purge_lists(
            &mut self.smudged,
            &mut self.watches,
            &mut self.bin_watches,
            &self.arena,
        );
    }

    /// Empties every watch list (before the watches are rebuilt): nothing is left to
    /// purge either.
    pub(super) fn drop_watches(&mut self) {
        for list in self.watches.iter_mut().chain(self.bin_watches.iter_mut()) {
            list.clear();
        }
        self.smudged.clear();
    }

    /// Compacts the arena once deleted clauses hold a fifth of it.
    pub(super) fn maybe_compact(&mut self) {
        if self.arena.wasted() * 5 > self.arena.size() {
            self.compact();
        }
    }

    /// Copies the live clauses into a fresh arena and rewrites every reference.
    pub(super) fn compact(&mut self) {
        self.purge_smudged();
        let mut from = std::mem::take(&mut self.arena);
        let mut to = ClauseArena::with_capacity(from.size() - from.wasted());
        watch::relocate_all(&mut self.watches, &mut from, &mut to);
        watch::relocate_all(&mut self.bin_watches, &mut from, &mut to);
        for l in &self.trail {
            let r = &mut self.reason[l.var().index()];
            if *r != NO_REASON && from.is_deleted(*r) {
                // Only a level-0 reason can be deleted (simplification), and those are
                // never read: level-0 literals take no part in conflict analysis.
                *r = NO_REASON;
            } else if *r != NO_REASON {
                *r = from.relocate(*r, &mut to);
            }
        }
        for c in self.learnts.iter_mut().chain(self.originals.iter_mut()) {
            *c = from.relocate(*c, &mut to);
        }
        self.arena = to;
        self.stats.compactions += 1;
    }
}
