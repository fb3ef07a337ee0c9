//! Constant tables of the 9×9 engine, computed at compile time.
//!
//! Layout: a digit's candidates are three 27-bit band words; band `b` holds rows
//! `3b..3b+3`, and cell (row `r`, column `c`) is bit `9 * (r % 3) + c` of band `r / 3`.
//! A *minirow* is the three cells of one row inside one box; a band word's 9 minirows are
//! summarised as 9 bits, bit `3 * row_in_band + box_in_band`.

use super::quad::Quad;

/// All 27 cells of a band.
pub(crate) const BAND: u32 = (1 << 27) - 1;

/// Multiplier that copies a 9-bit column set onto the three rows of a band.
pub(crate) const ROWS3: u32 = 1 | 1 << 9 | 1 << 18;

/// For a 9-bit row, which of its three minirows are not empty (3 bits).
pub(crate) const ROW_MINIROWS: [u16; 512] = row_minirows();

/// For a 9-bit minirow summary, the band cells of those minirows.
pub(crate) const MINIROW_CELLS: [u32; 512] = minirow_cells();

/// Spreads 3 bits `k` to bits `3k` (the same summary layout used along a stack).
pub(crate) const SPREAD3: [u16; 8] = [0, 1, 8, 9, 64, 65, 72, 73];

/// Peers of each cell (same row, column or box, not the cell itself), as band words.
pub(crate) const PEERS: [Quad; 81] = peers();

const fn row_minirows() -> [u16; 512] {
    let mut t = [0u16; 512];
    let mut r = 0;
    while r < 512 {
        let mut j = 0;
        while j < 3 {
            if (r >> (3 * j)) & 7 != 0 {
                t[r] |= 1 << j;
            }
            j += 1;
        }
        r += 1;
    }
    t
}

const fn minirow_cells() -> [u32; 512] {
    let mut t = [0u32; 512];
    let mut s = 0;
    while s < 512 {
        let mut i = 0;
        while i < 9 {
            if (s >> i) & 1 == 1 {
                t[s] |= 7 << (9 * (i / 3) + 3 * (i % 3));
            }
            i += 1;
        }
        s += 1;
    }
    t
}

const fn peers() -> [Quad; 81] {
    let mut lanes = [[0u32; 4]; 81];
    let mut a = 0;
    while a < 81 {
        let mut b = 0;
        while b < 81 {
            let (ra, ca, rb, cb) = (a / 9, a % 9, b / 9, b % 9);
            let same_box = ra / 3 == rb / 3 && ca / 3 == cb / 3;
            if a != b && (ra == rb || ca == cb || same_box) {
                lanes[a][rb / 3] |= 1 << (9 * (rb % 3) + cb);
            }
            b += 1;
        }
        a += 1;
    }
    let mut t = [Quad::zero(); 81];
    let mut i = 0;
    while i < 81 {
        t[i] = Quad::new(lanes[i]);
        i += 1;
    }
    t
}
