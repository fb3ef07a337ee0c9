//! Conflict analysis: the first-UIP learnt clause, its recursive minimisation, its LBD,
//! and the final analysis that names the failed assumptions.
//!
//! Starting from the conflicting clause, literals of the current decision level are
//! resolved away in reverse trail order with their reason clauses until exactly one is
//! left: the first unique implication point (1UIP). The learnt clause is its negation
//! plus the literals of lower levels met on the way; after backjumping to the highest of
//! those levels it is unit and asserts the UIP's negation. Every variable met is bumped
//! (EVSIDS). Minimisation (MiniSat's `litRedundant`) then drops a literal whose reason
//! clause is, recursively, implied by the other literals of the clause; an abstraction of
//! the clause's decision levels (one bit per level modulo 32) cuts the search off early.
//! The LBD (number of distinct decision levels, glucose) rates the clause: small is good.
//! Reason clauses are not required to hold their implied literal first (binary clauses
//! are propagated from their watchers), so each loop skips the implied variable by name.

use super::clause::{CRef, NO_REASON};
use super::solver::CdclSolver;
use cnf_core::Lit;

/// `seen` mark of a variable the 1UIP walk met (and bumped): a literal of the learnt
/// clause, or a current-level variable while the walk lasts.
const IN_CLAUSE: u8 = 1;
/// `seen` mark of a variable that minimisation proved implied by the clause.
const IMPLIED: u8 = 2;
/// `seen` mark of a variable whose reasons reach a literal outside the clause.
const FAILED: u8 = 3;
/// `seen` mark of a variable bumped by reason-side bumping.
const REASON_BUMPED: u8 = 4;
/// Reason-side bumps per literal of the learnt clause at most.
const REASON_BUMPS_PER_LITERAL: usize = 10;

impl CdclSolver {
    /// Analyses `conflict` at the current level (> 0). Leaves the learnt clause in
    /// `self.learnt` (asserting literal first, a literal of the backjump level second) and
    /// returns (backjump level, LBD).
    pub(super) fn analyze(&mut self, mut conflict: CRef) -> (u32, u32) {
        let level = self.decision_level();
        self.learnt.clear();
        self.learnt.push(Lit::default()); // room for the asserting literal
        let mut pending = 0usize; // current-level literals still to resolve
        let mut index = self.trail.len();
        let mut implied: Option<Lit> = None;
        loop {
            debug_assert_ne!(conflict, NO_REASON);
            if self.arena.is_learnt(conflict) {
                self.bump_clause(conflict);
                self.refresh_lbd(conflict);
                if self.options.tiers {
                    self.mark_used(conflict);
                }
            }
            let skip = implied.map(|p| p.var().index());
            for k in 0..self.arena.len(conflict) {
                let q = self.arena.lit(conflict, k);
                let v = q.var().index();
                if Some(v) == skip || self.seen[v] != 0 || self.level[v] == 0 {
                    continue;
                }
                self.order.bump(v as u32);
                self.seen[v] = IN_CLAUSE;
                if self.level[v] >= level {
                    pending += 1;
                } else {
                    self.learnt.push(q);
                }
            }
            // The next current-level literal to resolve, walking the trail backwards.
            // (Under chronological backtracking the trail mixes in literals of lower
            // levels, some of them in the clause: those are not resolved.)
            loop {
                index -= 1;
                let v = self.trail[index].var().index();
                if self.seen[v] != 0 && self.level[v] >= level {
                    break;
                }
            }
            let p = self.trail[index];
            self.seen[p.var().index()] = 0;
            pending -= 1;
            if pending == 0 {
                self.learnt[0] = !p;
                break;
            }
            conflict = self.reason[p.var().index()];
            implied = Some(p);
        }

        // Minimise: drop literals implied by the rest of the clause.
        self.to_clear.clear();
        self.to_clear.extend_from_slice(&self.learnt);
        let mut abstract_levels = 0u32;
        for &l in &self.learnt[1..] {
            abstract_levels |= self.abstract_level(l.var().index());
        }
        let before = self.learnt.len();
        let mut kept = 1;
        for i in 1..self.learnt.len() {
            let l = self.learnt[i];
            let v = l.var().index();
            if self.reason[v] == NO_REASON || !self.lit_redundant(l, abstract_levels) {
                self.learnt[kept] = l;
                kept += 1;
            }
        }
        self.learnt.truncate(kept);
        self.stats.minimised_literals += (before - kept) as u64;
        if self.options.bump_reasons {
            self.bump_reason_literals();
        }
        for i in 0..self.to_clear.len() {
            self.seen[self.to_clear[i].var().index()] = 0;
        }

        // Put a literal of the highest remaining level second: the backjump level.
        let mut backjump = 0;
        if self.learnt.len() > 1 {
            let mut max_i = 1;
            for i in 2..self.learnt.len() {
                if self.level[self.learnt[i].var().index()]
                    > self.level[self.learnt[max_i].var().index()]
                {
                    max_i = i;
                }
            }
            self.learnt.swap(1, max_i);
            backjump = self.level[self.learnt[1].var().index()];
        }
        let lbd = self.compute_lbd_of_learnt();
        (backjump, lbd)
    }

    /// Bumps the variables in the reasons of the learnt clause's literals that the
    /// analysis did not bump already (CaDiCaL's `bump_also_reason_literals`, depth one):
    /// they are the ones that made the clause's literals false. At most
    /// [`REASON_BUMPS_PER_LITERAL`] per literal of the clause in all. Runs before the
    /// `seen` marks are cleared: the variables the 1UIP walk bumped that can occur in
    /// these reasons are the clause's collected literals, still marked [`IN_CLAUSE`]
    /// (the current-level ones it resolved away all come after the UIP on the trail, so
    /// no reason here holds them).
    fn bump_reason_literals(&mut self) {
        let mut left = REASON_BUMPS_PER_LITERAL * self.learnt.len();
        for i in 0..self.learnt.len() {
            let v = self.learnt[i].var().index();
            let reason = self.reason[v];
            if reason == NO_REASON {
                continue;
            }
            for k in 0..self.arena.len(reason) {
                let l = self.arena.lit(reason, k);
                let u = l.var().index();
                if u == v || self.level[u] == 0 || matches!(self.seen[u], IN_CLAUSE | REASON_BUMPED)
                {
                    continue;
                }
                if self.seen[u] == 0 {
                    self.to_clear.push(l);
                }
                self.seen[u] = REASON_BUMPED;
                self.order.bump(u as u32);
                left -= 1;
                if left == 0 {
                    return;
                }
            }
        }
    }

    /// One bit per decision level (modulo 32), to rule out levels quickly.
    #[inline]
    fn abstract_level(&self, v: usize) -> u32 {
        1 << (self.level[v] & 31)
    }

    /// True when literal `p` of the learnt clause follows from the clause's other literals
    /// through reason clauses (so it can be removed).
    ///
    /// A depth-first search through the reasons, remembering its verdicts for the rest of
    /// this analysis (MiniSat 2.2's later `litRedundant`, CaDiCaL's "poison"): a literal
    /// proved implied is marked [`IMPLIED`], one whose reasons reach a decision (or a
    /// level the clause does not have) outside the clause is marked [`FAILED`], and
    /// every mark goes to `to_clear`. A literal is redundant or not whatever path led to
    /// it, so the verdicts are exact: the clause is the one a search without memory
    /// would leave, found without walking a failed part of the graph twice.
    fn lit_redundant(&mut self, p: Lit, abstract_levels: u32) -> bool {
        debug_assert_ne!(self.reason[p.var().index()], NO_REASON);
        self.stack.clear();
        let mut p = p;
        let mut i = 0u32;
        loop {
            let pv = p.var().index();
            let reason = self.reason[pv];
            if (i as usize) < self.arena.len(reason) {
                let l = self.arena.lit(reason, i as usize);
                i += 1;
                let v = l.var().index();
                if v == pv || self.level[v] == 0 || matches!(self.seen[v], IN_CLAUSE | IMPLIED) {
                    continue; // in the clause (marked when it was collected) or proved
                }
                if self.seen[v] == FAILED
                    || self.reason[v] == NO_REASON
                    || self.abstract_level(v) & abstract_levels == 0
                {
                    // p and every literal on the stack depend on l: none is redundant.
                    self.stack.push((p, i));
                    for k in 0..self.stack.len() {
                        let q = self.stack[k].0;
                        let qv = q.var().index();
                        if self.seen[qv] == 0 {
                            self.seen[qv] = FAILED;
                            self.to_clear.push(q);
                        }
                    }
                    return false;
                }
                // Prove l first, then come back to p's next reason literal.
                self.stack.push((p, i));
                p = l;
                i = 0;
            } else {
                // Every literal of p's reason is implied: so is p.
                if self.seen[pv] == 0 {
                    self.seen[pv] = IMPLIED;
                    self.to_clear.push(p);
                }
                match self.stack.pop() {
                    Some((q, next)) => {
                        p = q;
                        i = next;
                    }
                    None => return true,
                }
            }
        }
    }

    /// The LBD of `self.learnt`.
    fn compute_lbd_of_learnt(&mut self) -> u32 {
        self.lbd_stamp += 1;
        let stamp = self.lbd_stamp;
        let mut n = 0;
        for &l in &self.learnt {
            let lv = self.level[l.var().index()] as usize;
            if self.level_stamp[lv] != stamp {
                self.level_stamp[lv] = stamp;
                n += 1;
            }
        }
        n
    }

    /// Recomputes the LBD of learnt clause `c` (met in an analysis) and keeps it if lower:
    /// a clause used again under a better assignment proves more useful than it looked.
    fn refresh_lbd(&mut self, c: CRef) {
        let old = self.arena.lbd(c);
        if old <= 2 {
            return;
        }
        self.lbd_stamp += 1;
        let stamp = self.lbd_stamp;
        let mut n = 0;
        for &x in self.arena.lits(c) {
            let lv = self.level[(x >> 1) as usize] as usize;
            if self.level_stamp[lv] != stamp {
                self.level_stamp[lv] = stamp;
                n += 1;
            }
        }
        if n + 1 < old {
            self.arena.set_lbd(c, n);
        }
    }

    /// The assumptions responsible for assumption `p` being false: walks the implication
    /// graph back from `¬p` to the decisions (all assumptions) it rests on. Fills
    /// `self.failed` with `p` and those assumptions.
    pub(super) fn analyze_final(&mut self, p: Lit) {
        self.failed.clear();
        self.failed.push(p);
        if self.decision_level() == 0 {
            return;
        }
        let pv = p.var().index();
        self.seen[pv] = 1;
        for i in (self.trail_lim[0]..self.trail.len()).rev() {
            let x = self.trail[i];
            let v = x.var().index();
            if self.seen[v] == 0 {
                continue;
            }
            let reason = self.reason[v];
            if reason == NO_REASON {
                // A decision below the assumption count is an assumption (possibly ¬p
                // itself, when both p and ¬p were assumed).
                self.failed.push(x);
            } else {
                for k in 0..self.arena.len(reason) {
                    let l = self.arena.lit(reason, k);
                    let u = l.var().index();
                    if u != v && self.level[u] > 0 {
                        self.seen[u] = 1;
                    }
                }
            }
            self.seen[v] = 0;
        }
        self.seen[pv] = 0;
    }
}
