//! Branch choice for the row-mask engine: a value and a cell to try it in (the other
//! alternative is the value not there). Preferred: an unplaced cell with two candidates;
//! then a value with two places left in a row, then in a column; then the unplaced cell
//! with the fewest candidates. `None` when every cell is placed. With a random state
//! (`rng != 0`), the cell is drawn among all cells with two candidates and the value
//! between its two.

use super::state::Geo;

/// `(value, row, column)` to try first, or `None` on a solved state (propagated).
pub(crate) fn choose(g: &Geo, s: &[u64], rng: &mut u64) -> Option<(usize, usize, usize)> {
    let n = g.n;
    let placed = &s[n * n..];
    let mut open_rows = 0;
    let (mut pick, mut ties) = (None, 0u64);
    for r in 0..n {
        let open = g.full & !placed[r];
        if open == 0 {
            continue;
        }
        open_rows += 1;
        let (mut once, mut twice, mut thrice) = (0u64, 0u64, 0u64);
        for v in 0..n {
            let x = s[v * n + r];
            thrice |= twice & x;
            twice |= once & x;
            once |= x;
        }
        let mut pairs = twice & !thrice & open;
        if pairs != 0 && *rng == 0 {
            let c = pairs.trailing_zeros() as usize;
            let v = (0..n).find(|&v| s[v * n + r] >> c & 1 == 1)?;
            return Some((v, r, c));
        }
        while pairs != 0 {
            ties += 1;
            if next_random(rng).is_multiple_of(ties) {
                pick = Some((r, pairs.trailing_zeros() as usize));
            }
            pairs &= pairs - 1;
        }
    }
    if let Some((r, c)) = pick {
        let mut values = (0..n).filter(|&v| s[v * n + r] >> c & 1 == 1);
        let (a, b) = (values.next()?, values.next()?);
        return Some((if next_random(rng) & 1 == 0 { a } else { b }, r, c));
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
        let (mut once, mut twice, mut thrice) = (0u64, 0u64, 0u64);
        for &x in rows {
            thrice |= twice & x;
            twice |= once & x;
            once |= x;
        }
        let two = twice & !thrice;
        if two != 0 {
            let bit = two & two.wrapping_neg();
            let r = rows.iter().position(|&x| x & bit != 0)?;
            return Some((v, r, bit.trailing_zeros() as usize));
        }
    }
    None
}

/// The unplaced cell with the fewest candidates, and its first candidate.
fn fewest(g: &Geo, s: &[u64]) -> Option<(usize, usize, usize)> {
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

/// The next value of a xorshift64 generator (never 0 from a non-zero state).
fn next_random(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}
