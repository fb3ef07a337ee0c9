//! Failed-literal probing (as in Lingeling, CaDiCaL and Kissat's `probe`).
//!
//! At level 0, a literal `l` is assumed and propagated; if that ends in a conflict, `l`
//! can never be true and `¬l` becomes a unit (RUP: exactly the propagation just done),
//! which is then propagated at level 0. Only literals with binary implications are worth
//! it (`l` must make something happen through a binary clause `¬l ∨ x`), and the roots of
//! the binary implication graph are tried first, since their failure covers the
//! failures of what they imply. Probing resumes where the previous round stopped, so
//! successive rounds cover every candidate in turn. Phases are not saved while probing.
//!
//! Probes that cannot fail are skipped (as CaDiCaL and Kissat do): a literal implied by
//! a probe that did not fail cannot fail either (its conflict would have been the
//! other's), and a literal probed before fails now only if the formula changed since.
//! Each literal remembers the formula's *epoch* when it was last probed or implied by a
//! probe: the epoch counts the level-0 units, eliminated and substituted variables,
//! strengthened literals, vivified clauses and solve calls, so it moves whenever the
//! binary implication graph or the fixed values may have. Learnt clauses do not move it
//! (CaDiCaL's rule too). When nothing changed between two rounds, the second probes
//! nothing.
//!
//! Effort: the propagations probing does, limited to the round's share of the search's
//! propagations (at least one per two irredundant clauses, 10,000 to
//! `MIN_PROBE_PROPAGATIONS`).

use super::clause::NO_REASON;
use super::solver::{CdclSolver, SearchBudget};
use cnf_core::Lit;

/// Propagations a probing round may always use, at most (less on small formulas).
const MIN_PROBE_PROPAGATIONS: u64 = 200_000;

impl CdclSolver {
    /// Probes candidate literals until the effort is spent. Returns false when the
    /// formula turned out unsatisfiable.
    pub(super) fn probe(&mut self, share: u64, budget: &SearchBudget) -> bool {
        debug_assert_eq!(self.decision_level(), 0);
        let n = self.num_vars() as usize;
        // Roots first: literals with binary implications whose negation has none.
        let has_implications = |s: &CdclSolver, l: usize| !s.bin_watches[l ^ 1].is_empty();
        let mut roots = Vec::new();
        let mut others = Vec::new();
        for code in 0..2 * n {
            if self.vals[code] != 0 || self.eliminated[code >> 1] || !has_implications(self, code) {
                continue;
            }
            // `code` is implied by something when a binary clause holds it: `¬y ∨ code`.
            if self.bin_watches[code].is_empty() {
                roots.push(code as u32);
            } else {
                others.push(code as u32);
            }
        }
        let start = self.probe_next as usize;
        let rotate = |v: &mut Vec<u32>| {
            if !v.is_empty() {
                let k = start % v.len();
                v.rotate_left(k);
            }
        };
        rotate(&mut roots);
        rotate(&mut others);
        // On a small formula the search itself is cheap: probing may always use about
        // one propagation per two irredundant clauses, up to MIN_PROBE_PROPAGATIONS.
        let floor = (self.originals.len() as u64 / 2).clamp(10_000, MIN_PROBE_PROPAGATIONS);
        let limit = self.stats.propagations + share.max(floor);
        let mut tried = 0u32;
        for code in roots.into_iter().chain(others) {
            if self.stats.propagations >= limit || (tried % 32 == 31 && budget.exhausted()) {
                break;
            }
            tried += 1;
            let epoch = self.probe_epoch();
            if self.vals[code as usize] != 0 || self.probed[code as usize] == epoch + 1 {
                continue;
            }
            let l = Lit::from_code(code);
            let start = self.trail.len();
            self.trail_lim.push(start);
            self.assign(l, NO_REASON);
            let conflict = self.propagate();
            if conflict == NO_REASON {
                for &x in &self.trail[start..] {
                    self.probed[x.code()] = epoch + 1;
                }
            }
            self.backtrack(0, false);
            if conflict != NO_REASON {
                self.stats.failed_literals += 1;
                if let Some(p) = &mut self.proof {
                    p.add_lits(&[!l]);
                }
                self.assign(!l, NO_REASON);
                if self.propagate() != NO_REASON {
                    return false;
                }
            }
        }
        self.probe_next = self.probe_next.wrapping_add(tried);
        true
    }

    /// The formula's epoch for probing: moves with every change that can make a probe
    /// fail that did not before (see the module note).
    fn probe_epoch(&self) -> u64 {
        let s = &self.stats;
        self.trail.len() as u64
            + s.eliminated
            + s.substituted
            + s.strengthened
            + s.vivified
            + s.solves
    }
}

#[cfg(test)]
mod tests {
    use crate::solver::SearchBudget;
    use crate::{CdclSolver, Options};
    use cnf_core::{Lit, Var};

    fn lit(v: u32, positive: bool) -> Lit {
        Var::new(v).lit(positive)
    }

    fn solver(clauses: &[Vec<Lit>]) -> CdclSolver {
        let mut s = CdclSolver::with_options(Options::default());
        for c in clauses {
            assert!(s.add_clause(c));
        }
        s
    }

    #[test]
    fn implied_and_unchanged_literals_are_not_probed_again() {
        // The chain x0 → x1 → … → x9: probing the root x0 implies x1..x9, and the root
        // ¬x9 implies ¬x8..¬x0, so no other literal needs a probe of its own.
        let chain: Vec<Vec<Lit>> = (0..9)
            .map(|i| vec![lit(i, false), lit(i + 1, true)])
            .collect();
        let mut s = solver(&chain);
        assert_eq!(s.propagate(), super::NO_REASON);
        let before = s.stats.propagations;
        assert!(s.probe(0, &SearchBudget::default()));
        assert_eq!(
            s.stats.propagations - before,
            20,
            "two roots, ten literals each"
        );
        let before = s.stats.propagations;
        assert!(s.probe(0, &SearchBudget::default()));
        assert_eq!(
            s.stats.propagations, before,
            "nothing changed: nothing to probe"
        );
        assert_eq!(s.stats.failed_literals, 0);
    }

    #[test]
    fn a_failed_literal_becomes_a_unit_and_the_next_probe_looks_again() {
        // a → b, a → c, ¬b ∨ ¬c: a fails. And d → e, a literal that never fails.
        let (a, b, c, d, e) = (0, 1, 2, 3, 4);
        let mut s = solver(&[
            vec![lit(a, false), lit(b, true)],
            vec![lit(a, false), lit(c, true)],
            vec![lit(b, false), lit(c, false)],
            vec![lit(d, false), lit(e, true)],
        ]);
        assert_eq!(s.propagate(), super::NO_REASON);
        assert!(s.probe(0, &SearchBudget::default()));
        assert_eq!(s.stats.failed_literals, 1);
        assert_eq!(s.lit_value(lit(a, true)), -1, "¬a is a unit");
        // The probes after the failure saw the unit already: nothing is left to probe.
        let before = s.stats.propagations;
        assert!(s.probe(0, &SearchBudget::default()));
        assert_eq!(s.stats.propagations, before);
        // A new unit moves the epoch: the literals are probed again.
        assert!(s.add_clause(&[lit(e, true)]));
        assert_eq!(s.propagate(), super::NO_REASON);
        let before = s.stats.propagations;
        assert!(s.probe(0, &SearchBudget::default()));
        assert!(s.stats.propagations > before);
    }
}
