//! Simplification rounds: when they run, what they cost, and the occurrence-list world
//! the techniques work in.
//!
//! A round runs at decision level 0 between restarts: the first after `inprocess_first`
//! conflicts (0 by default: a preprocessing before the search), the next
//! `inprocess_interval` conflicts later, and then at intervals
//! that grow by as much each time (Kissat's arithmetic schedule), so that the share of
//! time spent simplifying shrinks as the search settles. Each round has an effort limit in
//! *steps* (literals visited by subsumption and resolution): a base (for the first round
//! three steps per literal of the formula, between 1 and 30 million) plus `inprocess_effort` per mille of the propagations the search did since the
//! previous round, as Kissat and CaDiCaL tie their simplifiers' effort to search ticks.
//! The clock and the interrupt flag are looked at as well, so a round never outlives the
//! caller's limits.
//!
//! A round removes the clauses satisfied at level 0 (the units go to the proof first),
//! drops every watch, builds occurrence lists of the irredundant clauses, strips false
//! literals, substitutes equivalent literals ([`super::equiv`]), then runs subsumption
//! ([`super::subsume`]) and bounded variable elimination
//! ([`super::elim`]), which interleave through a queue of clauses to check for
//! subsumption. A unit found on the way is assigned and pushed through the occurrence
//! lists at once (satisfied clauses go, false literals are cut off). At the end, learnt
//! clauses that mention an eliminated variable are deleted, the watches are rebuilt from
//! the first two literals of each clause (which the watch invariant leaves non-false),
//! and the new units are propagated over all clauses. With the watches back, failed-literal
//! probing ([`super::probe`]) and vivification of learnt clauses ([`super::vivify`]) run,
//! each limited to the same share of the search's propagations. Every addition, strengthening and
//! deletion is written to the DRAT proof: resolvents and strengthened clauses are RUP,
//! and a strengthened clause is added before its old version is deleted.

use super::clause::{CRef, NO_REASON};
use super::solver::{CdclSolver, SearchBudget};
use crate::cnf::Lit;

/// Steps of the first round (the preprocessing) at most, on top of the share of the
/// search; it gets three steps per literal of the irredundant clauses, at least
/// `MIN_ROUND_STEPS` (a full subsumption pass over a 25×25 sudoku's 600,000 binary
/// clauses would otherwise cost a third of its solving time).
const FIRST_ROUND_STEPS: u64 = 30_000_000;
/// Steps of every later round at least.
const MIN_ROUND_STEPS: u64 = 1_000_000;

/// The step budget of a round, shared by the techniques.
pub(super) struct Effort {
    /// Steps done.
    pub steps: u64,
    /// Steps allowed.
    pub limit: u64,
}

impl Effort {
    /// True when the round has used up its steps.
    #[inline]
    pub fn exhausted(&self) -> bool {
        self.steps >= self.limit
    }
}

impl CdclSolver {
    /// True when a simplification round is due (call at level 0 only).
    pub(super) fn inprocess_due(&self) -> bool {
        self.options.inprocess
            && (self.options.elim
                || self.options.equiv
                || self.options.subsume
                || self.options.probe
                || self.options.vivify
                || self.options.vivify_irred)
            && self.stats.conflicts >= self.next_inprocess
    }

    /// Runs one simplification round at level 0. Returns false when the formula turned out
    /// unsatisfiable.
    pub(super) fn inprocess(&mut self, budget: &SearchBudget) -> bool {
        self.cancel_until(0);
        let first = self.stats.inprocessings == 0;
        self.stats.inprocessings += 1;
        let interval = self.options.inprocess_interval.max(1);
        self.next_inprocess = self.stats.conflicts + interval * self.stats.inprocessings;
        if self.propagate() != NO_REASON {
            self.set_unsat();
            return false;
        }
        let share = (self.stats.propagations - self.inprocess_propagations)
            .saturating_mul(self.options.inprocess_effort)
            / 1000;
        let base = if first {
            let lits: usize = self.originals.iter().map(|&c| self.arena.len(c)).sum();
            (3 * lits as u64).clamp(MIN_ROUND_STEPS, FIRST_ROUND_STEPS)
        } else {
            MIN_ROUND_STEPS
        };
        let mut effort = Effort {
            steps: 0,
            limit: base + share,
        };
        let rebuild = self.options.elim || self.options.subsume || self.options.equiv;
        if rebuild {
            // The watches are dropped and rebuilt below: no need to purge them now.
            self.remove_satisfied_unwatched();
        } else {
            self.remove_satisfied();
        }
        self.simplified_trail = self.trail.len();
        let mut ok = true;
        if rebuild {
            let start_trail = self.trail.len();
            self.occ_head = start_trail;
            self.connect_occurrences();
            ok = self.strip_false_literals();
            if ok {
                ok = self.simplify_occurrences(&mut effort, budget);
            }
            self.reconnect_watches(start_trail);
            if ok && self.propagate() != NO_REASON {
                ok = false;
            }
        }
        if ok && self.options.probe && !budget.exhausted() {
            ok = self.probe(share);
        }
        if ok && self.options.vivify && !budget.exhausted() {
            ok = self.vivify(share);
        }
        if ok && self.options.vivify_irred && !budget.exhausted() {
            ok = self.vivify_irredundant(share);
        }
        if !ok {
            self.set_unsat();
        }
        self.inprocess_propagations = self.stats.propagations;
        ok
    }

    /// Subsumption and elimination in turns until neither has work or the effort is spent.
    fn simplify_occurrences(&mut self, effort: &mut Effort, budget: &SearchBudget) -> bool {
        let mut queue: Vec<CRef> = if self.options.subsume {
            self.originals.clone()
        } else {
            Vec::new()
        };
        // Substitution removes variables as elimination does: only where elimination may
        // (incremental sessions switch elimination off, and substitution with it).
        if self.options.equiv
            && self.options.elim
            && !self.substitute_equivalences(&mut queue, effort)
        {
            return false;
        }
        if self.options.subsume && !queue.is_empty() {
            if !self.subsume_queue(&mut queue, effort) {
                return false;
            }
            queue.clear();
        }
        if self.ok
            && !effort.exhausted()
            && !budget.exhausted()
            && self.options.elim
            && !self.eliminate_variables(&mut queue, effort, budget)
        {
            return false;
        }
        self.ok
    }

    /// Builds the occurrence lists of the irredundant clauses and drops every watch.
    fn connect_occurrences(&mut self) {
        for list in self.watches.iter_mut().chain(self.bin_watches.iter_mut()) {
            list.clear();
        }
        self.occs = vec![Vec::new(); 2 * self.num_vars() as usize];
        for &c in &self.originals {
            for &x in self.arena.lits(c) {
                self.occs[x as usize].push(c);
            }
        }
    }

    /// Cuts false literals out of every irredundant clause.
    fn strip_false_literals(&mut self) -> bool {
        for i in 0..self.originals.len() {
            let c = self.originals[i];
            if !self.arena.is_deleted(c)
                && self
                    .arena
                    .lits(c)
                    .iter()
                    .any(|&x| self.vals[x as usize] != 0)
                && !self.simplify_clause(c)
            {
                return false;
            }
        }
        self.flush_units()
    }

    /// Applies the level-0 values to irredundant clause `c`: deletes it when satisfied,
    /// otherwise removes its false literals (a unit result is assigned and queued on the
    /// trail). Returns false on the empty clause.
    pub(super) fn simplify_clause(&mut self, c: CRef) -> bool {
        let lits = self.arena.lits(c);
        let satisfied = lits.iter().any(|&x| self.vals[x as usize] == 1);
        let false_lits = lits
            .iter()
            .filter(|&&x| self.vals[x as usize] == -1)
            .count();
        if !satisfied && false_lits == 0 {
            return true;
        }
        if !satisfied {
            self.stats.strengthened += false_lits as u64;
        }
        // `replace_clause` deletes a satisfied clause and drops the false literals.
        let lits = lits.to_vec();
        self.replace_clause(c, &lits)
    }

    /// Replaces irredundant clause `c` by `kept`, no longer than `c` and RUP (a subset of
    /// it: a strengthened clause or the clause minus false literals; or the clause
    /// rewritten through equivalent literals): logs the addition, then the deletion of the
    /// old version, and moves `c` between occurrence lists as its literals change. A unit
    /// is assigned (and `c` deleted); the empty clause returns false.
    pub(super) fn replace_clause(&mut self, c: CRef, kept: &[u32]) -> bool {
        if kept.iter().any(|&x| self.vals[x as usize] == 1) {
            self.remove_clause(c);
            return true;
        }
        let kept: Vec<u32> = kept
            .iter()
            .copied()
            .filter(|&x| self.vals[x as usize] == 0)
            .collect();
        let kept = &kept[..];
        if let Some(p) = &mut self.proof {
            p.add(kept);
        }
        match kept.len() {
            0 => {
                self.remove_clause(c);
                false
            }
            1 => {
                self.remove_clause(c);
                self.assign(Lit::from_code(kept[0]), NO_REASON);
                true
            }
            _ => {
                if let Some(p) = &mut self.proof {
                    p.delete(self.arena.lits(c));
                }
                // Drop c from the lists of the literals that go, add it to those that come.
                let old: Vec<u32> = self.arena.lits(c).to_vec();
                for &x in &old {
                    if !kept.contains(&x) {
                        self.occs[x as usize].retain(|&d| d != c);
                    }
                }
                for &x in kept {
                    if !old.contains(&x) {
                        self.occs[x as usize].push(c);
                    }
                }
                let lits = self.arena.lits_mut(c);
                lits[..kept.len()].copy_from_slice(kept);
                self.arena.shrink(c, kept.len());
                true
            }
        }
    }

    /// Adds a derived irredundant clause (a resolvent) during a round: logged, cleaned of
    /// level-0 values, assigned if unit, else stored with its occurrences and queued for
    /// subsumption. Returns false on the empty clause.
    pub(super) fn add_derived(&mut self, lits: &[u32], queue: &mut Vec<CRef>) -> bool {
        if lits.iter().any(|&x| self.vals[x as usize] == 1) {
            return true;
        }
        let kept: Vec<Lit> = lits
            .iter()
            .filter(|&&x| self.vals[x as usize] == 0)
            .map(|&x| Lit::from_code(x))
            .collect();
        if let Some(p) = &mut self.proof {
            p.add_lits(&kept);
        }
        match kept.len() {
            0 => false,
            1 => {
                self.assign(kept[0], NO_REASON);
                true
            }
            _ => {
                let c = self.arena.alloc(&kept, false);
                for l in &kept {
                    self.occs[l.code()].push(c);
                }
                self.originals.push(c);
                queue.push(c);
                true
            }
        }
    }

    /// Pushes the units assigned since the last propagation through the occurrence lists.
    /// The trail's `qhead` is left alone: the units are propagated over the learnt clauses
    /// once the watches are back. Returns false on the empty clause.
    pub(super) fn flush_units(&mut self) -> bool {
        while self.occ_head < self.trail.len() {
            let l = self.trail[self.occ_head];
            self.occ_head += 1;
            for side in [l, !l] {
                let list = std::mem::take(&mut self.occs[side.code()]);
                for &c in &list {
                    if !self.arena.is_deleted(c) && !self.simplify_clause(c) {
                        return false;
                    }
                }
                // Clauses strengthened meanwhile dropped themselves from the (now empty)
                // list; the list is useless anyway: the literal is assigned for good.
            }
        }
        true
    }

    /// Ends a round: forgets the occurrence lists, deletes learnt clauses that mention an
    /// eliminated variable, rebuilds every watch, and rewinds the propagation queue to
    /// `start_trail` so that the round's units reach the learnt clauses.
    fn reconnect_watches(&mut self, start_trail: usize) {
        self.occs = Vec::new();
        let arena = &self.arena;
        self.originals.retain(|&c| !arena.is_deleted(c));
        let learnts = std::mem::take(&mut self.learnts);
        let mut kept = Vec::with_capacity(learnts.len());
        for c in learnts {
            let stale = self
                .arena
                .lits(c)
                .iter()
                .any(|&x| self.eliminated[(x >> 1) as usize]);
            if stale {
                self.remove_clause(c);
            } else {
                kept.push(c);
            }
        }
        self.learnts = kept;
        for list in self.watches.iter_mut().chain(self.bin_watches.iter_mut()) {
            list.clear();
        }
        // Compact while no watcher needs relocating.
        self.maybe_compact();
        for i in 0..self.originals.len() {
            self.attach(self.originals[i]);
        }
        for i in 0..self.learnts.len() {
            self.attach(self.learnts[i]);
        }
        self.qhead = start_trail;
        self.occ_head = self.trail.len();
        self.proof_units = start_trail;
    }
}
