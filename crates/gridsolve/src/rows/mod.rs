//! The row-mask engine: sudokus of every box side but 3 (sides 1 to 64), with per value
//! and row a word of the columns where the value may go ([`state`]), so that placing a
//! value, locked candidates and hidden singles work on whole rows at once; the word is
//! the smallest that holds a row ([`word`]). States are copied onto a per-depth stack
//! kept across puzzles (no allocation per node). At every
//! node, after propagation, a lookahead ([`probe`]) tries both alternatives of the
//! binary choices (cells with two candidates, values with two places in a row or a
//! column): a refuted alternative forces the other, candidates removed by both go, and
//! the branch is the choice whose alternatives remove the most. Without a binary choice,
//! the branch is the cell with the fewest candidates ([`branch`]). When one solution is
//! wanted, a first round without the lookahead ([`branch::choose`]) gets a small node
//! budget, so that easy puzzles do not pay for it; then the search starts again from the
//! root with it. Counting searches use the lookahead from the root and never restart.
//! Branches are binary (a value in a cell, or not), so counts are exact.

mod branch;
mod probe;
mod state;
mod word;

use crate::answer::{Answer, Solution};
use crate::control::Control;
use crate::limit::{Limit, Stop};
use probe::{Outcome, Probe};
use state::{Geo, place, propagate};
pub(crate) use word::Word;

/// The row-mask engine for one box side; reusable across puzzles.
pub(crate) struct Rows<W: Word> {
    geo: Geo<W>,
    /// `stack[d]` is the state at search depth `d`.
    stack: Vec<Vec<W>>,
    /// Values whose words changed since they were last analysed.
    dirty: u64,
    /// The lookahead's scratch states.
    probe: Probe<W>,
    /// Whether the search uses the lookahead (else [`branch::choose`]).
    lookahead: bool,
    /// The root state and its dirty values, kept for the second round.
    saved: (Vec<W>, u64),
    /// Node count at which the current round gives up (`u64::MAX`: never).
    budget_end: u64,
    /// The current round ran out of budget.
    out_of_budget: bool,
}

/// Nodes of the first round, without the lookahead, when one solution is wanted
/// (measured: 32 keeps sudokus with half the cells given as fast as without the
/// lookahead and costs minimal 16×16 ones about 4 % more nodes; 64 and 128 cost more).
const PLAIN_BUDGET: u64 = 32;

impl<W: Word> Rows<W> {
    /// An engine for sudokus of box side `k` (1 to 8, a row of `k²` columns fitting `W`).
    pub(crate) fn new(k: usize) -> Rows<W> {
        Rows {
            geo: Geo::new(k),
            stack: Vec::new(),
            dirty: 0,
            probe: Probe::default(),
            lookahead: true,
            saved: (Vec::new(), 0),
            budget_end: u64::MAX,
            out_of_budget: false,
        }
    }

    /// How many nodes (propagations, lookahead probes included) between two checks of
    /// the stop condition.
    pub(crate) fn check_every(&self) -> u64 {
        (100_000 / (self.geo.n * self.geo.n)).max(8) as u64
    }

    /// The answer for `givens` (validated: `n²` values in `0..=n`).
    pub(crate) fn solve_all(&mut self, givens: &[u16], limit: Limit, stop: Stop<'_>) -> Answer {
        let mut ctl = Control::new(limit, stop, self.check_every());
        self.solve(givens, &mut ctl);
        ctl.finish()
    }

    /// Solves from `givens` (validated: `n²` values in `0..=n`).
    pub(crate) fn solve(&mut self, givens: &[u16], ctl: &mut Control<'_>) {
        let g = &self.geo;
        if self.stack.is_empty() {
            self.stack.push(vec![W::ZERO; g.words()]);
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
        (self.budget_end, self.out_of_budget) = (u64::MAX, false);
        if !ctl.wants_one() {
            self.lookahead = true;
            self.search(0, ctl);
            return;
        }
        // easy puzzles: a plain search with a node budget, then the lookahead from the root
        self.saved.0.clone_from(&self.stack[0]);
        self.saved.1 = self.dirty;
        self.lookahead = false;
        self.budget_end = ctl.nodes().saturating_add(PLAIN_BUDGET);
        self.search(0, ctl);
        if !self.out_of_budget || ctl.done() {
            return;
        }
        (self.budget_end, self.out_of_budget) = (u64::MAX, false);
        self.stack[0].copy_from_slice(&self.saved.0);
        self.dirty = self.saved.1;
        self.lookahead = true;
        self.search(0, ctl);
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
            let probed = if self.lookahead {
                self.probe.run(&self.geo, &mut self.stack[depth], ctl)
            } else {
                match branch::choose(&self.geo, &self.stack[depth]) {
                    Some(lit) => Outcome::Place(lit),
                    None => Outcome::None,
                }
            };
            let (v, r, c) = match probed {
                Outcome::Dead => return,
                Outcome::Branch(lit) | Outcome::Place(lit) => lit,
                Outcome::None => match branch::fewest(&self.geo, &self.stack[depth]) {
                    Some(lit) => lit,
                    None => {
                        let (g, s) = (&self.geo, &self.stack[depth]);
                        ctl.found(|| solution(g, s));
                        return;
                    }
                },
            };
            ctl.guess();
            if self.stack.len() == depth + 1 {
                let fresh = self.stack[depth].clone();
                self.stack.push(fresh);
            }
            let (parents, children) = self.stack.split_at_mut(depth + 1);
            let ready = matches!(probed, Outcome::Branch(_));
            if ready {
                // the lookahead's propagated state of this alternative
                children[0].copy_from_slice(&self.probe.best);
                self.dirty = 0;
            } else {
                children[0].copy_from_slice(&parents[depth]);
            }
            if ready || place(&self.geo, &mut children[0], v, r, c, &mut self.dirty) {
                self.search(depth + 1, ctl);
            }
            self.dirty = 0;
            if ctl.done() || self.out_of_budget {
                return;
            }
            // the other alternative: v is not at (r, c)
            self.stack[depth][v * self.geo.n + r] &= !(W::ONE << c);
            self.stack[depth][self.geo.changed()] |= W::ONE << r;
            self.dirty = 1 << v;
        }
    }
}

/// The solution held by a fully placed state.
fn solution<W: Word>(g: &Geo<W>, s: &[W]) -> Solution {
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

/// The puzzles of tests/data/large.txt with box side `k` (16×16 and 25×25), for the
/// engine's unit tests.
#[cfg(test)]
pub(crate) fn large_puzzles(k: usize) -> Vec<Vec<u16>> {
    let symbol = |b: u8| match b {
        b'1'..=b'9' => u16::from(b - b'0'),
        b'A'..=b'Z' => u16::from(b - b'A') + 10,
        _ => 0,
    };
    include_str!("../../tests/data/large.txt")
        .lines()
        .filter(|l| l.len() == k.pow(4))
        .map(|l| l.bytes().map(symbol).collect())
        .collect()
}

/// The state of `givens` placed (not yet propagated) and its dirty values, for the
/// engine's unit tests.
#[cfg(test)]
pub(crate) fn placed<W: Word>(g: &Geo<W>, givens: &[u16]) -> (Vec<W>, u64) {
    let mut s = vec![W::ZERO; g.words()];
    g.reset(&mut s);
    let mut dirty = 0;
    for (i, &v) in givens.iter().enumerate() {
        if v != 0 {
            assert!(place(
                g,
                &mut s,
                usize::from(v) - 1,
                i / g.n,
                i % g.n,
                &mut dirty
            ));
        }
    }
    (s, dirty)
}
