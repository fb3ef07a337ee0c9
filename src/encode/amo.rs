//! At-most-one and at-least-one constraints, the building blocks of every encoding.
//!
//! `pairwise` forbids each pair: m(m−1)/2 binary clauses, no new variables. `sequential`
//! is Sinz's sequential counter: auxiliary s₁…s_{m−1} where sᵢ means "one of x₁…xᵢ is
//! true", giving 3m−4 clauses and m−1 variables, so large groups (a 64×64 row) stay linear.

use crate::cnf::{ClauseSink, Lit, Var};

/// Which at-most-one sub-encoding to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Amo {
    /// Every pair of literals excluded: O(m²) clauses, no auxiliary variables.
    #[default]
    Pairwise,
    /// Sinz's sequential counter: O(m) clauses and auxiliary variables.
    Sequential,
}

impl Amo {
    /// Every at-most-one encoding.
    pub const ALL: [Amo; 2] = [Amo::Pairwise, Amo::Sequential];

    /// The name used on the command line and in DIMACS headers.
    pub fn as_str(self) -> &'static str {
        match self {
            Amo::Pairwise => "pairwise",
            Amo::Sequential => "sequential",
        }
    }

    /// Parses a name.
    pub fn parse(s: &str) -> Option<Amo> {
        Amo::ALL.into_iter().find(|a| a.as_str() == s)
    }
}

/// Hands out auxiliary variables after the grid variables.
#[derive(Clone, Copy, Debug)]
pub struct VarAllocator {
    /// The next unused variable (0-based).
    next: u32,
}

impl VarAllocator {
    /// Starts allocating at 0-based variable `first`.
    pub fn starting_at(first: u32) -> VarAllocator {
        VarAllocator { next: first }
    }

    /// A fresh variable.
    pub fn fresh(&mut self) -> Var {
        let v = Var::new(self.next);
        self.next += 1;
        v
    }

    /// How many variables are in use (the DIMACS header's count).
    pub fn num_vars(&self) -> u32 {
        self.next
    }
}

/// Adds "at most one of `lits` is true".
pub fn at_most_one(sink: &mut dyn ClauseSink, lits: &[Lit], amo: Amo, vars: &mut VarAllocator) {
    match amo {
        Amo::Pairwise => {
            for (i, &a) in lits.iter().enumerate() {
                for &b in &lits[i + 1..] {
                    sink.add_clause(&[!a, !b]);
                }
            }
        }
        Amo::Sequential => {
            let m = lits.len();
            if m < 2 {
                return;
            }
            // s[i] ⇔ (at least) one of lits[0..=i] is true, for i in 0..m-1.
            let mut prev = vars.fresh().pos();
            sink.add_clause(&[!lits[0], prev]);
            for &x in &lits[1..m - 1] {
                let s = vars.fresh().pos();
                sink.add_clause(&[!x, s]);
                sink.add_clause(&[!prev, s]);
                sink.add_clause(&[!x, !prev]);
                prev = s;
            }
            sink.add_clause(&[!lits[m - 1], !prev]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::{ClauseCounter, Cnf, Model};

    /// Whether some extension of `assignment` to the auxiliary variables satisfies `cnf`.
    fn extendable(cnf: &Cnf, fixed: &[bool]) -> bool {
        let aux = cnf.num_vars() as usize - fixed.len();
        (0..1u32 << aux).any(|bits| {
            let values = fixed
                .iter()
                .copied()
                .chain((0..aux).map(|i| bits >> i & 1 == 1));
            let m = Model::from_values(values);
            cnf.clauses()
                .all(|c| c.iter().any(|&l| m.lit_value(l) == Some(true)))
        })
    }

    #[test]
    fn both_encodings_mean_at_most_one() {
        for amo in [Amo::Pairwise, Amo::Sequential] {
            for m in 1..=5u32 {
                let lits: Vec<Lit> = (0..m).map(|i| Var::new(i).pos()).collect();
                let mut cnf = Cnf::new(m);
                let mut vars = VarAllocator::starting_at(m);
                at_most_one(&mut cnf, &lits, amo, &mut vars);
                cnf.ensure_vars(vars.num_vars());
                for bits in 0..1u32 << m {
                    let fixed: Vec<bool> = (0..m).map(|i| bits >> i & 1 == 1).collect();
                    assert_eq!(
                        extendable(&cnf, &fixed),
                        bits.count_ones() <= 1,
                        "{amo:?} m={m} bits={bits:b}"
                    );
                }
            }
        }
    }

    #[test]
    fn sequential_is_linear() {
        let lits: Vec<Lit> = (0..64).map(|i| Var::new(i).pos()).collect();
        let mut count = ClauseCounter::default();
        let mut vars = VarAllocator::starting_at(64);
        at_most_one(&mut count, &lits, Amo::Sequential, &mut vars);
        assert_eq!(count.clauses, 3 * 64 - 4);
        assert_eq!(vars.num_vars(), 64 + 63);
    }
}
