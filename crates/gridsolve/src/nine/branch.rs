//! Branch choice for the 9×9 engine. A branch is a digit and two masks of its candidate
//! words: the first alternative keeps the digit's candidates inside the first mask, the
//! second inside the second, and the two cover every solution. Preferred: a cell with two
//! candidates; then a digit with exactly two row-to-box permutations left in a band (or
//! column-to-band in a stack), branching between the two sets of minirows; then the cell
//! with the fewest candidates.

use super::state::{Bands, State};
use super::tables::{BAND, PEERS, ROWS3};

/// A binary branch on digit `d`: try `cand[d] &= first`, then `cand[d] &= second`.
pub(crate) struct Branch {
    pub d: usize,
    pub first: Bands,
    pub second: Bands,
}

/// The six row-to-box (or column-to-band) permutations.
const PERMS: [[u32; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// For a 9-bit minirow summary (bit `3 * row + box`), the permutations whose three
/// minirows are all present, as their minirow masks; how many there are.
#[inline]
fn perms_of(summary: u32) -> (u32, [u32; 2]) {
    let mut found = [0u32; 2];
    let mut count = 0;
    for p in PERMS {
        let bits = 1 << p[0] | 1 << (3 + p[1]) | 1 << (6 + p[2]);
        if summary & bits == bits {
            if count < 2 {
                found[count as usize] = bits;
            }
            count += 1;
        }
    }
    (count, found)
}

/// The cells of the minirows in a 9-bit summary, as a band word.
fn minirow_cells(summary: u32) -> u32 {
    (0..9)
        .filter(|i| summary >> i & 1 == 1)
        .fold(0, |acc, i| acc | 7 << (9 * (i / 3) + 3 * (i % 3)))
}

/// The cells of the minicolumns in a stack summary (bit `3j + k`: column `3s + j`,
/// band `k`), as band masks that leave the other stacks alone.
fn minicol_cells(s: u32, summary: u32) -> Bands {
    let mut out = [BAND & !((ROWS3 * 7) << (3 * s)); 3];
    for i in (0..9).filter(|i| summary >> i & 1 == 1) {
        out[(i % 3) as usize] |= ROWS3 << (3 * s + i / 3);
    }
    out
}

/// A digit and band (or stack) with exactly two row-to-box (column-to-band) permutations
/// left, as a branch between them.
fn two_perms(st: &State) -> Option<Branch> {
    for d in 0..9 {
        let w = st.cand[d];
        for b in 0..3 {
            let x = w[b];
            let summary = (0..9).fold(0, |acc, i| {
                acc | u32::from(x >> (9 * (i / 3) + 3 * (i % 3)) & 7 != 0) << i
            });
            let (count, found) = perms_of(summary);
            if count == 2 {
                let mut first = [BAND; 3];
                let mut second = [BAND; 3];
                first[b] = minirow_cells(found[0]);
                second[b] = minirow_cells(found[1]);
                return Some(Branch { d, first, second });
            }
        }
        for s in 0..3u32 {
            let summary = (0..9).fold(0, |acc, i| {
                acc | u32::from(w[(i % 3) as usize] >> (3 * s + i / 3) & ROWS3 != 0) << i
            });
            let (count, found) = perms_of(summary);
            if count == 2 {
                return Some(Branch {
                    d,
                    first: minicol_cells(s, found[0]),
                    second: minicol_cells(s, found[1]),
                });
            }
        }
    }
    None
}

/// The branch for `st` (not solved, propagated).
pub(crate) fn choose(st: &State) -> Branch {
    let (b, bit, n) = branch_cell(st);
    if n > 2
        && let Some(b) = two_perms(st)
    {
        return b;
    }
    let m = 1u32 << bit;
    let d = (0..9).find(|&d| st.cand[d][b] & m != 0).unwrap_or(0);
    let mut first = PEERS[27 * b + bit as usize].map(|p| !p & BAND);
    first[b] |= m;
    let mut second = [BAND; 3];
    second[b] &= !m;
    Branch { d, first, second }
}

/// The band and bit of an unplaced cell with two candidates if any, else of one with the
/// fewest candidates.
fn branch_cell(st: &State) -> (usize, u32, u32) {
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
            return (b, pairs.trailing_zeros(), 2);
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
    best
}
