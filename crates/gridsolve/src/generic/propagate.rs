//! Constraint propagation for the generic engine on one search state: naked singles,
//! hidden singles and, for sudoku boards, locked candidates (pointing and claiming), run
//! to a fixpoint. A state is `cells` candidate bit sets followed by a bit set of the cells
//! already placed (their value removed from every peer).

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
    /// Cells that became single (a cell may appear more than once, or be placed since).
    pub queue: Vec<u32>,
    segs: Vec<u64>,
}

/// Places value bit `v` in cell `c`: removes it from every peer, queueing the peers left
/// with one candidate. False on a peer left without candidates.
#[inline]
pub(crate) fn place(
    topo: &Topology,
    state: &mut [u64],
    c: usize,
    v: u64,
    queue: &mut Vec<u32>,
) -> bool {
    state[c] = v;
    state[topo.cells + c / 64] |= 1 << (c % 64);
    for &p in topo.peers_of(c) {
        let before = state[p as usize];
        if before & v != 0 {
            let after = before & !v;
            state[p as usize] = after;
            if after & after.wrapping_sub(1) == 0 {
                if after == 0 {
                    return false;
                }
                queue.push(p);
            }
        }
    }
    true
}

/// Runs every rule to a fixpoint. False on a contradiction (the queue is then emptied).
pub(crate) fn propagate(topo: &Topology, state: &mut [u64], scratch: &mut Scratch) -> bool {
    let ok = fixpoint(topo, state, scratch);
    if !ok {
        scratch.queue.clear();
    }
    ok
}

fn fixpoint(topo: &Topology, state: &mut [u64], scratch: &mut Scratch) -> bool {
    let Scratch { queue, segs } = scratch;
    loop {
        if !naked_singles(topo, state, queue) {
            return false;
        }
        match hidden_singles(topo, state, queue) {
            None => return false,
            Some(true) => continue,
            Some(false) => {}
        }
        if topo.k < 2 {
            return true;
        }
        match locked_candidates(topo, state, segs, queue) {
            None => return false,
            Some(true) => continue,
            Some(false) => return true,
        }
    }
}

/// Places the queued cells that are still unplaced (each holds one candidate, or none).
/// False on a contradiction.
fn naked_singles(topo: &Topology, state: &mut [u64], queue: &mut Vec<u32>) -> bool {
    while let Some(c) = queue.pop() {
        let c = c as usize;
        if is_placed(topo, state, c) {
            continue;
        }
        let m = state[c];
        if m == 0 || !place(topo, state, c, m, queue) {
            return false;
        }
    }
    true
}

/// Places every value that has one cell left in a unit. `None` on a contradiction (a
/// value with no cell in a unit, or a cell that is the only place of two values).
fn hidden_singles(topo: &Topology, state: &mut [u64], queue: &mut Vec<u32>) -> Option<bool> {
    let mut progress = false;
    for u in 0..topo.unit_count() {
        let cells = topo.unit(u);
        let (mut once, mut twice) = (0u64, 0u64);
        for &c in cells {
            let m = state[c as usize];
            twice |= once & m;
            once |= m;
        }
        if once != topo.full {
            return None;
        }
        let exactly = once & !twice;
        if exactly == 0 {
            continue;
        }
        for &c in cells {
            let c = c as usize;
            let s = state[c] & exactly;
            if s != 0 && !is_placed(topo, state, c) {
                if s & (s - 1) != 0 || !place(topo, state, c, s, queue) {
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
    queue: &mut Vec<u32>,
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
                            if !remove(state, c, pointing, queue) {
                                return None;
                            }
                        }
                        progress = true;
                    }
                    if claiming & box_rest != 0 {
                        for l in (band * k..band * k + k).filter(|&l| l != line) {
                            for j in 0..k {
                                let c = at(l, bi * k + j);
                                if !remove(state, c, claiming, queue) {
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
fn remove(state: &mut [u64], c: usize, gone: u64, queue: &mut Vec<u32>) -> bool {
    let before = state[c];
    let after = before & !gone;
    if after != before {
        state[c] = after;
        if after & after.wrapping_sub(1) == 0 {
            if after == 0 {
                return false;
            }
            queue.push(c as u32);
        }
    }
    true
}
