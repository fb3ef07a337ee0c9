//! The generic engine: any shape up to side 64, one `u64` candidate set per cell, states
//! copied onto a per-depth stack that is kept across puzzles, branching on the unplaced
//! cell with the fewest candidates. When only one solution is wanted, the search restarts
//! with a growing node budget and randomised ties between equally constrained cells, which
//! cuts the heavy tail of large Latin squares and sudokus; counting searches never restart.

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
    /// The root state, kept for restarts.
    saved: Vec<u64>,
    /// Node count at which the current restart round gives up (`u64::MAX`: never).
    budget_end: u64,
    /// The current round ran out of budget.
    out_of_budget: bool,
    /// Tie-breaking random state (0: ties go to the first cell).
    rng: u64,
}

/// Nodes of the first restart round; each later round has 3/2 of the one before.
const FIRST_BUDGET: u64 = 200;

impl Generic {
    /// An engine for `shape`.
    pub(crate) fn new(shape: &Shape) -> Generic {
        let topo = Topology::new(shape);
        Generic {
            topo,
            stack: Vec::new(),
            segs: Vec::new(),
            saved: Vec::new(),
            budget_end: u64::MAX,
            out_of_budget: false,
            rng: 0,
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
        if ctl.done() {
            return;
        }
        if !ctl.wants_one() {
            self.budget_end = u64::MAX;
            self.rng = 0;
            self.search(0, ctl);
            return;
        }
        // restart rounds from the root
        self.saved.clone_from(&self.stack[0]);
        let mut budget = FIRST_BUDGET;
        self.rng = 0x9E37_79B9_7F4A_7C15;
        loop {
            self.out_of_budget = false;
            self.budget_end = ctl.nodes().saturating_add(budget);
            self.search(0, ctl);
            if !self.out_of_budget || ctl.done() {
                return;
            }
            budget += budget / 2;
            self.stack[0].copy_from_slice(&self.saved);
        }
    }

    /// Depth-first search from `stack[depth]`.
    fn search(&mut self, depth: usize, ctl: &mut Control<'_>) {
        loop {
            if ctl.node() {
                return;
            }
            if ctl.nodes() >= self.budget_end {
                self.out_of_budget = true;
                return;
            }
            if !propagate(&self.topo, &mut self.stack[depth], &mut self.segs) {
                return;
            }
            let Some((c, v)) = self.branch_cell(depth) else {
                let state = &self.stack[depth];
                let topo = &self.topo;
                ctl.found(|| solution(topo, state));
                return;
            };
            ctl.guess();
            if self.stack.len() == depth + 1 {
                let fresh = self.stack[depth].clone();
                self.stack.push(fresh);
            }
            let (parents, children) = self.stack.split_at_mut(depth + 1);
            children[0].copy_from_slice(&parents[depth]);
            children[0][c] = v;
            self.search(depth + 1, ctl);
            if ctl.done() || self.out_of_budget {
                return;
            }
            self.stack[depth][c] &= !v;
        }
    }

    /// The unplaced cell with the fewest candidates and the value to try first; `None`
    /// when every cell is placed. With randomised ties (`rng != 0`) the cell is drawn
    /// among the tied ones and the value among its candidates.
    fn branch_cell(&mut self, depth: usize) -> Option<(usize, u64)> {
        let state = &self.stack[depth];
        let mut best: Option<(usize, u64)> = None;
        let (mut best_count, mut ties) = (u32::MAX, 0u64);
        for c in 0..self.topo.cells {
            if is_placed(&self.topo, state, c) {
                continue;
            }
            let count = state[c].count_ones();
            if count < best_count {
                best = Some((c, state[c]));
                (best_count, ties) = (count, 1);
                if count == 2 && self.rng == 0 {
                    break;
                }
            } else if count == best_count && self.rng != 0 {
                ties += 1;
                if next_random(&mut self.rng).is_multiple_of(ties) {
                    best = Some((c, state[c]));
                }
            }
        }
        let (c, mut m) = best?;
        if self.rng != 0 {
            for _ in 0..next_random(&mut self.rng) % u64::from(m.count_ones()) {
                m &= m - 1;
            }
        }
        Some((c, m & m.wrapping_neg()))
    }
}

/// The next value of a xorshift64 generator (never 0 from a non-zero state).
fn next_random(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
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
