//! Formula families for testing and benchmarking solvers: random k-SAT, 3-SAT with a
//! planted solution, pigeonhole PHP(p, h), and unsatisfiable parity (XOR) chains; and
//! shuffled copies of any formula, to tell a solver's speed from its luck. The
//! industrial-style unsatisfiable families are in the submodules, built with a Tseitin
//! [`circuit`] builder: arithmetic [`miter`]s, bounded model checking ([`bmc`]), sorting
//! networks ([`sorting`]) and a planning lower bound ([`planning`]).
//!
//! Every generator is a pure function of its parameters and a seed, through the project's
//! own [`SplitMix64`], so that a formula named by its seed is the same on every machine
//! and with every version of every crate: the benchmark script and the tests rely on that
//! to compare runs.

pub mod bmc;
pub mod circuit;
pub mod miter;
pub mod planning;
pub mod sorting;

use crate::cnf::{ClauseSink, Cnf, Lit, Model, Var};
use crate::rng::SplitMix64;

/// `k` distinct variables out of `vars`, each with a random sign.
fn random_clause(rng: &mut SplitMix64, vars: u32, k: usize) -> Vec<Lit> {
    let mut clause: Vec<Lit> = Vec::with_capacity(k);
    while clause.len() < k {
        let v = Var::new(rng.below(vars as u64) as u32);
        if clause.iter().all(|l| l.var() != v) {
            clause.push(v.lit(rng.coin()));
        }
    }
    clause
}

/// Uniform random k-SAT: `clauses` clauses of `k` distinct variables out of `vars`, signs
/// at random. With k = 3 the satisfiability threshold is near 4.26 clauses per variable,
/// where formulas are hardest and about half are satisfiable.
pub fn random_ksat(vars: u32, clauses: usize, k: usize, seed: u64) -> Cnf {
    assert!(k as u32 <= vars, "a clause needs {k} distinct variables");
    let mut rng = SplitMix64::new(seed);
    let mut cnf = Cnf::new(vars);
    for _ in 0..clauses {
        cnf.add_clause(&random_clause(&mut rng, vars, k));
    }
    cnf
}

/// Random 3-SAT with a planted solution: a random assignment is drawn first and clauses it
/// falsifies are redrawn, so the formula is satisfiable. Returns the formula and the
/// planted model.
pub fn planted_3sat(vars: u32, clauses: usize, seed: u64) -> (Cnf, Model) {
    assert!(vars >= 3);
    let mut rng = SplitMix64::new(seed);
    let planted: Vec<bool> = (0..vars).map(|_| rng.coin()).collect();
    let mut cnf = Cnf::new(vars);
    while cnf.num_clauses() < clauses {
        let clause = random_clause(&mut rng, vars, 3);
        if clause
            .iter()
            .any(|l| planted[l.var().index()] == l.is_positive())
        {
            cnf.add_clause(&clause);
        }
    }
    (cnf, Model::from_values(planted))
}

/// The pigeonhole formula PHP(p, h): p pigeons each in one of h holes, no two in the same
/// hole. Variable `i·h + j` says pigeon i sits in hole j. Unsatisfiable when p > h, and
/// exponentially hard for resolution (so for CDCL).
pub fn pigeonhole(pigeons: u32, holes: u32) -> Cnf {
    let var = |i: u32, j: u32| Var::new(i * holes + j);
    let mut cnf = Cnf::new(pigeons * holes);
    for i in 0..pigeons {
        let clause: Vec<Lit> = (0..holes).map(|j| var(i, j).pos()).collect();
        cnf.add_clause(&clause);
    }
    for j in 0..holes {
        for a in 0..pigeons {
            for b in a + 1..pigeons {
                cnf.add_clause(&[var(a, j).neg(), var(b, j).neg()]);
            }
        }
    }
    cnf
}

/// Adds the four clauses of `out ↔ a ⊕ b`.
fn xor_gate(cnf: &mut Cnf, out: Var, a: Var, b: Var) {
    let (o, a, b) = (out.pos(), a.pos(), b.pos());
    cnf.add_clause(&[!o, a, b]);
    cnf.add_clause(&[!o, !a, !b]);
    cnf.add_clause(&[o, !a, b]);
    cnf.add_clause(&[o, a, !b]);
}

/// An unsatisfiable parity formula: the XOR of `n ≥ 2` variables computed by two chains of
/// XOR gates (Tseitin variables), the second over a seeded random permutation of the
/// inputs, and the two results asserted different. Both chains compute the same parity,
/// so no assignment works; the permutation hides that from a solver's unit propagation.
pub fn parity_chains(n: u32, seed: u64) -> Cnf {
    assert!(n >= 2);
    let mut rng = SplitMix64::new(seed);
    let mut cnf = Cnf::new(n);
    let mut next = n;
    let mut chain = |cnf: &mut Cnf, order: &[u32]| -> Var {
        let mut acc = Var::new(order[0]);
        for &x in &order[1..] {
            let out = Var::new(next);
            next += 1;
            xor_gate(cnf, out, acc, Var::new(x));
            acc = out;
        }
        acc
    };
    let first: Vec<u32> = (0..n).collect();
    let mut second = first.clone();
    rng.shuffle(&mut second);
    let a = chain(&mut cnf, &first);
    let b = chain(&mut cnf, &second);
    cnf.add_clause(&[a.pos(), b.pos()]);
    cnf.add_clause(&[a.neg(), b.neg()]);
    cnf
}

/// A shuffled copy of `cnf`: the variables renamed by a random permutation, each
/// variable's sign flipped or not at random, the clauses and the literals of each clause
/// in random order. The copy is the same formula up to these symmetries (satisfiable
/// exactly when `cnf` is, and the renaming maps its models back), but a CDCL solver
/// breaks ties by variable index and clause order, so its search on the copy is another
/// one: over several copies a solver's time is its speed on the formula rather than the
/// luck of one search (Biere and Heule's scrambling for the SAT competitions).
/// Returns the copy and the renaming (`map[v]`: the literal of the copy that stands for
/// `v`'s positive literal).
pub fn shuffled(cnf: &Cnf, seed: u64) -> (Cnf, Vec<Lit>) {
    let mut rng = SplitMix64::new(seed);
    let n = cnf.num_vars();
    let mut names: Vec<u32> = (0..n).collect();
    rng.shuffle(&mut names);
    let map: Vec<Lit> = names.iter().map(|&w| Var::new(w).lit(rng.coin())).collect();
    let mut clauses: Vec<Vec<Lit>> = cnf
        .clauses()
        .map(|c| {
            let mut d: Vec<Lit> = c
                .iter()
                .map(|l| {
                    let to = map[l.var().index()];
                    if l.is_positive() { to } else { !to }
                })
                .collect();
            rng.shuffle(&mut d);
            d
        })
        .collect();
    rng.shuffle(&mut clauses);
    let mut copy = Cnf::new(n);
    for c in &clauses {
        copy.add_clause(c);
    }
    (copy, map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_model;
    use crate::solver::cdcl::{CdclSolver, SolveResult};

    /// A model of the original formula from a model of its [`shuffled`] copy (`map` as
    /// that returned).
    fn unshuffle_model(copy_model: &Model, map: &[Lit]) -> Model {
        Model::from_lits(map.iter().enumerate().filter_map(|(v, &to)| {
            copy_model
                .lit_value(to)
                .map(|value| Var::new(v as u32).lit(value))
        }))
    }

    /// Solves `cnf` with the plain native engine: its model if satisfiable.
    fn solve(cnf: &Cnf) -> Option<Model> {
        let mut s = CdclSolver::new();
        s.add_cnf(cnf);
        match s.solve() {
            SolveResult::Sat => s.model(),
            SolveResult::Unsat => None,
            SolveResult::Unknown => panic!("no limit was set"),
        }
    }

    #[test]
    fn shuffled_copies_keep_the_formula_up_to_renaming() {
        let (planted, _) = planted_3sat(60, 250, 4);
        let unsat = pigeonhole(5, 4);
        for seed in 0..5 {
            let (copy, map) = shuffled(&planted, seed);
            assert_eq!(copy.num_vars(), planted.num_vars());
            assert_eq!(copy.num_clauses(), planted.num_clauses());
            assert_eq!(copy.num_lits(), planted.num_lits());
            assert_ne!(copy, planted, "seed {seed} left the formula as it was");
            let mut renamed: Vec<u32> = map.iter().map(|l| l.var().index() as u32).collect();
            renamed.sort_unstable();
            assert_eq!(renamed, (0..planted.num_vars()).collect::<Vec<_>>());
            let model = solve(&copy).expect("a planted formula stays satisfiable");
            check_model(&copy, &model).unwrap();
            check_model(&planted, &unshuffle_model(&model, &map)).unwrap();
            let (copy, _) = shuffled(&unsat, seed);
            assert!(solve(&copy).is_none(), "pigeonhole 5/4 stays unsatisfiable");
        }
        assert_eq!(shuffled(&planted, 3), shuffled(&planted, 3));
        assert_ne!(shuffled(&planted, 3).0, shuffled(&planted, 4).0);
    }

    #[test]
    fn generators_are_deterministic_and_well_formed() {
        let a = random_ksat(50, 213, 3, 9);
        assert_eq!(a, random_ksat(50, 213, 3, 9));
        assert_ne!(a, random_ksat(50, 213, 3, 10));
        assert_eq!(a.num_clauses(), 213);
        for c in a.clauses() {
            assert_eq!(c.len(), 3);
            assert!(
                c[0].var() != c[1].var() && c[1].var() != c[2].var() && c[0].var() != c[2].var()
            );
        }
        let (p, model) = planted_3sat(40, 170, 3);
        assert!(check_model(&p, &model).is_ok());
        let php = pigeonhole(4, 3);
        assert_eq!(php.num_vars(), 12);
        assert_eq!(php.num_clauses(), 4 + 3 * 6);
        let par = parity_chains(5, 1);
        assert_eq!(par.num_vars(), 5 + 2 * 4);
        assert_eq!(par.num_clauses(), 2 * 4 * 4 + 2);
    }
}
