//! The fallback branch choice of the row-mask engine, for a state without a binary
//! choice for the lookahead: the unplaced cell with the fewest candidates and its first
//! candidate (the other alternative is that value not there). `None` when every cell is
//! placed.

use super::state::Geo;

/// `(value, row, column)` to try first, or `None` on a solved state (propagated).
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
