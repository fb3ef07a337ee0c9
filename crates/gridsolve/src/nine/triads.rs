//! Triads for the 9×9 engine. A *minirow* is the three cells of one row inside one box, a
//! *minicolumn* the three cells of one column inside one box; either one (a *mini*) holds
//! exactly three digits. Per digit the 27 minis of a direction are packed in one word,
//! so one pass over the nine digits counts, for every mini at once, how many digits may
//! still go there (bit-sliced counters). A mini with only three candidate digits takes
//! all three: each is removed from the other minis of its line and of its box. A digit
//! alone in its line or its box on some mini is locked there; a mini with three locked
//! digits keeps only those. Fewer than three candidates, or more than three locked
//! digits, is a contradiction.
//!
//! Packing: a [`Quad`] per digit and direction, lane `b` for band `b`: minirows of row
//! `k`, box `j` of the band at bit `9k + 3j`; minicolumns of column `c` at bit `c`.

use super::quad::Quad;
use super::state::{ALL, Dead, MINIROW_START, ROW0, minicols, minirows};

/// A word per digit: one bit per mini of one direction.
type Minis = [Quad; 9];

/// The other two minis of the same group of three, for groups of three bits spaced
/// `STRIDE` apart inside blocks of `3 * STRIDE` bits.
#[inline]
fn mates<const STRIDE: u32>(m: Quad) -> Quad {
    // the lowest STRIDE bits of every block of 3 * STRIDE bits: position 0 of each group
    let unit = if STRIDE == 1 {
        0o111_111_111
    } else {
        0o007_007_007
    };
    let (p0, p1, p2) = (
        Quad::bands(unit),
        Quad::bands(unit << STRIDE),
        Quad::bands(unit << (2 * STRIDE)),
    );
    m.shr(STRIDE) & (p0 | p1)
        | m.shr(2 * STRIDE) & p0
        | m.shl(STRIDE) & (p1 | p2)
        | m.shl(2 * STRIDE) & p2
}

/// The other two minis at the same place of the other blocks of nine bits.
#[inline]
fn across(m: Quad) -> Quad {
    (m.shr(9) | m.shl(18) | m.shl(9) | m.shr(18)) & ALL
}

/// The minis at the same place of the other two bands.
#[inline]
fn other_bands(m: Quad) -> Quad {
    m.rot1() | m.rot2()
}

/// The triad rule on the 27 minis of one direction (`valid` their bits, `line` gives the
/// mates along the line, `boxed` the mates in the box). `Ok(true)` if some digit lost a
/// mini.
#[inline]
fn triads(
    words: &mut Minis,
    valid: Quad,
    line: impl Fn(Quad) -> Quad,
    boxed: impl Fn(Quad) -> Quad,
) -> Result<bool, Dead> {
    let z = Quad::zero();
    let (mut c1, mut c2, mut c4, mut c8) = (z, z, z, z);
    let (mut l1, mut l2, mut l4, mut l8) = (z, z, z, z);
    let mut locked = [z; 9];
    for d in 0..9 {
        let s = words[d];
        let t1 = c1 & s;
        c1 = c1 ^ s;
        let t2 = c2 & t1;
        c2 = c2 ^ t1;
        c8 |= c4 & t2;
        c4 = c4 ^ t2;
        let l = s.andnot(line(s) & boxed(s));
        locked[d] = l;
        let u1 = l1 & l;
        l1 = l1 ^ l;
        let u2 = l2 & u1;
        l2 = l2 ^ u1;
        l8 |= l4 & u2;
        l4 = l4 ^ u2;
    }
    // fewer than three candidates, or more than three locked digits
    if !valid.andnot(c4 | c8).andnot(c1 & c2).is_zero() || !((l4 & (l1 | l2)) | l8).is_zero() {
        return Err(Dead);
    }
    let exact = (c1 & c2).andnot(c4 | c8);
    let full = (l1 & l2).andnot(l4 | l8);
    let mut lost = Quad::zero();
    for d in 0..9 {
        let s = words[d];
        let forced = s & (exact | locked[d]);
        let t = s
            .andnot(full.andnot(locked[d]))
            .andnot(line(forced) | boxed(forced));
        lost |= s.andnot(t);
        words[d] = t;
    }
    Ok(!lost.is_zero())
}

/// Triads along rows and along columns for every digit of `cand`. The digits that lost a
/// candidate, as bit `d`.
pub(crate) fn apply(cand: &mut [Quad; 9]) -> Result<u16, Dead> {
    let rows = &mut cand.map(minirows);
    let cols = &mut cand.map(minicols);
    let by_rows = triads(rows, MINIROW_START, mates::<3>, across)?;
    let by_cols = triads(cols, ROW0, other_bands, mates::<1>)?;
    if !by_rows && !by_cols {
        return Ok(0);
    }
    let mut changed = 0;
    for d in 0..9 {
        let (r, c) = (rows[d], cols[d]);
        let keep = (r | r.shl(1) | r.shl(2)) & (c | c.shl(9) | c.shl(18));
        let x = cand[d] & keep;
        changed |= u16::from(x != cand[d]) << d;
        cand[d] = x;
    }
    Ok(changed)
}
