//! Branch choice for the 9×9 engine. A branch is a digit and two masks of its candidate
//! words: the first alternative keeps the digit's candidates inside the first mask, the
//! second inside the second, and the two cover every solution without overlap.
//!
//! A digit's *configuration* in a band (rows `3b..3b+3`) is the row-to-box permutation
//! its three cells of the band follow; in a stack, the column-to-band permutation. Six
//! exist; those whose three minis (minirows, minicolumns) all hold candidates are left.
//! The branch goes to the band or stack (of the six) with the fewest configurations left
//! over all digits, among those not fixed (a fixed one has one per digit), and in it to
//! the digit with two configurations left, else three, else more: the first alternative
//! is its first configuration, the second the others. With two or three configurations
//! the union of the others' minis never holds the first's three (two permutations of
//! three agree on at most one row), so the two alternatives are disjoint; with more, the
//! branch splits on the first configuration's mini in the first row instead.
//! Without a band or stack left to branch on, the cell with the fewest candidates.

use super::quad::Quad;
use super::state::{ALL, Bands, ROW0_MINIS, State, box_after_next, minicols, minirows, next_box};
use super::tables::{BAND, MINIROW_CELLS, PEERS, ROW_MINIROWS, ROWS3, SPREAD3};

/// A binary branch on digit `d`: try `cand[d] &= first`, then `cand[d] &= second`.
pub(crate) struct Branch {
    pub d: usize,
    pub first: Bands,
    pub second: Bands,
}

/// The six configurations as row-to-box maps, in the order tried.
const PERMS: [[u32; 3]; 6] = [
    [0, 1, 2],
    [2, 0, 1],
    [1, 2, 0],
    [2, 1, 0],
    [0, 2, 1],
    [1, 0, 2],
];

/// The minis of each configuration, as a 9-bit summary (bit `3 * row + box`).
const PERM_MINIS: [u32; 6] = perm_minis();

/// For a 9-bit mini summary, the configurations whose three minis are all present.
pub(super) const CONFIGS: [u8; 512] = configs();

const fn perm_minis() -> [u32; 6] {
    let mut t = [0u32; 6];
    let mut p = 0;
    while p < 6 {
        let m = PERMS[p];
        t[p] = 1 << m[0] | 1 << (3 + m[1]) | 1 << (6 + m[2]);
        p += 1;
    }
    t
}

const fn configs() -> [u8; 512] {
    let mut t = [0u8; 512];
    let mut s = 0;
    while s < 512 {
        let mut p = 0;
        while p < 6 {
            if s as u32 & PERM_MINIS[p] == PERM_MINIS[p] {
                t[s] |= 1 << p;
            }
            p += 1;
        }
        s += 1;
    }
    t
}

/// Digit `d`'s mini summary in band `b` (bit `3 * row + box`).
#[inline]
pub(super) fn band_summary(x: u32) -> u32 {
    u32::from(ROW_MINIROWS[(x & 0x1ff) as usize])
        | u32::from(ROW_MINIROWS[(x >> 9 & 0x1ff) as usize]) << 3
        | u32::from(ROW_MINIROWS[(x >> 18) as usize]) << 6
}

/// A digit's mini summary in stack `s` (bit `3 * column_in_stack + band`), from its three
/// minicolumn words (bit `c`: column `c` of that band holds a candidate).
#[inline]
pub(super) fn stack_summary(minicols: &[u32; 3], s: u32) -> u32 {
    u32::from(SPREAD3[(minicols[0] >> (3 * s) & 7) as usize])
        | u32::from(SPREAD3[(minicols[1] >> (3 * s) & 7) as usize]) << 1
        | u32::from(SPREAD3[(minicols[2] >> (3 * s) & 7) as usize]) << 2
}

/// The cells of the minicolumns in a stack summary, as band masks that leave the other
/// stacks alone.
fn minicol_cells(s: u32, summary: u32) -> Bands {
    let mut out = Quad::bands(BAND & !((ROWS3 * 7) << (3 * s)));
    let mut m = summary;
    while m != 0 {
        let i = m.trailing_zeros();
        out[(i % 3) as usize] |= ROWS3 << (3 * s + i / 3);
        m &= m - 1;
    }
    out
}

/// The configurations left in each band (lanes 0 to 2 of the first) and each stack
/// (bytes 0 to 2 of lane 0 of the second), summed over the digits, for all digits and
/// units at once: with `r0`, `r1`, `r2` the minirows of a band's rows, the cyclic
/// configurations put rows 0, 1, 2 in boxes `j`, `j + 1`, `j + 2`, the others in boxes
/// `j`, `j + 2`, `j + 1`; along a stack the same with columns and bands.
#[inline]
pub(super) fn unit_totals(st: &State) -> [u32; 6] {
    let (mut bands, mut stacks) = (Quad::zero(), Quad::zero());
    for x in st.cand {
        let a = minirows(x);
        let (r0, r1, r2) = (a & ROW0_MINIS, a.shr(9) & ROW0_MINIS, a.shr(18));
        let s =
            (r0 & next_box(r1) & box_after_next(r2)).add(r0 & box_after_next(r1) & next_box(r2));
        bands = bands.add(s.add(s.shr(3)).add(s.shr(6)) & Quad::bands(7));
        let c = minicols(x);
        let (c1, c2) = (c.rot1(), c.rot2());
        let cyclic = c & c1.shr(1) & c2.shr(2) & ROW0_MINIS;
        let other = c & c2.shr(1) & c1.shr(2) & ROW0_MINIS;
        let t = cyclic.add(other);
        // one byte per stack
        stacks = stacks.add(
            t & Quad::bands(7) | (t & Quad::bands(0o70)).shl(5) | (t & Quad::bands(0o700)).shl(10),
        );
    }
    let b = bands.lanes();
    let s = stacks.add(stacks.rot1()).add(stacks.rot2()).lanes()[0];
    [b[0], b[1], b[2], s & 0xff, s >> 8 & 0xff, s >> 16 & 0xff]
}

/// The branch for `st` (not solved, propagated).
pub(crate) fn choose(st: &State) -> Branch {
    let totals = unit_totals(st);
    let mut best = (usize::MAX, u32::MAX);
    for (unit, &total) in totals.iter().enumerate() {
        if total > 9 && total < best.1 {
            best = (unit, total);
        }
    }
    let unit = best.0;
    if unit == usize::MAX {
        return cell_branch(st);
    }
    // configurations per digit in the unit chosen
    let configs = st.cand.map(|w| {
        let summary = if unit < 3 {
            band_summary(w[unit])
        } else {
            let minicols = [0, 1, 2].map(|b| (w[b] | w[b] >> 9 | w[b] >> 18) & 0x1ff);
            stack_summary(&minicols, unit as u32 - 3)
        };
        CONFIGS[summary as usize]
    });
    let counts = configs.map(u8::count_ones);
    let d = [2, 3]
        .iter()
        .find_map(|&n| counts.iter().position(|&c| c == n))
        .or_else(|| counts.iter().position(|&c| c > 3))
        .unwrap_or(0);
    let c = u32::from(configs[d]);
    let first_perm = c.trailing_zeros() as usize;
    let first = PERM_MINIS[first_perm];
    let second = if c.count_ones() <= 3 {
        let mut rest = c & (c - 1);
        let mut minis = 0;
        while rest != 0 {
            minis |= PERM_MINIS[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        minis
    } else {
        // split on the first row's mini: in it (first) or not (second)
        let row0 = first & 7;
        return masks(unit, d, row0 | 0x1f8, 0x1ff & !row0);
    };
    masks(unit, d, first, second)
}

/// The branch on digit `d` in band or stack `unit` between two mini summaries.
fn masks(unit: usize, d: usize, first: u32, second: u32) -> Branch {
    if unit < 3 {
        let mut a = ALL;
        let mut b = ALL;
        a[unit] = MINIROW_CELLS[first as usize];
        b[unit] = MINIROW_CELLS[second as usize];
        Branch {
            d,
            first: a,
            second: b,
        }
    } else {
        let s = unit as u32 - 3;
        Branch {
            d,
            first: minicol_cells(s, first),
            second: minicol_cells(s, second),
        }
    }
}

/// A branch on the unplaced cell with the fewest candidates: its first candidate or not.
fn cell_branch(st: &State) -> Branch {
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
    let (b, bit, _) = best;
    let m = 1u32 << bit;
    let d = (0..9).find(|&d| st.cand[d][b] & m != 0).unwrap_or(0);
    let mut first = ALL.andnot(PEERS[27 * b + bit as usize]);
    first[b] |= m;
    let mut second = ALL;
    second[b] &= !m;
    Branch { d, first, second }
}
