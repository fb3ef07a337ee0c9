//! Puzzles of the sudoku family: the boards, their kinds and their rules.
//!
//! A [`Puzzle`] is one board (sudoku, Latin square) or two (a sudoku pair), each a square
//! grid of side n whose cells hold 0 (blank) or a value 1..=n. The rules are checked here,
//! once, for givens ([`Puzzle::check_givens`]) and for solutions
//! ([`Puzzle::check_solution`]); the encodings express the same rules as clauses.

pub mod format;
mod rules;
pub mod symbols;

use std::fmt;

/// The largest side bench accepts: the variable numbering b·n³ + r·n² + c·n + v + 1 of a
/// pair must fit the literal codes (2 boards × n³ < 2³¹).
pub const MAX_SIDE: usize = 1000;

/// Which rules a puzzle follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Rows, columns and k×k boxes hold every value once (side k²).
    Sudoku,
    /// Rows and columns hold every value once (any side).
    Latin,
    /// Two sudokus with S1[i][j] ≠ S2[i][j] in every cell.
    Pair,
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 3] = [Kind::Sudoku, Kind::Latin, Kind::Pair];

    /// The name used on the command line and in DIMACS headers.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Sudoku => "sudoku",
            Kind::Latin => "latin",
            Kind::Pair => "pair",
        }
    }

    /// Parses a kind name.
    pub fn parse(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// How many boards a puzzle of this kind has.
    pub fn boards(self) -> usize {
        if self == Kind::Pair { 2 } else { 1 }
    }

    /// Whether this kind has box constraints.
    pub fn has_boxes(self) -> bool {
        self != Kind::Latin
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The integer square root of `n`, if `n` is a perfect square.
pub fn exact_sqrt(n: usize) -> Option<usize> {
    let r = (n as f64).sqrt().round() as usize;
    (r * r == n).then_some(r)
}

/// One square board: `cells[r·n + c]` is 0 (blank) or a value 1..=n.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    /// The side n.
    side: usize,
    /// Row-major cell values, 0 = blank.
    cells: Vec<u16>,
}

impl Grid {
    /// An empty board of side `side`.
    pub fn empty(side: usize) -> Grid {
        Grid {
            side,
            cells: vec![0; side * side],
        }
    }

    /// A board from row-major values; `None` if the length is not side² or a value exceeds
    /// the side.
    pub fn from_cells(side: usize, cells: Vec<u16>) -> Option<Grid> {
        (cells.len() == side * side && cells.iter().all(|&v| (v as usize) <= side))
            .then_some(Grid { side, cells })
    }

    /// The side n.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The value at row `r`, column `c` (0 = blank).
    pub fn get(&self, r: usize, c: usize) -> u16 {
        self.cells[r * self.side + c]
    }

    /// Sets the value at row `r`, column `c`.
    pub fn set(&mut self, r: usize, c: usize, v: u16) {
        debug_assert!(v as usize <= self.side);
        self.cells[r * self.side + c] = v;
    }

    /// Row-major values.
    pub fn cells(&self) -> &[u16] {
        &self.cells
    }

    /// The number of non-blank cells.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }
}

/// A rule that a board breaks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleViolation {
    /// Two cells of one row, column or box hold the same value.
    #[error("{board}value {value} appears twice in {group} (at r{r1}c{c1} and r{r2}c{c2})")]
    Repeated {
        /// "board 2: " for the second board of a pair, else empty.
        board: String,
        /// The repeated value.
        value: u16,
        /// "row 3", "column 5", "box 2".
        group: String,
        /// First cell, 1-based.
        r1: usize,
        /// First cell, 1-based.
        c1: usize,
        /// Second cell, 1-based.
        r2: usize,
        /// Second cell, 1-based.
        c2: usize,
    },
    /// The two boards of a pair hold the same value in one cell.
    #[error("both boards hold {value} at r{r}c{c}")]
    PairClash {
        /// The value.
        value: u16,
        /// Row, 1-based.
        r: usize,
        /// Column, 1-based.
        c: usize,
    },
    /// A solution leaves a cell blank.
    #[error("{board}cell r{r}c{c} is blank")]
    Blank {
        /// Board prefix.
        board: String,
        /// Row, 1-based.
        r: usize,
        /// Column, 1-based.
        c: usize,
    },
    /// A solution changes a given.
    #[error("{board}cell r{r}c{c} holds {found} but the given is {given}")]
    GivenChanged {
        /// Board prefix.
        board: String,
        /// Row, 1-based.
        r: usize,
        /// Column, 1-based.
        c: usize,
        /// The given.
        given: u16,
        /// What the solution has.
        found: u16,
    },
    /// A solution of another shape.
    #[error("the solution's shape does not match the puzzle")]
    Shape,
}

/// A puzzle: its kind and its boards (two for a pair), all of one side.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Puzzle {
    /// Which rules apply.
    kind: Kind,
    /// One board, or two for a pair.
    boards: Vec<Grid>,
}

/// Why a puzzle cannot be built from boards.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    /// A sudoku (or pair) side that is not a square k², k ≥ 2.
    #[error("side {0} is not a square k² with k ≥ 2, as a sudoku's must be")]
    NotSquare(usize),
    /// Side below 2 or above [`MAX_SIDE`].
    #[error("side {0} is out of range (2 to {MAX_SIDE})")]
    Side(usize),
    /// Wrong number of boards for the kind, or boards of different sides.
    #[error("a {0} needs {1} board(s) of one side")]
    Boards(Kind, usize),
}

impl Puzzle {
    /// A puzzle of `kind` from its boards, checking the shape (not the rules).
    pub fn new(kind: Kind, boards: Vec<Grid>) -> Result<Puzzle, ShapeError> {
        if boards.len() != kind.boards() || boards.windows(2).any(|w| w[0].side != w[1].side) {
            return Err(ShapeError::Boards(kind, kind.boards()));
        }
        let side = boards[0].side;
        if !(2..=MAX_SIDE).contains(&side) {
            return Err(ShapeError::Side(side));
        }
        if kind.has_boxes() && exact_sqrt(side).is_none_or(|k| k < 2) {
            return Err(ShapeError::NotSquare(side));
        }
        Ok(Puzzle { kind, boards })
    }

    /// An empty puzzle of `kind` and side `side`.
    pub fn empty(kind: Kind, side: usize) -> Result<Puzzle, ShapeError> {
        Puzzle::new(kind, vec![Grid::empty(side); kind.boards()])
    }

    /// The kind.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The side n of every board.
    pub fn side(&self) -> usize {
        self.boards[0].side
    }

    /// The box size k (side = k²) for sudokus and pairs.
    pub fn box_size(&self) -> Option<usize> {
        if self.kind.has_boxes() {
            exact_sqrt(self.side())
        } else {
            None
        }
    }

    /// The boards (one, or two for a pair).
    pub fn boards(&self) -> &[Grid] {
        &self.boards
    }

    /// The boards, to fill in.
    pub fn boards_mut(&mut self) -> &mut [Grid] {
        &mut self.boards
    }

    /// The number of givens over all boards.
    pub fn givens(&self) -> usize {
        self.boards.iter().map(Grid::givens).sum()
    }

    /// Every group of cells that must hold distinct values: rows, columns, and boxes if any.
    /// Each group is a name and its cells as (row, column).
    pub fn groups(&self) -> Vec<(String, Vec<(usize, usize)>)> {
        groups(self.side(), self.box_size())
    }

    /// Checks that no two givens break a rule (a repeated value in a group, the same
    /// value in one cell of both boards of a pair): a bitmask pass (`rules.rs`), and the
    /// named groups only to say which rule is broken.
    pub fn check_givens(&self) -> Result<(), RuleViolation> {
        if self.side() <= rules::MASK_SIDE && rules::givens_obey_rules(self) {
            return Ok(());
        }
        self.find_violation()
    }

    /// The first broken rule, group by group (the slow check the fast one stands in for).
    fn find_violation(&self) -> Result<(), RuleViolation> {
        for (b, board) in self.boards.iter().enumerate() {
            for (name, cells) in self.groups() {
                let mut seen: Vec<Option<(usize, usize)>> = vec![None; self.side() + 1];
                for &(r, c) in &cells {
                    let v = board.get(r, c);
                    if v == 0 {
                        continue;
                    }
                    if let Some((r1, c1)) = seen[v as usize] {
                        return Err(RuleViolation::Repeated {
                            board: self.board_prefix(b),
                            value: v,
                            group: name,
                            r1: r1 + 1,
                            c1: c1 + 1,
                            r2: r + 1,
                            c2: c + 1,
                        });
                    }
                    seen[v as usize] = Some((r, c));
                }
            }
        }
        if self.kind == Kind::Pair {
            let n = self.side();
            for r in 0..n {
                for c in 0..n {
                    let v = self.boards[0].get(r, c);
                    if v != 0 && v == self.boards[1].get(r, c) {
                        return Err(RuleViolation::PairClash {
                            value: v,
                            r: r + 1,
                            c: c + 1,
                        });
                    }
                }
            }
        }
        Ok(())
    }

    /// Checks that `solution` solves this puzzle: same shape, every cell filled, the rules
    /// obeyed and every given kept.
    pub fn check_solution(&self, solution: &Puzzle) -> Result<(), RuleViolation> {
        if solution.kind != self.kind || solution.side() != self.side() {
            return Err(RuleViolation::Shape);
        }
        let n = self.side();
        for (b, (given, found)) in self.boards.iter().zip(&solution.boards).enumerate() {
            // Cell by cell in row-major order: i is r·n + c.
            for (i, (&g, &f)) in given.cells().iter().zip(found.cells()).enumerate() {
                if f == 0 {
                    return Err(RuleViolation::Blank {
                        board: self.board_prefix(b),
                        r: i / n + 1,
                        c: i % n + 1,
                    });
                }
                if g != 0 && g != f {
                    return Err(RuleViolation::GivenChanged {
                        board: self.board_prefix(b),
                        r: i / n + 1,
                        c: i % n + 1,
                        given: g,
                        found: f,
                    });
                }
            }
        }
        solution.check_givens()
    }

    fn board_prefix(&self, b: usize) -> String {
        if self.kind == Kind::Pair {
            format!("board {}: ", b + 1)
        } else {
            String::new()
        }
    }
}

/// The groups of a board of side `n`: rows, columns, and k×k boxes when `box_size` is k.
pub fn groups(n: usize, box_size: Option<usize>) -> Vec<(String, Vec<(usize, usize)>)> {
    let mut out = Vec::with_capacity(3 * n);
    for r in 0..n {
        out.push((format!("row {}", r + 1), (0..n).map(|c| (r, c)).collect()));
    }
    for c in 0..n {
        out.push((
            format!("column {}", c + 1),
            (0..n).map(|r| (r, c)).collect(),
        ));
    }
    if let Some(k) = box_size {
        for b in 0..n {
            let (r0, c0) = ((b / k) * k, (b % k) * k);
            let cells = (0..n).map(|i| (r0 + i / k, c0 + i % k)).collect();
            out.push((format!("box {}", b + 1), cells));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sudoku4(rows: &[[u16; 4]; 4]) -> Puzzle {
        Puzzle::new(
            Kind::Sudoku,
            vec![Grid::from_cells(4, rows.concat()).unwrap()],
        )
        .unwrap()
    }

    #[test]
    fn shapes() {
        assert!(Puzzle::empty(Kind::Sudoku, 9).is_ok());
        assert_eq!(
            Puzzle::empty(Kind::Sudoku, 10),
            Err(ShapeError::NotSquare(10))
        );
        assert!(Puzzle::empty(Kind::Latin, 10).is_ok());
        assert_eq!(Puzzle::empty(Kind::Pair, 9).unwrap().boards().len(), 2);
        assert_eq!(Puzzle::empty(Kind::Sudoku, 64).unwrap().box_size(), Some(8));
    }

    #[test]
    fn rules() {
        let p = sudoku4(&[[1, 0, 0, 0], [0, 1, 0, 0], [0; 4], [0; 4]]);
        let err = p.check_givens().unwrap_err();
        assert!(err.to_string().contains("box 1"), "{err}");
        let solved = sudoku4(&[[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]);
        assert!(solved.check_givens().is_ok());
        let puzzle = sudoku4(&[[1, 0, 0, 0], [0; 4], [0; 4], [0, 0, 0, 1]]);
        assert!(puzzle.check_solution(&solved).is_ok());
        let other = sudoku4(&[[2, 0, 0, 0], [0; 4], [0; 4], [0; 4]]);
        assert!(matches!(
            other.check_solution(&solved),
            Err(RuleViolation::GivenChanged { .. })
        ));
    }
}
