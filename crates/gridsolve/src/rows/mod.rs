//! The row-mask engine: sudokus of every box side but 3 (sides 1 to 64), with per value
//! and row a `u64` of the columns where the value may go ([`state`]), so that placing a
//! value, locked candidates and hidden singles work on whole rows at once. States are
//! copied onto a per-depth stack kept across puzzles (no allocation per node). Branching
//! ([`branch`]) on a cell with two candidates, else a value with two places left in a row
//! or a column, else the cell with the fewest candidates; binary, so counts are exact.
//! When only one solution is wanted, the search restarts from the root with a growing
//! node budget and random ties among the cells with two candidates, which cuts the heavy
//! tail of minimal puzzles; counting searches never restart.

mod branch;
mod state;

use crate::answer::Solution;
use crate::control::Control;
use state::{Geo, place, propagate};

/// The row-mask engine for one box side; reusable across puzzles.
pub(crate) struct Rows {
    geo: Geo,
    /// `stack[d]` is the state at search depth `d`.
    stack: Vec<Vec<u64>>,
    /// Values whose words changed since they were last analysed.
    dirty: u64,
    /// The root state and its dirty values, kept for restarts.
    saved: (Vec<u64>, u64),
    /// Node count at which the current restart round gives up (`u64::MAX`: never).
    budget_end: u64,
    /// The current round ran out of budget.
    out_of_budget: bool,
    /// Tie-breaking random state (0: ties go to the first cell).
    rng: u64,
}

/// Nodes of the first restart round; each later round has 3/2 of the one before.
const FIRST_BUDGET: u64 = 200;

impl Rows {
    /// An engine for sudokus of box side `k` (1 to 8).
    pub(crate) fn new(k: usize) -> Rows {
        Rows {
            geo: Geo::new(k),
            stack: Vec::new(),
            dirty: 0,
            saved: (Vec::new(), 0),
            budget_end: u64::MAX,
            out_of_budget: false,
            rng: 0,
        }
    }

    /// How many nodes between two checks of the stop condition.
    pub(crate) fn check_every(&self) -> u64 {
        (100_000 / (self.geo.n * self.geo.n)).max(8) as u64
    }

    /// Solves from `givens` (validated: `n²` values in `0..=n`).
    pub(crate) fn solve(&mut self, givens: &[u16], ctl: &mut Control<'_>) {
        let g = &self.geo;
        if self.stack.is_empty() {
            self.stack.push(vec![0; g.words()]);
        }
        let root = &mut self.stack[0];
        g.reset(root);
        self.dirty = 0;
        for (i, &v) in givens.iter().enumerate() {
            if v != 0
                && !place(
                    g,
                    root,
                    usize::from(v) - 1,
                    i / g.n,
                    i % g.n,
                    &mut self.dirty,
                )
            {
                self.dirty = 0;
                return; // clashing givens: no solution
            }
        }
        // a blank grid has nothing dirty; its naked singles are found by propagation
        if ctl.done() {
            return;
        }
        if !ctl.wants_one() {
            (self.budget_end, self.rng) = (u64::MAX, 0);
            self.search(0, ctl);
            return;
        }
        self.saved.0.clone_from(&self.stack[0]);
        self.saved.1 = self.dirty;
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
            self.stack[0].copy_from_slice(&self.saved.0);
            self.dirty = self.saved.1;
        }
    }

    /// Depth-first search from `stack[depth]`.
    fn search(&mut self, depth: usize, ctl: &mut Control<'_>) {
        loop {
            if ctl.node() {
                self.dirty = 0;
                return;
            }
            if ctl.nodes() >= self.budget_end {
                self.out_of_budget = true;
                self.dirty = 0;
                return;
            }
            if !propagate(&self.geo, &mut self.stack[depth], &mut self.dirty) {
                return;
            }
            let Some((v, r, c)) = branch::choose(&self.geo, &self.stack[depth], &mut self.rng)
            else {
                let (g, s) = (&self.geo, &self.stack[depth]);
                ctl.found(|| solution(g, s));
                return;
            };
            ctl.guess();
            if self.stack.len() == depth + 1 {
                let fresh = self.stack[depth].clone();
                self.stack.push(fresh);
            }
            let (parents, children) = self.stack.split_at_mut(depth + 1);
            children[0].copy_from_slice(&parents[depth]);
            if place(&self.geo, &mut children[0], v, r, c, &mut self.dirty) {
                self.search(depth + 1, ctl);
            }
            self.dirty = 0;
            if ctl.done() || self.out_of_budget {
                return;
            }
            // the other alternative: v is not at (r, c)
            self.stack[depth][v * self.geo.n + r] &= !(1u64 << c);
            self.dirty = 1 << v;
        }
    }
}

/// The solution held by a fully placed state.
fn solution(g: &Geo, s: &[u64]) -> Solution {
    let n = g.n;
    let mut board = vec![0u16; n * n];
    for v in 0..n {
        for r in 0..n {
            board[r * n + s[v * n + r].trailing_zeros() as usize] = v as u16 + 1;
        }
    }
    Solution {
        boards: vec![board],
    }
}
