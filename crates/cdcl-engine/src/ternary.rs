//! Hyper ternary resolution (CaDiCaL's `ternary`): resolvents of two ternary irredundant
//! clauses that are at most ternary themselves.
//!
//! Two ternary clauses `p ∨ a ∨ b` and `¬p ∨ c ∨ d` resolve on `p` into `a ∨ b ∨ c ∨ d`,
//! which has three literals when they share one (`a = c`) and two when they share both.
//! Such a resolvent is added as an irredundant clause unless it is a tautology or already
//! in the formula: a binary one is a strong fact (it subsumes clauses through the
//! subsumption queue it joins), a ternary one gives propagation a path that otherwise
//! needs a decision. Four-literal resolvents are not added. Each round visits the
//! variables in index order, skips a pivot whose ternary occurrences make more than
//! [`PAIR_LIMIT`] pairs, and stops when its own effort (a quarter of the round's, in
//! pairs and literals scanned) is spent or it has added as many ternary clauses as
//! [`ADDED_SHARE`] of the ternary clauses it started with (so the formula cannot grow
//! without bound from round to round).
//! Proof: every resolvent is RUP and is logged when added.

use super::clause::CRef;
use super::inprocess::Effort;
use super::solver::{CdclSolver, SearchBudget};

/// Pairs of ternary clauses on one pivot beyond which the pivot is skipped.
const PAIR_LIMIT: usize = 400;
/// Ternary resolvents a round may add, as a fraction (1/ADDED_SHARE) of the ternary
/// clauses at its start.
const ADDED_SHARE: usize = 4;

impl CdclSolver {
    /// The live ternary clauses with literal code `lit`.
    fn ternary_occurrences(&self, lit: usize) -> Vec<CRef> {
        self.occs[lit]
            .iter()
            .copied()
            .filter(|&c| !self.arena.is_deleted(c) && self.arena.len(c) == 3)
            .collect()
    }

    /// True when a live irredundant clause with exactly the literals `lits` (2 or 3 of
    /// them) is in the formula; the rarest literal's list is scanned.
    fn clause_exists(&self, lits: &[u32], effort: &mut Effort) -> bool {
        let rarest = lits
            .iter()
            .copied()
            .min_by_key(|&x| self.occs[x as usize].len())
            .expect("non-empty");
        let list = &self.occs[rarest as usize];
        effort.steps += list.len() as u64;
        list.iter().any(|&c| {
            !self.arena.is_deleted(c)
                && self.arena.len(c) <= lits.len()
                && self.arena.lits(c).iter().all(|x| lits.contains(x))
        })
    }

    /// One pass of hyper ternary resolution over the variables; the resolvents join
    /// `queue` (for subsumption). Returns false on the empty clause.
    pub(super) fn ternary_resolution(
        &mut self,
        queue: &mut Vec<CRef>,
        effort: &mut Effort,
        budget: &SearchBudget,
    ) -> bool {
        let ternaries = self
            .originals
            .iter()
            .filter(|&&c| !self.arena.is_deleted(c) && self.arena.len(c) == 3)
            .count();
        let max_added = ternaries / ADDED_SHARE;
        let mut added = 0;
        let mut lits: Vec<u32> = Vec::with_capacity(4);
        for v in 0..self.num_vars() {
            if effort.exhausted() || added >= max_added || (v % 32 == 31 && budget.exhausted()) {
                break;
            }
            let (pl, nl) = (2 * v as usize, 2 * v as usize + 1);
            if self.eliminated[v as usize] || self.vals[pl] != 0 {
                continue;
            }
            let pos = self.ternary_occurrences(pl);
            let neg = self.ternary_occurrences(nl);
            effort.steps += (self.occs[pl].len() + self.occs[nl].len()) as u64;
            if pos.is_empty() || neg.is_empty() || pos.len() * neg.len() > PAIR_LIMIT {
                continue;
            }
            for &c in &pos {
                for &d in &neg {
                    effort.steps += 1;
                    if self.arena.is_deleted(c) || self.arena.is_deleted(d) {
                        continue;
                    }
                    lits.clear();
                    lits.extend(self.arena.lits(c).iter().copied().filter(|&x| x >> 1 != v));
                    let mut tautology = false;
                    for &y in self.arena.lits(d) {
                        if y >> 1 == v || lits.contains(&y) {
                            continue;
                        }
                        if lits.contains(&(y ^ 1)) {
                            tautology = true;
                            break;
                        }
                        lits.push(y);
                    }
                    if tautology
                        || lits.len() > 3
                        || lits.iter().any(|&x| self.vals[x as usize] != 0)
                        || self.clause_exists(&lits, effort)
                    {
                        continue;
                    }
                    self.stats.ternary_resolvents += 1;
                    added += usize::from(lits.len() == 3);
                    if !self.add_derived(&lits, queue) {
                        return false;
                    }
                }
            }
        }
        true
    }
}
