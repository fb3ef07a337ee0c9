//! The row word of the row-mask engine ([`Word`]): the bit set of a row's columns, as
//! `u16` (sides up to 16), `u32` (25) or `u64` (up to 64), so that a state is small to
//! copy and a value's rows fill few vector registers; and the tests the engine makes over
//! all the rows of one value at once ([`Word::meets`], [`Word::row_flags`],
//! [`Word::boxes`]) and over all the values of one cell ([`Word::clear_cell`]), which on
//! 16×16 run in two SSE2 registers on x86-64 (a loop elsewhere or with `--cfg
//! gridsolve_portable`).

/// A row word: the bit set of the columns of a row (bit `c` for column `c`), also used
/// for the state's bit set of rows and its wrapping count of removed candidates.
pub(crate) trait Word:
    Copy
    + Eq
    + Default
    + std::fmt::Debug
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::Not<Output = Self>
    + std::ops::BitAndAssign
    + std::ops::BitOrAssign
    + std::ops::Shl<usize, Output = Self>
    + std::ops::Shr<usize, Output = Self>
{
    /// No bit.
    const ZERO: Self;
    /// Bit 0.
    const ONE: Self;
    /// Bits in the word.
    const BITS: u32;
    /// Bits set.
    fn count_ones(self) -> u32;
    /// Index of the lowest bit set (`BITS` for none).
    fn trailing_zeros(self) -> u32;
    /// Leading zero bits.
    fn leading_zeros(self) -> u32;
    /// Sum modulo `2^BITS`.
    fn wrapping_add(self, other: Self) -> Self;
    /// Difference modulo `2^BITS`.
    fn wrapping_sub(self, other: Self) -> Self;
    /// The low `BITS` bits of `x`.
    fn from_u64(x: u64) -> Self;
    /// The word as a `u64`.
    fn to_u64(self) -> u64;
    /// All bits when `b`, else none.
    #[inline(always)]
    fn mask(b: bool) -> Self {
        Self::ZERO.wrapping_sub(Self::from_u64(u64::from(b)))
    }
    /// Whether bit `i` is set.
    #[inline(always)]
    fn bit(self, i: usize) -> bool {
        self >> i & Self::ONE != Self::ZERO
    }
    /// Bit `i` as a `u64` 0 or 1.
    #[inline(always)]
    fn bit_u64(self, i: usize) -> u64 {
        (self >> i & Self::ONE).to_u64()
    }
    /// The rows (at most 64) that meet `mask`, bit `i` for `rows[i]`.
    #[inline(always)]
    fn meets(rows: &[Self], mask: Self) -> u64 {
        rows.iter()
            .enumerate()
            .fold(0, |m, (i, &x)| m | u64::from(x & mask != Self::ZERO) << i)
    }
    /// Of `rows` (at most 64) beside the rows' placed cells: the empty rows, and the rows
    /// with one bit that is not placed (or none), a bit each.
    #[inline(always)]
    fn row_flags(rows: &[Self], placed: &[Self]) -> (u64, u64) {
        let (mut empty, mut single) = (0u64, 0u64);
        for (i, (&x, &p)) in rows.iter().zip(placed).enumerate() {
            empty |= u64::from(x == Self::ZERO) << i;
            let one = x & x.wrapping_sub(Self::ONE) == Self::ZERO;
            single |= u64::from(one & (x & p == Self::ZERO)) << i;
        }
        (empty, single)
    }
    /// Clears `bit` from row `r` of each of the `n` values of `cand` (`n` rows each):
    /// the values that had it, a bit each.
    #[inline(always)]
    fn clear_cell(cand: &mut [Self], n: usize, r: usize, bit: Self) -> u64 {
        let mut had = 0u64;
        for (w, rows) in cand.chunks_exact_mut(n).enumerate() {
            let x = &mut rows[r];
            had |= u64::from(*x & bit != Self::ZERO) << w;
            *x &= !bit;
        }
        had
    }
    /// The boxes and columns of a value's `k²` rows (bands of `k`) beside the rows'
    /// placed cells, the box fields given by their first (`lo`) and last (`hi`) columns.
    #[inline(always)]
    fn boxes(
        rows: &[Self],
        placed: &[Self],
        k: usize,
        lo: Self,
        hi: Self,
        full: Self,
    ) -> Boxes<Self> {
        boxes_by_band(rows, placed, k, lo, hi, full)
    }
}

/// What [`Word::boxes`] finds.
pub(crate) struct Boxes<W> {
    /// The first band with a box where the value is not placed and has at most one place
    /// (none is a contradiction), and those boxes of the band (their last columns).
    pub lone: Option<(usize, W)>,
    /// The columns with a place in some row (when `lone` is `None`).
    pub once: W,
    /// The columns with places in two rows or more (when `lone` is `None`).
    pub twice: W,
    /// The columns where the value is placed (when `lone` is `None`).
    pub done: W,
}

/// [`Word::boxes`] band by band, up to the first band with a lone box.
#[inline(always)]
fn boxes_by_band<W: Word>(rows: &[W], placed: &[W], k: usize, lo: W, hi: W, full: W) -> Boxes<W> {
    let (mut once, mut twice, mut done) = (W::ZERO, W::ZERO, W::ZERO);
    for (b, (band, band_placed)) in rows.chunks_exact(k).zip(placed.chunks_exact(k)).enumerate() {
        let (mut bo, mut bt, mut bd) = (W::ZERO, W::ZERO, W::ZERO);
        for (&x, &p) in band.iter().zip(band_placed) {
            bd |= x & p;
            bt |= bo & x;
            bo |= x;
        }
        twice |= once & bo | bt;
        once |= bo;
        done |= bd;
        // all boxes of the band at once, a field of k bits each: the last column of a
        // box whose field `bad` is zero (no cell twice nor placed, at most one cell)
        let bad = bo & (bo | hi).wrapping_sub(lo) | bd | bt;
        let low = full & !hi;
        let lone = hi & !((bad & low).wrapping_add(low) | bad);
        if lone != W::ZERO {
            return Boxes {
                lone: Some((b, lone)),
                once,
                twice,
                done,
            };
        }
    }
    Boxes {
        lone: None,
        once,
        twice,
        done,
    }
}

macro_rules! word {
    ($($t:ty),*) => {$(
        impl Word for $t {
            const ZERO: $t = 0;
            const ONE: $t = 1;
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }
            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline(always)]
            fn leading_zeros(self) -> u32 {
                <$t>::leading_zeros(self)
            }
            #[inline(always)]
            fn wrapping_add(self, other: $t) -> $t {
                <$t>::wrapping_add(self, other)
            }
            #[inline(always)]
            fn wrapping_sub(self, other: $t) -> $t {
                <$t>::wrapping_sub(self, other)
            }
            #[inline(always)]
            fn from_u64(x: u64) -> $t {
                x as $t
            }
            #[inline(always)]
            fn to_u64(self) -> u64 {
                u64::from(self)
            }
        }
    )*};
}

word!(u32, u64);

impl Word for u16 {
    const ZERO: u16 = 0;
    const ONE: u16 = 1;
    const BITS: u32 = u16::BITS;
    #[inline(always)]
    fn count_ones(self) -> u32 {
        u16::count_ones(self)
    }
    #[inline(always)]
    fn trailing_zeros(self) -> u32 {
        u16::trailing_zeros(self)
    }
    #[inline(always)]
    fn leading_zeros(self) -> u32 {
        u16::leading_zeros(self)
    }
    #[inline(always)]
    fn wrapping_add(self, other: u16) -> u16 {
        u16::wrapping_add(self, other)
    }
    #[inline(always)]
    fn wrapping_sub(self, other: u16) -> u16 {
        u16::wrapping_sub(self, other)
    }
    #[inline(always)]
    fn from_u64(x: u64) -> u16 {
        x as u16
    }
    #[inline(always)]
    fn to_u64(self) -> u64 {
        u64::from(self)
    }
    #[inline(always)]
    fn meets(rows: &[u16], mask: u16) -> u64 {
        match <&[u16; 16]>::try_from(rows) {
            Ok(rows) => sixteen::meets(rows, mask),
            Err(_) => rows
                .iter()
                .enumerate()
                .fold(0, |m, (i, &x)| m | u64::from(x & mask != 0) << i),
        }
    }
    #[inline(always)]
    fn row_flags(rows: &[u16], placed: &[u16]) -> (u64, u64) {
        match (<&[u16; 16]>::try_from(rows), <&[u16; 16]>::try_from(placed)) {
            (Ok(rows), Ok(placed)) => sixteen::row_flags(rows, placed),
            _ => {
                let (mut empty, mut single) = (0u64, 0u64);
                for (i, (&x, &p)) in rows.iter().zip(placed).enumerate() {
                    empty |= u64::from(x == 0) << i;
                    let one = x & x.wrapping_sub(1) == 0;
                    single |= u64::from(one & (x & p == 0)) << i;
                }
                (empty, single)
            }
        }
    }
    #[inline(always)]
    fn clear_cell(cand: &mut [u16], n: usize, r: usize, bit: u16) -> u64 {
        if let (16, Ok(cand)) = (n, <&mut [u16; 256]>::try_from(&mut *cand)) {
            return sixteen::clear_cell(cand, r, bit);
        }
        let mut had = 0u64;
        for (w, rows) in cand.chunks_exact_mut(n).enumerate() {
            let x = &mut rows[r];
            had |= u64::from(*x & bit != 0) << w;
            *x &= !bit;
        }
        had
    }
    #[inline(always)]
    fn boxes(rows: &[u16], placed: &[u16], k: usize, lo: u16, hi: u16, full: u16) -> Boxes<u16> {
        match (
            <&[u16; 16]>::try_from(rows),
            <&[u16; 16]>::try_from(placed),
            k,
        ) {
            (Ok(rows), Ok(placed), 4) => sixteen::boxes(rows, placed, lo, hi, full),
            _ => boxes_by_band(rows, placed, k, lo, hi, full),
        }
    }
}

/// Tests over the 16 rows of a 16×16 value at once: two SSE2 registers on x86-64 (part of
/// its baseline), a loop elsewhere or with `--cfg gridsolve_portable`.
mod sixteen {
    #[cfg(all(target_arch = "x86_64", not(gridsolve_portable)))]
    use std::arch::x86_64::{
        __m128i, _mm_add_epi16, _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi16,
        _mm_cvtsi128_si32, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_packs_epi16,
        _mm_set_epi16, _mm_set1_epi16, _mm_setzero_si128, _mm_srli_epi32, _mm_srli_epi64,
        _mm_srli_si128, _mm_storeu_si128, _mm_sub_epi16,
    };

    /// A bit per pair of 8 lanes of 16 bits each that are all ones (`0xffff`): `a` gives
    /// bits 0-7, `b` bits 8-15.
    #[cfg(all(target_arch = "x86_64", not(gridsolve_portable)))]
    #[inline(always)]
    fn mask(a: __m128i, b: __m128i) -> u64 {
        // SAFETY: SSE2 is part of the x86-64 baseline.
        unsafe { u64::from(_mm_movemask_epi8(_mm_packs_epi16(a, b)) as u16) }
    }

    /// [`super::Word::meets`] of 16 rows.
    #[cfg(all(target_arch = "x86_64", not(gridsolve_portable)))]
    #[inline(always)]
    pub(super) fn meets(rows: &[u16; 16], mask16: u16) -> u64 {
        // SAFETY: SSE2 is part of the x86-64 baseline; the loads read the 32 bytes of
        // `rows` (unaligned loads).
        unsafe {
            let p = rows.as_ptr().cast::<__m128i>();
            let m = _mm_set1_epi16(mask16 as i16);
            let z = _mm_setzero_si128();
            let a = _mm_cmpeq_epi16(_mm_and_si128(_mm_loadu_si128(p), m), z);
            let b = _mm_cmpeq_epi16(_mm_and_si128(_mm_loadu_si128(p.add(1)), m), z);
            !mask(a, b) & 0xffff
        }
    }

    /// [`super::Word::row_flags`] of 16 rows.
    #[cfg(all(target_arch = "x86_64", not(gridsolve_portable)))]
    #[inline(always)]
    pub(super) fn row_flags(rows: &[u16; 16], placed: &[u16; 16]) -> (u64, u64) {
        // SAFETY: SSE2 is part of the x86-64 baseline; the loads read the 32 bytes of
        // `rows` and of `placed` (unaligned loads).
        unsafe {
            let (p, q) = (
                rows.as_ptr().cast::<__m128i>(),
                placed.as_ptr().cast::<__m128i>(),
            );
            let (z, one) = (_mm_setzero_si128(), _mm_set1_epi16(1));
            let mut out = [(z, z); 2];
            for (h, o) in out.iter_mut().enumerate() {
                let x = _mm_loadu_si128(p.add(h));
                let here = _mm_and_si128(x, _mm_loadu_si128(q.add(h)));
                let empty = _mm_cmpeq_epi16(x, z);
                let many = _mm_and_si128(x, _mm_sub_epi16(x, one));
                // one bit or none, and not placed: `many` and `here` both zero
                let single = _mm_cmpeq_epi16(many, z);
                let single = _mm_and_si128(single, _mm_cmpeq_epi16(here, z));
                *o = (empty, single);
            }
            (mask(out[0].0, out[1].0), mask(out[0].1, out[1].1))
        }
    }

    /// [`super::Word::boxes`] of 16 rows in bands of 4: two bands a register, each
    /// band's unions in its first lane.
    #[cfg(all(target_arch = "x86_64", not(gridsolve_portable)))]
    #[inline(always)]
    pub(super) fn boxes(
        rows: &[u16; 16],
        placed: &[u16; 16],
        lo: u16,
        hi: u16,
        full: u16,
    ) -> super::Boxes<u16> {
        // SAFETY: SSE2 is part of the x86-64 baseline; the loads read the 32 bytes of
        // `rows` and of `placed` (unaligned loads), the stores write local arrays.
        unsafe {
            let (p, q) = (
                rows.as_ptr().cast::<__m128i>(),
                placed.as_ptr().cast::<__m128i>(),
            );
            let (lo, hi) = (_mm_set1_epi16(lo as i16), _mm_set1_epi16(hi as i16));
            let low = _mm_andnot_si128(hi, _mm_set1_epi16(full as i16));
            let z = _mm_setzero_si128();
            // per register: the unions of bands 2h (lane 0) and 2h + 1 (lane 4)
            let mut part = [(z, z, z, z); 2];
            for (h, out) in part.iter_mut().enumerate() {
                let x = _mm_loadu_si128(p.add(h));
                let d = _mm_and_si128(x, _mm_loadu_si128(q.add(h)));
                // rows 2i and 2i + 1, then the four rows of the band
                let xs = _mm_srli_epi32::<16>(x);
                let (y, a) = (_mm_or_si128(x, xs), _mm_and_si128(x, xs));
                let ys = _mm_srli_epi64::<32>(y);
                let bo = _mm_or_si128(y, ys);
                let bt = _mm_or_si128(
                    _mm_or_si128(a, _mm_srli_epi64::<32>(a)),
                    _mm_and_si128(y, ys),
                );
                let d = _mm_or_si128(d, _mm_srli_epi32::<16>(d));
                let bd = _mm_or_si128(d, _mm_srli_epi64::<32>(d));
                let bad = _mm_or_si128(
                    _mm_or_si128(
                        _mm_and_si128(bo, _mm_sub_epi16(_mm_or_si128(bo, hi), lo)),
                        bd,
                    ),
                    bt,
                );
                let carry = _mm_or_si128(_mm_add_epi16(_mm_and_si128(bad, low), low), bad);
                *out = (bo, bt, bd, _mm_andnot_si128(carry, hi));
            }
            let mut lone = [[0u16; 8]; 2];
            for (l, part) in lone.iter_mut().zip(&part) {
                _mm_storeu_si128(l.as_mut_ptr().cast::<__m128i>(), part.3);
            }
            let first = [lone[0][0], lone[0][4], lone[1][0], lone[1][4]]
                .into_iter()
                .enumerate()
                .find(|&(_, l)| l != 0);
            // over the bands: lane 0 holds bands 0 and 2, lane 4 bands 1 and 3
            let (u, w) = (
                _mm_or_si128(part[0].0, part[1].0),
                _mm_and_si128(part[0].0, part[1].0),
            );
            let us = _mm_srli_si128::<8>(u);
            let bt = _mm_or_si128(part[0].1, part[1].1);
            let twice = _mm_or_si128(
                _mm_or_si128(w, _mm_srli_si128::<8>(w)),
                _mm_or_si128(
                    _mm_and_si128(u, us),
                    _mm_or_si128(bt, _mm_srli_si128::<8>(bt)),
                ),
            );
            let bd = _mm_or_si128(part[0].2, part[1].2);
            let done = _mm_or_si128(bd, _mm_srli_si128::<8>(bd));
            let lane0 = |v: __m128i| _mm_cvtsi128_si32(v) as u16;
            super::Boxes {
                lone: first,
                once: lane0(_mm_or_si128(u, us)),
                twice: lane0(twice),
                done: lane0(done),
            }
        }
    }

    /// [`super::Word::clear_cell`] of a 16×16 grid's 16 values: the cell's 16 words
    /// gathered into two registers for the test, then cleared one by one.
    #[cfg(all(target_arch = "x86_64", not(gridsolve_portable)))]
    #[inline(always)]
    pub(super) fn clear_cell(cand: &mut [u16; 256], r: usize, bit: u16) -> u64 {
        let at = |w: usize| cand[w * 16 + (r & 15)] as i16;
        // SAFETY: SSE2 is part of the x86-64 baseline; no memory is accessed.
        let had = unsafe {
            let (lo, hi) = (
                _mm_set_epi16(at(7), at(6), at(5), at(4), at(3), at(2), at(1), at(0)),
                _mm_set_epi16(at(15), at(14), at(13), at(12), at(11), at(10), at(9), at(8)),
            );
            let (m, z) = (_mm_set1_epi16(bit as i16), _mm_setzero_si128());
            let a = _mm_cmpeq_epi16(_mm_and_si128(lo, m), z);
            let b = _mm_cmpeq_epi16(_mm_and_si128(hi, m), z);
            !mask(a, b) & 0xffff
        };
        for w in 0..16 {
            cand[w * 16 + (r & 15)] &= !bit;
        }
        had
    }

    /// [`super::Word::clear_cell`] of a 16×16 grid's 16 values.
    #[cfg(not(all(target_arch = "x86_64", not(gridsolve_portable))))]
    #[inline(always)]
    pub(super) fn clear_cell(cand: &mut [u16; 256], r: usize, bit: u16) -> u64 {
        let mut had = 0u64;
        for w in 0..16 {
            let x = &mut cand[w * 16 + (r & 15)];
            had |= u64::from(*x & bit != 0) << w;
            *x &= !bit;
        }
        had
    }

    /// [`super::Word::boxes`] of 16 rows in bands of 4.
    #[cfg(not(all(target_arch = "x86_64", not(gridsolve_portable))))]
    #[inline(always)]
    pub(super) fn boxes(
        rows: &[u16; 16],
        placed: &[u16; 16],
        lo: u16,
        hi: u16,
        full: u16,
    ) -> super::Boxes<u16> {
        super::boxes_by_band(rows, placed, 4, lo, hi, full)
    }

    /// [`super::Word::meets`] of 16 rows.
    #[cfg(not(all(target_arch = "x86_64", not(gridsolve_portable))))]
    #[inline(always)]
    pub(super) fn meets(rows: &[u16; 16], mask: u16) -> u64 {
        rows.iter()
            .enumerate()
            .fold(0, |m, (i, &x)| m | u64::from(x & mask != 0) << i)
    }

    /// [`super::Word::row_flags`] of 16 rows.
    #[cfg(not(all(target_arch = "x86_64", not(gridsolve_portable))))]
    #[inline(always)]
    pub(super) fn row_flags(rows: &[u16; 16], placed: &[u16; 16]) -> (u64, u64) {
        let (mut empty, mut single) = (0u64, 0u64);
        for (i, (&x, &p)) in rows.iter().zip(placed).enumerate() {
            empty |= u64::from(x == 0) << i;
            single |= u64::from((x & x.wrapping_sub(1) == 0) & (x & p == 0)) << i;
        }
        (empty, single)
    }
}

#[cfg(test)]
mod tests {
    //! The 16-row tests of `u16` words (SSE2 on x86-64) against the generic ones (of
    //! `u64` words), on pseudo-random rows of every density.

    use super::*;

    /// `Word`'s generic [`Word::meets`], [`Word::row_flags`] and [`Word::boxes`] (the
    /// trait's own, through `u64` words).
    fn generic(rows: &[u16; 16], placed: &[u16; 16], mask: u16) -> (u64, (u64, u64), [u64; 4]) {
        let rows64: Vec<u64> = rows.iter().map(|&x| u64::from(x)).collect();
        let placed64: Vec<u64> = placed.iter().map(|&x| u64::from(x)).collect();
        let (lo, hi) = (0x1111u64, 0x8888u64);
        let b = boxes_by_band(&rows64, &placed64, 4, lo, hi, 0xffff);
        let lone = b.lone.map_or(u64::MAX, |(band, l)| (band as u64) << 16 | l);
        let rest = if b.lone.is_some() {
            [0; 3]
        } else {
            [b.once, b.twice, b.done]
        };
        (
            <u64 as Word>::meets(&rows64, u64::from(mask)),
            <u64 as Word>::row_flags(&rows64, &placed64),
            [lone, rest[0], rest[1], rest[2]],
        )
    }

    #[test]
    fn sixteen_rows_at_once_match_the_generic_tests() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for round in 0..20_000 {
            // sparse rows (few bits, many singles and empty boxes) to dense ones
            let density = round % 4;
            let mut word = || {
                let mut w = next() as u16;
                for _ in 0..density {
                    w &= next() as u16;
                }
                w
            };
            let rows: [u16; 16] = std::array::from_fn(|_| word());
            let placed: [u16; 16] = std::array::from_fn(|_| word());
            let mask = word();
            let b = <u16 as Word>::boxes(&rows, &placed, 4, 0x1111, 0x8888, 0xffff);
            let lone = b
                .lone
                .map_or(u64::MAX, |(band, l)| (band as u64) << 16 | u64::from(l));
            let rest = if b.lone.is_some() {
                [0; 3]
            } else {
                [b.once, b.twice, b.done].map(u64::from)
            };
            // a 16×16 grid's 16 values, cell (row 5, column of the lowest bit of `mask`)
            let mut cand: Vec<u16> = (0..256).map(|_| word()).collect();
            let mut cand64: Vec<u64> = cand.iter().map(|&x| u64::from(x)).collect();
            let bit = 1u16 << (mask | 1 << 15).trailing_zeros();
            let had = <u16 as Word>::clear_cell(&mut cand, 16, 5, bit);
            let had64 = <u64 as Word>::clear_cell(&mut cand64, 16, 5, u64::from(bit));
            assert_eq!(had, had64, "clear_cell's values");
            assert!(cand.iter().zip(&cand64).all(|(&x, &y)| u64::from(x) == y));
            assert_eq!(
                (
                    <u16 as Word>::meets(&rows, mask),
                    <u16 as Word>::row_flags(&rows, &placed),
                    [lone, rest[0], rest[1], rest[2]],
                ),
                generic(&rows, &placed, mask),
                "rows {rows:?}, placed {placed:?}, mask {mask:#x}"
            );
        }
    }
}
