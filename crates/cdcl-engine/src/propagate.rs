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
//! list is compacted in place as watchers move away. The work is counted in *ticks*
//! (Kissat's measure of propagation effort): one per watch list visited, one per long
//! clause whose memory is read, one per literal scanned in search of a new watch. On a
//! clause of millions of literals one propagation can take milliseconds, and the search
//! looks at its limits by ticks too; vivification's effort is a share of them.

use super::clause::{CRef, NO_REASON};
use super::solver::CdclSolver;
use super::watch::Watcher;
use cnf_core::Lit;

impl CdclSolver {
    /// Propagates all pending trail literals. Returns the conflicting clause, or
    /// [`NO_REASON`] when every clause is satisfied or has a non-false watch pair.
    ///
    /// The solver's fields are borrowed apart once, up front, so that the loop works on
    /// plain slices the compiler can keep in registers (through `self` it reloaded each
    /// vector's pointer and length after every store).
    pub(super) fn propagate(&mut self) -> CRef {
        let mut conflict = NO_REASON;
        let level = self.trail_lim.len() as u32;
        let start = self.qhead;
        let mut qhead = self.qhead;
        let vals = &mut self.vals[..];
        let levels = &mut self.level[..];
        let reasons = &mut self.reason[..];
        let trail = &mut self.trail;
        let watches = &mut self.watches[..];
        let bin_watches = &self.bin_watches[..];
        let arena = &mut self.arena;
        let mut scanned = 0u64;
        // Without chronological backtracking the trail lists the levels in order.
        let chrono = self.options.chrono > 0;
        while qhead < trail.len() {
            let p = trail[qhead].code() as u32;
            qhead += 1;
            scanned += 1; // the watch lists
            let false_lit = p ^ 1;
            // A literal of a lower level (chronological backtracking): what it implies
            // takes the highest level among the reason's false literals.
            let p_level = if chrono {
                levels[(p >> 1) as usize]
            } else {
                level
            };
            let out_of_order = p_level != level;

            // Binary clauses: the watcher holds the other literal.
            for w in &bin_watches[false_lit as usize] {
                let other = w.blocker as usize;
                match vals[other] {
                    1 => {}
                    0 => {
                        vals[other] = 1;
                        vals[other ^ 1] = -1;
                        let v = other >> 1;
                        levels[v] = p_level;
                        reasons[v] = w.cref;
                        trail.push(Lit::from_code(other as u32));
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
            let mut ws = std::mem::take(&mut watches[false_lit as usize]);
            let mut i = 0;
            let mut j = 0;
            let n = ws.len();
            // SAFETY (every unchecked access below): i < n = ws.len() and j <= i; a
            // watcher's clause is in the arena (compaction rewrites every watcher, and a
            // deleted clause keeps its words until then), a watched clause has at least
            // two literals, and every literal code and blocker is < vals.len().
            unsafe {
                while i < n {
                    let w = *ws.get_unchecked(i);
                    i += 1;
                    debug_assert!((w.blocker as usize) < vals.len());
                    if *vals.get_unchecked(w.blocker as usize) == 1 {
                        *ws.get_unchecked_mut(j) = w;
                        j += 1;
                        continue;
                    }
                    let lits = arena.lits_unchecked_mut(w.cref);
                    let len = lits.len();
                    scanned += 1; // the clause's memory
                    debug_assert!(len >= 2);
                    if *lits.get_unchecked(0) == false_lit {
                        lits.swap(0, 1);
                    }
                    let first = *lits.get_unchecked(0);
                    let kept = Watcher {
                        cref: w.cref,
                        blocker: first,
                    };
                    if first != w.blocker && *vals.get_unchecked(first as usize) == 1 {
                        *ws.get_unchecked_mut(j) = kept;
                        j += 1;
                        continue;
                    }
                    // Look for a new literal to watch.
                    let mut k = 2;
                    while k < len && *vals.get_unchecked(*lits.get_unchecked(k) as usize) == -1 {
                        k += 1;
                    }
                    scanned += k as u64;
                    if k < len {
                        let l = *lits.get_unchecked(k);
                        *lits.get_unchecked_mut(1) = l;
                        *lits.get_unchecked_mut(k) = false_lit;
                        watches.get_unchecked_mut(l as usize).push(kept);
                        continue;
                    }
                    // Unit or conflicting.
                    *ws.get_unchecked_mut(j) = kept;
                    j += 1;
                    if *vals.get_unchecked(first as usize) == -1 {
                        conflict = w.cref;
                        ws.copy_within(i..n, j);
                        j += n - i;
                        break;
                    }
                    let f = first as usize;
                    vals[f] = 1;
                    vals[f ^ 1] = -1;
                    let v = f >> 1;
                    levels[v] = if out_of_order {
                        lits[1..]
                            .iter()
                            .map(|&x| *levels.get_unchecked((x >> 1) as usize))
                            .max()
                            .unwrap_or(0)
                    } else {
                        level
                    };
                    reasons[v] = w.cref;
                    trail.push(Lit::from_code(first));
                }
            }
            ws.truncate(j);
            watches[false_lit as usize] = ws;
            if conflict != NO_REASON {
                break;
            }
        }
        self.stats.propagations += (qhead - start) as u64;
        self.ticks += scanned;
        self.qhead = if conflict != NO_REASON {
            self.trail.len()
        } else {
            qhead
        };
        conflict
    }
}
