//! The 9×9 sudoku engine: fixed-size states on the call stack (no heap allocation per
//! puzzle), propagation in a band layout ([`state`]), and branching on a cell with two
//! candidates when there is one (else the cell with the fewest).

#![allow(clippy::needless_range_loop)] // band loops index several arrays at once

mod state;
mod tables;

use crate::answer::Solution;
use crate::control::Control;
use state::{Bands, State};
use tables::BAND;

/// The 9×9 engine. It holds no memory: states live on the call stack.
#[derive(Default)]
pub(crate) struct Nine;

impl Nine {
    /// Solves from 81 validated givens.
    pub(crate) fn solve(&mut self, givens: &[u16], ctl: &mut Control<'_>) {
        let mut st = State::empty();
        let mut by_digit = [[0u32; 3]; 9];
        for (i, &g) in givens.iter().enumerate() {
            if g != 0 {
                by_digit[usize::from(g) - 1][i / 27] |= 1 << (i % 27);
            }
        }
        for (d, cells) in by_digit.iter().enumerate() {
            if cells.iter().any(|&w| w != 0) && st.place_all(d, *cells).is_err() {
                return; // clashing givens: no solution
            }
        }
        if !ctl.done() {
            search(st, ctl);
        }
    }
}

/// Depth-first search from `st`.
fn search(mut st: State, ctl: &mut Control<'_>) {
    loop {
        if ctl.node() || st.propagate().is_err() {
            return;
        }
        if st.solved() {
            ctl.found(|| solution(&st));
            return;
        }
        let (b, bit) = branch_cell(&st);
        let m = 1u32 << bit;
        let d = (0..9).find(|&d| st.cand[d][b] & m != 0).unwrap_or(0);
        ctl.guess();
        let mut child = st;
        for e in (0..9).filter(|&e| e != d) {
            child.cand[e][b] &= !m;
        }
        search(child, ctl);
        if ctl.done() {
            return;
        }
        st.cand[d][b] &= !m;
    }
}

/// The band and bit of an unplaced cell with two candidates if any, else of one with the
/// fewest candidates.
fn branch_cell(st: &State) -> (usize, u32) {
    let (mut once, mut twice, mut thrice): (Bands, Bands, Bands) = ([0; 3], [0; 3], [0; 3]);
    for d in 0..9 {
        for b in 0..3 {
            let x = st.cand[d][b];
            thrice[b] |= twice[b] & x;
            twice[b] |= once[b] & x;
            once[b] |= x;
        }
    }
    for b in 0..3 {
        let pairs = twice[b] & !thrice[b] & !st.placed[b];
        if pairs != 0 {
            return (b, pairs.trailing_zeros());
        }
    }
    let mut best = (0, 0, u32::MAX);
    for b in 0..3 {
        let mut open = !st.placed[b] & BAND;
        while open != 0 {
            let bit = open.trailing_zeros();
            let count = (0..9).filter(|&d| st.cand[d][b] >> bit & 1 == 1).count() as u32;
            if count < best.2 {
                best = (b, bit, count);
            }
            open &= open - 1;
        }
    }
    (best.0, best.1)
}

/// The solution held by a solved state.
fn solution(st: &State) -> Solution {
    let mut board = vec![0u16; 81];
    for (d, w) in st.cand.iter().enumerate() {
        for (b, &word) in w.iter().enumerate() {
            let mut m = word;
            while m != 0 {
                board[27 * b + m.trailing_zeros() as usize] = d as u16 + 1;
                m &= m - 1;
            }
        }
    }
    Solution {
        boards: vec![board],
    }
}
