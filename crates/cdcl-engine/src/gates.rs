//! Gate definitions of a variable found among its clauses, for bounded variable
//! elimination (Eén and Biere, "Effective Preprocessing in SAT through Variable and Clause
//! Elimination", SAT 2005; the gate extraction of Kissat and CaDiCaL).
//!
//! A *gate* of `x` is a set `G` of its clauses that defines `x` as a function of other
//! variables: an equivalence `x = a` (`x ∨ ¬a`, `¬x ∨ a`), an AND `x = a₁ ∧ … ∧ aₖ`
//! (`¬x ∨ aᵢ` for each input, `x ∨ ¬a₁ ∨ … ∨ ¬aₖ`; with `¬x` in the place of `x` it is an
//! OR), an if-then-else `x = c ? t : e` (`¬x ∨ ¬c ∨ t`, `¬x ∨ c ∨ e`, `x ∨ ¬c ∨ ¬t`,
//! `x ∨ c ∨ ¬e`), or an XOR of two or three inputs (all 4 or 8 clauses over the same
//! variables with one parity of negations). Such a set has two properties: (1) every
//! resolvent of two of its clauses on `x` is a tautology, and (2) its clauses with `x` and
//! those with `¬x`, `x` taken out, cannot both hold (they say `¬f` and `f`). Write `N` for
//! the other clauses of `x`. Then the resolvents of `G` against `N` alone are
//! equisatisfiable with all resolvents on `x`: the `G`–`G` ones are tautologies by (1) and
//! the `N`–`N` ones are implied by the others (Eén–Biere's theorem). Elimination adds only
//! the `G`–`N` resolvents, which lets a circuit variable with several fan-outs go within
//! the clause-count bound where resolving everything would double its clauses.
//!
//! The extension stack ([`super::extend`]) stays as it is, every removed clause with its
//! literal of `x` as witness: for a model `M` of the remaining formula, by (2) some gate
//! clause is falsified apart from `x`, say one with `x`; then no clause with `¬x` is
//! falsified apart from `¬x` (a gate one would clash with it by (1), another one would
//! falsify their resolvent, which is in the formula), so making `x` true satisfies all of
//! them, and that is what walking the stack does. The proof is unchanged as well: every
//! resolvent is RUP.
//!
//! The search is syntactic and cheap: binary partners are sorted and looked up by binary
//! search (equivalences, ANDs), ternary clauses with `¬x` are paired on a clashing
//! variable and their two partners with `x` looked up (if-then-else), and clauses of 3 or
//! 4 literals are grouped by their variables and sign parity (XOR). Its cost is counted
//! in the round's steps like resolution's.

use super::clause::CRef;
use super::inprocess::Effort;
use super::solver::CdclSolver;

/// The kind of a gate found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum GateKind {
    /// `x = a`.
    Equivalence,
    /// `x = a₁ ∧ … ∧ aₖ` or `¬x = a₁ ∧ … ∧ aₖ`.
    And,
    /// `x = c ? t : e`.
    IfThenElse,
    /// `x = a ⊕ b (⊕ c)`, up to a negation.
    Xor,
}

/// A gate of variable `x`: which of its clauses belong to it.
#[derive(Clone, Debug)]
pub(super) struct Gate {
    /// What the gate computes.
    pub kind: GateKind,
    /// Per clause of the list of clauses with `x` given to [`CdclSolver::find_gate`]:
    /// true when it is a gate clause.
    pub pos: Vec<bool>,
    /// The same for the list of clauses with `¬x`.
    pub neg: Vec<bool>,
}

/// Literals of the longest XOR clause searched (three inputs and `x`: 8 clauses).
const XOR_MAX_LEN: usize = 4;

impl Gate {
    /// An empty gate of `kind` over lists of `pos` and `neg` clauses.
    fn new(kind: GateKind, pos: usize, neg: usize) -> Gate {
        Gate {
            kind,
            pos: vec![false; pos],
            neg: vec![false; neg],
        }
    }

    /// Marks clause `i` of the side holding literal code `lit` of the pivot as a gate
    /// clause (`lit & 1 == 0`: the clauses with `x`).
    fn mark(&mut self, lit: u32, i: usize) {
        if lit & 1 == 0 {
            self.pos[i] = true;
        } else {
            self.neg[i] = true;
        }
    }
}

impl CdclSolver {
    /// A gate defining variable `v` among its live irredundant clauses `pos` (with `v`)
    /// and `neg` (with `¬v`), both non-empty; `None` when none of the kinds is found.
    pub(super) fn find_gate(
        &self,
        v: u32,
        pos: &[CRef],
        neg: &[CRef],
        effort: &mut Effort,
    ) -> Option<Gate> {
        effort.steps += pos
            .iter()
            .chain(neg)
            .map(|&c| self.arena.len(c) as u64)
            .sum::<u64>();
        let gate = self
            .find_and(2 * v, pos, neg)
            .or_else(|| self.find_and(2 * v + 1, pos, neg))
            .or_else(|| self.find_if_then_else(v, pos, neg))
            .or_else(|| self.find_xor(v, pos, neg))?;
        debug_assert!(self.gate_is_sound(v, pos, neg, &gate));
        Some(gate)
    }

    /// An AND gate with output `lit` (a literal code of the pivot; the equivalence when
    /// the long clause is binary): binary clauses `¬lit ∨ aᵢ` and a clause
    /// `lit ∨ ¬a₁ ∨ … ∨ ¬aₖ` (k ≥ 1) whose every other literal is the negation of some `aᵢ`.
    fn find_and(&self, lit: u32, pos: &[CRef], neg: &[CRef]) -> Option<Gate> {
        let (with_lit, with_not) = if lit & 1 == 0 { (pos, neg) } else { (neg, pos) };
        // The partners aᵢ of ¬lit, sorted, each with its clause's index in `with_not`.
        let mut partners: Vec<(u32, usize)> = with_not
            .iter()
            .enumerate()
            .filter_map(|(i, &c)| Some((self.binary_partner(c, lit ^ 1)?, i)))
            .collect();
        if partners.is_empty() {
            return None;
        }
        partners.sort_unstable();
        let find = |a: u32| {
            partners
                .binary_search_by_key(&a, |&(x, _)| x)
                .ok()
                .map(|k| partners[k].1)
        };
        for (i, &c) in with_lit.iter().enumerate() {
            let lits = self.arena.lits(c);
            if lits.len() - 1 > partners.len() {
                continue;
            }
            if lits.iter().all(|&y| y == lit || find(y ^ 1).is_some()) {
                let kind = if lits.len() == 2 {
                    GateKind::Equivalence
                } else {
                    GateKind::And
                };
                let mut gate = Gate::new(kind, pos.len(), neg.len());
                gate.mark(lit, i);
                for &y in lits.iter().filter(|&&y| y != lit) {
                    gate.mark(lit ^ 1, find(y ^ 1).expect("checked above"));
                }
                return Some(gate);
            }
        }
        None
    }

    /// The two literals of ternary clause `c` other than `lit`, sorted.
    fn other_two(&self, c: CRef, lit: u32) -> [u32; 2] {
        let mut two = [0; 2];
        let mut k = 0;
        for &y in self.arena.lits(c) {
            if y != lit {
                two[k] = y;
                k += 1;
            }
        }
        two.sort_unstable();
        two
    }

    /// An if-then-else gate `x = c ? t : e`: ternary clauses `¬x ∨ ¬c ∨ t` and
    /// `¬x ∨ c ∨ e` (clashing on `c`, with `t` and `e` over different variables), and
    /// `x ∨ ¬c ∨ ¬t` and `x ∨ c ∨ ¬e`. (With `¬x` as the output it is the same shape, `t`
    /// and `e` negated, so one side is searched.)
    fn find_if_then_else(&self, v: u32, pos: &[CRef], neg: &[CRef]) -> Option<Gate> {
        let (x, not_x) = (2 * v, 2 * v + 1);
        let ternary_neg: Vec<(usize, [u32; 2])> = neg
            .iter()
            .enumerate()
            .filter(|&(_, &c)| self.arena.len(c) == 3)
            .map(|(i, &c)| (i, self.other_two(c, not_x)))
            .collect();
        if ternary_neg.len() < 2 {
            return None;
        }
        let mut ternary_pos: Vec<([u32; 2], usize)> = pos
            .iter()
            .enumerate()
            .filter(|&(_, &c)| self.arena.len(c) == 3)
            .map(|(i, &c)| (self.other_two(c, x), i))
            .collect();
        if ternary_pos.len() < 2 {
            return None;
        }
        ternary_pos.sort_unstable();
        let find = |a: u32, b: u32| {
            let key = if a < b { [a, b] } else { [b, a] };
            ternary_pos
                .binary_search_by_key(&key, |&(k, _)| k)
                .ok()
                .map(|k| ternary_pos[k].1)
        };
        for (k, &(i, p)) in ternary_neg.iter().enumerate() {
            for &(j, q) in &ternary_neg[k + 1..] {
                // Which literal of p clashes with one of q: p = {¬c, t}, q = {c, e}.
                for (s, &not_c) in p.iter().enumerate() {
                    let t = p[1 - s];
                    let Some(r) = q.iter().position(|&y| y == not_c ^ 1) else {
                        continue;
                    };
                    let e = q[1 - r];
                    if t >> 1 == e >> 1 || t >> 1 == not_c >> 1 || e >> 1 == not_c >> 1 {
                        continue;
                    }
                    let c = not_c ^ 1;
                    if let (Some(a), Some(b)) = (find(not_c, t ^ 1), find(c, e ^ 1)) {
                        let mut gate = Gate::new(GateKind::IfThenElse, pos.len(), neg.len());
                        gate.neg[i] = true;
                        gate.neg[j] = true;
                        gate.pos[a] = true;
                        gate.pos[b] = true;
                        return Some(gate);
                    }
                }
            }
        }
        None
    }

    /// An XOR gate of 2 or 3 inputs: among the clauses of 3 or 4 literals, all `2^(k-1)`
    /// sign patterns of one parity over the same `k` variables.
    fn find_xor(&self, v: u32, pos: &[CRef], neg: &[CRef]) -> Option<Gate> {
        // (the clause's variables, sorted and padded; its sign pattern in that order;
        // the side; the index in that side's list)
        let mut keys: Vec<([u32; XOR_MAX_LEN], u32, u32, usize)> = Vec::new();
        for (side, list) in [(0u32, pos), (1, neg)] {
            for (i, &c) in list.iter().enumerate() {
                let lits = self.arena.lits(c);
                if !(3..=XOR_MAX_LEN).contains(&lits.len()) {
                    continue;
                }
                let mut sorted = [u32::MAX; XOR_MAX_LEN];
                sorted[..lits.len()].copy_from_slice(lits);
                sorted[..lits.len()].sort_unstable_by_key(|&y| y >> 1);
                let mut vars = [u32::MAX; XOR_MAX_LEN];
                let mut pattern = 0;
                for (k, &y) in sorted[..lits.len()].iter().enumerate() {
                    vars[k] = y >> 1;
                    pattern |= (y & 1) << k;
                }
                keys.push((vars, pattern, side, i));
            }
        }
        if keys.len() < 4 {
            return None;
        }
        keys.sort_unstable();
        let mut start = 0;
        while start < keys.len() {
            let vars = keys[start].0;
            let end = start + keys[start..].iter().take_while(|k| k.0 == vars).count();
            let len = vars.iter().filter(|&&u| u != u32::MAX).count();
            let needed = 1usize << (len - 1);
            // A repeated variable (x ∨ y ∨ y) is no XOR clause.
            let distinct = vars[..len].windows(2).all(|w| w[0] != w[1]);
            if distinct && end - start >= needed {
                for parity in 0..2 {
                    let mut members: Vec<(u32, usize)> = Vec::new();
                    let mut last = None;
                    for &(_, pattern, side, i) in &keys[start..end] {
                        if pattern.count_ones() % 2 == parity && last != Some(pattern) {
                            last = Some(pattern);
                            members.push((side, i));
                        }
                    }
                    if members.len() == needed {
                        let mut gate = Gate::new(GateKind::Xor, pos.len(), neg.len());
                        for (side, i) in members {
                            gate.mark(2 * v + side, i);
                        }
                        return Some(gate);
                    }
                }
            }
            start = end;
        }
        None
    }

    /// Property (1) of the module note, checked in debug builds: every pair of gate
    /// clauses of opposite signs of `v` clashes on another variable; and both sides have
    /// as many gate clauses as the kind says.
    fn gate_is_sound(&self, v: u32, pos: &[CRef], neg: &[CRef], gate: &Gate) -> bool {
        let side = |list: &[CRef], flags: &[bool]| -> Vec<CRef> {
            list.iter()
                .zip(flags)
                .filter(|&(_, &g)| g)
                .map(|(&c, _)| c)
                .collect()
        };
        let (gp, gn) = (side(pos, &gate.pos), side(neg, &gate.neg));
        let shape = match gate.kind {
            GateKind::Equivalence => gp.len() == 1 && gn.len() == 1,
            GateKind::And => gp.len() == 1 || gn.len() == 1,
            GateKind::IfThenElse => gp.len() == 2 && gn.len() == 2,
            GateKind::Xor => gp.len() == gn.len(),
        };
        shape
            && !gp.is_empty()
            && !gn.is_empty()
            && gp.iter().all(|&p| {
                gn.iter().all(|&q| {
                    self.arena
                        .lits(p)
                        .iter()
                        .any(|&y| y >> 1 != v && self.arena.lits(q).contains(&(y ^ 1)))
                })
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Options;
    use cnf_core::{Lit, Var};

    /// A solver holding `clauses` (DIMACS-style integers) with its occurrence lists, and
    /// the gate found for variable 1 (index 0).
    fn gate_of(clauses: &[&[i32]]) -> Option<GateKind> {
        let mut s = CdclSolver::with_options(Options::plain());
        let mut refs = Vec::new();
        for clause in clauses {
            let lits: Vec<Lit> = clause
                .iter()
                .map(|&d| Var::new(d.unsigned_abs() - 1).lit(d > 0))
                .collect();
            let top = lits
                .iter()
                .map(|l| l.var().index() as u32 + 1)
                .max()
                .unwrap();
            s.ensure_vars(top);
            refs.push(s.arena.alloc(&lits, false));
        }
        let mut pos = Vec::new();
        let mut neg = Vec::new();
        for &c in &refs {
            if s.arena.lits(c).contains(&0) {
                pos.push(c);
            }
            if s.arena.lits(c).contains(&1) {
                neg.push(c);
            }
        }
        let mut effort = Effort {
            steps: 0,
            limit: u64::MAX,
        };
        let gate = s.find_gate(0, &pos, &neg, &mut effort)?;
        assert!(s.gate_is_sound(0, &pos, &neg, &gate));
        Some(gate.kind)
    }

    #[test]
    fn finds_each_kind_of_gate() {
        use GateKind::*;
        // x = a ∧ b ∧ c, with a clause of x's fan-out.
        let and: &[&[i32]] = &[&[-1, 2], &[-1, 3], &[-1, 4], &[1, -2, -3, -4], &[1, 5]];
        assert_eq!(gate_of(and), Some(And));
        // ¬x = a ∧ b (x = ¬a ∨ ¬b).
        assert_eq!(
            gate_of(&[&[1, 2], &[1, 3], &[-1, -2, -3], &[-1, 6]]),
            Some(And)
        );
        assert_eq!(
            gate_of(&[&[1, -2], &[-1, 2], &[1, 3, 4]]),
            Some(Equivalence)
        );
        // x = c ? t : e with c = 2, t = 3, e = 4.
        let ite: &[&[i32]] = &[
            &[-1, -2, 3],
            &[-1, 2, 4],
            &[1, -2, -3],
            &[1, 2, -4],
            &[1, 5],
        ];
        assert_eq!(gate_of(ite), Some(IfThenElse));
        // x = a ⊕ b.
        let xor2: &[&[i32]] = &[
            &[-1, 2, 3],
            &[-1, -2, -3],
            &[1, -2, 3],
            &[1, 2, -3],
            &[-1, 5],
        ];
        assert_eq!(gate_of(xor2), Some(Xor));
        // x = a ⊕ b ⊕ c: the 8 clauses with an even number of negations.
        let mut xor3: Vec<Vec<i32>> = Vec::new();
        for bits in 0u32..16 {
            if bits.count_ones() % 2 == 0 {
                xor3.push(
                    (0..4)
                        .map(|k| if bits >> k & 1 == 1 { -(k + 1) } else { k + 1 })
                        .collect(),
                );
            }
        }
        let xor3: Vec<&[i32]> = xor3.iter().map(|c| c.as_slice()).collect();
        assert_eq!(gate_of(&xor3), Some(Xor));
        // Not gates: an AND missing an input's binary clause, an XOR missing a clause.
        assert_eq!(gate_of(&[&[-1, 2], &[1, -2, -3], &[1, 5]]), None);
        assert_eq!(gate_of(&xor2[1..]), None);
        assert_eq!(gate_of(&xor3[1..]), None);
    }
}
