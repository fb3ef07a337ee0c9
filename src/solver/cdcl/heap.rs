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

/// Activities, the heap of candidate decision variables, and saved phases.
#[derive(Clone, Debug)]
pub struct VarOrder {
    /// Activity of each variable.
    activity: Vec<f64>,
    /// The heap: variable indices, highest activity at the root.
    heap: Vec<u32>,
    /// Position of each variable in `heap`, or `ABSENT`.
    position: Vec<u32>,
    /// The bump amount; grows by `1/decay` every conflict.
    inc: f64,
    /// The decay factor (0.8 .. 0.95: lower forgets faster).
    pub decay: f64,
    /// Saved phase of each variable: the value it had when last unassigned.
    pub phase: Vec<bool>,
}

/// Marks a variable that is not in the heap.
const ABSENT: u32 = u32::MAX;

impl Default for VarOrder {
    fn default() -> Self {
        VarOrder {
            activity: Vec::new(),
            heap: Vec::new(),
            position: Vec::new(),
            inc: 1.0,
            decay: 0.95,
            phase: Vec::new(),
        }
    }
}

impl VarOrder {
    /// Adds variable `v` (the next index) with an initial activity, in the heap.
    pub fn add_var(&mut self, initial_activity: f64) {
        let v = self.activity.len() as u32;
        self.activity.push(initial_activity);
        self.position.push(ABSENT);
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
        self.position[v as usize] != ABSENT
    }

    /// Puts `v` into the heap if it is not there.
    #[inline]
    pub fn insert(&mut self, v: u32) {
        if !self.contains(v) {
            self.position[v as usize] = self.heap.len() as u32;
            self.heap.push(v);
            self.sift_up(self.heap.len() - 1);
        }
    }

    /// Removes and returns the most active variable.
    pub fn pop(&mut self) -> Option<u32> {
        let top = *self.heap.first()?;
        let last = self.heap.pop().expect("non-empty");
        self.position[top as usize] = ABSENT;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.position[last as usize] = 0;
            self.sift_down(0);
        }
        Some(top)
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
            self.inc *= 1e-100;
        }
        let p = self.position[v as usize];
        if p != ABSENT {
            self.sift_up(p as usize);
        }
    }

    /// Ages every activity (one conflict passed).
    #[inline]
    pub fn decay_all(&mut self) {
        self.inc /= self.decay;
    }

    /// The activity of `v`.
    pub fn activity(&self, v: u32) -> f64 {
        self.activity[v as usize]
    }

    /// A uniformly chosen variable from the heap, if any (random decisions).
    pub fn heap_entry(&self, index: usize) -> Option<u32> {
        self.heap.get(index).copied()
    }

    /// The number of variables in the heap.
    pub fn heap_len(&self) -> usize {
        self.heap.len()
    }

    fn sift_up(&mut self, mut i: usize) {
        let v = self.heap[i];
        let a = self.activity[v as usize];
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = self.heap[parent];
            if self.activity[p as usize] >= a {
                break;
            }
            self.heap[i] = p;
            self.position[p as usize] = i as u32;
            i = parent;
        }
        self.heap[i] = v;
        self.position[v as usize] = i as u32;
    }

    fn sift_down(&mut self, mut i: usize) {
        let v = self.heap[i];
        let a = self.activity[v as usize];
        let n = self.heap.len();
        loop {
            let left = 2 * i + 1;
            if left >= n {
                break;
            }
            let right = left + 1;
            let child = if right < n
                && self.activity[self.heap[right] as usize]
                    > self.activity[self.heap[left] as usize]
            {
                right
            } else {
                left
            };
            let c = self.heap[child];
            if self.activity[c as usize] <= a {
                break;
            }
            self.heap[i] = c;
            self.position[c as usize] = i as u32;
            i = child;
        }
        self.heap[i] = v;
        self.position[v as usize] = i as u32;
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
