//! Branch choice for the row-mask engine without the lookahead: a value and a cell to try
//! it in (the other alternative is the value not there). Preferred: the first unplaced
//! cell with two candidates; then a value with two places left in a row, then in a
//! column; then the unplaced cell with the fewest candidates (also the lookahead's
//! fallback). `None` when every cell is placed.

use super::Word;
use super::state::{Geo, in_exactly_two};

/// `(value, row, column)` to try first, or `None` on a solved state (propagated).
pub(crate) fn choose<W: Word>(g: &Geo<W>, s: &[W]) -> Option<(usize, usize, usize)> {
    let n = g.n;
    let placed = &s[n * n..];
    let mut open_rows = 0;
    for r in 0..n {
        let open = g.full & !placed[r];
        if open == W::ZERO {
            continue;
        }
        open_rows += 1;
        let pairs = in_exactly_two((0..n).map(|v| s[v * n + r])) & open;
        if pairs != W::ZERO {
            let c = pairs.trailing_zeros() as usize;
            let v = (0..n).find(|&v| s[v * n + r].bit(c))?;
            return Some((v, r, c));
        }
    }
    if open_rows == 0 {
        return None;
    }
    bilocal(g, s).or_else(|| fewest(g, s))
}

/// A value with exactly two places left in a row, else in a column: its first place.
fn bilocal<W: Word>(g: &Geo<W>, s: &[W]) -> Option<(usize, usize, usize)> {
    let n = g.n;
    for v in 0..n {
        let rows = &s[v * n..(v + 1) * n];
        if let Some(r) = rows.iter().position(|&x| x.count_ones() == 2) {
            return Some((v, r, rows[r].trailing_zeros() as usize));
        }
    }
    for v in 0..n {
        let rows = &s[v * n..(v + 1) * n];
        let two = in_exactly_two(rows.iter().copied());
        if two != W::ZERO {
            let c = two.trailing_zeros() as usize;
            let r = rows.iter().position(|&x| x.bit(c))?;
            return Some((v, r, c));
        }
    }
    None
}

/// The unplaced cell with the fewest candidates, and its first candidate.
pub(crate) fn fewest<W: Word>(g: &Geo<W>, s: &[W]) -> Option<(usize, usize, usize)> {
    let n = g.n;
    let mut best: Option<(usize, usize)> = None;
    let mut best_count = u32::MAX;
    for r in 0..n {
        let mut open = g.full & !s[n * n + r];
        while open != W::ZERO {
            let c = open.trailing_zeros() as usize;
            open &= !(W::ONE << c);
            let count = (0..n).filter(|&v| s[v * n + r].bit(c)).count() as u32;
            if count < best_count {
                (best, best_count) = (Some((r, c)), count);
            }
        }
    }
    let (r, c) = best?;
    let v = (0..n).find(|&v| s[v * n + r].bit(c))?;
    Some((v, r, c))
}
