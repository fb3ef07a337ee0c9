//! Four 32-bit lanes handled as one value: lane `b < 3` holds band `b`'s 27-bit word of
//! one digit (layout in [`super::tables`]), lane 3 is always zero in candidate words. On
//! x86-64 a `Quad` is one 128-bit SSE2 register (SSE2 is part of x86-64, so no feature
//! detection is needed) and every operation below is one or two vector instructions;
//! elsewhere (or built with `--cfg gridsolve_portable`, which tests that path) it is an
//! aligned array handled lane by lane. A rule written once on `Quad`s
//! runs on the three bands of a digit at once.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Index, IndexMut};

#[cfg(all(target_arch = "x86_64", not(gridsolve_portable)))]
use std::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi32, _mm_cvtsi32_si128,
    _mm_movemask_epi8, _mm_or_si128, _mm_setzero_si128, _mm_shuffle_epi32, _mm_sll_epi32,
    _mm_srl_epi32, _mm_sub_epi32, _mm_xor_si128,
};

/// Runs SSE2 intrinsics. SAFETY: SSE2 is part of the x86-64 baseline, so the
/// instructions exist on every machine this code compiles for; the intrinsics used take
/// no pointers.
#[cfg(all(target_arch = "x86_64", not(gridsolve_portable)))]
macro_rules! sse2 {
    ($e:expr) => {
        unsafe { $e }
    };
}

/// Four lanes (three bands and a zero lane).
#[cfg(all(target_arch = "x86_64", not(gridsolve_portable)))]
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(crate) struct Quad(__m128i);

/// Four lanes (three bands and a zero lane).
#[cfg(any(not(target_arch = "x86_64"), gridsolve_portable))]
#[derive(Clone, Copy)]
#[repr(C, align(16))]
pub(crate) struct Quad([u32; 4]);

impl Quad {
    /// The four lanes as given.
    #[inline(always)]
    pub(crate) const fn new(lanes: [u32; 4]) -> Quad {
        #[cfg(all(target_arch = "x86_64", not(gridsolve_portable)))]
        // SAFETY: both types are 16 plain bytes; every bit pattern is valid for each.
        return Quad(unsafe { std::mem::transmute::<[u32; 4], __m128i>(lanes) });
        #[cfg(any(not(target_arch = "x86_64"), gridsolve_portable))]
        Quad(lanes)
    }

    /// The four lanes.
    #[inline(always)]
    pub(crate) fn lanes(self) -> [u32; 4] {
        #[cfg(all(target_arch = "x86_64", not(gridsolve_portable)))]
        // SAFETY: as in `new`.
        return unsafe { std::mem::transmute::<__m128i, [u32; 4]>(self.0) };
        #[cfg(any(not(target_arch = "x86_64"), gridsolve_portable))]
        self.0
    }

    /// All lanes zero.
    #[inline(always)]
    pub(crate) const fn zero() -> Quad {
        Quad::new([0; 4])
    }

    /// The same value in the three band lanes, zero in lane 3.
    #[inline(always)]
    pub(crate) const fn bands(x: u32) -> Quad {
        Quad::new([x, x, x, 0])
    }
}

#[cfg(all(target_arch = "x86_64", not(gridsolve_portable)))]
impl Quad {
    /// Lane-wise `self >> n`.
    #[inline(always)]
    pub(crate) fn shr(self, n: u32) -> Quad {
        Quad(sse2!(_mm_srl_epi32(self.0, _mm_cvtsi32_si128(n as i32))))
    }

    /// Lane-wise `self << n`.
    #[inline(always)]
    pub(crate) fn shl(self, n: u32) -> Quad {
        Quad(sse2!(_mm_sll_epi32(self.0, _mm_cvtsi32_si128(n as i32))))
    }

    /// Lane-wise `self - o`, wrapping.
    #[inline(always)]
    pub(crate) fn sub(self, o: Quad) -> Quad {
        Quad(sse2!(_mm_sub_epi32(self.0, o.0)))
    }

    /// Lane-wise `self + o`, wrapping.
    #[inline(always)]
    pub(crate) fn add(self, o: Quad) -> Quad {
        Quad(sse2!(_mm_add_epi32(self.0, o.0)))
    }

    /// `self & !o`.
    #[inline(always)]
    pub(crate) fn andnot(self, o: Quad) -> Quad {
        Quad(sse2!(_mm_andnot_si128(o.0, self.0)))
    }

    /// Lane `b` takes lane `b + 1` of the three band lanes (mod 3); lane 3 stays.
    #[inline(always)]
    pub(crate) fn rot1(self) -> Quad {
        Quad(sse2!(_mm_shuffle_epi32::<0b11_00_10_01>(self.0)))
    }

    /// Lane `b` takes lane `b + 2` of the three band lanes (mod 3); lane 3 stays.
    #[inline(always)]
    pub(crate) fn rot2(self) -> Quad {
        Quad(sse2!(_mm_shuffle_epi32::<0b11_01_00_10>(self.0)))
    }

    /// A 16-bit mask, four bits per lane (one per byte), set where the lane is zero.
    #[inline(always)]
    fn zero_lanes(self) -> i32 {
        sse2!(_mm_movemask_epi8(_mm_cmpeq_epi32(
            self.0,
            _mm_setzero_si128()
        )))
    }

    /// Whether every lane is zero.
    #[inline(always)]
    pub(crate) fn is_zero(self) -> bool {
        self.zero_lanes() == 0xffff
    }

    /// Whether one of the three band lanes is zero.
    #[inline(always)]
    pub(crate) fn band_empty(self) -> bool {
        self.zero_lanes() & 0x111 != 0
    }
}

#[cfg(all(target_arch = "x86_64", not(gridsolve_portable)))]
impl BitAnd for Quad {
    type Output = Quad;
    #[inline(always)]
    fn bitand(self, o: Quad) -> Quad {
        Quad(sse2!(_mm_and_si128(self.0, o.0)))
    }
}

#[cfg(all(target_arch = "x86_64", not(gridsolve_portable)))]
impl BitOr for Quad {
    type Output = Quad;
    #[inline(always)]
    fn bitor(self, o: Quad) -> Quad {
        Quad(sse2!(_mm_or_si128(self.0, o.0)))
    }
}

#[cfg(all(target_arch = "x86_64", not(gridsolve_portable)))]
impl BitXor for Quad {
    type Output = Quad;
    #[inline(always)]
    fn bitxor(self, o: Quad) -> Quad {
        Quad(sse2!(_mm_xor_si128(self.0, o.0)))
    }
}

#[cfg(any(not(target_arch = "x86_64"), gridsolve_portable))]
impl Quad {
    #[inline(always)]
    fn map(self, f: impl Fn(u32) -> u32) -> Quad {
        Quad(self.0.map(f))
    }

    #[inline(always)]
    fn zip(self, o: Quad, f: impl Fn(u32, u32) -> u32) -> Quad {
        Quad([0, 1, 2, 3].map(|i| f(self.0[i], o.0[i])))
    }

    /// Lane-wise `self >> n`.
    #[inline(always)]
    pub(crate) fn shr(self, n: u32) -> Quad {
        self.map(|x| x >> n)
    }

    /// Lane-wise `self << n`.
    #[inline(always)]
    pub(crate) fn shl(self, n: u32) -> Quad {
        self.map(|x| x << n)
    }

    /// Lane-wise `self - o`, wrapping.
    #[inline(always)]
    pub(crate) fn sub(self, o: Quad) -> Quad {
        self.zip(o, u32::wrapping_sub)
    }

    /// Lane-wise `self + o`, wrapping.
    #[inline(always)]
    pub(crate) fn add(self, o: Quad) -> Quad {
        self.zip(o, u32::wrapping_add)
    }

    /// `self & !o`.
    #[inline(always)]
    pub(crate) fn andnot(self, o: Quad) -> Quad {
        self.zip(o, |a, b| a & !b)
    }

    /// Lane `b` takes lane `b + 1` of the three band lanes (mod 3); lane 3 stays.
    #[inline(always)]
    pub(crate) fn rot1(self) -> Quad {
        Quad([self.0[1], self.0[2], self.0[0], self.0[3]])
    }

    /// Lane `b` takes lane `b + 2` of the three band lanes (mod 3); lane 3 stays.
    #[inline(always)]
    pub(crate) fn rot2(self) -> Quad {
        Quad([self.0[2], self.0[0], self.0[1], self.0[3]])
    }

    /// Whether every lane is zero.
    #[inline(always)]
    pub(crate) fn is_zero(self) -> bool {
        (self.0[0] | self.0[1]) | (self.0[2] | self.0[3]) == 0
    }

    /// Whether one of the three band lanes is zero.
    #[inline(always)]
    pub(crate) fn band_empty(self) -> bool {
        (self.0[0] == 0) | (self.0[1] == 0) | (self.0[2] == 0)
    }
}

#[cfg(any(not(target_arch = "x86_64"), gridsolve_portable))]
impl BitAnd for Quad {
    type Output = Quad;
    #[inline(always)]
    fn bitand(self, o: Quad) -> Quad {
        self.zip(o, |a, b| a & b)
    }
}

#[cfg(any(not(target_arch = "x86_64"), gridsolve_portable))]
impl BitOr for Quad {
    type Output = Quad;
    #[inline(always)]
    fn bitor(self, o: Quad) -> Quad {
        self.zip(o, |a, b| a | b)
    }
}

#[cfg(any(not(target_arch = "x86_64"), gridsolve_portable))]
impl BitXor for Quad {
    type Output = Quad;
    #[inline(always)]
    fn bitxor(self, o: Quad) -> Quad {
        self.zip(o, |a, b| a ^ b)
    }
}

impl PartialEq for Quad {
    #[inline(always)]
    fn eq(&self, o: &Quad) -> bool {
        (*self ^ *o).is_zero()
    }
}

impl Eq for Quad {}

impl std::fmt::Debug for Quad {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Quad({:?})", self.lanes())
    }
}

impl BitAndAssign for Quad {
    #[inline(always)]
    fn bitand_assign(&mut self, o: Quad) {
        *self = *self & o;
    }
}

impl BitOrAssign for Quad {
    #[inline(always)]
    fn bitor_assign(&mut self, o: Quad) {
        *self = *self | o;
    }
}

impl Index<usize> for Quad {
    type Output = u32;
    #[inline(always)]
    fn index(&self, b: usize) -> &u32 {
        // SAFETY: a Quad is 16 plain bytes laid out as four u32 lanes, lane 0 first.
        let lanes = unsafe { &*(self as *const Quad).cast::<[u32; 4]>() };
        &lanes[b]
    }
}

impl IndexMut<usize> for Quad {
    #[inline(always)]
    fn index_mut(&mut self, b: usize) -> &mut u32 {
        // SAFETY: as in `index`.
        let lanes = unsafe { &mut *(self as *mut Quad).cast::<[u32; 4]>() };
        &mut lanes[b]
    }
}

#[cfg(test)]
mod tests {
    use super::Quad;

    #[test]
    fn lanes_follow_the_operations() {
        let a = Quad::new([0x0f0f, 0x00ff, 0xffff_0000, 1]);
        let b = Quad::new([0x00ff, 0x0ff0, 0x0001_0000, 3]);
        assert_eq!((a & b).lanes(), [0x000f, 0x00f0, 0x0001_0000, 1]);
        assert_eq!((a | b).lanes(), [0x0fff, 0x0fff, 0xffff_0000, 3]);
        assert_eq!((a ^ b).lanes(), [0x0ff0, 0x0f0f, 0xfffe_0000, 2]);
        assert_eq!(a.andnot(b).lanes(), [0x0f00, 0x000f, 0xfffe_0000, 0]);
        assert_eq!(a.shr(4).lanes(), [0x00f0, 0x000f, 0x0fff_f000, 0]);
        assert_eq!(a.shl(4).lanes(), [0xf0f0, 0x0ff0, 0xfff0_0000, 0x10]);
        assert_eq!(
            b.sub(a).lanes(),
            [0xfffff1f0, 0x0ff0 - 0x00ff, 0x0002_0000, 2]
        );
        assert_eq!(a.rot1().lanes(), [0x00ff, 0xffff_0000, 0x0f0f, 1]);
        assert_eq!(a.rot2().lanes(), [0xffff_0000, 0x0f0f, 0x00ff, 1]);
        assert!(Quad::zero().is_zero() && !Quad::new([0, 0, 0, 1]).is_zero());
        assert!(Quad::new([1, 0, 1, 1]).band_empty() && !Quad::new([1, 1, 1, 0]).band_empty());
        assert_eq!(a[2], 0xffff_0000);
        let mut c = a;
        c[1] = 7;
        assert_eq!(c.lanes(), [0x0f0f, 7, 0xffff_0000, 1]);
        assert!(a == a && a != b);
    }
}
