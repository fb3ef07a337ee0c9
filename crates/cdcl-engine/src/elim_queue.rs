//! The order in which bounded variable elimination tries variables (MiniSat's `elim_heap`).
//!
//! A variable's cost is `|occ(x)| · |occ(¬x)|`, the number of resolvents its elimination
//! would have to form, so the cheapest (and likeliest to stay within the bound) go first.
//! Costs change while elimination runs: removing a variable's clauses makes its
//! neighbours cheaper (they move up), and its resolvents make other neighbours dearer.
//! The queue is a binary min-heap on (cost, variable) with each variable's position, so
//! that a changed cost is one sift away and a variable whose cost changed after it was
//! tried can be queued again (an [`IndexedHeap`]). Equal costs go in a fixed scattered
//! order of the indices (see [`scatter`]).

use super::indexed_heap::{Entry, IndexedHeap};

/// The tie-break of equal costs: a fixed permutation of the variable indices (Fibonacci
/// hashing), so that numbering patterns do not decide which of a group of alike variables
/// goes.
fn scatter(v: u32) -> u32 {
    v.wrapping_mul(0x9E37_79B1)
}

/// The queue's order: the cheaper first, equal costs in scattered order.
fn cheaper(a: &Entry<u64>, b: &Entry<u64>) -> bool {
    (a.key, scatter(a.var)) < (b.key, scatter(b.var))
}

/// Variables waiting to be tried, cheapest first.
#[derive(Debug)]
pub(super) struct ElimQueue {
    /// The heap of variables with their costs, cheapest at the root.
    heap: IndexedHeap<u64>,
}

impl ElimQueue {
    /// An empty queue for variables `0..num_vars`.
    pub fn new(num_vars: usize) -> ElimQueue {
        ElimQueue {
            heap: IndexedHeap::new(num_vars),
        }
    }

    /// Queues `v` with `cost`, or moves it to its new cost if it is queued already.
    pub fn update(&mut self, v: u32, cost: u64) {
        self.heap.update(v, cost, cheaper);
    }

    /// Takes the cheapest variable out.
    pub fn pop(&mut self) -> Option<u32> {
        self.heap.pop(cheaper)
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
