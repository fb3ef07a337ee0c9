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
//! Effort: the propagations probing does, limited to the round's share of the search's
//! propagations (at least one per two irredundant clauses, 10,000 to
//! `MIN_PROBE_PROPAGATIONS`).

use super::clause::NO_REASON;
use super::solver::CdclSolver;
use crate::cnf::Lit;

/// Propagations a probing round may always use, at most (less on small formulas).
const MIN_PROBE_PROPAGATIONS: u64 = 200_000;

impl CdclSolver {
    /// Probes candidate literals until the effort is spent. Returns false when the
    /// formula turned out unsatisfiable.
    pub(super) fn probe(&mut self, share: u64) -> bool {
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
            if self.stats.propagations >= limit {
                break;
            }
            if self.vals[code as usize] != 0 {
                continue;
            }
            tried += 1;
            let l = Lit::from_code(code);
            self.trail_lim.push(self.trail.len());
            self.assign(l, NO_REASON);
            let conflict = self.propagate();
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
}
