//! Vivification of learnt and irredundant clauses (Piette, Hamadi and Saïs; organised as
//! in CaDiCaL's `vivify.cpp` and Kissat's `vivify.c`).
//!
//! For a clause `C = l1 ∨ … ∨ lk`, the literals are falsified one at a time at fresh
//! decision levels, propagating after each, with `C` itself out of the watch lists. If
//! propagation conflicts, conflict analysis walks back to the decisions the conflict
//! rests on: the negations of those decisions form a clause that is a subset of `C`. If
//! some `li` turns out true, the same walk from `li`'s reason gives `li` plus the
//! decisions it rests on. If every literal ends up false without either, the literals
//! that were false by implication can go. Each shortened clause is RUP (that propagation
//! is its proof), is added before the old one is deleted, and keeps the better LBD. A
//! learnt clause whose literals all stay (the last one implied by the others) is implied
//! by the rest of the formula through propagation alone, and is deleted.
//!
//! Candidates come in tiers (CaDiCaL's and Kissat's): the learnt clauses of LBD ≤
//! [`TIER1_LBD`] (tier 1, the ones reductions keep for good) and those of LBD ≤
//! [`TIER2_LBD`] (tier 2), each tier with its share of the round's effort; irredundant
//! clauses of three literals or more (option `vivify-irred`) in the simplification rounds.
//! Within a round the literals of every candidate are sorted by how often they occur in
//! the tier's candidates (most first), and the candidates lexicographically by that order
//! (clauses not tried before first): consecutive candidates then share prefixes, and the
//! decisions of the previous candidate are kept as far as they match the next one's
//! prefix (CaDiCaL's substitute for Han and Somenzi's trie), which saves most
//! propagations. Phases are not saved while vivifying.
//!
//! Schedule and effort: a learnt-clause round runs at the first restart after each
//! reduction of the learnt clauses, and may spend `vivify_effort` per mille of the
//! propagation ticks (watch-list visits and clause literals scanned, see `propagate.rs`)
//! the search spent since the previous round, at least [`MIN_VIVIFY_TICKS`]; tier 1 gets
//! a third of it, tier 2 the rest (and whatever tier 1 left).

use super::clause::{CRef, NO_REASON};
use super::solver::{CdclSolver, SearchBudget};
use super::tiers::{TIER1_LBD, TIER2_LBD};
use cnf_core::Lit;

/// Ticks a round may always use.
const MIN_VIVIFY_TICKS: u64 = 50_000;
/// Candidates vivified between two looks at the clock.
const CLOCK_CHECK: usize = 32;

/// A clause to vivify, with its literals in the round's order.
struct Candidate {
    /// The clause.
    cref: CRef,
    /// Its literals, most frequent first.
    lits: Vec<Lit>,
}

/// What vivifying one clause came to.
enum Vivified {
    /// The clause stays as it is.
    Unchanged,
    /// The clause was replaced by a shorter one (or a unit was assigned), or deleted.
    Changed,
    /// The empty clause, or a conflict at level 0: the formula is unsatisfiable.
    Unsat,
}

/// Orders `candidates` for a round: the literals of each by their number of occurrences
/// among the candidates (most first, then by code), the candidates untried first and then
/// lexicographically by that literal order, shorter first among equal prefixes.
fn schedule(s: &CdclSolver, list: &[CRef]) -> Vec<Candidate> {
    let mut counts = vec![0u32; s.vals.len()];
    for &c in list {
        for &x in s.arena.lits(c) {
            counts[x as usize] = counts[x as usize].saturating_add(1);
        }
    }
    let rank = |l: &Lit| (std::cmp::Reverse(counts[l.code()]), l.code());
    let mut candidates: Vec<(bool, Candidate)> = list
        .iter()
        .map(|&c| {
            let mut lits = s.arena.to_lits(c);
            lits.sort_unstable_by_key(rank);
            (s.arena.is_vivified(c), Candidate { cref: c, lits })
        })
        .collect();
    candidates.sort_by(|(ta, a), (tb, b)| {
        ta.cmp(tb).then_with(|| {
            let ka = a.lits.iter().map(rank);
            let kb = b.lits.iter().map(rank);
            ka.cmp(kb)
        })
    });
    candidates.into_iter().map(|(_, c)| c).collect()
}

impl CdclSolver {
    /// True when a learnt-clause vivification round is due (between restarts).
    pub(super) fn vivify_due(&self) -> bool {
        self.vivify_pending && self.options.inprocess && self.options.vivify
    }

    /// Vivifies the learnt clauses of tiers 1 and 2 (see the module note). Returns false
    /// when the formula turned out unsatisfiable.
    pub(super) fn vivify_learnts(&mut self, budget: &SearchBudget) -> bool {
        self.vivify_pending = false;
        self.cancel_until(0);
        if self.propagate() != NO_REASON {
            self.set_unsat();
            return false;
        }
        let search = self.ticks.saturating_sub(self.vivify_ticks);
        let total =
            (search.saturating_mul(self.options.vivify_effort) / 1000).max(MIN_VIVIFY_TICKS);
        let start = self.ticks;
        let tier1 = self.learnt_tier(0, TIER1_LBD);
        let mut ok = self.vivify_schedule(&tier1, start + total / 3, budget);
        if ok {
            let tier2 = self.learnt_tier(TIER1_LBD, TIER2_LBD);
            ok = self.vivify_schedule(&tier2, start + total, budget);
        }
        self.vivify_ticks = self.ticks;
        if !ok {
            self.set_unsat();
        }
        ok
    }

    /// The live learnt clauses of three literals or more with `lo < LBD ≤ hi`.
    fn learnt_tier(&self, lo: u32, hi: u32) -> Vec<CRef> {
        let arena = &self.arena;
        self.learnts
            .iter()
            .copied()
            .filter(|&c| {
                let lbd = arena.lbd(c);
                !arena.is_deleted(c) && arena.len(c) > 2 && lbd > lo && lbd <= hi
            })
            .collect()
    }

    /// Vivifies irredundant clauses of three literals or more, untried ones first, with
    /// `share` ticks at least [`MIN_VIVIFY_TICKS`] (CaDiCaL's `vivifyirred`). A shortened
    /// clause stays irredundant: it is implied by the clauses (the learnt ones are too),
    /// and it subsumes the clause it replaces, so the formula keeps its models. Returns
    /// false when the formula turned out unsatisfiable.
    pub(super) fn vivify_irredundant(&mut self, share: u64, budget: &SearchBudget) -> bool {
        let arena = &self.arena;
        let list: Vec<CRef> = self
            .originals
            .iter()
            .copied()
            .filter(|&c| !arena.is_deleted(c) && arena.len(c) >= 3)
            .collect();
        let limit = self.ticks + share.max(MIN_VIVIFY_TICKS);
        self.vivify_schedule(&list, limit, budget)
    }

    /// Vivifies the clauses of `list` (all learnt, or all irredundant) in the round's
    /// order until the ticks reach `limit`, then drops the replaced clauses from their
    /// list and the watches and returns to level 0.
    fn vivify_schedule(&mut self, list: &[CRef], limit: u64, budget: &SearchBudget) -> bool {
        debug_assert_eq!(self.decision_level(), 0);
        let candidates = schedule(self, list);
        self.ticks += candidates.len() as u64; // the sort's memory traffic, about
        let mut changed = false;
        let mut ok = true;
        for (i, cand) in candidates.iter().enumerate() {
            if self.ticks >= limit || (i % CLOCK_CHECK == CLOCK_CHECK - 1 && budget.exhausted()) {
                break;
            }
            match self.vivify_clause(cand) {
                Vivified::Unchanged => {}
                Vivified::Changed => changed = true,
                Vivified::Unsat => {
                    changed = true;
                    ok = false;
                    break;
                }
            }
        }
        self.backtrack(0, false);
        if changed {
            let arena = &self.arena;
            self.learnts.retain(|&c| !arena.is_deleted(c));
            self.originals.retain(|&c| !arena.is_deleted(c));
            self.purge_smudged();
        }
        ok
    }

    /// Keeps the decision levels of the previous candidate that match `lits`' prefix (the
    /// decisions are the negations of its first literals, in order; literals already false
    /// there are skipped as vivification would) and undoes the rest.
    fn reuse_decisions(&mut self, lits: &[Lit]) {
        let mut reuse = 0usize;
        for &l in lits {
            if reuse == self.trail_lim.len() {
                break;
            }
            if self.trail[self.trail_lim[reuse]] == !l {
                reuse += 1;
            } else if !(self.lit_value(l) == -1 && self.level[l.var().index()] as usize <= reuse) {
                break;
            }
        }
        self.backtrack(reuse as u32, false);
    }

    /// The decisions the implication graph leads back to from `conflict` (a clause all
    /// false) or, when `conflict` is [`NO_REASON`], from the reason of the true literal
    /// `implied`: their negations, which are literals of the clause being vivified.
    fn vivify_analyze(&mut self, conflict: CRef, implied: Option<Lit>) -> Vec<Lit> {
        let mut out = Vec::new();
        let mark = |s: &mut CdclSolver, c: CRef, skip: usize| {
            for k in 0..s.arena.len(c) {
                let u = s.arena.lit(c, k).var().index();
                if u != skip && s.level[u] > 0 {
                    s.seen[u] = 1;
                }
            }
        };
        match implied {
            Some(l) if conflict == NO_REASON => self.seen[l.var().index()] = 1,
            _ => mark(self, conflict, usize::MAX),
        }
        let from = self.trail_lim[0];
        let mut i = self.trail.len();
        while i > from {
            i -= 1;
            let x = self.trail[i];
            let v = x.var().index();
            if self.seen[v] == 0 {
                continue;
            }
            self.seen[v] = 0;
            let reason = self.reason[v];
            if reason == NO_REASON {
                out.push(!x);
            } else {
                self.ticks += 1;
                mark(self, reason, v);
            }
        }
        self.ticks += (self.trail.len() - from) as u64 / 8;
        out
    }

    /// Vivifies one candidate (see the module note).
    fn vivify_clause(&mut self, cand: &Candidate) -> Vivified {
        let c = cand.cref;
        if self.arena.is_deleted(c) {
            return Vivified::Unchanged;
        }
        self.reuse_decisions(&cand.lits);
        if self.decision_level() > 0 && self.locked(c) {
            self.backtrack(0, false);
        }
        if cand
            .lits
            .iter()
            .any(|&l| self.lit_value(l) == 1 && self.level[l.var().index()] == 0)
        {
            return Vivified::Unchanged; // satisfied at level 0: the next removal of those
        }
        self.arena.set_vivified(c);
        self.detach(c);
        self.ticks += 2;
        let mut conflict = NO_REASON;
        let mut implied = None;
        for &l in &cand.lits {
            match self.lit_value(l) {
                1 => {
                    implied = Some(l);
                    break;
                }
                -1 => {}
                _ => {
                    self.trail_lim.push(self.trail.len());
                    self.assign(!l, NO_REASON);
                    conflict = self.propagate();
                    if conflict != NO_REASON {
                        break;
                    }
                }
            }
        }
        let learnt = self.arena.is_learnt(c);
        let kept: Vec<Lit> = if conflict != NO_REASON || implied.is_some() {
            let mut kept = self.vivify_analyze(conflict, implied);
            if conflict == NO_REASON {
                kept.extend(implied);
            }
            kept
        } else {
            // Every literal false: the ones falsified by decisions stay.
            cand.lits
                .iter()
                .copied()
                .filter(|&l| {
                    let v = l.var().index();
                    self.level[v] > 0 && self.reason[v] == NO_REASON
                })
                .collect()
        };
        if conflict != NO_REASON {
            // The top level holds a conflict: no later candidate may reuse it.
            let top = self.decision_level() - 1;
            self.backtrack(top, false);
        }
        if kept.len() == cand.lits.len() {
            if learnt && implied.is_some() && conflict == NO_REASON {
                // Implied by the other clauses through propagation: redundant.
                self.stats.vivified += 1;
                self.remove_clause(c);
                return Vivified::Changed;
            }
            self.attach(c);
            return Vivified::Unchanged;
        }
        self.backtrack(0, false);
        self.stats.vivified += 1;
        if let Some(p) = &mut self.proof {
            p.add_lits(&kept);
            p.delete(self.arena.lits(c));
        }
        let lbd = self.arena.lbd(c).min(kept.len() as u32);
        let (activity, used) = (self.arena.activity(c), self.arena.used(c));
        let earlier = self.arena.is_earlier(c);
        self.free_clause(c);
        match kept.len() {
            0 => Vivified::Unsat,
            1 => {
                // Not false at level 0: no literal false there is kept.
                self.assign(kept[0], NO_REASON);
                if self.propagate() != NO_REASON {
                    Vivified::Unsat
                } else {
                    Vivified::Changed
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
                    if earlier {
                        self.arena.set_earlier(d);
                    }
                    self.learnts.push(d);
                } else {
                    self.push_original(d);
                }
                self.arena.set_vivified(d);
                self.attach(d);
                Vivified::Changed
            }
        }
    }
}
