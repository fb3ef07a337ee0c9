//! A binary heap of variables that knows where each variable sits, so that a variable
//! whose key changed is one sift away from its new place (MiniSat's `Heap`).
//!
//! Each entry holds its variable's key beside the variable: comparing two children reads
//! one stretch of memory instead of two scattered loads from a key array, which is most of
//! the cost of a sift (the decision heap is sifted several times per decision on circuit
//! formulas). The order is the caller's: every operation takes `before(a, b)` on entries,
//! true when `a` belongs nearer the root than `b`. The decision heuristic ([`super::heap`])
//! orders by activity, the elimination queue ([`super::elim_queue`]) by the cost of
//! eliminating. A parent never comes after its children; `pop` takes the root and sifts
//! the last entry down from there.

/// Marks a variable that is not in the heap.
const ABSENT: u32 = u32::MAX;

/// One heap entry: a variable and its key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Entry<K> {
    /// The key the order compares.
    pub key: K,
    /// The variable.
    pub var: u32,
}

/// Variables in heap order with their keys, and each variable's position.
#[derive(Clone, Debug)]
pub(super) struct IndexedHeap<K> {
    /// The heap: entries, the first in order at the root.
    heap: Vec<Entry<K>>,
    /// Position of each variable in `heap`, or `ABSENT`.
    position: Vec<u32>,
}

impl<K> Default for IndexedHeap<K> {
    fn default() -> Self {
        IndexedHeap {
            heap: Vec::new(),
            position: Vec::new(),
        }
    }
}

impl<K: Copy> IndexedHeap<K> {
    /// An empty heap for variables `0..num_vars`.
    pub fn new(num_vars: usize) -> IndexedHeap<K> {
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
        self.heap.get(index).map(|e| e.var)
    }

    /// Puts `v` with `key` into the heap if it is not there.
    #[inline]
    pub fn insert(&mut self, v: u32, key: K, before: impl Fn(&Entry<K>, &Entry<K>) -> bool) {
        if !self.contains(v) {
            self.position[v as usize] = self.heap.len() as u32;
            self.heap.push(Entry { key, var: v });
            self.sift_up(self.heap.len() - 1, before);
        }
    }

    /// Gives every entry the key `key(var)` and restores the heap order (the same
    /// variables stay in).
    pub fn rebuild(
        &mut self,
        key: impl Fn(u32) -> K,
        before: impl Fn(&Entry<K>, &Entry<K>) -> bool,
    ) {
        for e in &mut self.heap {
            e.key = key(e.var);
        }
        for i in (0..self.heap.len() / 2).rev() {
            self.sift_down(i, &before);
        }
    }

    /// Applies `f` to every key, which must keep their order (a rescaling).
    pub fn map_keys(&mut self, f: impl Fn(K) -> K) {
        for e in &mut self.heap {
            e.key = f(e.key);
        }
    }

    /// Removes and returns the first variable in order.
    #[inline]
    pub fn pop(&mut self, before: impl Fn(&Entry<K>, &Entry<K>) -> bool) -> Option<u32> {
        let top = self.heap.first()?.var;
        let last = self.heap.pop()?;
        self.position[top as usize] = ABSENT;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.position[last.var as usize] = 0;
            self.sift_down(0, before);
        }
        Some(top)
    }

    /// Puts `v` into the heap with `key`, or moves it to `key` if it is there already.
    pub fn update(&mut self, v: u32, key: K, before: impl Fn(&Entry<K>, &Entry<K>) -> bool) {
        let p = self.position[v as usize];
        if p == ABSENT {
            self.insert(v, key, before);
            return;
        }
        let old = std::mem::replace(&mut self.heap[p as usize].key, key);
        if before(&self.heap[p as usize], &Entry { key: old, var: v }) {
            self.sift_up(p as usize, before);
        } else {
            self.sift_down(p as usize, before);
        }
    }

    /// `v`'s key became `key`, which moves it forward in the order: sifts it up (if it is
    /// in the heap).
    #[inline]
    pub fn moved_up(&mut self, v: u32, key: K, before: impl Fn(&Entry<K>, &Entry<K>) -> bool) {
        let p = self.position[v as usize];
        if p != ABSENT {
            self.heap[p as usize].key = key;
            self.sift_up(p as usize, before);
        }
    }

    #[inline]
    fn sift_up(&mut self, mut i: usize, before: impl Fn(&Entry<K>, &Entry<K>) -> bool) {
        let e = self.heap[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = self.heap[parent];
            if !before(&e, &p) {
                break;
            }
            self.heap[i] = p;
            self.position[p.var as usize] = i as u32;
            i = parent;
        }
        self.heap[i] = e;
        self.position[e.var as usize] = i as u32;
    }

    #[inline]
    fn sift_down(&mut self, mut i: usize, before: impl Fn(&Entry<K>, &Entry<K>) -> bool) {
        let e = self.heap[i];
        let n = self.heap.len();
        loop {
            let left = 2 * i + 1;
            if left >= n {
                break;
            }
            let right = left + 1;
            let child = if right < n && before(&self.heap[right], &self.heap[left]) {
                right
            } else {
                left
            };
            let c = self.heap[child];
            if !before(&c, &e) {
                break;
            }
            self.heap[i] = c;
            self.position[c.var as usize] = i as u32;
            i = child;
        }
        self.heap[i] = e;
        self.position[e.var as usize] = i as u32;
    }
}
