//! The bit-logic rules of the 9×9 engine against their definitions written cell by cell:
//! the band rule, hidden singles, the units of placed cells and the configuration counts
//! of the branch choice, on random candidate words.

use super::branch::{CONFIGS, band_summary, stack_summary, unit_totals};
use super::quad::Quad;
use super::state::{State, hidden_singles, shrink, units_of};

/// A small seeded generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Three random band words, each cell kept with probability about `keep` / 8.
    fn bands(&mut self, keep: u32) -> Quad {
        let mut lanes = [0u32; 4];
        for lane in lanes.iter_mut().take(3) {
            for bit in 0..27 {
                if (self.next() % 8) < u64::from(keep) {
                    *lane |= 1 << bit;
                }
            }
        }
        Quad::new(lanes)
    }
}

/// Whether cell (row, column) is set in `q`.
fn has(q: Quad, r: usize, c: usize) -> bool {
    q[r / 3] >> (9 * (r % 3) + c) & 1 == 1
}

/// `q` with cell (row, column) set.
fn with(mut q: Quad, r: usize, c: usize) -> Quad {
    q[r / 3] |= 1 << (9 * (r % 3) + c);
    q
}

fn cells() -> impl Iterator<Item = (usize, usize)> {
    (0..9).flat_map(|r| (0..9).map(move |c| (r, c)))
}

fn peers(a: (usize, usize), b: (usize, usize)) -> bool {
    a != b && (a.0 == b.0 || a.1 == b.1 || (a.0 / 3 == b.0 / 3 && a.1 / 3 == b.1 / 3))
}

const PERMS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// Whether band `b`'s row `k` of `x` holds a candidate in box `j`.
fn mini(x: Quad, b: usize, k: usize, j: usize) -> bool {
    (0..3).any(|i| has(x, 3 * b + k, 3 * j + i))
}

#[test]
fn the_band_rule_keeps_the_minirows_of_row_to_box_permutations() {
    let mut rng = Rng(7);
    for round in 0..4000 {
        let x = rng.bands(1 + round % 6);
        let mut want = Quad::zero();
        for b in 0..3 {
            for p in PERMS {
                if (0..3).all(|k| mini(x, b, k, p[k])) {
                    for k in 0..3 {
                        for i in 0..3 {
                            if has(x, 3 * b + k, 3 * p[k] + i) {
                                want = with(want, 3 * b + k, 3 * p[k] + i);
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(shrink(x), want, "band words {x:?}");
    }
}

#[test]
fn hidden_singles_are_the_cells_alone_in_a_row_column_or_box() {
    let mut rng = Rng(11);
    let mut checked = 0;
    for round in 0..20000 {
        let w = shrink(rng.bands(1 + round % 5));
        if w.band_empty() {
            continue;
        }
        checked += 1;
        let count = |f: &dyn Fn(usize, usize) -> bool| cells().filter(|&(r, c)| f(r, c)).count();
        let column_empty = (0..9).any(|c| (0..9).all(|r| !has(w, r, c)));
        let got = hidden_singles(w);
        if column_empty {
            assert!(got.is_err(), "band words {w:?}");
            continue;
        }
        let mut want = Quad::zero();
        for (r, c) in cells().filter(|&(r, c)| has(w, r, c)) {
            let in_row = count(&|r2, c2| r2 == r && has(w, r2, c2));
            let in_col = count(&|r2, c2| c2 == c && has(w, r2, c2));
            let in_box = count(&|r2, c2| r2 / 3 == r / 3 && c2 / 3 == c / 3 && has(w, r2, c2));
            if in_row == 1 || in_col == 1 || in_box == 1 {
                want = with(want, r, c);
            }
        }
        assert!(got.ok() == Some(want), "band words {w:?}");
    }
    assert!(checked > 1000);
}

#[test]
fn placed_cells_see_their_rows_columns_and_boxes() {
    let mut rng = Rng(13);
    for round in 0..4000 {
        let mut placed = Quad::zero();
        let mut list = Vec::new();
        for _ in 0..1 + round % 5 {
            let (r, c) = ((rng.next() % 9) as usize, (rng.next() % 9) as usize);
            if !has(placed, r, c) {
                placed = with(placed, r, c);
                list.push((r, c));
            }
        }
        let mut seen = Quad::zero();
        for cell in cells() {
            if list.iter().any(|&p| p == cell || peers(p, cell)) {
                seen = with(seen, cell.0, cell.1);
            }
        }
        let clash = list.iter().any(|&a| list.iter().any(|&b| peers(a, b)));
        let (got_seen, got_clash) = units_of(placed);
        assert_eq!(got_seen, seen, "cells {list:?}");
        assert_eq!(!got_clash.is_zero(), clash, "cells {list:?}");
    }
}

#[test]
fn configuration_totals_match_the_tables() {
    let mut rng = Rng(17);
    for round in 0..3000 {
        let mut st = State::empty();
        for d in 0..9 {
            st.cand[d] = rng.bands(2 + round % 6);
        }
        let mut want = [0u32; 6];
        for w in st.cand {
            let minicols = [0, 1, 2].map(|b| (w[b] | w[b] >> 9 | w[b] >> 18) & 0x1ff);
            for b in 0..3 {
                want[b] += CONFIGS[band_summary(w[b]) as usize].count_ones();
                want[3 + b] += CONFIGS[stack_summary(&minicols, b as u32) as usize].count_ones();
            }
        }
        assert_eq!(unit_totals(&st), want, "candidates {:?}", st.cand);
    }
}
