//! A Tseitin circuit builder for the generated families: every gate gets a fresh variable
//! and the clauses that define it (AND: three clauses, XOR: four, multiplexer: six), with
//! constants folded away, so that a formula holds only the gates that compute something.
//! On top of the gates, the arithmetic the circuit families are made of: ripple-carry
//! addition, an array multiplier (one shifted row of partial products added per bit of the
//! second factor, as a schoolbook multiplication) and a Wallace-tree multiplier (all
//! partial products reduced column by column with full and half adders down to two rows,
//! then one ripple-carry adder), unsigned comparison and the word multiplexer.

use crate::cnf::{ClauseSink, Cnf, Lit, Var};

/// A bit of a circuit: a constant or a literal of the formula.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bit {
    /// A constant.
    Const(bool),
    /// A literal of the formula.
    Lit(Lit),
}

impl std::ops::Not for Bit {
    type Output = Bit;
    fn not(self) -> Bit {
        match self {
            Bit::Const(b) => Bit::Const(!b),
            Bit::Lit(l) => Bit::Lit(!l),
        }
    }
}

/// A formula being built gate by gate.
#[derive(Debug, Default)]
pub struct Circuit {
    cnf: Cnf,
}

impl Circuit {
    /// An empty circuit.
    pub fn new() -> Circuit {
        Circuit { cnf: Cnf::new(0) }
    }

    /// The formula built so far.
    pub fn into_cnf(self) -> Cnf {
        self.cnf
    }

    /// A fresh free variable (an input or a gate output).
    pub fn input(&mut self) -> Bit {
        let v = self.cnf.num_vars();
        self.cnf.ensure_vars(v + 1);
        Bit::Lit(Var::new(v).pos())
    }

    /// `n` fresh inputs, least significant first.
    pub fn word(&mut self, n: usize) -> Vec<Bit> {
        (0..n).map(|_| self.input()).collect()
    }

    /// Adds a clause over bits: dropped when a constant satisfies it; an all-false clause
    /// is added empty.
    pub fn clause(&mut self, bits: &[Bit]) {
        let mut lits = Vec::with_capacity(bits.len());
        for &b in bits {
            match b {
                Bit::Const(true) => return,
                Bit::Const(false) => {}
                Bit::Lit(l) => lits.push(l),
            }
        }
        self.cnf.add_clause(&lits);
    }

    /// Asserts `b`.
    pub fn assert(&mut self, b: Bit) {
        self.clause(&[b]);
    }

    /// `a ∧ b`.
    pub fn and(&mut self, a: Bit, b: Bit) -> Bit {
        match (a, b) {
            (Bit::Const(false), _) | (_, Bit::Const(false)) => Bit::Const(false),
            (Bit::Const(true), x) | (x, Bit::Const(true)) => x,
            (x, y) if x == y => x,
            (x, y) if x == !y => Bit::Const(false),
            (x, y) => {
                let o = self.input();
                self.clause(&[!o, x]);
                self.clause(&[!o, y]);
                self.clause(&[o, !x, !y]);
                o
            }
        }
    }

    /// `a ∨ b`.
    pub fn or(&mut self, a: Bit, b: Bit) -> Bit {
        !self.and(!a, !b)
    }

    /// `a ⊕ b`.
    pub fn xor(&mut self, a: Bit, b: Bit) -> Bit {
        match (a, b) {
            (Bit::Const(c), x) | (x, Bit::Const(c)) => {
                if c {
                    !x
                } else {
                    x
                }
            }
            (x, y) if x == y => Bit::Const(false),
            (x, y) if x == !y => Bit::Const(true),
            (x, y) => {
                let o = self.input();
                self.clause(&[!o, x, y]);
                self.clause(&[!o, !x, !y]);
                self.clause(&[o, !x, y]);
                self.clause(&[o, x, !y]);
                o
            }
        }
    }

    /// `if s then a else b`.
    pub fn mux(&mut self, s: Bit, a: Bit, b: Bit) -> Bit {
        match s {
            Bit::Const(true) => return a,
            Bit::Const(false) => return b,
            Bit::Lit(_) => {}
        }
        if a == b {
            return a;
        }
        if let (Bit::Const(_), _) | (_, Bit::Const(_)) = (a, b) {
            // Folded through AND/OR: s·a + ¬s·b with a constant side.
            let x = self.and(s, a);
            let y = self.and(!s, b);
            return self.or(x, y);
        }
        let o = self.input();
        self.clause(&[!s, !a, o]);
        self.clause(&[!s, a, !o]);
        self.clause(&[s, !b, o]);
        self.clause(&[s, b, !o]);
        // The two redundant clauses of the usual encoding (a = b decides o).
        self.clause(&[!a, !b, o]);
        self.clause(&[a, b, !o]);
        o
    }

    /// Half adder: (sum, carry).
    pub fn half_add(&mut self, a: Bit, b: Bit) -> (Bit, Bit) {
        (self.xor(a, b), self.and(a, b))
    }

    /// Full adder: (sum, carry).
    pub fn full_add(&mut self, a: Bit, b: Bit, c: Bit) -> (Bit, Bit) {
        let ab = self.xor(a, b);
        let sum = self.xor(ab, c);
        let t1 = self.and(a, b);
        let t2 = self.and(ab, c);
        (sum, self.or(t1, t2))
    }

    /// `a + b` by ripple carry, `width` bits of it (modulo 2^width).
    pub fn add(&mut self, a: &[Bit], b: &[Bit], width: usize) -> Vec<Bit> {
        let get = |w: &[Bit], i: usize| w.get(i).copied().unwrap_or(Bit::Const(false));
        let mut carry = Bit::Const(false);
        (0..width)
            .map(|i| {
                let (s, c) = self.full_add(get(a, i), get(b, i), carry);
                carry = c;
                s
            })
            .collect()
    }

    /// `a · b` by an array multiplier, `width` bits of it (modulo 2^width): the partial
    /// product row of each bit of `b`, shifted, added to the running sum.
    pub fn mul_array(&mut self, a: &[Bit], b: &[Bit], width: usize) -> Vec<Bit> {
        let mut acc = vec![Bit::Const(false); width];
        for (j, &bj) in b.iter().enumerate().take(width) {
            let row: Vec<Bit> = (0..width)
                .map(|i| {
                    if i >= j && i - j < a.len() {
                        self.and(a[i - j], bj)
                    } else {
                        Bit::Const(false)
                    }
                })
                .collect();
            acc = self.add(&acc, &row, width);
        }
        acc
    }

    /// `a · b` by a Wallace tree, `width` bits of it: every partial product goes to its
    /// column; each column is cut down by full adders (three bits to a sum in the column
    /// and a carry into the next) and a half adder for a remaining pair, until no column
    /// holds more than two bits, and the two rows are added by ripple carry.
    pub fn mul_wallace(&mut self, a: &[Bit], b: &[Bit], width: usize) -> Vec<Bit> {
        let mut cols: Vec<Vec<Bit>> = vec![Vec::new(); width];
        for (j, &bj) in b.iter().enumerate() {
            for (i, &ai) in a.iter().enumerate() {
                if i + j < width {
                    let p = self.and(ai, bj);
                    cols[i + j].push(p);
                }
            }
        }
        while cols.iter().any(|c| c.len() > 2) {
            let mut next: Vec<Vec<Bit>> = vec![Vec::new(); width];
            for (k, col) in cols.iter().enumerate() {
                let mut chunks = col.chunks_exact(3);
                for t in &mut chunks {
                    let (s, c) = self.full_add(t[0], t[1], t[2]);
                    next[k].push(s);
                    if k + 1 < width {
                        next[k + 1].push(c);
                    }
                }
                let rest = chunks.remainder();
                if rest.len() == 2 && col.len() > 2 {
                    let (s, c) = self.half_add(rest[0], rest[1]);
                    next[k].push(s);
                    if k + 1 < width {
                        next[k + 1].push(c);
                    }
                } else {
                    next[k].extend_from_slice(rest);
                }
            }
            cols = next;
        }
        let row = |i: usize| -> Vec<Bit> {
            cols.iter()
                .map(|c| c.get(i).copied().unwrap_or(Bit::Const(false)))
                .collect()
        };
        let (r0, r1) = (row(0), row(1));
        self.add(&r0, &r1, width)
    }

    /// `a < b`, unsigned, both least significant bit first and of the same length.
    pub fn less(&mut self, a: &[Bit], b: &[Bit]) -> Bit {
        // From the least significant bit up: lt = (¬a_i ∧ b_i) ∨ (a_i = b_i ∧ lt).
        let mut lt = Bit::Const(false);
        for (&x, &y) in a.iter().zip(b) {
            let differ = self.xor(x, y);
            lt = self.mux(differ, y, lt);
        }
        lt
    }

    /// Bitwise `if s then a else b`.
    pub fn mux_word(&mut self, s: Bit, a: &[Bit], b: &[Bit]) -> Vec<Bit> {
        a.iter().zip(b).map(|(&x, &y)| self.mux(s, x, y)).collect()
    }

    /// Asserts that the words `a` and `b` differ somewhere: the miter's output, a clause
    /// over the XORs of their bits.
    pub fn assert_differ(&mut self, a: &[Bit], b: &[Bit]) {
        let diffs: Vec<Bit> = a.iter().zip(b).map(|(&x, &y)| self.xor(x, y)).collect();
        self.clause(&diffs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::cdcl::{CdclSolver, SolveResult};

    /// The value of `word` in the model, for a formula that fixes it.
    fn value(s: &CdclSolver, word: &[Bit]) -> u64 {
        word.iter().enumerate().fold(0, |acc, (i, &b)| {
            let one = match b {
                Bit::Const(c) => c,
                Bit::Lit(l) => s.value(l) == Some(true),
            };
            acc | (one as u64) << i
        })
    }

    /// Inputs fixed to constants-by-clauses, both multipliers and the adder evaluated by
    /// the solver: they compute the products and sums of plain arithmetic.
    #[test]
    fn arithmetic_computes_what_it_says() {
        for (x, y) in [(0u64, 0u64), (5, 7), (13, 11), (15, 15), (9, 6)] {
            let mut c = Circuit::new();
            let a = c.word(4);
            let b = c.word(4);
            for (i, (&p, &q)) in a.iter().zip(&b).enumerate() {
                c.assert(if x >> i & 1 == 1 { p } else { !p });
                c.assert(if y >> i & 1 == 1 { q } else { !q });
            }
            let m1 = c.mul_array(&a, &b, 8);
            let m2 = c.mul_wallace(&a, &b, 8);
            let m3 = c.mul_array(&a, &b, 5);
            let s = c.add(&a, &b, 5);
            let lt = c.less(&a, &b);
            let mut solver = CdclSolver::new();
            solver.add_cnf(&c.into_cnf());
            assert_eq!(solver.solve(), SolveResult::Sat);
            assert_eq!(value(&solver, &m1), x * y);
            assert_eq!(value(&solver, &m2), x * y);
            assert_eq!(value(&solver, &m3), x * y % 32);
            assert_eq!(value(&solver, &s), x + y);
            assert_eq!(value(&solver, &[lt]), (x < y) as u64);
        }
    }
}
