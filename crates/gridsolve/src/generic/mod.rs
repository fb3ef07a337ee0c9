//! The generic engine: any shape up to side 64, one `u64` candidate set per cell, states
//! copied onto a per-depth stack that is kept across puzzles, branching on the unplaced
//! cell with the fewest candidates.

mod propagate;
mod topology;

use crate::answer::Solution;
use crate::control::Control;
use propagate::{is_placed, place, propagate};
use topology::Topology;

use crate::shape::Shape;

/// The generic engine for one shape; reusable across puzzles.
pub(crate) struct Generic {
    topo: Topology,
    /// `stack[d]` is the state at search depth `d`.
    stack: Vec<Vec<u64>>,
    segs: Vec<u64>,
}

impl Generic {
    /// An engine for `shape`.
    pub(crate) fn new(shape: &Shape) -> Generic {
        let topo = Topology::new(shape);
        Generic {
            topo,
            stack: Vec::new(),
            segs: Vec::new(),
        }
    }

    /// How many nodes between two checks of the stop condition (about 100,000 cells'
    /// worth of propagation).
    pub(crate) fn check_every(&self) -> u64 {
        (100_000 / self.topo.cells).max(8) as u64
    }

    /// Solves from `givens` (validated: right length, values `0..=side`).
    pub(crate) fn solve(&mut self, givens: &[u16], ctl: &mut Control<'_>) {
        let words = self.topo.cells + self.topo.cells.div_ceil(64);
        if self.stack.is_empty() {
            self.stack.push(vec![0; words]);
        }
        let root = &mut self.stack[0];
        root[..self.topo.cells].fill(self.topo.full);
        root[self.topo.cells..].fill(0);
        for (c, &g) in givens.iter().enumerate() {
            if g == 0 {
                continue;
            }
            let v = 1u64 << (g - 1);
            if root[c] & v == 0 || !place(&self.topo, root, c, v) {
                return; // clashing givens: no solution
            }
        }
        if !ctl.done() {
            self.search(0, ctl);
        }
    }

    /// Depth-first search from `stack[depth]`.
    fn search(&mut self, depth: usize, ctl: &mut Control<'_>) {
        loop {
            if ctl.node() {
                return;
            }
            if !propagate(&self.topo, &mut self.stack[depth], &mut self.segs) {
                return;
            }
            let Some((c, m)) = self.branch_cell(depth) else {
                let state = &self.stack[depth];
                let topo = &self.topo;
                ctl.found(|| solution(topo, state));
                return;
            };
            let v = m & m.wrapping_neg();
            ctl.guess();
            if self.stack.len() == depth + 1 {
                let fresh = self.stack[depth].clone();
                self.stack.push(fresh);
            }
            let (parents, children) = self.stack.split_at_mut(depth + 1);
            children[0].copy_from_slice(&parents[depth]);
            children[0][c] = v;
            self.search(depth + 1, ctl);
            if ctl.done() {
                return;
            }
            self.stack[depth][c] &= !v;
        }
    }

    /// The unplaced cell with the fewest candidates and its candidates; `None` when every
    /// cell is placed.
    fn branch_cell(&self, depth: usize) -> Option<(usize, u64)> {
        let state = &self.stack[depth];
        let mut best: Option<(usize, u64)> = None;
        let mut best_count = u32::MAX;
        for c in 0..self.topo.cells {
            if is_placed(&self.topo, state, c) {
                continue;
            }
            let count = state[c].count_ones();
            if count < best_count {
                best = Some((c, state[c]));
                best_count = count;
                if count == 2 {
                    break;
                }
            }
        }
        best
    }
}

/// The solution held by a fully placed state.
fn solution(topo: &Topology, state: &[u64]) -> Solution {
    let per_board = topo.n * topo.n;
    let boards = (0..topo.boards)
        .map(|b| {
            (0..per_board)
                .map(|i| state[b * per_board + i].trailing_zeros() as u16 + 1)
                .collect()
        })
        .collect();
    Solution { boards }
}
