//! Helpers shared by the integration tests: a rule-and-givens checker, a brute-force
//! solution counter that knows nothing of the solver, full grids built by pattern, a
//! small seeded random generator, puzzle makers and the puzzle files of tests/data.
#![allow(dead_code)]

use gridsolve::{Answer, Kind, Shape};

/// Whether `grid` (all boards, row-major) keeps every rule of `shape`.
pub fn valid(shape: &Shape, grid: &[u16]) -> bool {
    let n = shape.side();
    if grid.len() != shape.cells() || grid.iter().any(|&v| v == 0 || usize::from(v) > n) {
        return false;
    }
    let per = n * n;
    for b in 0..shape.boards() {
        let g = &grid[b * per..(b + 1) * per];
        let mut units: Vec<Vec<usize>> = Vec::new();
        for i in 0..n {
            units.push((0..n).map(|c| i * n + c).collect());
            units.push((0..n).map(|r| r * n + i).collect());
        }
        if let Some(k) = shape.box_side() {
            for bx in 0..n {
                let (r0, c0) = ((bx / k) * k, (bx % k) * k);
                units.push((0..n).map(|i| (r0 + i / k) * n + c0 + i % k).collect());
            }
        }
        for unit in units {
            let mut seen = vec![false; n + 1];
            for c in unit {
                if std::mem::replace(&mut seen[usize::from(g[c])], true) {
                    return false;
                }
            }
        }
    }
    shape.kind() != Kind::SudokuPair || (0..per).all(|i| grid[i] != grid[per + i])
}

/// Whether `grid` agrees with every given.
pub fn keeps_givens(givens: &[u16], grid: &[u16]) -> bool {
    givens.iter().zip(grid).all(|(&g, &v)| g == 0 || g == v)
}

/// Checks every solution of `answer`: valid, agreeing with the givens, all distinct.
pub fn check_solutions(shape: &Shape, givens: &[u16], answer: &Answer) {
    let mut flats: Vec<Vec<u16>> = answer.solutions.iter().map(|s| s.flat()).collect();
    for f in &flats {
        assert!(valid(shape, f), "invalid solution {f:?}");
        assert!(keeps_givens(givens, f), "solution ignores a given");
    }
    flats.sort();
    flats.dedup();
    assert_eq!(flats.len(), answer.solutions.len(), "duplicate solutions");
    assert!(answer.count >= answer.solutions.len() as u64);
}

/// Counts the solutions by plain backtracking over cells in order, checking each value
/// against the filled cells of its row, column, box and partner cell.
pub fn brute_count(shape: &Shape, givens: &[u16]) -> u64 {
    let mut g = givens.to_vec();
    let n = shape.side();
    let per = n * n;
    // givens must not clash among themselves
    for i in 0..g.len() {
        if g[i] != 0 {
            let v = std::mem::replace(&mut g[i], 0);
            if !fits(shape, &g, i, v) {
                return 0;
            }
            g[i] = v;
        }
    }
    let blanks: Vec<usize> = (0..shape.cells()).filter(|&i| g[i] == 0).collect();
    fn go(shape: &Shape, g: &mut [u16], blanks: &[usize], n: usize) -> u64 {
        let Some((&i, rest)) = blanks.split_first() else {
            return 1;
        };
        let mut total = 0;
        for v in 1..=n as u16 {
            if fits(shape, g, i, v) {
                g[i] = v;
                total += go(shape, g, rest, n);
                g[i] = 0;
            }
        }
        total
    }
    let _ = per;
    go(shape, &mut g, &blanks, n)
}

/// Whether value `v` may go in cell `i` given the other filled cells.
fn fits(shape: &Shape, g: &[u16], i: usize, v: u16) -> bool {
    let n = shape.side();
    let per = n * n;
    let (b, cell) = (i / per, i % per);
    let (r, c) = (cell / n, cell % n);
    let board = &g[b * per..(b + 1) * per];
    for j in 0..n {
        if (j != c && board[r * n + j] == v) || (j != r && board[j * n + c] == v) {
            return false;
        }
    }
    if let Some(k) = shape.box_side() {
        let (r0, c0) = (r / k * k, c / k * k);
        for rr in r0..r0 + k {
            for cc in c0..c0 + k {
                if (rr, cc) != (r, c) && board[rr * n + cc] == v {
                    return false;
                }
            }
        }
    }
    if shape.kind() == Kind::SudokuPair && g[(1 - b) * per + cell] == v {
        return false;
    }
    true
}

/// A small seeded generator (xorshift64*).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

/// A full valid grid of `shape` by pattern, with digits relabelled by `rng`; for a pair
/// the second board is the first with every value shifted by one.
pub fn full_grid(shape: &Shape, rng: &mut Rng) -> Vec<u16> {
    let n = shape.side();
    let mut labels: Vec<u16> = (1..=n as u16).collect();
    rng.shuffle(&mut labels);
    let mut g = Vec::with_capacity(shape.cells());
    for r in 0..n {
        for c in 0..n {
            let v = match shape.box_side() {
                Some(k) => (k * (r % k) + r / k + c) % n,
                None => (r + c) % n,
            };
            g.push(labels[v]);
        }
    }
    if shape.kind() == Kind::SudokuPair {
        let second: Vec<u16> = g.iter().map(|&v| v % n as u16 + 1).collect();
        g.extend(second);
    }
    g
}

/// `grid` with each cell blanked with probability `percent`/100.
pub fn blank(grid: &[u16], percent: usize, rng: &mut Rng) -> Vec<u16> {
    grid.iter()
        .map(|&v| if rng.below(100) < percent { 0 } else { v })
        .collect()
}

/// Parses an 81-character puzzle line ('.' or '0' for a blank).
pub fn parse81(line: &str) -> Vec<u16> {
    line.bytes()
        .take(81)
        .map(|b| {
            if b.is_ascii_digit() {
                u16::from(b - b'0')
            } else {
                0
            }
        })
        .collect()
}

/// The 9×9 puzzles of tests/data/nine.txt.
pub fn nine_puzzles() -> Vec<Vec<u16>> {
    include_str!("../data/nine.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && l.len() >= 81)
        .map(parse81)
        .collect()
}

/// The value of one symbol of bench's line format: `1`-`9`, `A`-`Z` for 10-35, `a`-`z`
/// for 36-61, anything else a blank.
pub fn symbol(b: u8) -> u16 {
    match b {
        b'1'..=b'9' => u16::from(b - b'0'),
        b'A'..=b'Z' => u16::from(b - b'A') + 10,
        b'a'..=b'z' => u16::from(b - b'a') + 36,
        _ => 0,
    }
}

/// The puzzles of tests/data/large.txt (16×16 and 25×25 sudokus with one solution
/// each), with their box sides.
pub fn large_puzzles() -> Vec<(usize, Vec<u16>)> {
    include_str!("../data/large.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let k = (2..=8).find(|k| k * k * k * k == l.len()).unwrap();
            (k, l.bytes().map(symbol).collect())
        })
        .collect()
}
