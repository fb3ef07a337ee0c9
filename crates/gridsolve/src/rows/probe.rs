//! Lookahead for the row-mask engine: failed-literal probing and branch choice by
//! propagation. A *choice* is two placements of which one holds in every solution: the
//! two candidates of a cell with two, or the two places of a value with two left in a row
//! or a column; the first [`MAX_CHOICES`] of them are probed (cells row by row, then per
//! value its rows and its columns). Each placement of each choice is tried on a copy of
//! the propagated state with naked and hidden singles (a probe; locked candidates there
//! cost more than the guesses they save): a refuted placement is removed, so the other
//! one follows; when both propagate, every candidate removed in both copies is removed
//! from the state (one of them holds). The branch is the choice whose placements remove
//! the most candidates (the product of the two counts, as lookahead SAT solvers score),
//! first the placement that removes more. When nothing was deduced in the pass, that
//! placement's probe is kept for the branch. One pass a node. Every rule here is a
//! deduction, so counts stay exact.

use super::Word;
use super::state::{Geo, in_exactly_two, place, propagate, propagate_singles};
use crate::control::Control;

/// One placement: value, row, column.
pub(crate) type Lit = (usize, usize, usize);

/// Choices probed at a node at most (measured on minimal 16×16 and 25×25 sudokus with
/// 300 givens: 16 choices need more guesses, 50 more probes).
const MAX_CHOICES: usize = 35;

/// Scratch states of the lookahead, kept across nodes and puzzles.
#[derive(Default)]
pub(crate) struct Probe<W: Word> {
    a: Vec<W>,
    b: Vec<W>,
    /// The propagated state of the branch's first alternative (with [`Outcome::Branch`]).
    pub best: Vec<W>,
    choices: Vec<(Lit, Lit)>,
}

/// What the lookahead found at a node.
pub(crate) enum Outcome {
    /// The state has no solution (or the search must stop).
    Dead,
    /// Branch on this placement; its propagated state is in [`Probe::best`].
    Branch(Lit),
    /// Branch on this placement, not yet made.
    Place(Lit),
    /// No binary choice: branch by another rule, or the state is solved.
    None,
}

impl<W: Word> Probe<W> {
    /// Probes the choices of `s` (propagated), removing what it refutes, and picks the
    /// branch. Each probe counts as a node of `ctl`.
    pub(crate) fn run(&mut self, g: &Geo<W>, s: &mut [W], ctl: &mut Control<'_>) -> Outcome {
        let words = g.words();
        for v in [&mut self.a, &mut self.b, &mut self.best] {
            v.resize(words, W::ZERO);
        }
        loop {
            collect(g, s, &mut self.choices);
            self.choices.truncate(MAX_CHOICES);
            let mut best: Option<(u64, Lit)> = None;
            let mut changed = false;
            for &(x, y) in &self.choices {
                if !open(g, s, x) || !open(g, s, y) {
                    changed = true; // decided by an earlier deduction of this pass
                    continue;
                }
                if ctl.node() || ctl.node() {
                    // the two probes count as nodes; the search must stop
                    return Outcome::Dead;
                }
                let forced = match (
                    try_place(g, s, &mut self.a, x),
                    try_place(g, s, &mut self.b, y),
                ) {
                    (false, false) => return Outcome::Dead,
                    (false, true) => Some(y),
                    (true, false) => Some(x),
                    (true, true) => None,
                };
                if let Some((v, r, c)) = forced {
                    let mut dirty = 0;
                    if !place(g, s, v, r, c, &mut dirty) || !propagate(g, s, &mut dirty) {
                        return Outcome::Dead;
                    }
                    changed = true;
                    continue;
                }
                let (ra, rb, both) = reductions(g, s, &self.a, &self.b);
                if both {
                    let mut dirty = intersect(g, s, &self.a, &self.b);
                    if !propagate(g, s, &mut dirty) {
                        return Outcome::Dead;
                    }
                    changed = true;
                    continue;
                }
                let score = (ra + 1) * (rb + 1);
                if best.is_none_or(|(b, _)| score > b) {
                    let first = if ra >= rb {
                        std::mem::swap(&mut self.best, &mut self.a);
                        x
                    } else {
                        std::mem::swap(&mut self.best, &mut self.b);
                        y
                    };
                    best = Some((score, first));
                }
            }
            match best {
                Some((_, lit)) if !changed => return Outcome::Branch(lit),
                Some((_, lit)) if open(g, s, lit) => return Outcome::Place(lit),
                _ if !changed => return Outcome::None,
                _ => {} // deductions without a branch left: another pass
            }
        }
    }
}

/// Whether `(v, r, c)` is still an open placement of `s`: possible and the cell not placed.
fn open<W: Word>(g: &Geo<W>, s: &[W], (v, r, c): Lit) -> bool {
    let n = g.n;
    s[v * n + r].bit(c) && !s[n * n + r].bit(c)
}

/// Copies `s` into `into`, places `lit` and propagates singles; false on a contradiction.
fn try_place<W: Word>(g: &Geo<W>, s: &[W], into: &mut [W], (v, r, c): Lit) -> bool {
    into.copy_from_slice(s);
    let mut dirty = 0;
    place(g, into, v, r, c, &mut dirty) && propagate_singles(g, into, &mut dirty)
}

/// Candidates of `s` removed in `a`, in `b` (copies of `s` changed by placements only,
/// which count what they remove), and whether some are removed in both.
fn reductions<W: Word>(g: &Geo<W>, s: &[W], a: &[W], b: &[W]) -> (u64, u64, bool) {
    let m = g.n * g.n;
    let mut both = W::ZERO;
    for ((&x, &ya), &yb) in s[..m].iter().zip(&a[..m]).zip(&b[..m]) {
        both |= x & !(ya | yb);
    }
    let at = g.removed();
    let (ra, rb) = (
        a[at].wrapping_sub(s[at]).to_u64(),
        b[at].wrapping_sub(s[at]).to_u64(),
    );
    debug_assert_eq!(
        (ra, rb),
        s[..m]
            .iter()
            .zip(&a[..m])
            .zip(&b[..m])
            .fold((0, 0), |(p, q), ((&x, &ya), &yb)| {
                (
                    p + u64::from((x & !ya).count_ones()),
                    q + u64::from((x & !yb).count_ones()),
                )
            }),
        "the placements' count of removed candidates"
    );
    (ra, rb, both != W::ZERO)
}

/// Removes from `s` the candidates removed in both `a` and `b`; returns the values changed.
fn intersect<W: Word>(g: &Geo<W>, s: &mut [W], a: &[W], b: &[W]) -> u64 {
    let n = g.n;
    let (mut dirty, mut rows) = (0u64, 0u64);
    for (i, x) in s[..n * n].iter_mut().enumerate() {
        let keep = a[i] | b[i];
        if *x & !keep != W::ZERO {
            *x &= keep;
            dirty |= 1 << (i / n);
            rows |= 1 << (i % n);
        }
    }
    s[g.changed()] |= W::from_u64(rows);
    dirty
}

/// The choices of `s`: cells with two candidates (row by row), then per value its rows
/// with two places left and its columns with two.
fn collect<W: Word>(g: &Geo<W>, s: &[W], out: &mut Vec<(Lit, Lit)>) {
    out.clear();
    let n = g.n;
    let placed = &s[n * n..];
    for r in 0..n {
        let open = g.full & !placed[r];
        if open == W::ZERO {
            continue;
        }
        let mut pairs = in_exactly_two((0..n).map(|v| s[v * n + r])) & open;
        while pairs != W::ZERO {
            let c = pairs.trailing_zeros() as usize;
            pairs &= !(W::ONE << c);
            // the cell's two values, as a bit set (no search loop)
            let vs = (0..n).fold(0u64, |m, v| m | s[v * n + r].bit_u64(c) << v);
            let (a, b) = two_bits(vs);
            out.push(((a, r, c), (b, r, c)));
        }
    }
    for v in 0..n {
        let rows = &s[v * n..(v + 1) * n];
        // the rows with two places, as flags over all rows (no branch a row)
        let mut pairs = rows.iter().enumerate().fold(0u64, |m, (r, &x)| {
            let rest = x & x.wrapping_sub(W::ONE);
            let two = (rest != W::ZERO) & (rest & rest.wrapping_sub(W::ONE) == W::ZERO);
            m | u64::from(two) << r
        });
        while pairs != 0 {
            let r = pairs.trailing_zeros() as usize;
            pairs &= pairs - 1;
            let x = rows[r];
            let (c1, c2) = (x.trailing_zeros(), W::BITS - 1 - x.leading_zeros());
            out.push(((v, r, c1 as usize), (v, r, c2 as usize)));
        }
        let mut two = in_exactly_two(rows.iter().copied());
        while two != W::ZERO {
            let c = two.trailing_zeros() as usize;
            two &= !(W::ONE << c);
            let rs = W::meets(rows, W::ONE << c);
            let (r1, r2) = two_bits(rs);
            out.push(((v, r1, c), (v, r2, c)));
        }
    }
}

/// The indices of the two bits of `x` (which has exactly two), the lower first.
fn two_bits(x: u64) -> (usize, usize) {
    debug_assert_eq!(x.count_ones(), 2);
    (x.trailing_zeros() as usize, 63 - x.leading_zeros() as usize)
}

#[cfg(test)]
mod tests {
    //! The lookahead's deductions on the root states of minimal 16×16 sudokus: it keeps
    //! the solution, removes every refuted placement and every candidate that both
    //! placements of a choice remove, and deduces something where singles and locked
    //! candidates are stuck.

    use super::*;
    use crate::rows::{large_puzzles, placed};
    use crate::{Limit, Shape, Solver, Stop};

    /// The propagated root state of `givens`.
    fn root(g: &Geo<u16>, givens: &[u16]) -> Vec<u16> {
        let (mut s, mut dirty) = placed(g, givens);
        assert!(propagate(g, &mut s, &mut dirty));
        s
    }

    fn count(g: &Geo<u16>, s: &[u16]) -> u32 {
        s[..g.n * g.n].iter().map(|x| x.count_ones()).sum()
    }

    #[test]
    fn lookahead_keeps_the_solution_and_removes_what_it_refutes() {
        let g = Geo::<u16>::new(4);
        let n = g.n;
        let mut solver = Solver::new(Shape::sudoku(16).unwrap());
        let mut deduced = 0;
        for p in large_puzzles(4) {
            let answer = solver.solve(&p, Limit::first()).unwrap();
            let solution = answer.solutions[0].flat();
            let before = root(&g, &p);
            let mut choices = Vec::new();
            collect(&g, &before, &mut choices);
            choices.truncate(MAX_CHOICES);
            let mut after = before.clone();
            let mut ctl = Control::new(Limit::first(), Stop::never(), 1000);
            let outcome = Probe::default().run(&g, &mut after, &mut ctl);
            assert!(!matches!(outcome, Outcome::Dead));
            for (i, &v) in solution.iter().enumerate() {
                let (v, r, c) = (usize::from(v) - 1, i / n, i % n);
                assert_eq!(
                    after[v * n + r] >> c & 1,
                    1,
                    "the solution's {v} at ({r}, {c})"
                );
            }
            let mut scratch = [vec![0; g.words()], vec![0; g.words()]];
            for (x, y) in choices {
                let [a, b] = &mut scratch;
                let (ok_a, ok_b) = (try_place(&g, &before, a, x), try_place(&g, &before, b, y));
                for (ok, lit) in [(ok_a, x), (ok_b, y)] {
                    assert!(
                        ok || !open(&g, &after, lit),
                        "refuted {lit:?} is still open"
                    );
                }
                if ok_a && ok_b {
                    for i in 0..n * n {
                        let gone = before[i] & !(a[i] | b[i]);
                        assert_eq!(after[i] & gone, 0, "removed by both of {x:?}, {y:?}");
                    }
                }
            }
            deduced += u32::from(count(&g, &after) < count(&g, &before));
        }
        assert!(deduced > 0, "the lookahead deduced nothing on any puzzle");
    }
}
