//! The reconstruction (extension) stack of variable elimination, frozen variables, and the
//! restoration of eliminated variables for incremental use.
//!
//! Eliminating a variable `x` removes every clause that mentions it; each removed clause
//! is pushed here with its *witness*, the literal of `x` it contains. A model of the
//! simplified formula is extended to one of the original formula by walking the stack
//! from the top (the last elimination first) and, for every clause not satisfied by the
//! model so far, making its witness true (MiniSat's `extendModel`, CaDiCaL's `extend`).
//! Flipping never breaks an earlier-checked clause of the same variable: two clauses of
//! `x` and `¬x` that were both falsified apart from `x` would have a falsified resolvent,
//! and every resolvent was added to the formula when `x` went.
//!
//! Incremental use: a variable that the caller freezes ([`CdclSolver::freeze`]) or that is
//! an assumption of the current call is never eliminated. When a clause added later, or
//! an assumption, mentions a variable that was eliminated all the same (it was not frozen
//! at the time), the variable is *restored* as CaDiCaL does: its clauses come back from
//! the stack, with those of every variable eliminated after it that they mention
//! (recursively), and the stack keeps the rest. The resolvents stay; they are implied.
//! Restored clauses are written to a proof as additions: a DRAT proof certifies one solve
//! of the input formula, and clauses added between calls are outside that contract anyway.

use super::solver::CdclSolver;
use cnf_core::{Lit, Var};

/// One removed clause and its witness.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The literal made true when the clause is falsified by the model.
    witness: Lit,
    /// Start of the clause in `lits`.
    start: u32,
    /// Its length.
    len: u32,
}

/// The clauses removed by elimination, oldest first.
#[derive(Clone, Debug, Default)]
pub struct Extension {
    /// The entries, in the order they were pushed.
    entries: Vec<Entry>,
    /// The literals of every entry's clause, back to back.
    lits: Vec<Lit>,
}

impl Extension {
    /// Pushes a removed clause `lits` with its witness (a literal of `lits`).
    pub fn push(&mut self, witness: Lit, lits: impl IntoIterator<Item = Lit>) {
        let start = self.lits.len() as u32;
        self.lits.extend(lits);
        let len = self.lits.len() as u32 - start;
        self.entries.push(Entry {
            witness,
            start,
            len,
        });
    }

    /// The number of clauses on the stack.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when nothing was eliminated.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Extends `model` (a value per variable) to the eliminated variables.
    pub fn extend(&self, model: &mut [bool]) {
        for e in self.entries.iter().rev() {
            let clause = &self.lits[e.start as usize..(e.start + e.len) as usize];
            let satisfied = clause
                .iter()
                .any(|l| model[l.var().index()] == l.is_positive());
            if !satisfied {
                model[e.witness.var().index()] = e.witness.is_positive();
            }
        }
    }

    /// Takes off the stack every clause whose witness variable is in `vars`, closing
    /// `vars` first under "a taken clause mentions an eliminated variable", as decided by
    /// `eliminated`. Returns the clauses taken (oldest first) and marks the closure in
    /// `vars`.
    fn take(&mut self, vars: &mut [bool], eliminated: &[bool]) -> Vec<Vec<Lit>> {
        // Later eliminations can only appear in the clauses of earlier ones, so one pass
        // from the bottom of the stack closes the set.
        for e in &self.entries {
            if vars[e.witness.var().index()] {
                for l in &self.lits[e.start as usize..(e.start + e.len) as usize] {
                    if eliminated[l.var().index()] {
                        vars[l.var().index()] = true;
                    }
                }
            }
        }
        let mut taken = Vec::new();
        let mut kept = Extension::default();
        for e in &self.entries {
            let clause = &self.lits[e.start as usize..(e.start + e.len) as usize];
            if vars[e.witness.var().index()] {
                taken.push(clause.to_vec());
            } else {
                kept.push(e.witness, clause.iter().copied());
            }
        }
        *self = kept;
        taken
    }
}

impl CdclSolver {
    /// Freezes variable `v`: it is never eliminated until melted as often as frozen. Callers
    /// that will mention `v` in later clauses or assumptions freeze it (restoring an
    /// eliminated variable is correct but costs the work that eliminated it).
    pub fn freeze(&mut self, v: Var) {
        self.ensure_vars(v.index() as u32 + 1);
        self.frozen[v.index()] += 1;
    }

    /// Undoes one [`CdclSolver::freeze`] of `v`.
    pub fn melt(&mut self, v: Var) {
        if let Some(f) = self.frozen.get_mut(v.index()) {
            *f = f.saturating_sub(1);
        }
    }

    /// True when `v` is frozen.
    pub fn is_frozen(&self, v: Var) -> bool {
        self.frozen.get(v.index()).is_some_and(|&f| f > 0)
    }

    /// True when `v` is currently eliminated.
    pub fn is_eliminated(&self, v: Var) -> bool {
        self.eliminated.get(v.index()).copied().unwrap_or(false)
    }

    /// The number of variables eliminated now.
    pub fn num_eliminated(&self) -> usize {
        self.eliminated.iter().filter(|&&e| e).count()
    }

    /// Restores every eliminated variable among `lits` (see the module note). Returns
    /// false when the restored clauses make the formula unsatisfiable.
    pub(super) fn restore_eliminated(&mut self, lits: &[Lit]) -> bool {
        if !lits
            .iter()
            .any(|l| self.eliminated.get(l.var().index()) == Some(&true))
        {
            return true;
        }
        let mut vars = vec![false; self.num_vars() as usize];
        for l in lits {
            if self.eliminated[l.var().index()] {
                vars[l.var().index()] = true;
            }
        }
        let clauses = self.extension.take(&mut vars, &self.eliminated);
        for (v, &restored) in vars.iter().enumerate() {
            if restored {
                self.eliminated[v] = false;
                self.stats.restored += 1;
                if self.vals[2 * v] == 0 {
                    self.order.insert(v as u32);
                }
            }
        }
        for clause in clauses {
            if let Some(p) = &mut self.proof {
                p.add_lits(&clause);
            }
            if !self.add_clause(&clause) {
                return false;
            }
        }
        self.ok
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lits(d: &[i32]) -> Vec<Lit> {
        d.iter().map(|&x| Lit::from_dimacs(x)).collect()
    }

    #[test]
    fn extension_flips_witnesses_of_falsified_clauses() {
        // x1 eliminated from (1 2) (-1 3): resolvent (2 3) kept in the formula.
        let mut e = Extension::default();
        e.push(Lit::from_dimacs(1), lits(&[1, 2]));
        e.push(Lit::from_dimacs(-1), lits(&[-1, 3]));
        for (v2, v3) in [(true, true), (true, false), (false, true)] {
            let mut m = vec![false, v2, v3];
            e.extend(&mut m);
            assert!(m[0] || m[1], "{m:?}");
            assert!(!m[0] || m[2], "{m:?}");
        }
    }

    #[test]
    fn take_closes_over_later_eliminations() {
        let mut e = Extension::default();
        e.push(Lit::from_dimacs(1), lits(&[1, 2, 3])); // x1 eliminated first, mentions x2
        e.push(Lit::from_dimacs(4), lits(&[4, 5])); // x4, unrelated
        e.push(Lit::from_dimacs(-2), lits(&[-2, 3])); // then x2
        let eliminated = [true, true, false, true, false];
        let mut vars = vec![true, false, false, false, false];
        let taken = e.take(&mut vars, &eliminated);
        assert_eq!(taken, vec![lits(&[1, 2, 3]), lits(&[-2, 3])]);
        assert_eq!(vars, vec![true, true, false, false, false]);
        assert_eq!(e.len(), 1);
    }
}
