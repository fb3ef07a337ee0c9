//! Vivification of learnt and irredundant clauses (Piette, Hamadi and Saïs; as in
//! CaDiCaL and Kissat).
//!
//! For a clause `C = l1 ∨ … ∨ lk`, the literals are falsified one at a time at fresh
//! decision levels, propagating after each. If some `li` is already false, it is implied
//! false by the earlier ones and can go. If some `li` is already true, the clause can be
//! cut to the literals falsified so far plus `li`. If propagation conflicts, the clause
//! can be cut to the literals falsified so far. Each shortened clause is RUP (that
//! propagation is its proof), is added before the old one is deleted, and keeps the
//! better LBD. Learnt candidates are the clauses of low LBD (the ones reduction keeps
//! longest) not tried before, best LBD first; irredundant candidates (option
//! `vivify-irred`) the clauses of three literals or more not tried before, longest
//! first. Phases are not saved while vivifying.
//!
//! Effort: the propagations vivification does, limited to the round's share of the
//! search's propagations (at least `MIN_VIVIFY_PROPAGATIONS`).

use super::clause::{CRef, ClauseArena, NO_REASON};
use super::solver::{CdclSolver, LOAD_CHECK, SearchBudget};
use crate::cnf::Lit;

/// Propagations a vivification round may always use.
const MIN_VIVIFY_PROPAGATIONS: u64 = 200_000;
/// Learnt clauses up to this LBD are candidates.
const VIVIFY_MAX_LBD: u32 = 8;

/// The clauses of `list` that are neither deleted nor vivified yet and pass `keep`.
fn untried(
    arena: &ClauseArena,
    list: &[CRef],
    keep: impl Fn(&ClauseArena, CRef) -> bool,
) -> Vec<CRef> {
    list.iter()
        .copied()
        .filter(|&c| !arena.is_deleted(c) && !arena.is_vivified(c) && keep(arena, c))
        .collect()
}

/// What vivifying one clause came to.
enum Vivified {
    /// The clause stays as it is (or is satisfied at level 0).
    Unchanged,
    /// The clause was replaced by a shorter one (or a unit was assigned).
    Shortened,
    /// The empty clause, or a conflict at level 0: the formula is unsatisfiable.
    Unsat,
}

impl CdclSolver {
    /// Vivifies learnt clauses until the effort is spent. Returns false when the formula
    /// turned out unsatisfiable.
    pub(super) fn vivify(&mut self, share: u64, budget: &SearchBudget) -> bool {
        let mut candidates = untried(&self.arena, &self.learnts, |a, c| {
            a.lbd(c) <= VIVIFY_MAX_LBD
        });
        let arena = &self.arena;
        candidates.sort_by_key(|&c| (arena.lbd(c), arena.len(c)));
        self.vivify_candidates(&candidates, true, share, budget)
    }

    /// Vivifies irredundant clauses of three literals or more, not tried before, longest
    /// first, until the effort is spent (CaDiCaL's `vivifyirred`). A shortened clause
    /// stays irredundant: it is implied by the clauses (the learnt ones are too), and it
    /// subsumes the clause it replaces, so the formula keeps its models. Returns false
    /// when the formula turned out unsatisfiable.
    pub(super) fn vivify_irredundant(&mut self, share: u64, budget: &SearchBudget) -> bool {
        let mut candidates = untried(&self.arena, &self.originals, |a, c| a.len(c) >= 3);
        let arena = &self.arena;
        candidates.sort_by_key(|&c| std::cmp::Reverse(arena.len(c)));
        self.vivify_candidates(&candidates, false, share, budget)
    }

    /// Vivifies `candidates` (all `learnt`, or all irredundant) in turn until the effort
    /// is spent, then drops the replaced clauses from their list and the watches.
    fn vivify_candidates(
        &mut self,
        candidates: &[CRef],
        learnt: bool,
        share: u64,
        budget: &SearchBudget,
    ) -> bool {
        debug_assert_eq!(self.decision_level(), 0);
        let limit = self.stats.propagations + share.max(MIN_VIVIFY_PROPAGATIONS);
        let mut changed = false;
        let mut ok = true;
        for (i, &c) in candidates.iter().enumerate() {
            if self.stats.propagations >= limit || (i % 32 == 31 && budget.exhausted()) {
                break;
            }
            match self.vivify_clause(c, budget) {
                Vivified::Unchanged => {}
                Vivified::Shortened => changed = true,
                Vivified::Unsat => {
                    changed = true;
                    ok = false;
                    break;
                }
            }
        }
        if changed {
            let arena = &self.arena;
            let list = if learnt {
                &mut self.learnts
            } else {
                &mut self.originals
            };
            list.retain(|&c| !arena.is_deleted(c));
            self.purge_smudged();
        }
        ok
    }

    /// Vivifies clause `c` (see the module note): falsifies its literals in turn and keeps
    /// the ones that mattered.
    fn vivify_clause(&mut self, c: CRef, budget: &SearchBudget) -> Vivified {
        self.arena.set_vivified(c);
        let lits = self.arena.to_lits(c);
        if lits
            .iter()
            .any(|&l| self.lit_value(l) == 1 && self.level[l.var().index()] == 0)
        {
            return Vivified::Unchanged; // satisfied at level 0: the next removal of those
        }
        let mut kept: Vec<Lit> = Vec::with_capacity(lits.len());
        for (i, &l) in lits.iter().enumerate() {
            // A clause of millions of literals: out of time, it stays as it is.
            if i % LOAD_CHECK == LOAD_CHECK - 1 && budget.exhausted() {
                self.backtrack(0, false);
                return Vivified::Unchanged;
            }
            match self.lit_value(l) {
                1 => {
                    kept.push(l);
                    break;
                }
                -1 => {}
                _ => {
                    kept.push(l);
                    self.trail_lim.push(self.trail.len());
                    self.assign(!l, NO_REASON);
                    if self.propagate() != NO_REASON {
                        break;
                    }
                }
            }
        }
        self.backtrack(0, false);
        if kept.len() == lits.len() {
            return Vivified::Unchanged;
        }
        self.stats.vivified += 1;
        if let Some(p) = &mut self.proof {
            p.add_lits(&kept);
            p.delete(self.arena.lits(c));
        }
        let learnt = self.arena.is_learnt(c);
        let lbd = self.arena.lbd(c).min(kept.len() as u32);
        let (activity, used) = (self.arena.activity(c), self.arena.used(c));
        self.detach(c);
        self.free_clause(c);
        match kept.len() {
            0 => Vivified::Unsat,
            1 => {
                // Not false at level 0: every literal false there was dropped.
                self.assign(kept[0], NO_REASON);
                if self.propagate() != NO_REASON {
                    Vivified::Unsat
                } else {
                    Vivified::Shortened
                }
            }
            _ => {
                let d = self.arena.alloc(&kept, learnt);
                if learnt {
                    self.arena.set_lbd(d, lbd);
                    // The shorter clause inherits the standing of the old one, or the
                    // next reduction would take it for a fresh, unused clause.
                    self.arena.set_activity(d, activity);
                    self.arena.set_used(d, used);
                    self.learnts.push(d);
                } else {
                    self.push_original(d);
                }
                self.arena.set_vivified(d);
                self.attach(d);
                Vivified::Shortened
            }
        }
    }
}
