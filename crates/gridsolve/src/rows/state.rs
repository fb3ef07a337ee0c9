//! The search state of the row-mask engine and its propagation. A state is, per value
//! `v` and row `r`, the bit set of the columns where `v` may still go (`n` words per
//! value, value-major), then per row the bit set of the placed cells, then the bit set of
//! the rows where a candidate was removed since naked singles last scanned them (every
//! removal marks its row, so naked singles scan only those rows). A placed cell keeps
//! its value's bit, so every row of every value keeps at least one bit. Placing clears the
//! value from the cell's column and box with one operation a row and the cell from the
//! other values; the placed value is marked dirty, and each other value of the cell is
//! either marked dirty too (a cell with many candidates) or has the cell it lost listed.
//! Propagation scans each dirty value for hidden singles in rows, columns and boxes, and
//! a listed cell's row, column and box only; then places the naked singles of the changed
//! rows, until nothing changes; then (in the search, not in probes) locked candidates in
//! bands and stacks on the values scanned since their last pass, and again.

use std::mem::MaybeUninit;

use super::Word;
use super::word::Boxes;

/// The layout of one sudoku shape: side `n = k²` (up to 64, at most `W::BITS`), box
/// side `k`.
pub(crate) struct Geo<W: Word> {
    /// Side.
    pub n: usize,
    /// Box side.
    pub k: usize,
    /// The bit set of all `n` columns.
    pub full: W,
    /// The columns of each stack (`k` of them).
    pub seg: Vec<W>,
    /// The first column of each stack.
    pub lo: W,
    /// The last column of each stack.
    pub hi: W,
}

impl<W: Word> Geo<W> {
    /// The layout of a sudoku of box side `k`.
    pub(crate) fn new(k: usize) -> Geo<W> {
        let n = k * k;
        assert!(
            n <= W::BITS as usize,
            "a row of {n} columns in a word of {}",
            W::BITS
        );
        let ones = |m: usize| W::from_u64(if m == 64 { u64::MAX } else { (1u64 << m) - 1 });
        Geo {
            n,
            k,
            full: ones(n),
            seg: (0..k).map(|j| ones(k) << (j * k)).collect(),
            lo: (0..k).fold(W::ZERO, |m, j| m | W::ONE << (j * k)),
            hi: (0..k).fold(W::ZERO, |m, j| m | W::ONE << (j * k + k - 1)),
        }
    }

    /// Words in a state: `n` rows per value, then `n` rows of placed cells, then the
    /// rows changed since naked singles scanned them, then the count of candidates
    /// removed by placements.
    pub(crate) fn words(&self) -> usize {
        self.n * self.n + self.n + 2
    }

    /// The index of the word of rows changed since naked singles scanned them.
    pub(crate) fn changed(&self) -> usize {
        self.n * self.n + self.n
    }

    /// The index of the word counting the candidates removed by placements (wrapping;
    /// only differences between a state and a copy of it mean something).
    pub(crate) fn removed(&self) -> usize {
        self.n * self.n + self.n + 1
    }

    /// The empty grid: every value possible everywhere, nothing placed, every row to scan.
    pub(crate) fn reset(&self, s: &mut [W]) {
        s[..self.n * self.n].fill(self.full);
        s[self.n * self.n..].fill(W::ZERO);
        s[self.changed()] = self.full;
    }
}

/// The bits set in exactly two of `words` (counted once, twice, three times or more).
#[inline(always)]
pub(crate) fn in_exactly_two<W: Word>(words: impl IntoIterator<Item = W>) -> W {
    let (mut once, mut twice, mut thrice) = (W::ZERO, W::ZERO, W::ZERO);
    for x in words {
        thrice |= twice & x;
        twice |= once & x;
        once |= x;
    }
    twice & !thrice
}

/// Places value `v` in row `r`, column `c`; false if `v` is no longer possible there.
pub(crate) fn place<W: Word>(
    g: &Geo<W>,
    s: &mut [W],
    v: usize,
    r: usize,
    c: usize,
    dirty: &mut u64,
) -> bool {
    let lost = &mut Lost::none();
    match g.k {
        2 => place_k::<2, false, W>(g, s, v, r, c, dirty, lost),
        4 => place_k::<4, false, W>(g, s, v, r, c, dirty, lost),
        5 => place_k::<5, false, W>(g, s, v, r, c, dirty, lost),
        6 => place_k::<6, false, W>(g, s, v, r, c, dirty, lost),
        7 => place_k::<7, false, W>(g, s, v, r, c, dirty, lost),
        8 => place_k::<8, false, W>(g, s, v, r, c, dirty, lost),
        _ => place_k::<0, false, W>(g, s, v, r, c, dirty, lost),
    }
}

/// A placement whose cell had more than this many other candidates marks them dirty
/// (a full scan each) instead of listing the lost cell for each.
const LOCAL_MAX: u32 = 8;

/// Placements fewer than this many keep their lost cells for a local check of hidden
/// singles.
const LOST: usize = 32;

/// The cells lost by values other than the one placed (the placed cell's other
/// candidates), to check only the row, column and box of each for hidden singles; a value
/// already marked dirty needs no entry, and the values of a placement that does not fit
/// are marked dirty.
struct Lost {
    len: usize,
    cap: usize,
    /// `(values, r << 8 | c)`: the values (a bit each, never none) that lost the cell at
    /// row `r`, column `c`; the first `len` entries are written (the list is not zeroed:
    /// one is made at every propagation and every placement from outside it).
    list: [MaybeUninit<(u64, u32)>; LOST],
}

impl Lost {
    /// A list that keeps nothing: every value that loses a cell is marked dirty.
    fn none() -> Lost {
        Lost {
            len: 0,
            cap: 0,
            list: [const { MaybeUninit::uninit() }; LOST],
        }
    }

    fn new() -> Lost {
        Lost {
            cap: LOST,
            ..Lost::none()
        }
    }

    /// The `values` lost the cell at `r`, `c`.
    #[inline(always)]
    fn lost(&mut self, dirty: &mut u64, values: u64, r: usize, c: usize) {
        let values = values & !*dirty;
        if self.len < self.cap {
            self.list[self.len].write((values, (r << 8 | c) as u32));
            self.len += usize::from(values != 0);
        } else {
            *dirty |= values;
        }
    }

    /// A value and the cell it lost: `(value, r, c)`.
    fn pop(&mut self) -> Option<(usize, usize, usize)> {
        let top = self.len.checked_sub(1)?;
        // SAFETY: entries below `len` were written by `lost` (`len` grows only after a
        // write at its index).
        let (values, cell) = unsafe { self.list[top].assume_init_mut() };
        let w = values.trailing_zeros() as usize;
        *values &= *values - 1;
        let cell = *cell as usize;
        self.len = top + usize::from(*values != 0);
        Some((w, cell >> 8, cell & 0xff))
    }
}

/// The columns of each stack.
#[inline(always)]
fn segs<const K: usize, W: Word>(g: &Geo<W>) -> impl Iterator<Item = W> {
    let k = side::<K, W>(g);
    let ones = W::from_u64((1u64 << k) - 1);
    (0..k).map(move |j| ones << (j * k))
}

/// The box side: `K`, or the layout's when `K` is 0 (the engine's functions are built
/// for each box side, so that its loops have fixed bounds).
#[inline(always)]
fn side<const K: usize, W: Word>(g: &Geo<W>) -> usize {
    if K == 0 { g.k } else { K }
}

/// [`place`]; with `ALONE`, `v` is the cell's only candidate (a naked single), so no
/// other value loses the cell.
#[inline]
fn place_k<const K: usize, const ALONE: bool, W: Word>(
    g: &Geo<W>,
    s: &mut [W],
    v: usize,
    r: usize,
    c: usize,
    dirty: &mut u64,
    lost: &mut Lost,
) -> bool {
    let k = side::<K, W>(g);
    let n = k * k;
    assert!(v < n && r < n && c < n);
    let bit = W::ONE << c;
    let (cand, marks) = s.split_at_mut(n * n);
    let rows = &mut cand[v * n..v * n + n];
    if rows[r] & bit == W::ZERO {
        return false;
    }
    // candidates removed: the row's others, the column's and the box's outside the row,
    // the cell's other values (below)
    let own = rows[r];
    let mut changed = W::meets(rows, bit);
    for x in rows.iter_mut() {
        *x &= !bit;
    }
    let mut removed = own.count_ones() - 1 + (changed & !(1 << r)).count_ones();
    let b0 = r / k * k;
    changed |= ((1u64 << k) - 1) << b0 | 1 << r;
    let seg = g.seg[c / k];
    let mut in_box = 0;
    for x in &mut rows[b0..b0 + k] {
        in_box += (*x & seg).count_ones();
        *x &= !seg;
    }
    removed += in_box - (own & !bit & seg).count_ones();
    let mut others = 0u64;
    if !ALONE {
        // the cell leaves every value (v's own row gets its bit back below)
        others = W::clear_cell(cand, n, r, bit);
        others &= !(1 << v);
    }
    cand[v * n + r] = bit;
    removed += others.count_ones();
    if others.count_ones() > LOCAL_MAX {
        *dirty |= others;
    } else if others != 0 {
        lost.lost(dirty, others, r, c);
    }
    *dirty |= 1 << v;
    marks[r] |= bit;
    marks[n] |= W::from_u64(changed);
    marks[n + 1] = marks[n + 1].wrapping_add(W::from_u64(u64::from(removed)));
    true
}

/// Runs every rule to a fixpoint; false on a contradiction (`dirty` is then cleared).
/// `dirty` marks the values to scan for hidden singles; the values scanned since the last
/// locked-candidates pass are kept in `locked_due`.
pub(crate) fn propagate<W: Word>(g: &Geo<W>, s: &mut [W], dirty: &mut u64) -> bool {
    propagate_with(g, s, dirty, true)
}

/// [`propagate`] without locked candidates: naked and hidden singles to a fixpoint (the
/// lookahead's probes).
pub(crate) fn propagate_singles<W: Word>(g: &Geo<W>, s: &mut [W], dirty: &mut u64) -> bool {
    propagate_with(g, s, dirty, false)
}

/// [`propagate`], with locked candidates only when `with_locked`.
fn propagate_with<W: Word>(g: &Geo<W>, s: &mut [W], dirty: &mut u64, with_locked: bool) -> bool {
    let ok = match g.k {
        2 => fixpoint::<2, W>(g, s, dirty, with_locked),
        4 => fixpoint::<4, W>(g, s, dirty, with_locked),
        5 => fixpoint::<5, W>(g, s, dirty, with_locked),
        6 => fixpoint::<6, W>(g, s, dirty, with_locked),
        7 => fixpoint::<7, W>(g, s, dirty, with_locked),
        8 => fixpoint::<8, W>(g, s, dirty, with_locked),
        _ => fixpoint::<0, W>(g, s, dirty, with_locked),
    };
    if !ok {
        *dirty = 0;
    }
    ok
}

fn fixpoint<const K: usize, W: Word>(
    g: &Geo<W>,
    s: &mut [W],
    dirty: &mut u64,
    with_locked: bool,
) -> bool {
    let n = side::<K, W>(g) * side::<K, W>(g);
    let mut locked_due = 0u64;
    let mut lost = Lost::new();
    loop {
        loop {
            if *dirty != 0 {
                let v = dirty.trailing_zeros() as usize;
                *dirty &= !(1 << v);
                locked_due |= 1 << v;
                if hidden_singles::<K, W>(g, s, v, dirty, &mut lost).is_none() {
                    return false;
                }
            } else if let Some((w, r, c)) = lost.pop() {
                locked_due |= 1 << w;
                if local_singles::<K, W>(g, s, (w, r, c), dirty, &mut lost).is_none() {
                    return false;
                }
            } else {
                break;
            }
        }
        match naked_singles::<K, W>(g, s, dirty, &mut lost) {
            None => return false,
            Some(true) => continue,
            Some(false) => {}
        }
        if !with_locked {
            return true;
        }
        // singles are stuck: locked candidates on the values changed since the last pass
        while locked_due != 0 {
            let v = locked_due.trailing_zeros() as usize;
            locked_due &= locked_due - 1;
            let (cand, placed) = s.split_at_mut(n * n);
            match locked::<K, W>(g, &mut cand[v * n..(v + 1) * n], placed) {
                None => return false,
                Some(true) => {
                    *dirty |= 1 << v;
                    placed[n] = g.full; // every row may have lost a candidate
                }
                Some(false) => {}
            }
        }
        if *dirty == 0 {
            return true;
        }
    }
}

/// Places every unplaced cell left with one value, in the rows changed since the last
/// scan. `None` on a cell left with none.
fn naked_singles<const K: usize, W: Word>(
    g: &Geo<W>,
    s: &mut [W],
    dirty: &mut u64,
    lost: &mut Lost,
) -> Option<bool> {
    let n = side::<K, W>(g) * side::<K, W>(g);
    let mut progress = false;
    let mut rows = std::mem::take(&mut s[n * n + n]).to_u64();
    if rows == 0 {
        return Some(false);
    }
    // the cells of every row seen once and twice over the values, all rows at once (a
    // placement below only removes candidates: a stale single found here is still the
    // cell's only candidate or leaves the cell empty, and the rows it changes are marked
    // for the next scan)
    let (mut once, mut twice) = ([W::ZERO; 64], [W::ZERO; 64]);
    for value in s[..n * n].chunks_exact(n) {
        for ((o, t), &x) in once[..n].iter_mut().zip(&mut twice[..n]).zip(value) {
            *t |= *o & x;
            *o |= x;
        }
    }
    // the rows with a cell left with no value, and those with a single (tested for all
    // rows at once, no branch a row; a placement below only shrinks a row's singles)
    let (mut empty, mut with) = (0u64, 0u64);
    for (r, ((&o, &t), &p)) in once[..n]
        .iter()
        .zip(&twice[..n])
        .zip(&s[n * n..n * n + n])
        .enumerate()
    {
        empty |= u64::from(o != g.full) << r;
        with |= u64::from(o & !t & !p != W::ZERO) << r;
    }
    if empty & rows != 0 {
        return None;
    }
    rows &= with;
    while rows != 0 {
        let r = rows.trailing_zeros() as usize;
        rows &= rows - 1;
        let mut singles = once[r] & !twice[r] & !s[n * n + r];
        if singles == W::ZERO {
            continue;
        }
        // the value of each single cell, bit by bit: `index[j]` holds the row's cells
        // where a value with bit j set may go (a placement below only removes
        // candidates, so a single's value read here is its value, or the cell is empty)
        let index = value_index::<K, W>(g, s, r);
        while singles != W::ZERO {
            let c = singles.trailing_zeros() as usize;
            singles &= !(W::ONE << c);
            let v = index
                .iter()
                .enumerate()
                .fold(0usize, |v, (j, &x)| v | (x.bit_u64(c) as usize) << j);
            if !s[v * n + r].bit(c) {
                return None; // the cell has no candidate left
            }
            if !s[n * n + r].bit(c) && !place_k::<K, true, W>(g, s, v, r, c, dirty, lost) {
                return None;
            }
            progress = true;
        }
    }
    Some(progress)
}

/// Bits of the value index in row `r`: word `j` is the union of the row's words of the
/// values with bit `j` set, so that a cell with one candidate reads its value off the
/// words (a cell with none reads 0). Six words cover every side up to 64.
#[inline(always)]
fn value_index<const K: usize, W: Word>(g: &Geo<W>, s: &[W], r: usize) -> [W; 6] {
    let n = side::<K, W>(g) * side::<K, W>(g);
    let mut index = [W::ZERO; 6];
    // the bits of a value below n
    let bits = (usize::BITS - (n - 1).leading_zeros()) as usize;
    for v in 0..n {
        let x = s[v * n + r];
        for (j, w) in index[..bits].iter_mut().enumerate() {
            *w |= x & W::mask((v >> j) & 1 == 1);
        }
    }
    index
}

/// Locked candidates of one value (its `n` row words): in each band, a box whose
/// candidates lie in one row clears the rest of that row (pointing) and a row whose
/// candidates lie in one box clears the rest of that box (claiming); in each stack the
/// same with columns. `None` when a row, column or box has no place left; else whether
/// a candidate was removed.
fn locked<const K: usize, W: Word>(g: &Geo<W>, rows: &mut [W], placed: &[W]) -> Option<bool> {
    let k = side::<K, W>(g);
    let mut changed = false;
    let mut and = |x: &mut W, keep: W| {
        let y = *x & keep;
        changed |= y != *x;
        *x = y;
    };
    // per band: the union of its rows, and the columns where v is placed
    let mut unions = [W::ZERO; 8];
    let mut done = [W::ZERO; 8];
    // rows and boxes inside each band, all boxes of a band at once (a field of k bits
    // each, marked by its last column): the fields of a word with a place, and the
    // columns of marked fields
    let low = g.full & !g.hi;
    let nonzero = |x: W| ((x & low).wrapping_add(low) | x) & g.hi;
    let fields = |h: W| h.wrapping_sub(h >> (k - 1)) | h;
    for b in 0..k {
        let band = &mut rows[b * k..b * k + k];
        let here = band
            .iter()
            .zip(&placed[b * k..b * k + k])
            .fold(W::ZERO, |a, (&x, &p)| a | x & p);
        done[b] = here;
        // the boxes where v is not placed; per row, those of them it meets, and the one
        // it lies in (all its places in one of them); over the rows, boxes met once and
        // twice, lain in once and twice
        let open = g.hi & !nonzero(here);
        let (mut met, mut lies) = ([W::ZERO; 8], [W::ZERO; 8]);
        let (mut met1, mut met2, mut in1, mut in2) = (W::ZERO, W::ZERO, W::ZERO, W::ZERO);
        for (i, &x) in band.iter().enumerate() {
            let all = nonzero(x);
            met[i] = all & open;
            lies[i] = met[i] & W::mask(all & all.wrapping_sub(W::ONE) == W::ZERO);
            met2 |= met1 & met[i];
            met1 |= met[i];
            in2 |= in1 & lies[i];
            in1 |= lies[i];
        }
        if open & !met1 != W::ZERO {
            return None; // a box without a place
        }
        // boxes whose places lie in one row (no row lying in them)
        let point = open & met1 & !met2 & !in1;
        for (i, x) in band.iter_mut().enumerate() {
            // a box another row lies in: this row loses it
            let mut keep = !fields(in2 | in1 & !lies[i]);
            // boxes whose places all lie in this row: it keeps only those (two of them
            // are a contradiction: the row is left empty)
            let only = point & met[i];
            if only != W::ZERO {
                keep &= fields(only) & W::mask(only & only.wrapping_sub(W::ONE) == W::ZERO);
            }
            and(x, keep);
        }
    }
    // columns and boxes inside each stack
    let (mut once, mut twice) = (W::ZERO, W::ZERO);
    // a row left empty (one test for all rows, no branch a row)
    if rows.iter().fold(false, |a, &x| a | (x == W::ZERO)) {
        return None;
    }
    for (b, u) in unions.iter_mut().enumerate().take(k) {
        *u = rows[b * k..b * k + k].iter().fold(W::ZERO, |a, &x| a | x);
        twice |= once & *u;
        once |= *u;
    }
    if once != g.full {
        return None;
    }
    let one_band = once & !twice;
    // what each band's rows lose, gathered first (every test reads the unions, not the
    // rows), then cleared: no branch a box
    let (mut clear, mut single_cols) = ([W::ZERO; 8], [W::ZERO; 8]);
    for b in 0..k {
        for seg in segs::<K, W>(g) {
            let open = W::mask(done[b] & seg == W::ZERO);
            let inbox = unions[b] & seg;
            // columns of the stack only in this band: the box's other columns lose it
            let claimed = inbox & one_band;
            clear[b] |= open & W::mask(claimed != W::ZERO) & seg & !claimed;
            // the box's candidates in one column: the column's other bands lose it
            let single = W::mask(inbox & inbox.wrapping_sub(W::ONE) == W::ZERO);
            single_cols[b] |= open & single & inbox;
        }
    }
    for (b, chunk) in rows.chunks_mut(k).enumerate() {
        let mut lose = clear[b];
        for (o, &cols) in single_cols.iter().enumerate().take(k) {
            if o != b {
                lose |= cols;
            }
        }
        for x in chunk {
            and(x, !lose);
        }
    }
    Some(changed)
}

/// Places value `v` where it is first found alone in a row, a box or a column (which
/// marks `v` dirty again, so the others are found by the next scan). `None` on a
/// contradiction; else whether anything was placed.
fn hidden_singles<const K: usize, W: Word>(
    g: &Geo<W>,
    s: &mut [W],
    v: usize,
    dirty: &mut u64,
    lost: &mut Lost,
) -> Option<bool> {
    let k = side::<K, W>(g);
    let n = k * k;
    let (r, cell) = first_hidden::<K, W>(g, &s[v * n..v * n + n], &s[n * n..n * n + n])?;
    if cell == W::ZERO {
        return Some(false);
    }
    place_k::<K, false, W>(g, s, v, r, cell.trailing_zeros() as usize, dirty, lost).then_some(true)
}

/// [`hidden_singles`]' scan of one value's `n` row words beside the rows' placed cells:
/// the first single as `(row, cell bit)`, the bit 0 when there is none; `None` when a
/// row, a box or a column has no place left.
#[inline(always)]
fn first_hidden<const K: usize, W: Word>(
    g: &Geo<W>,
    rows: &[W],
    placed: &[W],
) -> Option<(usize, W)> {
    let k = side::<K, W>(g);
    let n = k * k;
    let (rows, placed) = (&rows[..n], &placed[..n]);
    // the rows with no place left, and those with one where v is not placed: flags over
    // all rows first (no branch a row)
    let (empty, single) = W::row_flags(rows, placed);
    if empty != 0 {
        return None;
    }
    if single != 0 {
        let r = single.trailing_zeros() as usize;
        return Some((r, rows[r]));
    }
    let Boxes {
        lone,
        once,
        twice,
        done,
    } = W::boxes(rows, placed, k, g.lo, g.hi, g.full);
    if let Some((b, lone)) = lone {
        let band = &rows[b * k..b * k + k];
        let seg = g.seg[lone.trailing_zeros() as usize / k];
        let i = first_meeting(band, seg)?;
        return Some((b * k + i, band[i] & seg));
    }
    if once != g.full {
        return None;
    }
    let cols = once & !twice & !done;
    if cols != W::ZERO {
        let bit = W::ONE << cols.trailing_zeros() as usize;
        let r = first_meeting(rows, bit)?;
        return Some((r, bit));
    }
    Some((0, W::ZERO))
}

/// The index of the first of `rows` (at most 64) that meets `mask`, without a branch a
/// row.
#[inline(always)]
fn first_meeting<W: Word>(rows: &[W], mask: W) -> Option<usize> {
    let meets = W::meets(rows, mask);
    (meets != 0).then(|| meets.trailing_zeros() as usize)
}

/// Hidden singles of value `w` in the row, column and box of the cell `(r, c)` it lost:
/// the only units of `w` that changed. Places the first found (which marks `w` dirty, so
/// the rest are found by its full scan). `None` on a contradiction.
fn local_singles<const K: usize, W: Word>(
    g: &Geo<W>,
    s: &mut [W],
    (w, r, c): (usize, usize, usize),
    dirty: &mut u64,
    lost: &mut Lost,
) -> Option<()> {
    if *dirty >> w & 1 == 1 {
        return Some(()); // a full scan of w is due
    }
    let k = side::<K, W>(g);
    let n = k * k;
    let rows = &s[w * n..w * n + n];
    let placed = &s[n * n..n * n + n];
    let mut hit = None;
    // the row
    let x = rows[r];
    if x == W::ZERO {
        return None;
    }
    if x & x.wrapping_sub(W::ONE) == W::ZERO && x & placed[r] == W::ZERO {
        hit = Some((r, x.trailing_zeros() as usize));
    }
    // the column
    if hit.is_none() {
        let col = W::meets(rows, W::ONE << c);
        if col == 0 {
            return None;
        }
        let i = col.trailing_zeros() as usize;
        if col & (col - 1) == 0 && !placed[i].bit(c) {
            hit = Some((i, c));
        }
    }
    // the box
    if hit.is_none() {
        let b0 = r / k * k;
        let seg = g.seg[c / k];
        let (mut once, mut twice) = (W::ZERO, W::ZERO);
        for &x in &rows[b0..b0 + k] {
            twice |= once & x & seg;
            once |= x & seg;
        }
        if once == W::ZERO {
            return None;
        }
        if twice == W::ZERO && once & once.wrapping_sub(W::ONE) == W::ZERO {
            let i = b0 + first_meeting(&rows[b0..b0 + k], once)?;
            if placed[i] & once == W::ZERO {
                hit = Some((i, once.trailing_zeros() as usize));
            }
        }
    }
    match hit {
        Some((i, col)) if !place_k::<K, false, W>(g, s, w, i, col, dirty, lost) => None,
        _ => Some(()),
    }
}

#[cfg(test)]
mod tests {
    //! Propagation reaches the full fixpoint of singles although it scans only the changed
    //! rows for naked singles and only the changed units of a value that lost one cell
    //! for hidden singles: checked against a scan of every cell and unit, on the
    //! 16×16 and 25×25 puzzles of tests/data/large.txt after chains of placements.

    use super::*;
    use crate::rows::{large_puzzles as puzzles, placed};

    /// Whether a single is left anywhere: an unplaced cell with one candidate, or a value
    /// with one place in a row, column or box where it is not placed.
    fn single_left<W: Word>(g: &Geo<W>, s: &[W]) -> Option<String> {
        let (n, k) = (g.n, g.k);
        let cand = |v: usize, r: usize, c: usize| s[v * n + r].bit(c);
        let placed = |r: usize, c: usize| s[n * n + r].bit(c);
        for r in 0..n {
            for c in (0..n).filter(|&c| !placed(r, c)) {
                if (0..n).filter(|&v| cand(v, r, c)).count() < 2 {
                    return Some(format!("cell ({r}, {c})"));
                }
            }
        }
        for v in 0..n {
            let units = (0..n).flat_map(|u| {
                let row: Vec<_> = (0..n).map(|c| (u, c)).collect();
                let col: Vec<_> = (0..n).map(|r| (r, u)).collect();
                let (r0, c0) = (u / k * k, u % k * k);
                let bx: Vec<_> = (0..n).map(|i| (r0 + i / k, c0 + i % k)).collect();
                [row, col, bx]
            });
            for unit in units {
                let places: Vec<_> = unit.iter().filter(|&&(r, c)| cand(v, r, c)).collect();
                if places.len() < 2 && !places.iter().any(|&&(r, c)| placed(r, c)) {
                    return Some(format!("value {v} in {unit:?}"));
                }
            }
        }
        None
    }

    #[test]
    fn propagation_leaves_no_single() {
        leaves_no_single::<u16>(4);
        leaves_no_single::<u64>(4);
        leaves_no_single::<u32>(5);
        leaves_no_single::<u64>(5);
    }

    /// The check of [`propagation_leaves_no_single`] with row words `W`, box side `k`.
    fn leaves_no_single<W: Word>(k: usize) {
        {
            let g = Geo::<W>::new(k);
            let n = g.n;
            for (p, givens) in puzzles(k).iter().enumerate() {
                for seed in 0..6u64 {
                    let (mut s, mut dirty) = placed(&g, givens);
                    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                    for step in 0.. {
                        let with_locked = step % 2 == 0;
                        if !propagate_with(&g, &mut s, &mut dirty, with_locked) {
                            break; // a wrong guess: nothing to check
                        }
                        if let Some(what) = single_left(&g, &s) {
                            panic!("puzzle {p} seed {seed} step {step}: a single left at {what}");
                        }
                        // place a pseudo-random candidate of a pseudo-random open cell
                        let open: Vec<_> = (0..n * n)
                            .filter(|&i| !s[n * n + i / n].bit(i % n))
                            .collect();
                        if open.is_empty() {
                            break;
                        }
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        let i = open[(x % open.len() as u64) as usize];
                        let (r, c) = (i / n, i % n);
                        let vs: Vec<_> = (0..n).filter(|&v| s[v * n + r].bit(c)).collect();
                        let v = vs[(x >> 32) as usize % vs.len()];
                        assert!(place(&g, &mut s, v, r, c, &mut dirty));
                    }
                }
            }
        }
    }
}
