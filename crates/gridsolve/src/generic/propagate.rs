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

/// Places value bit `v` in cell `c`: removes it from every peer. False on a peer left
/// without candidates.
#[inline]
pub(crate) fn place(topo: &Topology, state: &mut [u64], c: usize, v: u64) -> bool {
    state[c] = v;
    state[topo.cells + c / 64] |= 1 << (c % 64);
    for &p in topo.peers_of(c) {
        let p = p as usize;
        state[p] &= !v;
        if state[p] == 0 {
            return false;
        }
    }
    true
}

/// Runs every rule to a fixpoint. False on a contradiction.
pub(crate) fn propagate(topo: &Topology, state: &mut [u64], segs: &mut Vec<u64>) -> bool {
    loop {
        match naked_singles(topo, state) {
            None => return false,
            Some(true) => continue,
            Some(false) => {}
        }
        match hidden_singles(topo, state) {
            None => return false,
            Some(true) => continue,
            Some(false) => {}
        }
        if topo.k < 2 {
            return true;
        }
        match locked_candidates(topo, state, segs) {
            None => return false,
            Some(true) => continue,
            Some(false) => return true,
        }
    }
}

/// Places every unplaced cell with one candidate. `None` on a contradiction, else whether
/// anything was placed.
fn naked_singles(topo: &Topology, state: &mut [u64]) -> Option<bool> {
    let mut progress = false;
    for c in 0..topo.cells {
        let m = state[c];
        if m & (m.wrapping_sub(1)) == 0 && !is_placed(topo, state, c) {
            if m == 0 || !place(topo, state, c, m) {
                return None;
            }
            progress = true;
        }
    }
    Some(progress)
}

/// Places every value that has one cell left in a unit. `None` on a contradiction (a
/// value with no cell in a unit, or a cell that is the only place of two values).
fn hidden_singles(topo: &Topology, state: &mut [u64]) -> Option<bool> {
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
                if s & (s - 1) != 0 || !place(topo, state, c, s) {
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
fn locked_candidates(topo: &Topology, state: &mut [u64], segs: &mut Vec<u64>) -> Option<bool> {
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
                            state[c] &= !pointing;
                            if state[c] == 0 {
                                return None;
                            }
                        }
                        progress = true;
                    }
                    if claiming & box_rest != 0 {
                        for l in (band * k..band * k + k).filter(|&l| l != line) {
                            for j in 0..k {
                                let c = at(l, bi * k + j);
                                state[c] &= !claiming;
                                if state[c] == 0 {
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
