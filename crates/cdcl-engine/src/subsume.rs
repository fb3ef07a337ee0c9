//! Subsumption and self-subsuming strengthening of the irredundant clauses (SatELite).
//!
//! A clause `C` *subsumes* `D` when `C ⊆ D`: `D` is redundant and goes. `C`
//! *self-subsumes* `D` on literal `l` when `C = C' ∨ l` and `D ⊇ C' ∨ ¬l`: the resolvent
//! of the two is `D` without `¬l`, which replaces `D` (strengthening). Both are found from
//! `C`'s side ("backward"): its literals are marked, and every clause in the occurrence
//! lists of `C`'s rarest variable (both signs: a clause strengthened on `l` holds `¬l`,
//! one strengthened on another literal holds `l`) is compared with the marks in one scan.
//! Running this from every clause compares every pair, so the first pass of a round
//! also settles the forward direction (is a clause subsumed by an older one). The first
//! round queues every irredundant clause; later rounds queue only the clauses that hold
//! a variable of a clause added or shortened since (`DIRTY_SUBSUME` in `inprocess.rs`):
//! when `C` subsumes or strengthens `D`, every variable of `C` is in `D`, so if either
//! clause is new, `C` holds a dirty variable and is queued (Kissat schedules its forward
//! subsumption the same way). Resolvents and strengthened clauses made during the pass
//! are queued and checked backward at once, and forward in the next round. Shorter
//! clauses go first, since they subsume most. Each comparison costs the length of the
//! compared clause in effort steps; the queue stops when the round's effort is spent, and
//! the clauses it did not reach stay queued for the next round.
//! Proof: a strengthened clause is a resolvent (RUP) and is added before the old one is
//! deleted; a subsumed clause is just deleted.

use super::clause::CRef;
use super::inprocess::Effort;
use super::solver::CdclSolver;

/// Occurrence lists longer than this are not scanned from a clause (too costly for what
/// they find; Kissat's `subsumeocclim` is of the same order).
const OCC_LIMIT: usize = 2_000;
/// Clauses longer than this are not used to subsume others.
const CLAUSE_LIMIT: usize = 100;

impl CdclSolver {
    /// Runs backward subsumption and strengthening from every clause of `queue` (and from
    /// the clauses strengthened on the way). Returns false on the empty clause.
    pub(super) fn subsume_queue(&mut self, queue: &mut Vec<CRef>, effort: &mut Effort) -> bool {
        let arena = &self.arena;
        queue.retain(|&c| !arena.is_deleted(c));
        queue.sort_unstable_by_key(|&c| std::cmp::Reverse(arena.len(c)));
        queue.dedup();
        let mut scratch = Scratch::default();
        while !effort.exhausted() {
            let Some(c) = queue.pop() else { break };
            if self.arena.is_deleted(c) || self.arena.len(c) > CLAUSE_LIMIT {
                continue;
            }
            if !self.subsume_from(c, queue, effort, &mut scratch) || !self.flush_units() {
                return false;
            }
        }
        true
    }

    /// Removes or strengthens every clause that `c` subsumes or self-subsumes; queues the
    /// strengthened ones. Returns false on the empty clause.
    fn subsume_from(
        &mut self,
        c: CRef,
        queue: &mut Vec<CRef>,
        effort: &mut Effort,
        scratch: &mut Scratch,
    ) -> bool {
        let lits = &mut scratch.lits;
        lits.clear();
        lits.extend_from_slice(self.arena.lits(c));
        let lits = &*lits;
        // The variable of c with the fewest occurrences (both signs).
        let Some(&pivot) = lits
            .iter()
            .min_by_key(|&&x| self.occs[x as usize].len() + self.occs[(x ^ 1) as usize].len())
        else {
            return true;
        };
        if self.occs[pivot as usize].len() + self.occs[(pivot ^ 1) as usize].len() > OCC_LIMIT {
            return true;
        }
        for &x in lits {
            self.marks[(x >> 1) as usize] = if x & 1 == 0 { 1 } else { -1 };
        }
        let mut ok = true;
        'sides: for side in [pivot, pivot ^ 1] {
            let list = &mut scratch.list;
            list.clear();
            list.extend_from_slice(&self.occs[side as usize]);
            for &d in list.iter() {
                if d == c || self.arena.is_deleted(d) || self.arena.len(d) < lits.len() {
                    continue;
                }
                if self.arena.is_deleted(c) {
                    break 'sides;
                }
                effort.steps += self.arena.len(d) as u64;
                let mut same = 0;
                let mut flipped = None;
                let mut two_flips = false;
                for &y in self.arena.lits(d) {
                    let m = self.marks[(y >> 1) as usize];
                    if m == 0 {
                        continue;
                    }
                    let sign = if y & 1 == 0 { 1 } else { -1 };
                    if m == sign {
                        same += 1;
                    } else if flipped.is_none() {
                        flipped = Some(y);
                    } else {
                        two_flips = true;
                        break;
                    }
                }
                if two_flips || same + usize::from(flipped.is_some()) < lits.len() {
                    continue;
                }
                match flipped {
                    None => {
                        self.stats.subsumed += 1;
                        self.remove_clause(d);
                    }
                    Some(y) => {
                        self.stats.strengthened += 1;
                        let kept: Vec<u32> = self
                            .arena
                            .lits(d)
                            .iter()
                            .copied()
                            .filter(|&z| z != y)
                            .collect();
                        if !self.replace_clause(d, &kept) {
                            ok = false;
                            break 'sides;
                        }
                        if !self.arena.is_deleted(d) {
                            queue.push(d);
                        }
                    }
                }
            }
        }
        for &x in lits {
            self.marks[(x >> 1) as usize] = 0;
        }
        ok
    }
}

/// Buffers reused from clause to clause by [`CdclSolver::subsume_queue`].
#[derive(Default)]
struct Scratch {
    /// The literals of the clause subsumption starts from.
    lits: Vec<u32>,
    /// The occurrence list being scanned (a copy: strengthening edits the lists).
    list: Vec<CRef>,
}
