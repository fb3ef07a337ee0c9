//! Unit propagation over the trail, which doubles as the propagation queue.
//!
//! `qhead` marks the first trail literal whose consequences have not been drawn yet. For
//! each such literal `p`, the clauses watching `¬p` are visited: binary clauses first
//! (the other literal is in the watcher, so they cost no clause access), then long
//! clauses. A long clause is skipped if its blocker is true; otherwise its watches are
//! normalised so that `¬p` is the second one, and if the first is true the clause is
//! satisfied. Else a new non-false literal is searched to watch instead of `¬p`; if there
//! is none the clause is unit (its first literal is implied, with the clause as reason, so
//! that a reason clause always holds its implied literal first) or conflicting. The watch
//! list is compacted in place as watchers move away.

use super::clause::{CRef, NO_REASON};
use super::solver::CdclSolver;
use super::watch::Watcher;

impl CdclSolver {
    /// Propagates all pending trail literals. Returns the conflicting clause, or
    /// [`NO_REASON`] when every clause is satisfied or has a non-false watch pair.
    pub(super) fn propagate(&mut self) -> CRef {
        let mut conflict = NO_REASON;
        let mut propagated = 0u64;
        while self.qhead < self.trail.len() {
            let p = self.trail[self.qhead].code() as u32;
            self.qhead += 1;
            propagated += 1;
            let false_lit = p ^ 1;
            let level = self.trail_lim.len() as u32;

            // Binary clauses: the watcher holds the other literal.
            let bins = &self.bin_watches[false_lit as usize];
            for w in bins {
                let other = w.blocker as usize;
                match self.vals[other] {
                    1 => {}
                    0 => {
                        self.vals[other] = 1;
                        self.vals[other ^ 1] = -1;
                        let v = other >> 1;
                        self.level[v] = level;
                        self.reason[v] = w.cref;
                        self.trail.push(crate::cnf::Lit::from_code(other as u32));
                    }
                    _ => {
                        conflict = w.cref;
                        break;
                    }
                }
            }
            if conflict != NO_REASON {
                break;
            }

            // Long clauses.
            let mut ws = std::mem::take(&mut self.watches[false_lit as usize]);
            let mut i = 0;
            let mut j = 0;
            let n = ws.len();
            while i < n {
                let w = ws[i];
                i += 1;
                if self.vals[w.blocker as usize] == 1 {
                    ws[j] = w;
                    j += 1;
                    continue;
                }
                let lits = self.arena.lits_mut(w.cref);
                if lits[0] == false_lit {
                    lits.swap(0, 1);
                }
                let first = lits[0];
                let kept = Watcher {
                    cref: w.cref,
                    blocker: first,
                };
                if first != w.blocker && self.vals[first as usize] == 1 {
                    ws[j] = kept;
                    j += 1;
                    continue;
                }
                // Look for a new literal to watch.
                let mut moved = false;
                for k in 2..lits.len() {
                    let l = lits[k];
                    if self.vals[l as usize] != -1 {
                        lits[1] = l;
                        lits[k] = false_lit;
                        self.watches[l as usize].push(kept);
                        moved = true;
                        break;
                    }
                }
                if moved {
                    continue;
                }
                // Unit or conflicting.
                ws[j] = kept;
                j += 1;
                if self.vals[first as usize] == -1 {
                    conflict = w.cref;
                    while i < n {
                        ws[j] = ws[i];
                        j += 1;
                        i += 1;
                    }
                } else {
                    let f = first as usize;
                    self.vals[f] = 1;
                    self.vals[f ^ 1] = -1;
                    let v = f >> 1;
                    self.level[v] = level;
                    self.reason[v] = w.cref;
                    self.trail.push(crate::cnf::Lit::from_code(first));
                }
            }
            ws.truncate(j);
            self.watches[false_lit as usize] = ws;
            if conflict != NO_REASON {
                break;
            }
        }
        if conflict != NO_REASON {
            self.qhead = self.trail.len();
        }
        self.stats.propagations += propagated;
        conflict
    }
}
