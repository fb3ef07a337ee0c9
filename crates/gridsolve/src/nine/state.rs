//! The 9×9 search state and its propagation: per digit three band words of candidates
//! (layout in [`super::tables`]), the placed cells, and the words last analysed per digit
//! so that unchanged digits are skipped. Propagation runs, per digit whose candidates
//! changed, the band rule (locked candidates along rows: each row and box of a band holds
//! the digit once) with hidden singles in rows, columns and boxes, and naked singles in
//! the same pass; when both are stuck, triads (which hold locked candidates along
//! columns too); to a fixpoint.

#![allow(clippy::needless_range_loop)] // band loops index several arrays at once

use super::tables::{BAND, BOX0, KEEP, MINIROW_CELLS, PEERS, ROW_MINIROWS, ROWS3};
use super::triads;

/// Band words: one 27-bit word per band.
pub(crate) type Bands = [u32; 3];

/// A 9×9 search state (copied whole at each guess).
#[derive(Clone, Copy)]
pub(crate) struct State {
    /// Candidates per digit (0-based) and band; a placed cell keeps its digit's bit.
    pub cand: [Bands; 9],
    /// Placed cells.
    pub placed: Bands,
    /// Per digit, the candidate words when last analysed by the band rule (all ones at
    /// first, a value no analysed word has).
    seen: [Bands; 9],
}

/// A contradiction: the state has no solution.
pub(crate) struct Dead;

/// The result of one rule: `Ok(true)` if it changed the state.
type Step = Result<bool, Dead>;

#[inline]
fn any(b: &Bands) -> bool {
    b[0] | b[1] | b[2] != 0
}

impl State {
    /// The empty grid: every digit possible everywhere.
    pub(crate) fn empty() -> State {
        State {
            cand: [[BAND; 3]; 9],
            placed: [0; 3],
            seen: [[u32::MAX; 3]; 9],
        }
    }

    /// Whether every cell is placed.
    #[inline]
    pub(crate) fn solved(&self) -> bool {
        self.placed == [BAND; 3]
    }

    /// Places digit `d` on the cells `cells`: clears their peers for `d` and the other
    /// digits from them. Dead if two of the cells are peers or one lacks `d`.
    #[inline]
    pub(crate) fn place_all(&mut self, d: usize, cells: Bands) -> Result<(), Dead> {
        self.clear_peers(d, cells)?;
        for e in 0..9 {
            if e != d {
                for b in 0..3 {
                    self.cand[e][b] &= !cells[b];
                }
            }
        }
        for b in 0..3 {
            self.placed[b] |= cells[b];
        }
        Ok(())
    }

    /// Clears digit `d` from the peers of `cells`; Dead if two of the cells are peers or
    /// one lacks `d`.
    #[inline]
    fn clear_peers(&mut self, d: usize, cells: Bands) -> Result<(), Dead> {
        let mut w = self.cand[d];
        for (b, &word) in cells.iter().enumerate() {
            let mut m = word;
            while m != 0 {
                let p = &PEERS[27 * b + m.trailing_zeros() as usize];
                w[0] &= !p[0];
                w[1] &= !p[1];
                w[2] &= !p[2];
                m &= m - 1;
            }
        }
        for b in 0..3 {
            if w[b] & cells[b] != cells[b] {
                return Err(Dead);
            }
        }
        self.cand[d] = w;
        Ok(())
    }

    /// Runs every rule to a fixpoint; Dead on a contradiction.
    pub(crate) fn propagate(&mut self) -> Result<(), Dead> {
        loop {
            let mut progress = false;
            for d in 0..9 {
                progress |= self.band_rule(d)?;
            }
            if self.naked_singles()? || progress {
                continue;
            }
            if self.solved() {
                return Ok(());
            }
            if !triads::apply(&mut self.cand)? {
                return Ok(());
            }
        }
    }

    /// Places every unplaced cell that has one candidate left.
    #[inline]
    fn naked_singles(&mut self) -> Step {
        let (mut once, mut twice) = ([0u32; 3], [0u32; 3]);
        for d in 0..9 {
            for b in 0..3 {
                twice[b] |= once[b] & self.cand[d][b];
                once[b] |= self.cand[d][b];
            }
        }
        let mut singles = [0u32; 3];
        for b in 0..3 {
            let open = !self.placed[b] & BAND;
            if open & !once[b] != 0 {
                return Err(Dead);
            }
            singles[b] = once[b] & !twice[b] & open;
        }
        if !any(&singles) {
            return Ok(false);
        }
        // each single cell holds one digit already: only its peers need clearing
        for d in 0..9 {
            let mine = [
                singles[0] & self.cand[d][0],
                singles[1] & self.cand[d][1],
                singles[2] & self.cand[d][2],
            ];
            if any(&mine) {
                self.clear_peers(d, mine)?;
            }
        }
        for b in 0..3 {
            self.placed[b] |= singles[b];
        }
        Ok(true)
    }

    /// Digit `d`'s band rule and hidden singles, if its candidates changed since last time.
    #[inline]
    fn band_rule(&mut self, d: usize) -> Step {
        let before = self.cand[d];
        if before == self.seen[d] {
            return Ok(false);
        }
        let mut w = before;
        let mut changed = [false; 3];
        for b in 0..3 {
            if w[b] != self.seen[d][b] {
                changed[b] = true;
                w[b] = shrink_band(w[b]);
                if w[b] == 0 {
                    return Err(Dead);
                }
            }
        }
        let singles = hidden_singles(&w, &self.placed, changed)?;
        self.cand[d] = w;
        self.seen[d] = w;
        if any(&singles) {
            self.place_all(d, singles)?;
            return Ok(true);
        }
        Ok(w != before)
    }
}

/// The band rule on one band word: keeps the minirows that belong to a row-to-box
/// permutation; 0 when none exists.
#[inline]
fn shrink_band(x: u32) -> u32 {
    let summary = ROW_MINIROWS[(x & 0x1ff) as usize]
        | ROW_MINIROWS[(x >> 9 & 0x1ff) as usize] << 3
        | ROW_MINIROWS[(x >> 18) as usize] << 6;
    x & MINIROW_CELLS[KEEP[summary as usize] as usize]
}

/// The unplaced cells where a digit with candidates `w` (after the band rule, so no row
/// or box is empty) is alone in its row, column or box. Dead on a column without it.
/// Rows and boxes are looked at only in the `changed` bands (an unchanged band's singles
/// were placed when it was last analysed).
#[inline]
fn hidden_singles(w: &Bands, placed: &Bands, changed: [bool; 3]) -> Result<Bands, Dead> {
    let mut singles = [0u32; 3];
    let (mut once, mut twice) = (0u32, 0u32);
    for b in 0..3 {
        let x = w[b];
        let mut s = 0;
        for k in 0..3 {
            let r = x >> (9 * k) & 0x1ff;
            twice |= once & r;
            once |= r;
        }
        if changed[b] {
            for k in 0..3 {
                let r = x >> (9 * k) & 0x1ff;
                s |= if r & r.wrapping_sub(1) == 0 {
                    r << (9 * k)
                } else {
                    0
                };
                let m = x & BOX0 << (3 * k);
                s |= if m & m.wrapping_sub(1) == 0 { m } else { 0 };
            }
        }
        singles[b] = s;
    }
    if once != 0x1ff {
        return Err(Dead);
    }
    let alone = (once & !twice) * ROWS3;
    for b in 0..3 {
        singles[b] = (singles[b] | w[b] & alone) & !placed[b];
    }
    Ok(singles)
}
