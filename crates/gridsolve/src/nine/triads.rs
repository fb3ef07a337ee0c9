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
//! Packing: minirows of band `b`, row `k` of the band, box `j` of the band sit at bit
//! `9k + 3j + b`; minicolumns of band `b`, column `c` at bit `9b + c`.

use super::state::{Bands, Dead};
use super::tables::{BAND, ROWS3};

/// The first cell of every minirow of a band word (bits 0, 3, ..., 24).
const MINIROW_START: u32 = 0o111_111_111;

/// A word per digit: one bit per mini of one direction.
type Minis = [u32; 9];

/// The other two minis of the same group of three, for groups of three bits spaced
/// `STRIDE` apart inside blocks of `3 * STRIDE` bits.
#[inline]
fn mates<const STRIDE: u32>(m: u32) -> u32 {
    // the lowest STRIDE bits of every block of 3 * STRIDE bits: position 0 of each group
    let unit = if STRIDE == 1 {
        0o111_111_111
    } else {
        0o007_007_007
    };
    let (p0, p1, p2) = (unit, unit << STRIDE, unit << (2 * STRIDE));
    (m >> STRIDE) & (p0 | p1)
        | (m >> (2 * STRIDE)) & p0
        | (m << STRIDE) & (p1 | p2)
        | (m << (2 * STRIDE)) & p2
}

/// The other two minis at the same place of the other blocks of nine bits.
#[inline]
fn across(m: u32) -> u32 {
    (m >> 9 | m << 18 | m << 9 | m >> 18) & BAND
}

/// The triad rule on the 27 minis of one direction (`line` gives the mates along the
/// line, `across` the mates in the box). `Ok(true)` if some digit lost a mini.
#[inline]
fn triads(
    words: &mut Minis,
    line: impl Fn(u32) -> u32,
    boxed: impl Fn(u32) -> u32,
) -> Result<bool, Dead> {
    let (mut c1, mut c2, mut c4, mut c8) = (0u32, 0u32, 0u32, 0u32);
    let (mut l1, mut l2, mut l4, mut l8) = (0u32, 0u32, 0u32, 0u32);
    let mut locked = [0u32; 9];
    for d in 0..9 {
        let s = words[d];
        let t1 = c1 & s;
        c1 ^= s;
        let t2 = c2 & t1;
        c2 ^= t1;
        c8 |= c4 & t2;
        c4 ^= t2;
        let l = s & (!line(s) | !boxed(s));
        locked[d] = l;
        let u1 = l1 & l;
        l1 ^= l;
        let u2 = l2 & u1;
        l2 ^= u1;
        l8 |= l4 & u2;
        l4 ^= u2;
    }
    // fewer than three candidates, or more than three locked digits
    if BAND & !(c4 | c8) & !(c1 & c2) != 0 || (l4 & (l1 | l2)) | l8 != 0 {
        return Err(Dead);
    }
    let exact = c1 & c2 & !c4 & !c8;
    let full = l1 & l2 & !l4 & !l8;
    let mut progress = false;
    for d in 0..9 {
        let s = words[d];
        let forced = s & (exact | locked[d]);
        let mut t = s & !(full & !locked[d]);
        t &= !(line(forced) | boxed(forced));
        if t != s {
            words[d] = t;
            progress = true;
        }
    }
    Ok(progress)
}

/// Triads along rows and along columns for every digit of `cand`. `Ok(true)` if any
/// candidate was removed.
pub(crate) fn apply(cand: &mut [Bands; 9]) -> Result<bool, Dead> {
    let mut rows = [0u32; 9];
    let mut cols = [0u32; 9];
    for d in 0..9 {
        let w = cand[d];
        let mut r = 0;
        let mut c = 0;
        for b in 0..3 {
            r |= ((w[b] | w[b] >> 1 | w[b] >> 2) & MINIROW_START) << b;
            c |= ((w[b] | w[b] >> 9 | w[b] >> 18) & 0x1ff) << (9 * b);
        }
        rows[d] = r;
        cols[d] = c;
    }
    let by_rows = triads(&mut rows, mates::<3>, across)?;
    let by_cols = triads(&mut cols, across, mates::<1>)?;
    if !by_rows && !by_cols {
        return Ok(false);
    }
    let mut progress = false;
    for d in 0..9 {
        for b in 0..3 {
            let keep =
                (((rows[d] >> b) & MINIROW_START) * 7) & (((cols[d] >> (9 * b)) & 0x1ff) * ROWS3);
            let x = cand[d][b] & keep;
            if x != cand[d][b] {
                cand[d][b] = x;
                progress = true;
            }
        }
    }
    Ok(progress)
}
