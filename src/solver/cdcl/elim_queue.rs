//! The order in which bounded variable elimination tries variables (MiniSat's `elim_heap`).
//!
//! A variable's cost is `|occ(x)| · |occ(¬x)|`, the number of resolvents its elimination
//! would have to form, so the cheapest (and likeliest to stay within the bound) go first.
//! Costs change while elimination runs: removing a variable's clauses makes its
//! neighbours cheaper (they move up), and its resolvents make other neighbours dearer.
//! The queue is a binary min-heap on (cost, variable) with each variable's position, so
//! that a changed cost is one sift away and a variable whose cost changed after it was
//! tried can be queued again. Ties go to the lower variable index.

/// Marks a variable that is not in the heap.
const ABSENT: u32 = u32::MAX;

/// The tie-break of equal costs: a fixed permutation of the variable indices (Fibonacci
/// hashing), so that numbering patterns do not decide which of a group of alike variables
/// goes.
fn scatter(v: u32) -> u32 {
    v.wrapping_mul(0x9E37_79B1)
}

/// Variables waiting to be tried, cheapest first.
#[derive(Debug, Default)]
pub(super) struct ElimQueue {
    /// The heap of variables, cheapest at the root.
    heap: Vec<u32>,
    /// Position of each variable in `heap`, or `ABSENT`.
    position: Vec<u32>,
    /// The cost each variable was queued with.
    cost: Vec<u64>,
}

impl ElimQueue {
    /// An empty queue for variables `0..num_vars`.
    pub fn new(num_vars: usize) -> ElimQueue {
        ElimQueue {
            heap: Vec::new(),
            position: vec![ABSENT; num_vars],
            cost: vec![0; num_vars],
        }
    }

    /// Queues `v` with `cost`, or moves it to its new cost if it is queued already.
    pub fn update(&mut self, v: u32, cost: u64) {
        let vi = v as usize;
        let old = self.cost[vi];
        self.cost[vi] = cost;
        match self.position[vi] {
            ABSENT => {
                self.position[vi] = self.heap.len() as u32;
                self.heap.push(v);
                self.sift_up(self.heap.len() - 1);
            }
            p if cost < old => self.sift_up(p as usize),
            p => self.sift_down(p as usize),
        }
    }

    /// Takes the cheapest variable out.
    pub fn pop(&mut self) -> Option<u32> {
        let top = *self.heap.first()?;
        let last = self.heap.pop()?;
        self.position[top as usize] = ABSENT;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.position[last as usize] = 0;
            self.sift_down(0);
        }
        Some(top)
    }

    /// True when `a` goes before `b`.
    fn before(&self, a: u32, b: u32) -> bool {
        (self.cost[a as usize], scatter(a)) < (self.cost[b as usize], scatter(b))
    }

    fn sift_up(&mut self, mut i: usize) {
        let v = self.heap[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = self.heap[parent];
            if !self.before(v, p) {
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
        let n = self.heap.len();
        loop {
            let left = 2 * i + 1;
            if left >= n {
                break;
            }
            let right = left + 1;
            let child = if right < n && self.before(self.heap[right], self.heap[left]) {
                right
            } else {
                left
            };
            let c = self.heap[child];
            if !self.before(c, v) {
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
    fn pops_cheapest_first_and_follows_updates() {
        let mut q = ElimQueue::new(6);
        for (v, c) in [(0, 9), (1, 4), (2, 5), (3, 1), (4, 16), (5, 0)] {
            q.update(v, c);
        }
        q.update(4, 2); // cheaper: moves up
        q.update(5, 100); // dearer: moves down
        let mut order = Vec::new();
        while let Some(v) = q.pop() {
            order.push(v);
        }
        assert_eq!(order, vec![3, 4, 1, 2, 0, 5]);
        assert_eq!(q.pop(), None);
        q.update(2, 3); // queued again after it was taken out
        assert_eq!(q.pop(), Some(2));
    }
}
