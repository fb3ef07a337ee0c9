//! Clause tiers: which learnt clauses a reduction keeps (as in CaDiCaL's `reduce` and
//! Kissat's tiers), the alternative to glucose's "delete the worse half" of `reduce.rs`.
//!
//! Learnt clauses fall in three tiers by their LBD (refreshed whenever a clause takes part
//! in conflict analysis, so a clause can move up): *core* (LBD ≤ [`TIER1_LBD`]) is kept
//! for good, *tier 2* (LBD ≤ [`TIER2_LBD`]) is kept while it is used, *local* (the rest) is
//! kept only while it is used recently. Each clause carries a two-bit "used" count: a
//! conflict analysis that resolves on the clause sets it to 2 for tier 2 and 1 for local
//! clauses; every reduction decrements it. So a tier-2 clause survives two reductions
//! without use, a local clause one. The clauses whose count was zero (and that are not
//! core, binary or the reason of a current assignment) are the candidates: sorted worst
//! first (higher LBD, then lower activity, as glucose ranks), the worst [`REDUCE_PER_MILLE`] per mille of them go.
//! The schedule of reductions is `reduce.rs`'s (glucose's `2000 + 300·k` conflicts).
//! Deletions go to the DRAT proof as in `reduce.rs`.

use super::clause::CRef;
use super::solver::CdclSolver;

/// Learnt clauses up to this LBD are core and never reduced.
pub const TIER1_LBD: u32 = 2;
/// Learnt clauses up to this LBD are tier 2: kept for two reductions after each use.
pub const TIER2_LBD: u32 = 6;
/// Share of the candidates a reduction deletes, per mille (CaDiCaL and Kissat: 75%).
const REDUCE_PER_MILLE: usize = 750;

impl CdclSolver {
    /// Records that learnt clause `c` took part in a conflict analysis (its LBD already
    /// refreshed): it stays for one (local) or two (tier 2) more reductions.
    #[inline]
    pub(super) fn mark_used(&mut self, c: CRef) {
        let used = if self.arena.lbd(c) <= TIER2_LBD { 2 } else { 1 };
        if self.arena.used(c) < used {
            self.arena.set_used(c, used);
        }
    }

    /// True for a learnt clause no reduction deletes: binary, or of LBD ≤ [`TIER1_LBD`].
    pub(super) fn is_core(&self, c: CRef) -> bool {
        self.arena.len(c) <= 2 || self.arena.lbd(c) <= TIER1_LBD
    }

    /// Sorts `clauses` worst first: higher LBD, then less active (glucose's ranking); with
    /// the `reduce_activity` option, less active first whatever the LBD (MiniSat's).
    pub(super) fn sort_worst_first(&self, clauses: &mut [CRef]) {
        let arena = &self.arena;
        if self.options.reduce_activity {
            clauses.sort_unstable_by(|&a, &b| arena.activity(a).total_cmp(&arena.activity(b)));
            return;
        }
        clauses.sort_unstable_by(|&a, &b| {
            arena
                .lbd(b)
                .cmp(&arena.lbd(a))
                .then(arena.activity(a).total_cmp(&arena.activity(b)))
        });
    }

    /// Reduces the learnt clauses by tiers (see the module note).
    pub(super) fn reduce_tiered(&mut self) {
        let mut candidates: Vec<CRef> = Vec::new();
        for i in 0..self.learnts.len() {
            let c = self.learnts[i];
            let used = self.arena.used(c);
            if used > 0 {
                self.arena.set_used(c, used - 1);
                continue;
            }
            if self.is_core(c) || self.locked(c) {
                continue;
            }
            candidates.push(c);
        }
        self.sort_worst_first(&mut candidates);
        let target = candidates.len() * REDUCE_PER_MILLE / 1000;
        for &c in &candidates[..target] {
            self.remove_clause(c);
        }
        let arena = &self.arena;
        self.learnts.retain(|&c| !arena.is_deleted(c));
    }
}
