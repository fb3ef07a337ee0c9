//! Branch choice for the row-mask engine without the lookahead: a value and a cell to try
//! it in (the other alternative is the value not there). Preferred: the first unplaced
//! cell with two candidates; then a value with two places left in a row, then in a
//! column; then the unplaced cell with the fewest candidates (also the lookahead's
//! fallback). `None` when every cell is placed.

use super::state::{Geo, in_exactly_two};

/// `(value, row, column)` to try first, or `None` on a solved state (propagated).
pub(crate) fn choose(g: &Geo, s: &[u64]) -> Option<(usize, usize, usize)> {
    let n = g.n;
    let placed = &s[n * n..];
    let mut open_rows = 0;
    for r in 0..n {
        let open = g.full & !placed[r];
        if open == 0 {
            continue;
        }
        open_rows += 1;
        let pairs = in_exactly_two((0..n).map(|v| s[v * n + r])) & open;
        if pairs != 0 {
            let c = pairs.trailing_zeros() as usize;
            let v = (0..n).find(|&v| s[v * n + r] >> c & 1 == 1)?;
            return Some((v, r, c));
        }
    }
    if open_rows == 0 {
        return None;
    }
    bilocal(g, s).or_else(|| fewest(g, s))
}

/// A value with exactly two places left in a row, else in a column: its first place.
fn bilocal(g: &Geo, s: &[u64]) -> Option<(usize, usize, usize)> {
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
        if two != 0 {
            let bit = two & two.wrapping_neg();
            let r = rows.iter().position(|&x| x & bit != 0)?;
            return Some((v, r, bit.trailing_zeros() as usize));
        }
    }
    None
}

/// The unplaced cell with the fewest candidates, and its first candidate.
pub(crate) fn fewest(g: &Geo, s: &[u64]) -> Option<(usize, usize, usize)> {
    let n = g.n;
    let mut best: Option<(usize, usize)> = None;
    let mut best_count = u32::MAX;
    for r in 0..n {
        let mut open = g.full & !s[n * n + r];
        while open != 0 {
            let c = open.trailing_zeros() as usize;
            open &= open - 1;
            let count = (0..n).filter(|&v| s[v * n + r] >> c & 1 == 1).count() as u32;
            if count < best_count {
                (best, best_count) = (Some((r, c)), count);
            }
        }
    }
    let (r, c) = best?;
    let v = (0..n).find(|&v| s[v * n + r] >> c & 1 == 1)?;
    Some((v, r, c))
}
