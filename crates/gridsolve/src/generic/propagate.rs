//! Constraint propagation for the generic engine on one search state: naked singles
//! (from a queue of the cells left with one candidate), hidden singles (bit-parallel
//! once/twice counts over the units marked as changed) and, for sudoku boards, locked
//! candidates (pointing and claiming), run to a fixpoint. A state is `cells` candidate
//! bit sets followed by a bit set of the cells already placed (their value removed from
//! every peer).

use super::topology::Topology;

/// Whether cell `c` is placed in `state`.
#[inline]
pub(crate) fn is_placed(topo: &Topology, state: &[u64], c: usize) -> bool {
    state[topo.cells + c / 64] >> (c % 64) & 1 == 1
}

/// Working memory of propagation, kept across nodes: the cells left with one candidate
/// and not yet placed (the naked singles to place), and the segment unions of locked
/// candidates.
#[derive(Default)]
pub(crate) struct Scratch {
    /// Pending work.
    pub work: Work,
    segs: Vec<u64>,
}

/// What changed since the last fixpoint: cells left single, and units with a changed cell.
#[derive(Default)]
pub(crate) struct Work {
    /// Cells that became single (a cell may appear more than once, or be placed since).
    pub queue: Vec<u32>,
    /// Bit set of the units to scan for hidden singles.
    dirty: Vec<u64>,
}

impl Work {
    /// Marks the units of cell `c` for a hidden-single scan.
    #[inline]
    pub(crate) fn touch(&mut self, topo: &Topology, c: usize) {
        for &u in &topo.cell_units[c] {
            self.dirty[u as usize / 64] |= 1 << (u % 64);
        }
    }

    /// Marks every unit (and sizes the set for `topo`).
    pub(crate) fn touch_all(&mut self, topo: &Topology) {
        let units = topo.unit_count();
        self.dirty.clear();
        self.dirty.resize(units.div_ceil(64), u64::MAX);
        if !units.is_multiple_of(64) {
            self.dirty[units / 64] = (1 << (units % 64)) - 1;
        }
    }

    /// Forgets all pending work.
    pub(crate) fn clear(&mut self) {
        self.queue.clear();
        self.dirty.fill(0);
    }

    /// Takes one marked unit.
    #[inline]
    fn next_dirty(&mut self) -> Option<usize> {
        let i = self.dirty.iter().position(|&w| w != 0)?;
        let w = self.dirty[i];
        self.dirty[i] = w & (w - 1);
        Some(64 * i + w.trailing_zeros() as usize)
    }
}

/// Places value bit `v` in cell `c`: removes it from every peer, queueing the peers left
/// with one candidate. False on a peer left without candidates.
#[inline]
pub(crate) fn place(topo: &Topology, state: &mut [u64], c: usize, v: u64, work: &mut Work) -> bool {
    state[c] = v;
    state[topo.cells + c / 64] |= 1 << (c % 64);
    work.touch(topo, c);
    for &p in topo.peers_of(c) {
        let before = state[p as usize];
        if before & v != 0 {
            let after = before & !v;
            state[p as usize] = after;
            work.touch(topo, p as usize);
            if after & after.wrapping_sub(1) == 0 {
                if after == 0 {
                    return false;
                }
                work.queue.push(p);
            }
        }
    }
    true
}

/// Runs every rule to a fixpoint. False on a contradiction (the queue is then emptied).
pub(crate) fn propagate(topo: &Topology, state: &mut [u64], scratch: &mut Scratch) -> bool {
    let ok = fixpoint(topo, state, scratch);
    if !ok {
        scratch.work.clear();
    }
    ok
}

fn fixpoint(topo: &Topology, state: &mut [u64], scratch: &mut Scratch) -> bool {
    let Scratch { work, segs } = scratch;
    loop {
        if !naked_singles(topo, state, work) {
            return false;
        }
        match hidden_singles(topo, state, work) {
            None => return false,
            Some(true) => continue,
            Some(false) => {}
        }
        if topo.k < 2 {
            return true;
        }
        match locked_candidates(topo, state, segs, work) {
            None => return false,
            Some(true) => continue,
            Some(false) => return true,
        }
    }
}

/// Places the queued cells that are still unplaced (each holds one candidate, or none).
/// False on a contradiction.
fn naked_singles(topo: &Topology, state: &mut [u64], work: &mut Work) -> bool {
    while let Some(c) = work.queue.pop() {
        let c = c as usize;
        if is_placed(topo, state, c) {
            continue;
        }
        let m = state[c];
        if m == 0 || !place(topo, state, c, m, work) {
            return false;
        }
    }
    true
}

/// Places every value that has one cell left in a unit. `None` on a contradiction (a
/// value with no cell in a unit, or a cell that is the only place of two values).
fn hidden_singles(topo: &Topology, state: &mut [u64], work: &mut Work) -> Option<bool> {
    let mut progress = false;
    while let Some(u) = work.next_dirty() {
        let cells = topo.unit(u);
        let (mut once, mut twice, mut single) = (0u64, 0u64, 0u64);
        for &c in cells {
            let m = state[c as usize];
            twice |= once & m;
            once |= m;
            // placed cells and queued naked singles: their values need no hidden single
            if m & m.wrapping_sub(1) == 0 {
                single |= m;
            }
        }
        if once != topo.full {
            return None;
        }
        let exactly = once & !twice & !single;
        if exactly == 0 {
            continue;
        }
        for &c in cells {
            let c = c as usize;
            let s = state[c] & exactly;
            if s != 0 && !is_placed(topo, state, c) {
                if s & (s - 1) != 0
                    || !place(topo, state, c, s, work)
                    || !naked_singles(topo, state, work)
                {
                    return None;
                }
                progress = true;
            }
        }
    }
    Some(progress)
}

/// Pointing and claiming on every box–line intersection of every sudoku board: a value
/// whose candidates in a box lie on one line is removed from the rest of that line, and
/// a value whose candidates on a line lie in one box is removed from the rest of the box.
/// The segment unions are computed once per orientation and go stale as candidates are
/// removed; stale unions are supersets, so every removal stays sound. `None` on a
/// contradiction, else whether any candidate was removed.
fn locked_candidates(
    topo: &Topology,
    state: &mut [u64],
    segs: &mut Vec<u64>,
    work: &mut Work,
) -> Option<bool> {
    let (n, k) = (topo.n, topo.k);
    let mut progress = false;
    for b in 0..topo.boards {
        let base = b * n * n;
        for transpose in [false, true] {
            // cell (line, i) of this orientation
            let at = |line: usize, i: usize| {
                if transpose {
                    base + i * n + line
                } else {
                    base + line * n + i
                }
            };
            segs.clear();
            // segs[line * k + bi]: union of the k cells of `line` inside box column bi
            for line in 0..n {
                for bi in 0..k {
                    let u = (0..k).fold(0, |acc, j| acc | state[at(line, bi * k + j)]);
                    segs.push(u);
                }
            }
            for line in 0..n {
                let band = line / k;
                for bi in 0..k {
                    let seg = segs[line * k + bi];
                    let line_rest = (0..k)
                        .filter(|&o| o != bi)
                        .fold(0, |acc, o| acc | segs[line * k + o]);
                    let box_rest = (band * k..band * k + k)
                        .filter(|&l| l != line)
                        .fold(0, |acc, l| acc | segs[l * k + bi]);
                    let pointing = seg & !box_rest;
                    let claiming = seg & !line_rest;
                    if pointing & line_rest != 0 {
                        for i in (0..n).filter(|i| i / k != bi) {
                            let c = at(line, i);
                            if !remove(topo, state, c, pointing, work) {
                                return None;
                            }
                        }
                        progress = true;
                    }
                    if claiming & box_rest != 0 {
                        for l in (band * k..band * k + k).filter(|&l| l != line) {
                            for j in 0..k {
                                let c = at(l, bi * k + j);
                                if !remove(topo, state, c, claiming, work) {
                                    return None;
                                }
                            }
                        }
                        progress = true;
                    }
                }
            }
        }
    }
    Some(progress)
}

/// Removes the values `gone` from cell `c`, queueing it if one value is left. False if
/// none is left.
#[inline]
fn remove(topo: &Topology, state: &mut [u64], c: usize, gone: u64, work: &mut Work) -> bool {
    let before = state[c];
    let after = before & !gone;
    if after != before {
        state[c] = after;
        work.touch(topo, c);
        if after & after.wrapping_sub(1) == 0 {
            if after == 0 {
                return false;
            }
            work.queue.push(c as u32);
        }
    }
    true
}
