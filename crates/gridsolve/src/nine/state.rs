//! The 9×9 search state and its propagation: per digit a [`Quad`] of candidates (three
//! band words, layout in [`super::tables`]), the placed cells, and the digits changed
//! since the band rule last analysed them, so that the others are skipped. Propagation
//! runs, in passes over the changed digits in order, the band rule (locked candidates
//! along rows: each row and box of a band holds the digit once) and hidden singles in
//! rows, columns and boxes, on the three bands at once; naked singles after each pass;
//! when both are stuck, triads (which hold locked candidates along columns too); to a
//! fixpoint. Every rule is bit logic on `Quad`s, without tables or per-band branches.

use super::quad::Quad;
use super::tables::{BAND, ROWS3};
use super::triads;

/// Band words of one digit: lanes 0 to 2, lane 3 zero.
pub(crate) type Bands = Quad;

/// The first cell of every minirow of a band word (bits 0, 3, ..., 24).
pub(crate) const MINIROW_START: Quad = Quad::bands(0o111_111_111);

/// The first cell of each row of a band word (bits 0, 9, 18).
const ROW_START: Quad = Quad::bands(ROWS3);

/// The first cells of the three minirows of a band's first row (bits 0, 3, 6).
pub(crate) const ROW0_MINIS: Quad = Quad::bands(0o111);

/// The nine columns of a band's first row.
pub(crate) const ROW0: Quad = Quad::bands(0x1ff);

/// Every cell of the three bands.
pub(crate) const ALL: Quad = Quad::bands(BAND);

/// A 9×9 search state (copied whole at each guess).
#[derive(Clone, Copy)]
pub(crate) struct State {
    /// Candidates per digit (0-based) and band; a placed cell keeps its digit's bit.
    pub cand: [Quad; 9],
    /// Placed cells.
    pub placed: Bands,
    /// The digits whose candidates changed since the band rule last analysed them (bit
    /// `d`); the band rule leaves a digit's words as it would leave them again.
    pub dirty: u16,
}

/// A contradiction: the state has no solution.
pub(crate) struct Dead;

/// The result of one rule: `Ok(true)` if it changed the state.
type Step = Result<bool, Dead>;

impl State {
    /// The empty grid: every digit possible everywhere.
    pub(crate) fn empty() -> State {
        State {
            cand: [ALL; 9],
            placed: Quad::zero(),
            dirty: 0x1ff,
        }
    }

    /// Whether every cell is placed.
    #[inline]
    pub(crate) fn solved(&self) -> bool {
        self.placed == ALL
    }

    /// Places digit `d` on the cells `cells`: clears their peers for `d` and the other
    /// digits from them. Dead if two of the cells are peers or one lacks `d`.
    #[inline]
    pub(crate) fn place_all(&mut self, d: usize, cells: Bands) -> Result<(), Dead> {
        self.clear_peers(d, cells)?;
        let mine = self.cand[d];
        let mut hit = 0u16;
        for e in 0..9 {
            let x = self.cand[e];
            hit |= u16::from(!(x & cells).is_zero()) << e;
            self.cand[e] = x.andnot(cells);
        }
        self.cand[d] = mine;
        // `d` keeps its cells: it changed only if `clear_peers` said so
        self.dirty |= hit & !(1 << d);
        self.placed |= cells;
        Ok(())
    }

    /// Clears digit `d` from the peers of `cells`; Dead if two of the cells are peers or
    /// one lacks `d`.
    #[inline]
    fn clear_peers(&mut self, d: usize, cells: Bands) -> Result<(), Dead> {
        let x = self.cand[d];
        let (seen, clash) = units_of(cells);
        if !clash.is_zero() || x & cells != cells {
            return Err(Dead);
        }
        let w = x.andnot(seen) | cells;
        self.dirty |= u16::from(w != self.cand[d]) << d;
        self.cand[d] = w;
        Ok(())
    }

    /// Runs every rule to a fixpoint; Dead on a contradiction.
    pub(crate) fn propagate(&mut self) -> Result<(), Dead> {
        loop {
            // one pass over the digits in order (a digit changed several times in a pass is
            // analysed once), then naked singles
            let mut next = 0;
            loop {
                let ahead = self.dirty & u16::MAX << next;
                if ahead == 0 {
                    break;
                }
                let d = ahead.trailing_zeros();
                self.dirty &= !(1 << d);
                next = d + 1;
                self.band_rule(d as usize)?;
            }
            if self.naked_singles()? || self.dirty != 0 {
                continue;
            }
            if self.solved() {
                return Ok(());
            }
            self.dirty = triads::apply(&mut self.cand)?;
            if self.dirty == 0 {
                return Ok(());
            }
        }
    }

    /// Places every unplaced cell that has one candidate left.
    #[inline]
    fn naked_singles(&mut self) -> Step {
        let (mut once, mut twice) = (Quad::zero(), Quad::zero());
        for d in 0..9 {
            twice |= once & self.cand[d];
            once |= self.cand[d];
        }
        let open = ALL.andnot(self.placed);
        if !open.andnot(once).is_zero() {
            return Err(Dead);
        }
        let singles = once.andnot(twice) & open;
        if singles.is_zero() {
            return Ok(false);
        }
        // each single cell holds one digit already: only its peers need clearing
        for d in 0..9 {
            let mine = singles & self.cand[d];
            if !mine.is_zero() {
                self.clear_peers(d, mine)?;
            }
        }
        self.placed |= singles;
        Ok(true)
    }

    /// Digit `d`'s band rule and hidden singles.
    #[inline]
    fn band_rule(&mut self, d: usize) -> Result<(), Dead> {
        let w = shrink(self.cand[d]);
        if w.band_empty() {
            return Err(Dead);
        }
        let singles = hidden_singles(w)?.andnot(self.placed);
        self.cand[d] = w;
        if !singles.is_zero() {
            self.place_all(d, singles)?;
        }
        Ok(())
    }
}

/// The minirows of `x` that hold a candidate, as a bit on each minirow's first cell.
#[inline(always)]
pub(crate) fn minirows(x: Quad) -> Quad {
    (x | x.shr(1) | x.shr(2)) & MINIROW_START
}

/// The minirows of `x` that hold two candidates or more, as [`minirows`].
#[inline(always)]
fn minirows2(x: Quad) -> Quad {
    let (x1, x2) = (x.shr(1), x.shr(2));
    ((x & (x1 | x2)) | (x1 & x2)) & MINIROW_START
}

/// The columns of each band of `x` that hold a candidate (bits 0 to 8).
#[inline(always)]
pub(crate) fn minicols(x: Quad) -> Quad {
    (x | x.shr(9) | x.shr(18)) & ROW0
}

/// Rotates the minirow bits of a row (bits 0, 3, 6): box `j` takes box `j + 1`'s bit.
#[inline(always)]
pub(crate) fn next_box(r: Quad) -> Quad {
    (r.shr(3) | r.shl(6)) & ROW0_MINIS
}

/// Rotates the minirow bits of a row (bits 0, 3, 6): box `j` takes box `j + 2`'s bit.
#[inline(always)]
pub(crate) fn box_after_next(r: Quad) -> Quad {
    (r.shr(6) | r.shl(3)) & ROW0_MINIS
}

/// The cells sharing a row, column or box with one of `cells` (themselves included), and
/// a value not zero if two of `cells` share a row, column or box.
#[inline(always)]
pub(super) fn units_of(cells: Quad) -> (Quad, Quad) {
    let (a, t) = (minirows(cells), minirows2(cells));
    let (a3, a6) = (a.shr(3), a.shr(6));
    let rows = (a | a3 | a6) & ROW_START;
    let row2 = t | t.shr(3) | t.shr(6) | (a & (a3 | a6)) | (a3 & a6);
    let (a9, a18) = (a.shr(9), a.shr(18));
    let boxes = (a | a9 | a18) & ROW0_MINIS;
    let box2 = t | t.shr(9) | t.shr(18) | (a & (a9 | a18)) | (a9 & a18);
    let c = minicols(cells);
    let (c1, cr) = (c.rot1(), c.rot2());
    // two cells in a column of one band share a box too
    let col2 = c & (c1 | cr);
    let clash = (row2 & ROW_START) | (box2 & ROW0_MINIS) | (col2 & ROW0);
    let cols = c | c1 | cr;
    let box_row = boxes.shl(3).sub(boxes);
    let seen = rows.shl(9).sub(rows)
        | box_row
        | box_row.shl(9)
        | box_row.shl(18)
        | cols
        | cols.shl(9)
        | cols.shl(18);
    (seen, clash)
}

/// The band rule on the three band words of a digit: keeps the minirows that belong to a
/// row-to-box permutation (a minirow of row 0 in box `j` stays when rows 1 and 2 have a
/// minirow in the other two boxes, one each); a band without such a permutation is left
/// empty.
#[inline(always)]
pub(super) fn shrink(x: Quad) -> Quad {
    let a = minirows(x);
    let r0 = a & ROW0_MINIS;
    let r1 = a.shr(9) & ROW0_MINIS;
    let r2 = a.shr(18);
    let (p0, q0) = (next_box(r0), box_after_next(r0));
    let (p1, q1) = (next_box(r1), box_after_next(r1));
    let (p2, q2) = (next_box(r2), box_after_next(r2));
    let k0 = r0 & ((p1 & q2) | (q1 & p2));
    let k1 = r1 & ((p2 & q0) | (q2 & p0));
    let k2 = r2 & ((p0 & q1) | (q0 & p1));
    let keep = k0 | k1.shl(9) | k2.shl(18);
    x & (keep | keep.shl(1) | keep.shl(2))
}

/// The cells where a digit with candidates `w` (after the band rule, so no row or box of
/// a band is empty) is alone in its row, column or box, placed or not. Dead on a column
/// without it.
#[inline(always)]
pub(super) fn hidden_singles(w: Quad) -> Result<Quad, Dead> {
    let (a, t) = (minirows(w), minirows2(w));
    // rows: no minirow with two, and not two minirows with one
    let (a3, a6) = (a.shr(3), a.shr(6));
    let row2 = t | t.shr(3) | t.shr(6) | (a & (a3 | a6)) | (a3 & a6);
    let rows = ROW_START.andnot(row2);
    let row_cells = rows.shl(9).sub(rows);
    // boxes: the same over the minirows of a box
    let (a9, a18) = (a.shr(9), a.shr(18));
    let box2 = t | t.shr(9) | t.shr(18) | (a & (a9 | a18)) | (a9 & a18);
    let boxes = ROW0_MINIS.andnot(box2);
    let box_row = boxes.shl(3).sub(boxes);
    let box_cells = box_row | box_row.shl(9) | box_row.shl(18);
    // columns: counted over the three bands
    let c = minicols(w);
    let (w9, w18) = (w.shr(9), w.shr(18));
    let c2 = ((w & (w9 | w18)) | (w9 & w18)) & ROW0;
    let (c1, cr) = (c.rot1(), c.rot2());
    let once = c | c1 | cr;
    if once[0] != 0x1ff {
        return Err(Dead);
    }
    let twice = c2 | c2.rot1() | c2.rot2() | (c & (c1 | cr)) | (c1 & cr);
    let cols = ROW0.andnot(twice);
    let col_cells = cols | cols.shl(9) | cols.shl(18);
    Ok(w & (row_cells | box_cells | col_cells))
}
