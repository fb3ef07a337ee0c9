//! The 9×9 engine: fixed-size states on the call stack (no heap allocation per puzzle),
//! the candidates of a digit in one 128-bit value ([`quad`]), propagation by bit logic on
//! those values ([`state`], [`triads`]), and branching on a digit's configurations in a
//! band or stack, as tdoku does ([`branch`]).

#![allow(clippy::needless_range_loop)] // band loops index several arrays at once

mod branch;
mod quad;
mod state;
mod tables;
#[cfg(test)]
mod tests;
mod triads;

use crate::answer::Solution;
use crate::control::Control;
use branch::Branch;
use quad::Quad;
use state::State;

/// The 9×9 engine. It holds no memory: states live on the call stack.
#[derive(Default)]
pub(crate) struct Nine;

impl Nine {
    /// Solves from 81 validated givens.
    pub(crate) fn solve(&mut self, givens: &[u16], ctl: &mut Control<'_>) {
        let mut st = State::empty();
        let mut by_digit = [Quad::zero(); 9];
        for (i, &g) in givens.iter().enumerate() {
            if g != 0 {
                by_digit[usize::from(g) - 1][i / 27] |= 1 << (i % 27);
            }
        }
        for (d, cells) in by_digit.iter().enumerate() {
            if !cells.is_zero() && st.place_all(d, *cells).is_err() {
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
        let Branch { d, first, second } = branch::choose(&st);
        ctl.guess();
        let mut child = st;
        child.cand[d] &= first;
        child.dirty |= 1 << d;
        search(child, ctl);
        if ctl.done() {
            return;
        }
        st.cand[d] &= second;
        st.dirty |= 1 << d;
    }
}

/// The solution held by a solved state.
fn solution(st: &State) -> Solution {
    let mut board = vec![0u16; 81];
    for (d, w) in st.cand.iter().enumerate() {
        for (b, &word) in w.lanes().iter().take(3).enumerate() {
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
