//! What a search returns: its [`Status`], the solutions found, their count, and the
//! search counters ([`Stats`]).

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// At least one solution was found, and the search ended because it was complete or
    /// had reached the limit's `max`.
    Solved,
    /// The search was complete and found no solution (this includes clashing givens).
    NoSolution,
    /// The interrupt flag or the deadline ended the search first. Solutions found before
    /// are still in the answer; the count is then only a lower bound.
    Stopped,
}

/// Search counters.
///
/// * `guesses`: tentative assignments made at branch points while another alternative
///   remained. At a branch on a cell with candidates `{a, b, ...}` the search tries `a`
///   (one guess); if that fails (or to look for more solutions) it removes `a` from the
///   cell and propagates again, so the last remaining alternative is forced, not guessed.
///   A cell with `m` candidates thus costs at most `m - 1` guesses. This is the binary
///   branching count tdoku reports as "guesses".
/// * `nodes`: propagations run, one per search node: the root, each guess, and each state
///   left after an alternative was refuted.
/// * `solved_without_guess`: the first solution was found before any guess was made
///   (the puzzle falls to the solver's propagation alone).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Stats {
    /// Tentative assignments at branch points (see the type's documentation).
    pub guesses: u64,
    /// Search nodes (propagations).
    pub nodes: u64,
    /// Whether the first solution came before any guess.
    pub solved_without_guess: bool,
}

/// One solution: a row-major board of values `1..=side` per board (two for a pair).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Solution {
    /// The boards, each row-major with `side²` values.
    pub boards: Vec<Vec<u16>>,
}

impl Solution {
    /// All boards one after the other, in the layout of the givens.
    pub fn flat(&self) -> Vec<u16> {
        self.boards.concat()
    }
}

/// The result of one search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// How the search ended.
    pub status: Status,
    /// Solutions found (distinct); at most the limit's `keep`, the first ones found.
    pub solutions: Vec<Solution>,
    /// How many solutions were found (may exceed `solutions.len()`).
    pub count: u64,
    /// Whether the whole search space was explored: then `count` is the exact number of
    /// solutions. False when the limit's `max` was reached or the search was stopped.
    pub complete: bool,
    /// Search counters.
    pub stats: Stats,
}
