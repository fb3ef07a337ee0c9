//! A binary heap of variables that knows where each variable sits, so that a variable
//! whose key changed is one sift away from its new place (MiniSat's `Heap`).
//!
//! The heap holds variable indices; the order is the caller's: every operation takes
//! `before(a, b)`, true when `a` belongs nearer the root than `b`. The decision heuristic
//! ([`super::heap`]) orders by activity, the elimination queue ([`super::elim_queue`]) by
//! the cost of eliminating. A parent never comes after its children; `pop` takes the root
//! and sifts the last entry down from there.

/// Marks a variable that is not in the heap.
const ABSENT: u32 = u32::MAX;

/// Variable indices in heap order, with each one's position.
#[derive(Clone, Debug, Default)]
pub(super) struct IndexedHeap {
    /// The heap: variable indices, the first in order at the root.
    heap: Vec<u32>,
    /// Position of each variable in `heap`, or `ABSENT`.
    position: Vec<u32>,
}

impl IndexedHeap {
    /// An empty heap for variables `0..num_vars`.
    pub fn new(num_vars: usize) -> IndexedHeap {
        IndexedHeap {
            heap: Vec::new(),
            position: vec![ABSENT; num_vars],
        }
    }

    /// Makes room for one more variable (the next index), not in the heap.
    pub fn add_var(&mut self) {
        self.position.push(ABSENT);
    }

    /// True when `v` is in the heap.
    #[inline]
    pub fn contains(&self, v: u32) -> bool {
        self.position[v as usize] != ABSENT
    }

    /// The number of variables in the heap.
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// The variable at position `index` of the heap, if any.
    pub fn get(&self, index: usize) -> Option<u32> {
        self.heap.get(index).copied()
    }

    /// Puts `v` into the heap if it is not there.
    #[inline]
    pub fn insert(&mut self, v: u32, before: impl Fn(u32, u32) -> bool) {
        if !self.contains(v) {
            self.position[v as usize] = self.heap.len() as u32;
            self.heap.push(v);
            self.sift_up(self.heap.len() - 1, before);
        }
    }

    /// Restores the heap order after every key changed (the same variables stay in).
    pub fn rebuild(&mut self, before: impl Fn(u32, u32) -> bool) {
        for i in (0..self.heap.len() / 2).rev() {
            self.sift_down(i, &before);
        }
    }

    /// Removes and returns the first variable in order.
    #[inline]
    pub fn pop(&mut self, before: impl Fn(u32, u32) -> bool) -> Option<u32> {
        let top = *self.heap.first()?;
        let last = self.heap.pop()?;
        self.position[top as usize] = ABSENT;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.position[last as usize] = 0;
            self.sift_down(0, before);
        }
        Some(top)
    }

    /// `v`'s key moved it forward in the order: sifts it up (if it is in the heap).
    #[inline]
    pub fn moved_up(&mut self, v: u32, before: impl Fn(u32, u32) -> bool) {
        let p = self.position[v as usize];
        if p != ABSENT {
            self.sift_up(p as usize, before);
        }
    }

    /// `v`'s key moved it back in the order: sifts it down (if it is in the heap).
    pub fn moved_down(&mut self, v: u32, before: impl Fn(u32, u32) -> bool) {
        let p = self.position[v as usize];
        if p != ABSENT {
            self.sift_down(p as usize, before);
        }
    }

    #[inline]
    fn sift_up(&mut self, mut i: usize, before: impl Fn(u32, u32) -> bool) {
        let v = self.heap[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = self.heap[parent];
            if !before(v, p) {
                break;
            }
            self.heap[i] = p;
            self.position[p as usize] = i as u32;
            i = parent;
        }
        self.heap[i] = v;
        self.position[v as usize] = i as u32;
    }

    #[inline]
    fn sift_down(&mut self, mut i: usize, before: impl Fn(u32, u32) -> bool) {
        let v = self.heap[i];
        let n = self.heap.len();
        loop {
            let left = 2 * i + 1;
            if left >= n {
                break;
            }
            let right = left + 1;
            let child = if right < n && before(self.heap[right], self.heap[left]) {
                right
            } else {
                left
            };
            let c = self.heap[child];
            if !before(c, v) {
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
