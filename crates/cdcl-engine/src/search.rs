//! The search loop: propagate; on a conflict learn, backjump and assert; otherwise
//! restart when the policy says so, clean up, and decide (the assumptions first, then the
//! most active unassigned variable with its saved or target phase).

use cnf_core::{Lit, Var};

use crate::clause::{CRef, NO_REASON};
use crate::solver::{CdclSolver, SearchBudget, SolveResult, TICK_CHECK};

impl CdclSolver {
    /// The activity decay of the current search mode (`focused_decay` in the focused
    /// phases under mode switching, `var_decay` otherwise).
    pub(crate) fn mode_decay(&self) -> f64 {
        match self.options.focused_decay {
            Some(d) if self.restarts.switches_modes() && !self.restarts.is_stable() => d,
            _ => self.options.var_decay,
        }
    }

    /// Picks the next decision literal, or `None` when every variable is assigned.
    fn pick_branch(&mut self) -> Option<Lit> {
        let mut next: Option<u32> = None;
        if self.options.random_var_freq > 0.0
            && self.order.heap_len() > 0
            && self.rng.next_f64() < self.options.random_var_freq
        {
            let v = self
                .order
                .heap_entry(self.rng.below(self.order.heap_len() as u64) as usize);
            next = v.filter(|&v| self.vals[2 * v as usize] == 0 && !self.eliminated[v as usize]);
        }
        if next.is_none() && self.trail.len() == self.num_vars() as usize {
            // Every variable is assigned (the end of every SAT answer): popping the rest of
            // the heap, all assigned, would cost n·log n and backtracking would put them
            // all back; measured, that was half of a 9×9 sudoku's time in a session.
            return None;
        }
        while next.is_none() {
            let v = self.order.pop()?;
            if self.vals[2 * v as usize] == 0 && !self.eliminated[v as usize] {
                next = Some(v);
            }
        }
        let v = next?;
        let value = if self.options.random_polarity {
            self.rng.next_u64() & 1 == 1
        } else if self.use_target_phase() {
            self.phases.target[v as usize]
        } else {
            self.order.phase[v as usize]
        };
        Some(Var::new(v).lit(value))
    }

    /// Searches until an answer, a restart (`None`) or a limit.
    pub(crate) fn search(&mut self, budget: &SearchBudget) -> Option<SolveResult> {
        let mut steps = 0u32;
        let mut next_tick_check = self.ticks + TICK_CHECK;
        loop {
            steps = steps.wrapping_add(1);
            let conflict = self.propagate();
            if conflict != NO_REASON {
                if let Some(result) = self.on_conflict(conflict, budget) {
                    return Some(result);
                }
            } else {
                if self.restarts.should_restart() {
                    self.restart();
                    return None;
                }
                self.maintain();
                match self.next_decision() {
                    Ok(decision) => {
                        self.trail_lim.push(self.trail.len());
                        self.assign(decision, NO_REASON);
                    }
                    Err(result) => return Some(result),
                }
            }
            if steps.is_multiple_of(32) || self.ticks >= next_tick_check {
                next_tick_check = self.ticks + TICK_CHECK;
                if budget.exhausted() {
                    return Some(SolveResult::Unknown);
                }
            }
        }
    }

    /// A conflict: learns its clause, backjumps and asserts it. Returns the answer when
    /// the conflict ends the search (UNSAT at level 0; the memory or conflict limit).
    fn on_conflict(&mut self, conflict: CRef, budget: &SearchBudget) -> Option<SolveResult> {
        self.stats.conflicts += 1;
        if self.decision_level() == 0 {
            self.set_unsat();
            return Some(SolveResult::Unsat);
        }
        if self.options.chrono > 0 && !self.back_to_conflict_level(conflict) {
            self.set_unsat();
            return Some(SolveResult::Unsat);
        }
        let trail_len = self.trail.len();
        if self.keeps_target_phases() {
            self.update_target_and_best();
        }
        let (backjump, lbd) = self.analyze(conflict);
        let target = self.backtrack_target(backjump);
        self.cancel_until(target);
        if let Some(p) = &mut self.proof {
            p.add_lits(&self.learnt);
        }
        let asserting = self.learnt[0];
        if self.learnt.len() == 1 {
            self.assign(asserting, NO_REASON);
        } else {
            let c = self.arena.alloc(&self.learnt, true);
            self.arena.set_lbd(c, lbd);
            self.attach(c);
            self.learnts.push(c);
            self.bump_clause(c);
            self.assign_at(asserting, c, backjump);
        }
        self.stats.learnt += 1;
        if budget.memory.is_some_and(|m| self.clause_bytes() > m) {
            self.out_of_memory = true;
            return Some(SolveResult::Unknown);
        }
        self.order.decay_all();
        self.clause_inc /= self.options.clause_decay as f32;
        self.restarts.on_conflict(lbd, trail_len);
        if budget
            .conflict_limit
            .is_some_and(|l| self.stats.conflicts >= l)
        {
            return Some(SolveResult::Unknown);
        }
        None
    }

    /// A restart: the mode switch, if the policy made one, and back to level 0.
    fn restart(&mut self) {
        if self.restarts.restarted() {
            if self.options.mode_scores {
                self.order.swap_scores();
            }
            self.order.decay = self.mode_decay();
        }
        self.stats.restarts += 1;
        self.cancel_until(0);
    }

    /// The upkeep between conflicts: satisfied clauses removed at level 0, the learnt
    /// clauses reduced when due.
    fn maintain(&mut self) {
        if self.decision_level() == 0
            && self.trail.len() > self.simplified_trail
            && self.stats.propagations >= self.next_simplify
        {
            self.remove_satisfied();
            self.simplified_trail = self.trail.len();
            self.next_simplify = self.stats.propagations + self.arena.size() as u64;
        }
        if self.stats.conflicts >= self.next_reduce {
            self.reduce_interval += self.options.reduce_increment;
            self.next_reduce = self.stats.conflicts + self.reduce_interval;
            self.reduce_db();
            self.vivify_pending = true;
        }
    }

    /// The next decision: the next assumption (an already-true one gets an empty level),
    /// else the branching heuristic's pick. `Err` with the answer when an assumption is
    /// false (UNSAT) or every variable is assigned (SAT).
    fn next_decision(&mut self) -> Result<Lit, SolveResult> {
        while (self.decision_level() as usize) < self.assumptions.len() {
            let p = self.assumptions[self.decision_level() as usize];
            match self.lit_value(p) {
                1 => self.trail_lim.push(self.trail.len()), // already true: empty level
                -1 => {
                    self.analyze_final(p);
                    return Err(SolveResult::Unsat);
                }
                _ => return Ok(p),
            }
        }
        self.stats.decisions += 1;
        self.pick_branch().ok_or(SolveResult::Sat)
    }
}
