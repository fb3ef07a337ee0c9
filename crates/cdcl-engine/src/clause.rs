//! The clause arena: every clause of the solver lives in one `Vec<u32>`, addressed by a
//! 32-bit reference (the offset of its header), as in MiniSat's `ClauseAllocator`.
//!
//! A clause is a three-word header followed by its literal codes (`2·var + sign`):
//! word 0 is the length, word 1 holds the flags (learnt, deleted, relocated, vivified,
//! earlier), a two-bit "used" count (recent use in conflict analysis, see `tiers.rs`) and the LBD,
//! word 2 the activity of a learnt clause as `f32` bits (or the forwarding address while
//! the arena is being compacted). One allocation for millions of clauses keeps the
//! propagation loop on contiguous memory and makes a reference four bytes instead of a
//! pointer. Deleting a clause only marks it and counts the words wasted; when a fifth of
//! the arena is garbage the solver copies the live clauses into a fresh arena
//! ([`ClauseArena::relocate`]), leaving a forwarding address in each old header so that
//! every reference (watchers, reasons, clause lists) can be rewritten in one pass.

use cnf_core::Lit;

/// A reference to a clause: the offset of its header in the arena.
pub type CRef = u32;

/// "No clause": the reason of a decision or of an unassigned variable.
pub const NO_REASON: CRef = u32::MAX;

/// Header words before the literals.
const HEADER: usize = 3;
/// Flag: the clause was learnt (may be deleted by reduction).
const LEARNT: u32 = 1;
/// Flag: the clause is deleted (its watchers are purged before the next propagation).
const DELETED: u32 = 2;
/// Flag: the clause was copied during compaction; word 2 holds its new reference.
const RELOCATED: u32 = 4;
/// Flag: vivification has already tried this clause.
const VIVIFIED: u32 = 8;
/// Flag: a learnt clause of an earlier solve call (see `forget.rs`).
const EARLIER: u32 = 16;
/// The "used" count sits above the flags (two bits).
const USED_SHIFT: u32 = 5;
/// Mask of the "used" count.
const USED_MASK: u32 = 3 << USED_SHIFT;
/// The LBD sits above the flag bits and the "used" count.
const LBD_SHIFT: u32 = 7;

/// All clauses of one solver.
#[derive(Clone, Debug, Default)]
pub struct ClauseArena {
    /// Headers and literal codes, clause after clause.
    data: Vec<u32>,
    /// Words that belong to deleted clauses (garbage to reclaim).
    wasted: usize,
}

impl ClauseArena {
    /// An empty arena with room for `words` words.
    pub fn with_capacity(words: usize) -> ClauseArena {
        ClauseArena {
            data: Vec::with_capacity(words),
            wasted: 0,
        }
    }

    /// Makes room for `words` more words.
    pub fn reserve(&mut self, words: usize) {
        self.data.reserve(words);
    }

    /// Stores a clause and returns its reference.
    pub fn alloc(&mut self, lits: &[Lit], learnt: bool) -> CRef {
        let cref = self.data.len();
        assert!(
            cref + HEADER + lits.len() < NO_REASON as usize,
            "clause arena exceeds 2^32 words"
        );
        self.data.push(lits.len() as u32);
        self.data.push(if learnt { LEARNT } else { 0 });
        self.data.push(0f32.to_bits());
        self.data.extend(lits.iter().map(|l| l.code() as u32));
        cref as CRef
    }

    /// The number of literals of clause `c`.
    #[inline]
    pub fn len(&self, c: CRef) -> usize {
        self.data[c as usize] as usize
    }

    /// The literal codes of clause `c`.
    #[inline]
    pub fn lits(&self, c: CRef) -> &[u32] {
        let start = c as usize + HEADER;
        &self.data[start..start + self.len(c)]
    }

    /// The literal codes of clause `c`, to reorder them (watch moves).
    #[inline]
    pub fn lits_mut(&mut self, c: CRef) -> &mut [u32] {
        let start = c as usize + HEADER;
        let len = self.len(c);
        &mut self.data[start..start + len]
    }

    /// [`ClauseArena::lits_mut`] without bounds checks, for the propagation loop (test
    /// builds still check them, by `debug_assert!`).
    ///
    /// # Safety
    /// `c` must be a reference this arena handed out that no compaction has moved since
    /// (a deleted clause keeps its words until then).
    #[inline]
    pub unsafe fn lits_unchecked_mut(&mut self, c: CRef) -> &mut [u32] {
        let at = c as usize;
        debug_assert!(at < self.data.len());
        // SAFETY: the caller's contract: `c` is a header, followed by its literals.
        unsafe {
            let len = *self.data.get_unchecked(at) as usize;
            debug_assert!(at + HEADER + len <= self.data.len());
            self.data.get_unchecked_mut(at + HEADER..at + HEADER + len)
        }
    }

    /// Literal `i` of clause `c`.
    #[inline]
    pub fn lit(&self, c: CRef, i: usize) -> Lit {
        Lit::from_code(self.data[c as usize + HEADER + i])
    }

    /// The literals of clause `c` as [`Lit`]s (for proofs and tests).
    pub fn to_lits(&self, c: CRef) -> Vec<Lit> {
        self.lits(c).iter().map(|&x| Lit::from_code(x)).collect()
    }

    /// True for a learnt clause.
    #[inline]
    pub fn is_learnt(&self, c: CRef) -> bool {
        self.data[c as usize + 1] & LEARNT != 0
    }

    /// True for a deleted clause.
    #[inline]
    pub fn is_deleted(&self, c: CRef) -> bool {
        self.data[c as usize + 1] & DELETED != 0
    }

    /// Marks clause `c` deleted; its words count as garbage from now on.
    pub fn delete(&mut self, c: CRef) {
        debug_assert!(!self.is_deleted(c));
        self.data[c as usize + 1] |= DELETED;
        self.wasted += HEADER + self.len(c);
    }

    /// Shortens clause `c` to its first `len` literals (strengthening); the words cut off
    /// count as garbage.
    pub fn shrink(&mut self, c: CRef, len: usize) {
        let old = self.len(c);
        debug_assert!(len <= old);
        self.data[c as usize] = len as u32;
        self.wasted += old - len;
    }

    /// True when vivification has tried clause `c` already.
    #[inline]
    pub fn is_vivified(&self, c: CRef) -> bool {
        self.data[c as usize + 1] & VIVIFIED != 0
    }

    /// Records that vivification has tried clause `c`.
    pub fn set_vivified(&mut self, c: CRef) {
        self.data[c as usize + 1] |= VIVIFIED;
    }

    /// True when learnt clause `c` was learnt in an earlier solve call.
    #[inline]
    pub fn is_earlier(&self, c: CRef) -> bool {
        self.data[c as usize + 1] & EARLIER != 0
    }

    /// Records that clause `c` belongs to a solve call that has ended.
    pub fn set_earlier(&mut self, c: CRef) {
        self.data[c as usize + 1] |= EARLIER;
    }

    /// How recently learnt clause `c` took part in conflict analysis (0..=3; see
    /// `tiers.rs`).
    #[inline]
    pub fn used(&self, c: CRef) -> u32 {
        (self.data[c as usize + 1] & USED_MASK) >> USED_SHIFT
    }

    /// Sets the "used" count of clause `c` (at most 3).
    #[inline]
    pub fn set_used(&mut self, c: CRef, used: u32) {
        let w = &mut self.data[c as usize + 1];
        *w = (*w & !USED_MASK) | (used.min(3) << USED_SHIFT);
    }

    /// The literal block distance recorded for clause `c`.
    #[inline]
    pub fn lbd(&self, c: CRef) -> u32 {
        self.data[c as usize + 1] >> LBD_SHIFT
    }

    /// Records the literal block distance of clause `c`.
    #[inline]
    pub fn set_lbd(&mut self, c: CRef, lbd: u32) {
        let w = &mut self.data[c as usize + 1];
        *w = (*w & ((1 << LBD_SHIFT) - 1)) | (lbd.min(u32::MAX >> LBD_SHIFT) << LBD_SHIFT);
    }

    /// The activity of learnt clause `c`.
    #[inline]
    pub fn activity(&self, c: CRef) -> f32 {
        f32::from_bits(self.data[c as usize + 2])
    }

    /// Sets the activity of learnt clause `c`.
    #[inline]
    pub fn set_activity(&mut self, c: CRef, a: f32) {
        self.data[c as usize + 2] = a.to_bits();
    }

    /// Words in use (live and garbage).
    pub fn size(&self) -> usize {
        self.data.len()
    }

    /// Words held by deleted clauses.
    pub fn wasted(&self) -> usize {
        self.wasted
    }

    /// Copies clause `c` of `self` (the old arena) into `to` unless already done, and
    /// returns its new reference. The first call leaves a forwarding address behind, so
    /// every later reference to the same clause maps to the same copy.
    pub fn relocate(&mut self, c: CRef, to: &mut ClauseArena) -> CRef {
        let i = c as usize;
        if self.data[i + 1] & RELOCATED != 0 {
            return self.data[i + 2];
        }
        debug_assert!(!self.is_deleted(c), "relocating a deleted clause");
        let new = to.data.len() as CRef;
        let end = i + HEADER + self.len(c);
        to.data.extend_from_slice(&self.data[i..end]);
        self.data[i + 1] |= RELOCATED;
        self.data[i + 2] = new;
        new
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lits(d: &[i32]) -> Vec<Lit> {
        d.iter().map(|&x| Lit::from_dimacs(x)).collect()
    }

    #[test]
    fn header_fields_are_independent() {
        let mut a = ClauseArena::default();
        let c = a.alloc(&lits(&[1, -2, 3]), true);
        let d = a.alloc(&lits(&[4, 5]), false);
        a.set_lbd(c, 7);
        a.set_used(c, 2);
        a.set_activity(c, 2.5);
        assert_eq!(a.used(c), 2);
        a.set_vivified(c);
        a.set_used(c, 9);
        assert_eq!((a.used(c), a.lbd(c), a.is_vivified(c)), (3, 7, true));
        assert!(!a.is_earlier(c));
        a.set_earlier(c);
        assert_eq!((a.used(c), a.lbd(c), a.is_earlier(c)), (3, 7, true));
        assert_eq!(a.len(c), 3);
        assert!(a.is_learnt(c) && !a.is_learnt(d));
        assert_eq!((a.lbd(c), a.activity(c)), (7, 2.5));
        assert_eq!(a.to_lits(d), lits(&[4, 5]));
        a.delete(c);
        assert!(a.is_deleted(c) && a.is_learnt(c) && a.lbd(c) == 7);
        assert_eq!(a.wasted(), 6);
    }

    #[test]
    fn relocation_forwards_every_reference_to_one_copy() {
        let mut a = ClauseArena::default();
        let c = a.alloc(&lits(&[1, 2, 3]), false);
        let d = a.alloc(&lits(&[-1, -2]), true);
        a.set_lbd(d, 2);
        a.delete(c);
        let mut to = ClauseArena::default();
        let nd = a.relocate(d, &mut to);
        assert_eq!(a.relocate(d, &mut to), nd);
        assert_eq!(to.size(), 5);
        assert_eq!(to.to_lits(nd), lits(&[-1, -2]));
        assert!(to.is_learnt(nd) && to.lbd(nd) == 2);
    }
}
