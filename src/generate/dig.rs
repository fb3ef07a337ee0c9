//! Digging holes: remove givens one at a time, in random order, keeping a removal only
//! if the solution stays unique.
//!
//! One incremental solver holds the rules and one extra clause, "not this solution". A
//! puzzle (givens ⊆ solution) has a second solution exactly when the solver, assuming the
//! givens, finds a model of that; UNSAT means unique. The givens are assumptions, never
//! clauses, so the same solver answers every check, and what it learns carries over.

use super::{cell_lit, load_rules};
use crate::cnf::Lit;
use crate::puzzle::Puzzle;
use crate::rng::SplitMix64;
use crate::solver::cdcl::{CdclSolver, SolveResult};

/// A uniqueness oracle for puzzles whose givens come from one fixed solution.
pub struct UniquenessChecker {
    /// The rules plus the clause that blocks the solution.
    solver: CdclSolver,
    /// The side.
    n: usize,
}

impl UniquenessChecker {
    /// A checker for puzzles of `empty`'s shape with the solution `solution`.
    pub fn new(empty: &Puzzle, solution: &Puzzle) -> UniquenessChecker {
        let mut solver = CdclSolver::new();
        load_rules(&mut solver, empty);
        let n = empty.side();
        let block: Vec<Lit> = cells(solution)
            .map(|(b, r, c)| !cell_lit(n, b, r, c, solution.boards()[b].get(r, c)))
            .collect();
        solver.add_clause(&block);
        UniquenessChecker { solver, n }
    }

    /// True when the givens of `puzzle` (a subset of the solution's cells) leave only the
    /// solution.
    pub fn is_unique(&mut self, puzzle: &Puzzle) -> bool {
        let n = self.n;
        let assumptions: Vec<Lit> = cells(puzzle)
            .filter_map(|(b, r, c)| {
                let v = puzzle.boards()[b].get(r, c);
                (v != 0).then(|| cell_lit(n, b, r, c, v))
            })
            .collect();
        match self.solver.solve_with(&assumptions) {
            SolveResult::Unsat => true,
            SolveResult::Sat => false,
            SolveResult::Unknown => unreachable!("the uniqueness solver runs without limits"),
        }
    }
}

/// Every (board, row, column) of a puzzle.
fn cells(p: &Puzzle) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
    let n = p.side();
    (0..p.boards().len()).flat_map(move |b| (0..n * n).map(move |i| (b, i / n, i % n)))
}

/// Digs holes into the full `solution` until no more can go (locally minimal) or only
/// `target` givens are left.
pub fn dig(
    empty: &Puzzle,
    solution: &Puzzle,
    target: Option<usize>,
    rng: &mut SplitMix64,
) -> Puzzle {
    let mut checker = UniquenessChecker::new(empty, solution);
    let mut puzzle = solution.clone();
    let mut order: Vec<(usize, usize, usize)> = cells(solution).collect();
    rng.shuffle(&mut order);
    let mut givens = puzzle.givens();
    for (b, r, c) in order {
        if target.is_some_and(|t| givens <= t) {
            break;
        }
        let v = puzzle.boards()[b].get(r, c);
        puzzle.boards_mut()[b].set(r, c, 0);
        if checker.is_unique(&puzzle) {
            givens -= 1;
        } else {
            puzzle.boards_mut()[b].set(r, c, v);
        }
    }
    puzzle
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::random_solution;
    use crate::puzzle::Kind;

    #[test]
    fn a_dug_puzzle_is_unique_and_minimal() {
        let empty = Puzzle::empty(Kind::Sudoku, 9).unwrap();
        let mut rng = SplitMix64::new(11);
        let solution = random_solution(&empty, &mut rng);
        let puzzle = dig(&empty, &solution, None, &mut rng);
        let mut checker = UniquenessChecker::new(&empty, &solution);
        assert!(checker.is_unique(&puzzle));
        assert!(puzzle.givens() < 40, "{} givens", puzzle.givens());
        for (b, r, c) in cells(&puzzle).collect::<Vec<_>>() {
            let v = puzzle.boards()[b].get(r, c);
            if v != 0 {
                let mut fewer = puzzle.clone();
                fewer.boards_mut()[b].set(r, c, 0);
                assert!(!checker.is_unique(&fewer), "r{r}c{c} could go: not minimal");
            }
        }
    }
}
