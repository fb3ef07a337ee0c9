//! The decision heuristic: EVSIDS (exponential variable state independent decaying sum)
//! on a binary max-heap, with phase saving.
//!
//! Every variable met during conflict analysis gets its activity bumped by `inc`; after
//! each conflict `inc` grows by `1/decay`, which ages all older bumps at once without
//! touching them (Chaff's VSIDS made exponential by MiniSat). When an activity would
//! overflow, all activities and `inc` are scaled down together, which keeps their order.
//! The heap holds (at least) every unassigned variable, ordered by activity; a variable is
//! re-inserted when backtracking unassigns it, so the next decision is one pop away.
//! Phase saving remembers each variable's last value and decides it the same way again,
//! so a restart does not throw away the partial solutions found below it.

use super::indexed_heap::{Entry, IndexedHeap};

/// The heap's order: the more active first.
#[inline]
fn more_active(a: &Entry<f64>, b: &Entry<f64>) -> bool {
    a.key > b.key
}

/// Activities, the heap of candidate decision variables, and saved phases.
#[derive(Clone, Debug)]
pub struct VarOrder {
    /// Activity of each variable.
    activity: Vec<f64>,
    /// The heap of variable indices with their activities, highest at the root.
    heap: IndexedHeap<f64>,
    /// The bump amount; grows by `1/decay` every conflict.
    inc: f64,
    /// The decay factor (0.8 .. 0.95: lower forgets faster).
    pub decay: f64,
    /// Saved phase of each variable: the value it had when last unassigned.
    pub phase: Vec<bool>,
    /// The activities and bump amount of the other search mode, when each mode keeps a
    /// ranking of its own ([`VarOrder::swap_scores`]); `None` until the first swap.
    spare: Option<(Vec<f64>, f64)>,
}

impl Default for VarOrder {
    fn default() -> Self {
        VarOrder {
            activity: Vec::new(),
            heap: IndexedHeap::default(),
            inc: 1.0,
            decay: 0.95,
            phase: Vec::new(),
            spare: None,
        }
    }
}

impl VarOrder {
    /// Adds variable `v` (the next index) with an initial activity, in the heap.
    pub fn add_var(&mut self, initial_activity: f64) {
        let v = self.activity.len() as u32;
        self.activity.push(initial_activity);
        if let Some((spare, _)) = &mut self.spare {
            spare.push(initial_activity);
        }
        self.heap.add_var();
        self.phase.push(false);
        self.insert(v);
    }

    /// The number of variables known.
    pub fn num_vars(&self) -> usize {
        self.activity.len()
    }

    /// True when `v` is in the heap.
    #[inline]
    pub fn contains(&self, v: u32) -> bool {
        self.heap.contains(v)
    }

    /// Puts `v` into the heap if it is not there.
    #[inline]
    pub fn insert(&mut self, v: u32) {
        self.heap.insert(v, self.activity[v as usize], more_active);
    }

    /// Removes and returns the most active variable.
    pub fn pop(&mut self) -> Option<u32> {
        self.heap.pop(more_active)
    }

    /// Bumps `v`'s activity (conflict analysis met it).
    #[inline]
    pub fn bump(&mut self, v: u32) {
        let a = &mut self.activity[v as usize];
        *a += self.inc;
        if *a > 1e100 {
            for x in &mut self.activity {
                *x *= 1e-100;
            }
            self.heap.map_keys(|k| k * 1e-100);
            self.inc *= 1e-100;
        }
        self.heap
            .moved_up(v, self.activity[v as usize], more_active);
    }

    /// Ages every activity (one conflict passed).
    #[inline]
    pub fn decay_all(&mut self) {
        self.inc /= self.decay;
    }

    /// Puts the other mode's ranking in force and keeps this one for later (CaDiCaL
    /// and Kissat rank variables apart in focused and stable search, so that neither
    /// mode's bumps blur the other's order). The first swap starts the other ranking as
    /// a copy of this one. The heap keeps its variables, reordered by the new scores.
    pub fn swap_scores(&mut self) {
        let (activity, inc) = self
            .spare
            .take()
            .unwrap_or_else(|| (self.activity.clone(), self.inc));
        let old_activity = std::mem::replace(&mut self.activity, activity);
        let old_inc = std::mem::replace(&mut self.inc, inc);
        self.spare = Some((old_activity, old_inc));
        let activity = &self.activity;
        self.heap.rebuild(|v| activity[v as usize], more_active);
    }

    /// The activity of `v`.
    pub fn activity(&self, v: u32) -> f64 {
        self.activity[v as usize]
    }

    /// A uniformly chosen variable from the heap, if any (random decisions).
    pub fn heap_entry(&self, index: usize) -> Option<u32> {
        self.heap.get(index)
    }

    /// The number of variables in the heap.
    pub fn heap_len(&self) -> usize {
        self.heap.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_activity_order_and_reinserts() {
        let mut o = VarOrder::default();
        for a in [0.0, 3.0, 1.0, 2.0, 5.0] {
            o.add_var(a);
        }
        o.bump(0);
        o.bump(0); // var 0 now ties with var 3 at 2.0, above var 2
        let mut order = Vec::new();
        while let Some(v) = o.pop() {
            order.push(v);
        }
        assert_eq!(order[0], 4);
        assert_eq!(order[1], 1);
        assert_eq!(order[4], 2);
        o.insert(2);
        o.insert(2);
        assert_eq!(o.heap_len(), 1);
        assert_eq!(o.pop(), Some(2));
        assert_eq!(o.pop(), None);
    }

    #[test]
    fn rescaling_keeps_the_order() {
        let mut o = VarOrder::default();
        o.add_var(0.0);
        o.add_var(0.0);
        for _ in 0..2000 {
            o.decay_all();
            o.bump(1);
        }
        o.bump(0);
        assert!(o.activity(1) > o.activity(0));
        assert!(o.activity(1).is_finite());
        assert_eq!(o.pop(), Some(1));
    }
}
