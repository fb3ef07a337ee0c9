//! Puzzles to CNF: the encodings of docs/design.md, the variable numbering, and the way back.
//!
//! Variable `var(b, r, c, v) = b·n³ + r·n² + c·n + v + 1` (DIMACS, all indices 0-based)
//! says "board b, row r, column c holds value v+1". The four encodings add up:
//! `minimal` (each cell ≥ 1 value; each value ≤ 1 per row, column, box), `efficient`
//! (+ each cell ≤ 1 value), `extended` (+ each value ≥ 1 per group), and `pruned` (the
//! extended clauses with the givens folded in: a clause a given satisfies is dropped, a
//! literal a given falsifies is removed, Kwon & Jain's optimised encoding). Constraints are
//! generated per group, so a pair of cells that a row and a box share is excluded twice:
//! the counts of docs/design.md depend on it. Givens are unit clauses except in `pruned`.
//! `augmented` is `extended` plus redundant clauses on the row and column triads of each
//! box (see [`augmented`]).
//! Encoders write into a [`ClauseSink`], so the caller chooses memory or a stream.

pub mod amo;
pub mod augmented;
pub mod decode;
pub mod header;
pub mod watched;

use std::fmt;

pub use amo::{Amo, VarAllocator, at_most_one};

use crate::cnf::{ClauseCounter, ClauseSink, Lit, Var};
use crate::puzzle::{Kind, Puzzle, groups};

/// An encoding of the puzzle rules (docs/design.md's table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Encoding {
    /// Cells ≥ 1 value; each value ≤ 1 per group.
    Minimal,
    /// Minimal plus cells ≤ 1 value.
    Efficient,
    /// Efficient plus each value ≥ 1 per group.
    #[default]
    Extended,
    /// Extended with the givens folded in.
    Pruned,
    /// Extended plus the row and column triads of each box (tdoku's best MiniSat encoding).
    Augmented,
}

impl Encoding {
    /// All encodings, in order of size.
    pub const ALL: [Encoding; 5] = [
        Encoding::Minimal,
        Encoding::Efficient,
        Encoding::Extended,
        Encoding::Pruned,
        Encoding::Augmented,
    ];

    /// The name used on the command line and in headers.
    pub fn as_str(self) -> &'static str {
        match self {
            Encoding::Minimal => "minimal",
            Encoding::Efficient => "efficient",
            Encoding::Extended => "extended",
            Encoding::Pruned => "pruned",
            Encoding::Augmented => "augmented",
        }
    }

    /// Parses a name.
    pub fn parse(s: &str) -> Option<Encoding> {
        Encoding::ALL.into_iter().find(|e| e.as_str() == s)
    }

    fn cell_at_most_one(self) -> bool {
        self != Encoding::Minimal
    }

    fn group_at_least_one(self) -> bool {
        matches!(
            self,
            Encoding::Extended | Encoding::Pruned | Encoding::Augmented
        )
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An encoding and its at-most-one sub-encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct EncodeOptions {
    /// Which clauses.
    pub encoding: Encoding,
    /// How at-most-one constraints are written.
    pub amo: Amo,
}

/// The grid variable for board `b`, row `r`, column `c`, value `v + 1` on side `n`.
#[inline]
pub fn grid_var(n: usize, b: usize, r: usize, c: usize, v: usize) -> Var {
    Var::new((b * n * n * n + r * n * n + c * n + v) as u32)
}

/// The number of grid variables of a puzzle (boards · n³).
pub fn grid_vars(puzzle: &Puzzle) -> u32 {
    let n = puzzle.side() as u64;
    (puzzle.boards().len() as u64 * n * n * n) as u32
}

/// Writes the clauses of `puzzle` under `opts` into `sink`; returns the variable count
/// (grid variables, then auxiliary ones).
pub fn encode(puzzle: &Puzzle, opts: EncodeOptions, sink: &mut dyn ClauseSink) -> u32 {
    if opts.encoding == Encoding::Pruned {
        let mut filter = GivenFilter::new(puzzle, sink);
        encode_rules(puzzle, opts, &mut filter)
    } else {
        let vars = encode_rules(puzzle, opts, sink);
        for l in given_lits(puzzle) {
            sink.add_clause(&[l]);
        }
        vars
    }
}

/// Variable and clause counts of an encoding, from a counting pass (nothing kept).
pub fn count(puzzle: &Puzzle, opts: EncodeOptions) -> (u32, u64) {
    let mut counter = ClauseCounter::default();
    let vars = encode(puzzle, opts, &mut counter);
    (vars, counter.clauses)
}

/// One grid literal a given: the encodings' unit clauses, and the assumptions of the
/// incremental mode (the same formula, the givens taken for one call).
pub fn given_lits(puzzle: &Puzzle) -> Vec<Lit> {
    let n = puzzle.side();
    let mut lits = Vec::with_capacity(puzzle.givens());
    for (b, board) in puzzle.boards().iter().enumerate() {
        for r in 0..n {
            for c in 0..n {
                let v = board.get(r, c) as usize;
                if v != 0 {
                    lits.push(grid_var(n, b, r, c, v - 1).pos());
                }
            }
        }
    }
    lits
}

/// The clauses and literals of one at-most-one over `m` literals under `amo`.
fn amo_size(m: usize, amo: Amo) -> ClauseCounter {
    let mut count = ClauseCounter::default();
    let lits: Vec<Lit> = (0..m as u32).map(|v| Var::new(v).pos()).collect();
    at_most_one(
        &mut count,
        &lits,
        amo,
        &mut VarAllocator::starting_at(m as u32),
    );
    count
}

/// An upper bound on the size of an encoding, `(clauses, literals)`, computed without
/// encoding: the constraints of one group size are counted once and multiplied. Exact
/// for every encoding but `pruned` (which folds givens away). It lets a caller refuse
/// up front an encoding too big for memory (a blank 200×200 Latin square under
/// `extended` has 2.4·10⁹ clauses), rather than abort when an allocation fails.
pub fn size_bound(puzzle: &Puzzle, opts: EncodeOptions) -> (u64, u64) {
    let n = puzzle.side();
    let n64 = n as u64;
    let boards = puzzle.boards().len() as u64;
    // One at-most-one over n literals (every group, and every cell, has n).
    let amo = amo_size(n, opts.amo);
    let groups = groups(n, puzzle.box_size()).len() as u64;
    let cells = n64 * n64;
    let cell_amo = u64::from(opts.encoding.cell_at_most_one());
    let group_alo = u64::from(opts.encoding.group_at_least_one());
    let mut clauses =
        boards * (cells * (1 + cell_amo * amo.clauses) + groups * n64 * (amo.clauses + group_alo));
    let mut literals = boards
        * (cells * (n64 + cell_amo * amo.lits) + groups * n64 * (amo.lits + group_alo * n64));
    if opts.encoding == Encoding::Augmented
        && let Some(k) = puzzle.box_size()
    {
        // Per board (see augmented.rs): 2·n·k·n triads, each defined by k binaries and
        // one clause of k + 1 literals; 4·n² exactly-ones over k triads.
        let k64 = k as u64;
        let amo_k = amo_size(k, opts.amo);
        let triads = 2 * n64 * k64 * n64;
        let exactly_ones = 4 * cells;
        clauses += boards * (triads * (k64 + 1) + exactly_ones * (1 + amo_k.clauses));
        literals += boards * (triads * (3 * k64 + 1) + exactly_ones * (k64 + amo_k.lits));
    }
    if puzzle.kind() == Kind::Pair {
        clauses += cells * n64;
        literals += 2 * cells * n64;
    }
    let givens = puzzle.givens() as u64;
    (clauses + givens, literals + givens)
}

/// The rules alone (no givens).
fn encode_rules(puzzle: &Puzzle, opts: EncodeOptions, sink: &mut dyn ClauseSink) -> u32 {
    let n = puzzle.side();
    let mut vars = VarAllocator::starting_at(grid_vars(puzzle));
    let groups = groups(n, puzzle.box_size());
    let mut lits: Vec<Lit> = Vec::with_capacity(n);
    for b in 0..puzzle.boards().len() {
        for r in 0..n {
            for c in 0..n {
                if sink.stopped() {
                    return vars.num_vars();
                }
                lits.clear();
                lits.extend((0..n).map(|v| grid_var(n, b, r, c, v).pos()));
                sink.add_clause(&lits);
                if opts.encoding.cell_at_most_one() {
                    at_most_one(sink, &lits, opts.amo, &mut vars);
                }
            }
        }
        for (_, cells) in &groups {
            for v in 0..n {
                if sink.stopped() {
                    return vars.num_vars();
                }
                lits.clear();
                lits.extend(cells.iter().map(|&(r, c)| grid_var(n, b, r, c, v).pos()));
                at_most_one(sink, &lits, opts.amo, &mut vars);
                if opts.encoding.group_at_least_one() {
                    sink.add_clause(&lits);
                }
            }
        }
    }
    if opts.encoding == Encoding::Augmented
        && let Some(k) = puzzle.box_size()
    {
        for b in 0..puzzle.boards().len() {
            augmented::add_triads(sink, n, k, b, opts.amo, &mut vars);
        }
    }
    if puzzle.kind() == Kind::Pair {
        for r in 0..n {
            if sink.stopped() {
                return vars.num_vars();
            }
            for c in 0..n {
                for v in 0..n {
                    sink.add_clause(&[
                        !grid_var(n, 0, r, c, v).pos(),
                        !grid_var(n, 1, r, c, v).pos(),
                    ]);
                }
            }
        }
    }
    vars.num_vars()
}

/// Folds the givens into clauses on their way to the sink (the `pruned` encoding): the
/// grid variables that the givens fix are known, so a clause with a true literal is
/// dropped and false literals are removed. Auxiliary variables pass through unchanged.
struct GivenFilter<'a> {
    /// Per grid variable: `Some(value)` if the givens fix it.
    fixed: Vec<Option<bool>>,
    /// Where the surviving clauses go.
    inner: &'a mut dyn ClauseSink,
    /// The clause being rebuilt.
    buf: Vec<Lit>,
}

impl<'a> GivenFilter<'a> {
    fn new(puzzle: &Puzzle, inner: &'a mut dyn ClauseSink) -> Self {
        let n = puzzle.side();
        let mut fixed = vec![None; grid_vars(puzzle) as usize];
        let groups = groups(n, puzzle.box_size());
        let boards = puzzle.boards().len();
        for (b, board) in puzzle.boards().iter().enumerate() {
            for r in 0..n {
                for c in 0..n {
                    let given = board.get(r, c) as usize;
                    if given == 0 {
                        continue;
                    }
                    let v = given - 1;
                    // Other values of this cell.
                    for w in 0..n {
                        fixed[grid_var(n, b, r, c, w).index()] = Some(false);
                    }
                    // The same value elsewhere in every group that holds the cell.
                    for (_, cells) in groups.iter().filter(|(_, cells)| cells.contains(&(r, c))) {
                        for &(r2, c2) in cells {
                            fixed[grid_var(n, b, r2, c2, v).index()] = Some(false);
                        }
                    }
                    // The same value in the same cell of the other board of a pair.
                    if boards == 2 {
                        fixed[grid_var(n, 1 - b, r, c, v).index()] = Some(false);
                    }
                }
            }
        }
        // Givens last, so that a given wins over a "false" set by the loops above; clashing
        // givens then falsify every literal of some clause, which makes the formula UNSAT.
        for (b, board) in puzzle.boards().iter().enumerate() {
            for r in 0..n {
                for c in 0..n {
                    let given = board.get(r, c) as usize;
                    if given != 0 {
                        fixed[grid_var(n, b, r, c, given - 1).index()] = Some(true);
                    }
                }
            }
        }
        GivenFilter {
            fixed,
            inner,
            buf: Vec::new(),
        }
    }

    fn value(&self, l: Lit) -> Option<bool> {
        let v = self.fixed.get(l.var().index()).copied().flatten()?;
        Some(v == l.is_positive())
    }
}

impl ClauseSink for GivenFilter<'_> {
    fn add_clause(&mut self, lits: &[Lit]) {
        self.buf.clear();
        for &l in lits {
            match self.value(l) {
                Some(true) => return,
                Some(false) => {}
                None => self.buf.push(l),
            }
        }
        if self.buf.is_empty() {
            // Every literal falsified: the givens clash (two 5s in a row). The formula is
            // UNSAT; say so with `x ∧ ¬x` rather than an empty clause, which not every
            // solver's DIMACS reader accepts.
            let x = Var::new(0).pos();
            self.inner.add_clause(&[x]);
            self.inner.add_clause(&[!x]);
            return;
        }
        let buf = std::mem::take(&mut self.buf);
        self.inner.add_clause(&buf);
        self.buf = buf;
    }

    fn stopped(&self) -> bool {
        self.inner.stopped()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(kind: Kind, side: usize, encoding: Encoding) -> (u32, u64) {
        let p = Puzzle::empty(kind, side).unwrap();
        count(
            &p,
            EncodeOptions {
                encoding,
                amo: Amo::Pairwise,
            },
        )
    }

    #[test]
    fn size_bound_is_exact_without_pruning() {
        for (kind, n) in [(Kind::Sudoku, 9), (Kind::Latin, 7), (Kind::Pair, 4)] {
            let p = Puzzle::empty(kind, n).unwrap();
            for encoding in [Encoding::Minimal, Encoding::Extended, Encoding::Augmented] {
                for amo in [Amo::Pairwise, Amo::Sequential] {
                    let opts = EncodeOptions { encoding, amo };
                    let mut counter = ClauseCounter::default();
                    encode(&p, opts, &mut counter);
                    assert_eq!(
                        size_bound(&p, opts),
                        (counter.clauses, counter.lits),
                        "{kind:?} {n} {opts:?}"
                    );
                }
            }
        }
        let latin = Puzzle::empty(Kind::Latin, 200).unwrap();
        let (clauses, _) = size_bound(&latin, EncodeOptions::default());
        assert!(clauses > 2_000_000_000, "{clauses}");
    }

    #[test]
    fn counts_of_design_md() {
        let expected = [
            (9, [8_829, 11_745, 11_988]),
            (16, [92_416, 123_136, 123_904]),
            (25, [563_125, 750_625, 752_500]),
        ];
        for (side, clauses) in expected {
            for (enc, want) in [Encoding::Minimal, Encoding::Efficient, Encoding::Extended]
                .into_iter()
                .zip(clauses)
            {
                assert_eq!(
                    counts(Kind::Sudoku, side, enc),
                    ((side * side * side) as u32, want),
                    "{side} {enc}"
                );
            }
        }
    }

    #[test]
    fn augmented_counts() {
        // extended + per board 2·n·k·n triads, 2·n·k·n·(k+1) definitions and 4·n·n
        // exactly-ones over k triads (1 + k(k-1)/2 clauses pairwise).
        for (side, k, extended) in [(4usize, 2usize, 0u64), (9, 3, 11_988), (16, 4, 123_904)] {
            let (ext_vars, ext) = counts(Kind::Sudoku, side, Encoding::Extended);
            if extended > 0 {
                assert_eq!(ext, extended);
            }
            let triads = (2 * side * k * side) as u64;
            let extra =
                triads * (k as u64 + 1) + 4 * (side * side) as u64 * (1 + (k * (k - 1) / 2) as u64);
            assert_eq!(
                counts(Kind::Sudoku, side, Encoding::Augmented),
                (ext_vars + triads as u32, ext + extra),
                "{side}"
            );
        }
        assert_eq!(counts(Kind::Sudoku, 9, Encoding::Augmented), (1215, 15_228));
        // Latin squares have no boxes; a pair has triads on both boards.
        assert_eq!(
            counts(Kind::Latin, 9, Encoding::Augmented),
            counts(Kind::Latin, 9, Encoding::Extended)
        );
        assert_eq!(
            counts(Kind::Pair, 9, Encoding::Augmented),
            (2 * 1215, 2 * 15_228 + 729)
        );
    }

    #[test]
    fn numbering() {
        assert_eq!(grid_var(9, 0, 0, 0, 0).dimacs(), 1);
        assert_eq!(grid_var(9, 0, 8, 8, 8).dimacs(), 729);
        assert_eq!(grid_var(9, 1, 0, 0, 0).dimacs(), 730);
        assert_eq!(grid_var(9, 0, 1, 2, 3).dimacs(), 81 + 18 + 3 + 1);
    }

    #[test]
    fn latin_and_pair_counts() {
        // Latin 9: 81 ALO + 2·81·36 AMO (cells, efficient) + 18 groups·9·36 + 18·9 ALO.
        assert_eq!(
            counts(Kind::Latin, 9, Encoding::Extended),
            (729, 81 + 81 * 36 + 18 * 9 * 36 + 18 * 9)
        );
        // A pair is two sudokus plus n³ exclusions.
        assert_eq!(
            counts(Kind::Pair, 9, Encoding::Extended),
            (1458, 2 * 11_988 + 729)
        );
    }

    #[test]
    fn sequential_adds_aux_after_grid() {
        let p = Puzzle::empty(Kind::Sudoku, 9).unwrap();
        let (vars, clauses) = count(
            &p,
            EncodeOptions {
                encoding: Encoding::Extended,
                amo: Amo::Sequential,
            },
        );
        // 81 cells + 243 groups·values, each an AMO over 9: 8 aux vars, 23 clauses.
        assert_eq!(vars, 729 + (81 + 243) * 8);
        assert_eq!(clauses, 81 + 243 + (81 + 243) * 23);
    }
}
