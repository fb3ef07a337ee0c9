//! Equivalent-literal substitution (as in Lingeling's and CaDiCaL's `decompose`).
//!
//! The irredundant binary clauses form the *binary implication graph*: a clause `a ∨ b`
//! gives the edges `¬a → b` and `¬b → a`. Literals in one strongly connected component
//! imply each other, so they are equivalent in every model: each component gets a
//! representative (a frozen variable's literal if the component has one, else the literal
//! of the smallest variable; the component of the negations gets the negated
//! representative), and every other variable of the component is *substituted*: each
//! irredundant clause that mentions it is rewritten in terms of the representative
//! (tautologies go, duplicate literals merge, units are assigned), and the variable leaves
//! the formula like an eliminated one (so it runs only where elimination may: not in
//! incremental sessions, which switch elimination off). A component holding both `l` and `¬l` makes the
//! formula unsatisfiable. Components are found with Tarjan's algorithm (iteratively, one
//! pass over the graph, linear in its size). Frozen variables are never substituted.
//!
//! Models: a substituted variable `x` with representative `r` goes onto the extension
//! stack ([`super::extend`]) as the two clauses `x ∨ ¬r` and `¬x ∨ r`, so that a model
//! gives `x` the value of `r`; an incremental caller who mentions `x` again restores it
//! with those two clauses. Learnt clauses that mention `x` are deleted at the end of the
//! round, with those of eliminated variables.
//!
//! Proof: the equivalences `¬x ∨ r` and `x ∨ ¬r` are RUP (a path of binary clauses
//! connects the two literals each way) and are added first; every rewritten clause is then
//! RUP through them and is added before its old version is deleted; at the end the
//! equivalences are deleted again.

use super::clause::CRef;
use super::inprocess::Effort;
use super::solver::CdclSolver;
use cnf_core::Lit;

/// Marks a literal not yet visited by the search for components.
const UNVISITED: u32 = u32::MAX;

impl CdclSolver {
    /// The other literal of irredundant binary clause `c` (which holds `x`), or `None` when
    /// `c` is deleted or longer.
    #[inline]
    pub(super) fn binary_partner(&self, c: CRef, x: u32) -> Option<u32> {
        if self.arena.is_deleted(c) || self.arena.len(c) != 2 {
            return None;
        }
        let lits = self.arena.lits(c);
        Some(if lits[0] == x { lits[1] } else { lits[0] })
    }

    /// The representative of every literal (itself when it has no equivalent), from the
    /// strongly connected components of the binary implication graph over the occurrence
    /// lists; `Err(x)` when literal `x` is equivalent to its negation.
    fn equivalence_classes(&self, effort: &mut Effort) -> Result<Vec<u32>, u32> {
        let n = 2 * self.num_vars() as usize;
        let mut repr: Vec<u32> = (0..n as u32).collect();
        let mut index = vec![UNVISITED; n];
        let mut low = vec![0u32; n];
        let mut on_stack = vec![false; n];
        let mut stack: Vec<u32> = Vec::new();
        // The depth-first path: (literal, position in the list of its successors).
        let mut path: Vec<(u32, usize)> = Vec::new();
        let mut counter = 0u32;
        let mut decided = vec![false; n];
        let mut member = vec![false; n];
        for root in 0..n as u32 {
            if index[root as usize] != UNVISITED
                || self.vals[root as usize] != 0
                || self.eliminated[(root >> 1) as usize]
            {
                continue;
            }
            // The literal to enter next: the root, then each unvisited successor.
            let mut next = Some(root);
            loop {
                if let Some(b) = next.take() {
                    index[b as usize] = counter;
                    low[b as usize] = counter;
                    counter += 1;
                    stack.push(b);
                    on_stack[b as usize] = true;
                    path.push((b, 0));
                }
                let Some(&(u, from)) = path.last() else {
                    break;
                };
                // Successors of u: b for every binary clause ¬u ∨ b.
                let list = &self.occs[(u ^ 1) as usize];
                let mut pos = from;
                while pos < list.len() {
                    let c = list[pos];
                    pos += 1;
                    effort.steps += 1;
                    let Some(b) = self.binary_partner(c, u ^ 1) else {
                        continue;
                    };
                    if self.vals[b as usize] != 0 {
                        continue;
                    }
                    if index[b as usize] == UNVISITED {
                        next = Some(b);
                        break;
                    } else if on_stack[b as usize] {
                        low[u as usize] = low[u as usize].min(index[b as usize]);
                    }
                }
                if let Some(top) = path.last_mut() {
                    top.1 = pos;
                }
                if next.is_some() {
                    continue;
                }
                path.pop();
                if let Some(&(parent, _)) = path.last() {
                    low[parent as usize] = low[parent as usize].min(low[u as usize]);
                }
                if low[u as usize] != index[u as usize] {
                    continue;
                }
                // u roots a component: pop it.
                let start = stack
                    .iter()
                    .rposition(|&x| x == u)
                    .expect("the root is on the stack");
                let component: Vec<u32> = stack.drain(start..).collect();
                for &x in &component {
                    on_stack[x as usize] = false;
                }
                if component.len() == 1 || decided[component[0] as usize] {
                    continue; // alone, or the mirror of a component already done
                }
                let frozen = |x: u32| self.frozen[(x >> 1) as usize] > 0;
                let r = component
                    .iter()
                    .copied()
                    .min_by_key(|&x| (!frozen(x), x >> 1))
                    .expect("non-empty");
                for &x in &component {
                    member[x as usize] = true;
                }
                if let Some(&x) = component.iter().find(|&&x| member[(x ^ 1) as usize]) {
                    return Err(x);
                }
                for &x in &component {
                    member[x as usize] = false;
                    repr[x as usize] = r;
                    repr[(x ^ 1) as usize] = r ^ 1;
                    decided[x as usize] = true;
                    decided[(x ^ 1) as usize] = true;
                }
            }
        }
        Ok(repr)
    }

    /// Finds the equivalent literals and substitutes every non-frozen, non-representative
    /// variable (see the module note). Rewritten clauses are queued for subsumption.
    /// Returns false when the formula turned out unsatisfiable.
    pub(super) fn substitute_equivalences(
        &mut self,
        queue: &mut Vec<CRef>,
        effort: &mut Effort,
    ) -> bool {
        let repr = match self.equivalence_classes(effort) {
            Ok(r) => r,
            Err(x) => {
                // x ≡ ¬x: both units are RUP through the binary clauses.
                if let Some(p) = &mut self.proof {
                    p.add(&[x ^ 1]);
                    p.add(&[x]);
                }
                return false;
            }
        };
        let substituted: Vec<u32> = (0..self.num_vars())
            .filter(|&v| {
                let r = repr[2 * v as usize];
                (r >> 1) != v && self.frozen[v as usize] == 0
            })
            .collect();
        if substituted.is_empty() {
            return true;
        }
        // The literal each literal is rewritten to: its representative, unless frozen.
        let mut map: Vec<u32> = (0..repr.len() as u32).collect();
        for &v in &substituted {
            map[2 * v as usize] = repr[2 * v as usize];
            map[2 * v as usize + 1] = repr[2 * v as usize + 1];
        }
        if let Some(p) = &mut self.proof {
            for &v in &substituted {
                let r = map[2 * v as usize];
                p.add(&[2 * v + 1, r]);
                p.add(&[2 * v, r ^ 1]);
            }
        }
        // The clauses to rewrite, taken out of the substituted variables' lists (which the
        // variables leave for good), so that rewriting never searches those lists.
        let mut clauses: Vec<CRef> = Vec::new();
        for &v in &substituted {
            for side in [2 * v as usize, 2 * v as usize + 1] {
                clauses.append(&mut self.occs[side]);
            }
        }
        clauses.sort_unstable();
        clauses.dedup();
        let mut ok = true;
        let mut new: Vec<u32> = Vec::new();
        for c in clauses {
            if self.arena.is_deleted(c) {
                continue;
            }
            effort.steps += self.arena.len(c) as u64;
            new.clear();
            new.extend(self.arena.lits(c).iter().map(|&x| map[x as usize]));
            new.sort_unstable();
            new.dedup();
            if new.windows(2).any(|w| w[0] ^ 1 == w[1]) {
                self.remove_clause(c); // a tautology now
                continue;
            }
            if !self.replace_clause(c, &new) {
                ok = false;
                break;
            }
            if !self.arena.is_deleted(c) {
                queue.push(c);
            }
        }
        for &v in &substituted {
            let r = Lit::from_code(map[2 * v as usize]);
            let x = cnf_core::Var::new(v);
            self.extension.push(x.pos(), [x.pos(), !r]);
            self.extension.push(x.neg(), [x.neg(), r]);
            self.eliminated[v as usize] = true;
            self.stats.substituted += 1;
            if let Some(p) = &mut self.proof {
                p.delete(&[2 * v + 1, r.code() as u32]);
                p.delete(&[2 * v, r.code() as u32 ^ 1]);
            }
        }
        ok && self.flush_units()
    }
}
