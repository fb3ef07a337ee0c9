//! Bounded variable elimination (SatELite, as in MiniSat's SimpSolver and CaDiCaL).
//!
//! Eliminating variable `x` replaces the clauses that contain `x` or `¬x` by all their
//! non-tautological resolvents on `x`: the formula without `x` is satisfiable exactly when
//! the original is (Davis–Putnam). It is done only when it does not make the formula
//! bigger: at most as many resolvents as removed clauses plus `elim_bound`, none longer
//! than `elim_clause_limit`, and (option `elim_lit_bound`, on by default) with no more
//! literals than the removed clauses had, give or take `elim_lit_slack` (1 in `native`):
//! on XOR chains (parity, Tseitin) resolving turns 3-literal clauses into 4-literal ones
//! at an unchanged clause count, which made the search several times longer for minisat
//! and native alike in our measurements. One literal of slack lets a variable go whose
//! seven clauses (19 literals) resolve into six (20 literals, two of them 4-literal),
//! common in circuits: on a 10-bit counter it took elimination as far as MiniSat's
//! clause-count bound goes (365 variables against 189), and it left the XOR families
//! exactly as they were.
//! Candidates are the unassigned, unfrozen variables whose irredundant clauses changed
//! since elimination last refused them (`DIRTY_ELIM` in `inprocess.rs`: the bound's
//! answer depends on those clauses alone; every variable is a candidate in the first
//! round), cheapest first (fewest
//! `|occ(x)|·|occ(¬x)|` pairs) in a queue that follows the costs as they change
//! (`elim_queue.rs`, MiniSat's `elim_heap`): when a variable goes, the variables of its
//! removed clauses are queued again at their new costs, so a neighbour made cheap is tried
//! next and one that failed earlier gets another chance. A variable with more than
//! `elim_occ_limit` occurrences is not tried, and a pure variable (one sign only) goes with
//! no resolvent. The removed clauses are pushed on the extension stack ([`super::extend`])
//! so that models can be completed, and resolvents are queued for subsumption.
//! Where a gate defines the variable (option `elim_gates`, [`super::gates`]: an AND, XOR,
//! if-then-else or equivalence among its clauses), only the gate clauses are resolved
//! against the others: the rest of the resolvents are tautologies or implied, and the
//! bound counts only those added; `elim_gate_bound` may allow such a variable more
//! added clauses than `elim_bound` allows the others.
//!
//! Effort: resolving costs the length of the second clause of each pair, counted
//! against the round's steps whether the elimination happens or not; the passes stop when
//! the steps are spent (or the caller's clock runs out).
//! Proof: resolvents are RUP and are added before the clauses they come from are deleted.

use super::clause::CRef;
use super::elim_queue::ElimQueue;
use super::inprocess::{DIRTY_ELIM, Effort};
use super::solver::{CdclSolver, LOAD_CHECK, SearchBudget};
use cnf_core::Lit;

impl CdclSolver {
    /// True when variable `v` may be eliminated now.
    fn can_eliminate(&self, v: u32) -> bool {
        let v = v as usize;
        !self.eliminated[v] && self.frozen[v] == 0 && self.vals[2 * v] == 0
    }

    /// Drops the deleted clauses from `v`'s two occurrence lists (they are purged lazily).
    fn drop_dead_occurrences(&mut self, v: u32) {
        let arena = &self.arena;
        self.occs[2 * v as usize].retain(|&c| !arena.is_deleted(c));
        self.occs[2 * v as usize + 1].retain(|&c| !arena.is_deleted(c));
    }

    /// The cost of eliminating `v`: `|occ(v)| · |occ(¬v)|` over the live clauses.
    fn elim_cost(&mut self, v: u32) -> u64 {
        self.drop_dead_occurrences(v);
        self.occs[2 * v as usize].len() as u64 * self.occs[2 * v as usize + 1].len() as u64
    }

    /// Tries to eliminate every variable, cheapest first (an [`ElimQueue`]); a variable
    /// whose clauses changed with an elimination is queued again at its new cost.
    /// Returns false on the empty clause.
    pub(super) fn eliminate_variables(
        &mut self,
        queue: &mut Vec<CRef>,
        effort: &mut Effort,
        budget: &SearchBudget,
    ) -> bool {
        let mut order = ElimQueue::new(self.num_vars() as usize);
        for v in 0..self.num_vars() {
            if v as usize % LOAD_CHECK == LOAD_CHECK - 1 && budget.exhausted() {
                return true;
            }
            if self.can_eliminate(v) && self.dirty[v as usize] & DIRTY_ELIM != 0 {
                let cost = self.elim_cost(v);
                order.update(v, cost);
            }
        }
        let mut seen = vec![false; self.num_vars() as usize];
        let mut tried = 0u64;
        while let Some(v) = order.pop() {
            if effort.exhausted() || (tried.is_multiple_of(32) && budget.exhausted()) {
                break;
            }
            tried += 1;
            if !self.can_eliminate(v) {
                continue;
            }
            match self.try_eliminate(v, queue, effort) {
                Err(()) => return false,
                Ok(None) => {
                    // The bound said no; it says so again until v's clauses change.
                    if !effort.exhausted() {
                        self.dirty[v as usize] &= !DIRTY_ELIM;
                    }
                }
                Ok(Some(vars)) => {
                    if self.options.subsume
                        && !queue.is_empty()
                        && !self.subsume_queue(queue, effort)
                    {
                        return false;
                    }
                    queue.clear();
                    for (i, &u) in vars.iter().enumerate() {
                        // The clauses of one variable may hold millions of literals.
                        if i % LOAD_CHECK == LOAD_CHECK - 1 && budget.exhausted() {
                            return true;
                        }
                        if !seen[u as usize] && self.can_eliminate(u) {
                            seen[u as usize] = true;
                            let cost = self.elim_cost(u);
                            order.update(u, cost);
                        }
                    }
                    for &u in &vars {
                        seen[u as usize] = false;
                    }
                }
            }
        }
        true
    }

    /// Eliminates `v` if the bound allows. Returns `Ok(None)` when `v` stays, the variables
    /// of its removed clauses when it went, `Err` on the empty clause.
    fn try_eliminate(
        &mut self,
        v: u32,
        queue: &mut Vec<CRef>,
        effort: &mut Effort,
    ) -> Result<Option<Vec<u32>>, ()> {
        let (pl, nl) = (2 * v as usize, 2 * v as usize + 1);
        self.drop_dead_occurrences(v);
        let pos = self.occs[pl].clone();
        let neg = self.occs[nl].clone();
        if pos.is_empty() && neg.is_empty() {
            return Ok(None); // in no clause: nothing to gain, and callers may still use it
        }
        if !pos.is_empty() && !neg.is_empty() && pos.len() + neg.len() > self.options.elim_occ_limit
        {
            return Ok(None);
        }
        // A clause longer than the resolvent limit (plus v) makes only resolvents over the
        // limit, or tautologies: no use resolving it (millions of literals a pair).
        if !pos.is_empty()
            && !neg.is_empty()
            && pos
                .iter()
                .chain(&neg)
                .any(|&c| self.arena.len(c) > self.options.elim_clause_limit.saturating_add(1))
        {
            return Ok(None);
        }
        // With a gate, only gate clauses are resolved against the others (`gates.rs`).
        let gate = if self.options.elim_gates && !pos.is_empty() && !neg.is_empty() {
            self.find_gate(v, &pos, &neg, effort)
        } else {
            None
        };
        // Count (and keep) the non-tautological resolvents, giving up past the bound.
        // A variable defined by a gate may add `elim_gate_bound` clauses where that is more.
        let extra = match gate {
            Some(_) => self.options.elim_bound.max(self.options.elim_gate_bound),
            None => self.options.elim_bound,
        };
        let bound = pos.len() + neg.len() + extra;
        // Literals too may not grow (beyond `elim_lit_slack`, and `elim_bound` clauses'
        // worth of 3 literals).
        let removed_lits: usize = pos.iter().chain(&neg).map(|&c| self.arena.len(c)).sum();
        let lit_bound = removed_lits + 3 * extra + self.options.elim_lit_slack;
        let mut added_lits = 0;
        // And long (non-binary) clauses may not grow in number: binary clauses propagate
        // fastest, and turning them into ternary ones cost colouring formulas twice the
        // conflicts.
        let removed_long = pos
            .iter()
            .chain(&neg)
            .filter(|&&c| self.arena.len(c) > 2)
            .count();
        let long_bound = removed_long + extra;
        let mut added_long = 0;
        // The resolvents kept so far, one after another in `lits`, each ending at its
        // entry of `ends` (one buffer for all, not a vector per pair).
        let mut lits: Vec<u32> = Vec::new();
        let mut ends: Vec<usize> = Vec::new();
        for (i, &p) in pos.iter().enumerate() {
            for &x in self.arena.lits(p) {
                self.marks[(x >> 1) as usize] = if x & 1 == 0 { 1 } else { -1 };
            }
            let mut give_up = false;
            for (j, &q) in neg.iter().enumerate() {
                if gate.as_ref().is_some_and(|g| g.pos[i] == g.neg[j]) {
                    continue;
                }
                effort.steps += self.arena.len(q) as u64;
                let start = lits.len();
                lits.extend(
                    self.arena
                        .lits(p)
                        .iter()
                        .copied()
                        .filter(|&x| (x >> 1) != v),
                );
                let mut tautology = false;
                for &y in self.arena.lits(q) {
                    if (y >> 1) == v {
                        continue;
                    }
                    let m = self.marks[(y >> 1) as usize];
                    let sign = if y & 1 == 0 { 1 } else { -1 };
                    if m == -sign {
                        tautology = true;
                        break;
                    } else if m == 0 {
                        lits.push(y);
                    }
                }
                if tautology {
                    lits.truncate(start);
                    continue;
                }
                let len = lits.len() - start;
                added_lits += len;
                added_long += usize::from(len > 2);
                if len > self.options.elim_clause_limit
                    || ends.len() >= bound
                    || (self.options.elim_lit_bound && added_lits > lit_bound)
                    || (self.options.elim_long_bound && added_long > long_bound)
                    || effort.exhausted()
                {
                    give_up = true;
                    break;
                }
                ends.push(lits.len());
            }
            for &x in self.arena.lits(p) {
                self.marks[(x >> 1) as usize] = 0;
            }
            if give_up {
                return Ok(None);
            }
        }

        // Eliminate: resolvents first (they are RUP while their antecedents exist), then
        // the old clauses go onto the extension stack and out of the formula.
        let mut start = 0;
        for &end in &ends {
            self.stats.resolvents += 1;
            if !self.add_derived(&lits[start..end], queue) {
                return Err(());
            }
            start = end;
        }
        let mut vars = Vec::new();
        for (list, witness) in [
            (&pos, Lit::from_code(pl as u32)),
            (&neg, Lit::from_code(nl as u32)),
        ] {
            for &c in list {
                let lits = self.arena.lits(c);
                self.extension
                    .push(witness, lits.iter().map(|&x| Lit::from_code(x)));
                vars.extend(lits.iter().map(|&x| x >> 1).filter(|&u| u != v));
            }
        }
        for &c in pos.iter().chain(&neg) {
            self.remove_clause(c);
        }
        self.occs[pl].clear();
        self.occs[nl].clear();
        self.eliminated[v as usize] = true;
        self.stats.eliminated += 1;
        self.stats.gate_eliminations += u64::from(gate.is_some());
        if !self.flush_units() {
            return Err(());
        }
        Ok(Some(vars))
    }
}
