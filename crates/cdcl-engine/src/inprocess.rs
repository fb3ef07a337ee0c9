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
//! ([`super::subsume`]) and bounded variable elimination ([`super::elim`]), which
//! interleave through a queue of clauses to check for subsumption. After the first
//! round both look only at what changed: each variable carries dirty flags, set
//! whenever an irredundant clause of it is added, shortened or removed, so a round
//! after a quiet stretch of search costs little. A unit found on the way is assigned
//! and pushed through the occurrence lists at once (satisfied clauses go, false
//! literals are cut off). At the end, learnt clauses that mention an eliminated
//! variable are deleted, the watches are rebuilt from the first two literals of each
//! clause (which the watch invariant leaves non-false), and the new units are
//! propagated over all clauses. With the watches back, failed-literal probing
//! ([`super::probe`]) and vivification of irredundant clauses ([`super::vivify`]) run, each
//! limited to the same share of the search's propagations. Every addition,
//! strengthening and deletion is written to the DRAT proof: resolvents and strengthened
//! clauses are RUP, and a strengthened clause is added before its old version is
//! deleted.

use super::clause::{CRef, NO_REASON};
use super::solver::{CdclSolver, LOAD_CHECK, SearchBudget};
use cnf_core::Lit;

/// Steps of the first round (the preprocessing) at most, on top of the share of the
/// search; it gets three steps per literal of the irredundant clauses, at least
/// `MIN_ROUND_STEPS` (a full subsumption pass over a 25×25 sudoku's 600,000 binary
/// clauses would otherwise cost a third of its solving time).
const FIRST_ROUND_STEPS: u64 = 30_000_000;
/// Steps of every later round at least.
const MIN_ROUND_STEPS: u64 = 1_000_000;

/// Dirty flag: an irredundant clause of the variable was added, removed or shortened
/// since elimination last tried it (trying it again may now succeed).
pub(super) const DIRTY_ELIM: u8 = 1;
/// Dirty flag: an irredundant clause of the variable was added or shortened since the
/// last subsumption pass (the clauses that hold it may now subsume or be subsumed).
pub(super) const DIRTY_SUBSUME: u8 = 2;
/// The flags of a variable whose clause was added or shortened.
pub(super) const DIRTY_ADDED: u8 = DIRTY_ELIM | DIRTY_SUBSUME;

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
            // Stopped by the limits while listing, the round only puts the watches back
            // (they were on non-false literals: the formula is as it was).
            if self.connect_occurrences(budget) {
                ok = self.strip_false_literals();
                if ok {
                    ok = self.simplify_occurrences(&mut effort, budget);
                }
            }
            self.reconnect_watches(start_trail);
            if ok && self.propagate() != NO_REASON {
                ok = false;
            }
        }
        if ok && self.options.probe && !budget.exhausted() {
            ok = self.probe(share, budget);
        }
        if ok && self.options.vivify_irred && !budget.exhausted() {
            ok = self.vivify_irredundant(share, budget);
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
            self.subsumption_candidates()
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
        if self.options.ternary && self.options.elim && !budget.exhausted() {
            // An effort of its own, a quarter of the round's (`ternary.rs`).
            let mut own = Effort {
                steps: 0,
                limit: effort.limit / 4,
            };
            if !self.ternary_resolution(&mut queue, &mut own, budget) {
                return false;
            }
        }
        if self.options.subsume && !queue.is_empty() {
            if !self.subsume_queue(&mut queue, effort) {
                return false;
            }
            // Clauses the effort did not reach wait for the next pass (elimination has
            // nothing new to try on them).
            for &c in &queue {
                if !self.arena.is_deleted(c) {
                    self.mark_dirty(c, DIRTY_SUBSUME);
                }
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

    /// The irredundant clauses that hold a variable dirty for subsumption: a pair of
    /// clauses of which one subsumes (or strengthens) the other has all its variables
    /// in the longer clause, so when either clause is new since the last pass, the
    /// shorter one holds a dirty variable and is a candidate. Clears the flags: what
    /// changes from here on is marked again for the next round.
    fn subsumption_candidates(&mut self) -> Vec<CRef> {
        let arena = &self.arena;
        let dirty = &self.dirty;
        let queue: Vec<CRef> = self
            .originals
            .iter()
            .copied()
            .filter(|&c| {
                !arena.is_deleted(c)
                    && arena
                        .lits(c)
                        .iter()
                        .any(|&x| dirty[(x >> 1) as usize] & DIRTY_SUBSUME != 0)
            })
            .collect();
        for d in &mut self.dirty {
            *d &= !DIRTY_SUBSUME;
        }
        queue
    }

    /// Builds the occurrence lists of the irredundant clauses and drops every watch.
    /// Returns false when the limits stopped it (the lists are then partial).
    fn connect_occurrences(&mut self, budget: &SearchBudget) -> bool {
        self.drop_watches();
        let mut counts = vec![0u32; 2 * self.num_vars() as usize];
        let mut listed = 0;
        for &c in &self.originals {
            for &x in self.arena.lits(c) {
                counts[x as usize] += 1;
            }
            listed += self.arena.len(c);
            if listed >= LOAD_CHECK {
                listed = 0;
                if budget.exhausted() {
                    return false;
                }
            }
        }
        self.occs = Vec::with_capacity(counts.len());
        for chunk in counts.chunks(LOAD_CHECK) {
            if budget.exhausted() {
                return false;
            }
            let lists = chunk.iter().map(|&n| Vec::with_capacity(n as usize));
            self.occs.extend(lists);
        }
        for &c in &self.originals {
            for &x in self.arena.lits(c) {
                self.occs[x as usize].push(c);
            }
            listed += self.arena.len(c);
            if listed >= LOAD_CHECK {
                listed = 0;
                if budget.exhausted() {
                    return false;
                }
            }
        }
        true
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
                self.mark_dirty(c, DIRTY_ELIM);
                // Drop c from the lists of the literals that go, add it to those that come
                // (looked up in sorted copies: a clause may hold millions of literals).
                let old: Vec<u32> = self.arena.lits(c).to_vec();
                let mut old_sorted = old.clone();
                old_sorted.sort_unstable();
                let mut kept_sorted = kept.to_vec();
                kept_sorted.sort_unstable();
                for &x in &old {
                    if kept_sorted.binary_search(&x).is_err() {
                        self.occs[x as usize].retain(|&d| d != c);
                    }
                }
                for &x in kept {
                    if old_sorted.binary_search(&x).is_err() {
                        self.occs[x as usize].push(c);
                    }
                }
                let lits = self.arena.lits_mut(c);
                lits[..kept.len()].copy_from_slice(kept);
                self.arena.shrink(c, kept.len());
                self.mark_dirty(c, DIRTY_ADDED);
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
                self.push_original(c);
                queue.push(c);
                true
            }
        }
    }

    /// Enters irredundant clause `c` into the formula: its variables become dirty for
    /// both simplifiers (the one way clauses join `originals`).
    pub(super) fn push_original(&mut self, c: CRef) {
        self.originals.push(c);
        self.mark_dirty(c, DIRTY_ADDED);
    }

    /// Sets `flags` on the variables of irredundant clause `c`: [`DIRTY_ADDED`] when it was
    /// just added or shortened, [`DIRTY_ELIM`] when it is about to be removed or shortened.
    pub(super) fn mark_dirty(&mut self, c: CRef, flags: u8) {
        for &x in self.arena.lits(c) {
            self.dirty[(x >> 1) as usize] |= flags;
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
        self.drop_watches();
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

#[cfg(test)]
mod tests {
    use super::{DIRTY_ELIM, DIRTY_SUBSUME};
    use crate::solver::SearchBudget;
    use crate::{CdclSolver, Options};
    use cnf_core::Lit;

    fn clause(d: &[i32]) -> Vec<Lit> {
        d.iter().map(|&x| Lit::from_dimacs(x)).collect()
    }

    /// A solver whose rounds only subsume (nothing is eliminated or probed away).
    fn subsuming(clauses: &[&[i32]]) -> CdclSolver {
        let mut s = CdclSolver::with_options(Options {
            elim: false,
            probe: false,
            ..Options::default()
        });
        for c in clauses {
            assert!(s.add_clause(&clause(c)));
        }
        s
    }

    #[test]
    fn a_round_looks_only_at_what_changed_and_misses_no_new_pair() {
        let mut s = subsuming(&[&[1, 2, 3], &[4, 5, 6], &[-1, -4, 7]]);
        let budget = SearchBudget::default();
        assert!(s.inprocess(&budget));
        assert_eq!(s.stats.subsumed, 0);
        assert!(s.dirty.iter().all(|d| d & DIRTY_SUBSUME == 0));
        assert!(s.subsumption_candidates().is_empty(), "nothing new");
        // A new clause that subsumes an old one.
        assert!(s.add_clause(&clause(&[1, 2])));
        assert!(s.inprocess(&budget));
        assert_eq!(s.stats.subsumed, 1);
        // A new clause that an old one subsumes: the old one holds only dirty variables.
        assert!(s.add_clause(&clause(&[4, 5, 6, 8])));
        assert!(s.inprocess(&budget));
        assert_eq!(s.stats.subsumed, 2);
        // A new clause that an old one strengthens: (4 5 ¬6) becomes (4 5).
        assert!(s.add_clause(&clause(&[4, 5, -6])));
        assert!(s.inprocess(&budget));
        assert_eq!(s.stats.strengthened, 1);
        // The strengthened clause is new in turn; once looked at, all is quiet.
        assert!(s.inprocess(&budget));
        assert!(s.subsumption_candidates().is_empty());
    }

    #[test]
    fn elimination_tries_a_variable_again_only_when_its_clauses_changed() {
        // x1 in three clauses of each sign with no tautology among the nine resolvents:
        // more than the six clauses, so the bound refuses it. The others are frozen.
        let mut s = CdclSolver::with_options(Options {
            probe: false,
            ..Options::default()
        });
        for c in [
            [1, 2, 3],
            [1, 4, 5],
            [1, 6, 7],
            [-1, 8, 9],
            [-1, 2, 5],
            [-1, 4, 7],
        ] {
            assert!(s.add_clause(&clause(&c)));
        }
        for v in 1..9 {
            s.freeze(cnf_core::Var::new(v));
        }
        let budget = SearchBudget::default();
        assert!(s.inprocess(&budget));
        let x1 = 0;
        assert!(!s.eliminated[x1], "the bound keeps x1");
        assert_eq!(s.dirty[x1] & DIRTY_ELIM, 0, "x1 was tried and refused");
        // Units satisfy three of its clauses: two resolvents for three clauses now.
        assert!(s.add_clause(&clause(&[8])));
        assert!(s.add_clause(&clause(&[2])));
        assert!(s.inprocess(&budget));
        assert!(s.eliminated[x1]);
    }
}
