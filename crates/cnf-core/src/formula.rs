//! A CNF formula in memory, and the sink trait that encoders write clauses into.
//!
//! Clauses live in one flat literal array with an offset per clause, so a formula of
//! millions of short clauses costs two allocations, not millions. Encoders do not build a
//! `Cnf` directly: they write into any [`ClauseSink`], which may be a `Cnf`, a clause
//! counter, or a streaming DIMACS writer, so that huge encodings never sit in memory.

use super::lit::{Lit, Var};

/// Something that accepts clauses: an in-memory formula, a counter, a DIMACS stream.
pub trait ClauseSink {
    /// Adds one clause (a disjunction of `lits`).
    fn add_clause(&mut self, lits: &[Lit]);

    /// True once the sink takes no more clauses (its deadline passed, a stop was asked):
    /// a writer of many clauses looks at it between groups of them and ends early.
    fn stopped(&self) -> bool {
        false
    }
}

/// A CNF formula: a variable count and a list of clauses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cnf {
    /// The number of variables (the `p cnf` header's first number); may exceed the highest
    /// variable used.
    num_vars: u32,
    /// Every clause's literals, one after another.
    lits: Vec<Lit>,
    /// `starts[i]..starts[i+1]` are clause i's literals; always begins with 0.
    starts: Vec<usize>,
    /// The highest variable (DIMACS, 1-based) any clause uses; 0 for none.
    max_used: u32,
}

impl Cnf {
    /// An empty formula over `num_vars` variables.
    pub fn new(num_vars: u32) -> Cnf {
        Cnf {
            num_vars,
            lits: Vec::new(),
            starts: vec![0],
            max_used: 0,
        }
    }

    /// A copy, or None when memory for it cannot be had (where [`Clone::clone`] would
    /// abort the process).
    pub fn try_clone(&self) -> Option<Cnf> {
        let mut lits = Vec::new();
        lits.try_reserve_exact(self.lits.len()).ok()?;
        lits.extend_from_slice(&self.lits);
        let mut starts = Vec::new();
        starts.try_reserve_exact(self.starts.len()).ok()?;
        starts.extend_from_slice(&self.starts);
        Some(Cnf {
            num_vars: self.num_vars,
            lits,
            starts,
            max_used: self.max_used,
        })
    }

    /// The number of variables.
    pub fn num_vars(&self) -> u32 {
        self.num_vars
    }

    /// Raises the variable count to at least `num_vars`.
    pub fn ensure_vars(&mut self, num_vars: u32) {
        self.num_vars = self.num_vars.max(num_vars);
    }

    /// The number of clauses.
    pub fn num_clauses(&self) -> usize {
        self.starts.len() - 1
    }

    /// The total number of literal occurrences.
    pub fn num_lits(&self) -> usize {
        self.lits.len()
    }

    /// Clause `i`.
    pub fn clause(&self, i: usize) -> &[Lit] {
        &self.lits[self.starts[i]..self.starts[i + 1]]
    }

    /// All clauses in order.
    pub fn clauses(&self) -> impl ExactSizeIterator<Item = &[Lit]> + '_ {
        self.starts.windows(2).map(|w| &self.lits[w[0]..w[1]])
    }

    /// Which variables occur in at least one clause, indexed by [`Var::index`]: as long as
    /// the highest variable used (not the header's claim), so an index past the end is a
    /// variable that occurs nowhere. A variable that occurs in no clause is free: a solver
    /// may give it either value, and no check may read anything into it.
    pub fn used_vars(&self) -> Vec<bool> {
        let mut used = vec![false; self.max_var_used() as usize];
        for l in &self.lits {
            used[l.var().index()] = true;
        }
        used
    }

    /// The highest variable (DIMACS, 1-based) the clauses use; 0 when they use none. A
    /// header may claim far more (`p cnf 2000000000 1` is valid DIMACS): whatever sizes
    /// itself by the formula should size itself by this, never by the claim.
    pub fn max_var_used(&self) -> u32 {
        self.max_used
    }

    /// A copy whose variable count is [`Cnf::max_var_used`] (the same clauses).
    pub fn sized_by_use(&self) -> Cnf {
        Cnf {
            num_vars: self.max_used,
            lits: self.lits.clone(),
            starts: self.starts.clone(),
            max_used: self.max_used,
        }
    }

    /// A formula from its flat parts, as a reader built them: `starts` begins with 0 and
    /// ends at `lits.len()`, `max_used` is the highest variable in `lits`.
    pub(super) fn from_parts(
        num_vars: u32,
        lits: Vec<Lit>,
        starts: Vec<usize>,
        max_used: u32,
    ) -> Cnf {
        debug_assert_eq!(starts.first(), Some(&0));
        debug_assert_eq!(starts.last(), Some(&lits.len()));
        Cnf {
            num_vars: num_vars.max(max_used),
            lits,
            starts,
            max_used,
        }
    }

    /// Bytes held by the clause arrays (their capacity, not their length).
    pub fn heap_bytes(&self) -> usize {
        self.lits.capacity() * std::mem::size_of::<Lit>()
            + self.starts.capacity() * std::mem::size_of::<usize>()
    }

    /// Builds a formula from DIMACS integer clauses (handy in tests).
    pub fn from_dimacs_clauses(num_vars: u32, clauses: &[Vec<i32>]) -> Cnf {
        let mut cnf = Cnf::new(num_vars);
        for c in clauses {
            let lits: Vec<Lit> = c.iter().map(|&n| Lit::from_dimacs(n)).collect();
            cnf.add_clause(&lits);
        }
        cnf
    }
}

impl ClauseSink for Cnf {
    fn add_clause(&mut self, lits: &[Lit]) {
        if let Some(max) = lits.iter().map(|l| l.var().dimacs()).max() {
            self.num_vars = self.num_vars.max(max);
            self.max_used = self.max_used.max(max);
        }
        self.lits.extend_from_slice(lits);
        self.starts.push(self.lits.len());
    }
}

/// Counts clauses (and the highest variable) without keeping them: the first pass of a
/// streamed DIMACS write, which must know the header before the first clause.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClauseCounter {
    /// Clauses seen.
    pub clauses: u64,
    /// Literal occurrences seen.
    pub lits: u64,
    /// The highest variable (DIMACS, 1-based) seen; 0 if none.
    pub max_var: u32,
}

impl ClauseSink for ClauseCounter {
    fn add_clause(&mut self, lits: &[Lit]) {
        self.clauses += 1;
        self.lits += lits.len() as u64;
        for l in lits {
            self.max_var = self.max_var.max(l.var().dimacs());
        }
    }
}

/// A (possibly partial) assignment: a value or "unassigned" for each variable. A solver's
/// model; variables it does not mention are unassigned, which a check must not rely on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Model {
    /// `values[v]` is variable v's value, `None` when the model leaves it out.
    values: Vec<Option<bool>>,
}

impl Model {
    /// An empty model.
    pub fn new() -> Model {
        Model::default()
    }

    /// A model that sets each of `lits` true (later literals win on conflicts; callers that
    /// care check consistency first with [`Model::from_lits_checked`]).
    pub fn from_lits(lits: impl IntoIterator<Item = Lit>) -> Model {
        let mut m = Model::new();
        for l in lits {
            m.set(l);
        }
        m
    }

    /// Like [`Model::from_lits`], but a variable given both signs is an error naming it.
    pub fn from_lits_checked(lits: impl IntoIterator<Item = Lit>) -> Result<Model, Var> {
        let mut m = Model::new();
        for l in lits {
            if m.lit_value(!l) == Some(true) {
                return Err(l.var());
            }
            m.set(l);
        }
        Ok(m)
    }

    /// A complete model from one value per variable (index = 0-based variable).
    pub fn from_values(values: impl IntoIterator<Item = bool>) -> Model {
        Model {
            values: values.into_iter().map(Some).collect(),
        }
    }

    /// Makes `lit` true.
    pub fn set(&mut self, lit: Lit) {
        let i = lit.var().index();
        if i >= self.values.len() {
            self.values.resize(i + 1, None);
        }
        self.values[i] = Some(lit.is_positive());
    }

    /// The value of variable `v`, if assigned.
    pub fn var_value(&self, v: Var) -> Option<bool> {
        self.values.get(v.index()).copied().flatten()
    }

    /// The value of literal `l`, if its variable is assigned.
    pub fn lit_value(&self, l: Lit) -> Option<bool> {
        self.var_value(l.var()).map(|b| b == l.is_positive())
    }

    /// Every variable's value by index (`None`: left out), for a reader that walks many
    /// variables in order (decoding a grid) without a lookup each.
    pub fn values(&self) -> &[Option<bool>] {
        &self.values
    }

    /// One past the highest variable index the model could mention.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// True when no variable is assigned.
    pub fn is_empty(&self) -> bool {
        self.values.iter().all(Option::is_none)
    }

    /// The assigned literals, in variable order.
    pub fn lits(&self) -> impl Iterator<Item = Lit> + '_ {
        self.values
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.map(|b| Var::new(i as u32).lit(b)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_storage_keeps_clauses_apart() {
        let cnf = Cnf::from_dimacs_clauses(0, &[vec![1, -2], vec![], vec![3]]);
        assert_eq!(cnf.num_vars(), 3);
        assert_eq!(cnf.num_clauses(), 3);
        assert_eq!(cnf.clause(1), &[] as &[Lit]);
        let lens: Vec<usize> = cnf.clauses().map(|c| c.len()).collect();
        assert_eq!(lens, vec![2, 0, 1]);
        let claimed = Cnf::from_dimacs_clauses(2_000_000_000, &[vec![1, -7]]);
        assert_eq!(claimed.max_var_used(), 7);
        let sized = claimed.sized_by_use();
        assert_eq!(sized.num_vars(), 7);
        assert_eq!(sized.clause(0), claimed.clause(0));
    }

    #[test]
    fn model_partial_values() {
        let m = Model::from_lits([Lit::from_dimacs(2), Lit::from_dimacs(-4)]);
        assert_eq!(m.var_value(Var::from_dimacs(1)), None);
        assert_eq!(m.lit_value(Lit::from_dimacs(2)), Some(true));
        assert_eq!(m.lit_value(Lit::from_dimacs(4)), Some(false));
        assert_eq!(m.var_value(Var::from_dimacs(9)), None);
        assert!(Model::from_lits_checked([Lit::from_dimacs(1), Lit::from_dimacs(-1)]).is_err());
    }
}
