//! Checking answers: a model against the clauses, and for puzzles the decoded grids
//! against the rules and the givens. A wrong answer caught here is a success; one accepted
//! is the worst bug bench can have, so the check assumes nothing the model does not say:
//! a variable the model leaves out is unassigned and satisfies no literal.
//!
//! A correct solver blamed is as bad, so the check judges only what the formula says. The
//! solver's task is the CNF: a model that satisfies every clause is a right answer,
//! whatever it sets the variables that occur in no clause to (free variables, such as the
//! candidates the `pruned` encoding drops). The grids are read from the variables the
//! formula uses, plus the givens. If those grids still break a rule, the formula itself
//! leaves the puzzle open: a fact about the encoding, reported as [`Reading::Open`], never
//! as a wrong answer.

use crate::cnf::{Cnf, Lit, Model};
use crate::encode::decode::{DecodeError, decode};
use crate::encode::header::BenchHeader;
use crate::puzzle::{Puzzle, RuleViolation};

/// Why a model is wrong: the solver's answer does not satisfy the formula.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    /// A clause with no true literal.
    #[error("clause {index} is not satisfied: {}", show_clause(.clause))]
    Clause {
        /// 1-based clause number in file order.
        index: usize,
        /// Its literals.
        clause: Vec<Lit>,
    },
    /// The model mentions a variable beyond the formula.
    #[error("the model sets variable {0}, beyond the formula's {1} variables")]
    ExtraVariable(u32, u32),
}

/// Why grids read from a model that satisfies every clause are not a solution: the
/// formula allows what the rules forbid (a defect of the encoding, not of the solver).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpenGrid {
    /// Two values in one cell.
    #[error("{0}")]
    Decode(#[from] DecodeError),
    /// The grids break a rule or lose a given.
    #[error("{0}")]
    Rule(#[from] RuleViolation),
}

/// What a model that satisfies every clause of a puzzle's formula says about the puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reading {
    /// The grids read from the used variables solve the puzzle.
    Solved(Puzzle),
    /// The formula leaves the puzzle open: the model satisfies every clause, yet its grids
    /// are no solution. The solver is right; the encoding is not.
    Open(OpenGrid),
}

impl Reading {
    /// The solution, if the grids are one.
    pub fn solved(self) -> Option<Puzzle> {
        match self {
            Reading::Solved(p) => Some(p),
            Reading::Open(_) => None,
        }
    }
}

fn show_clause(clause: &[Lit]) -> String {
    let mut s: String = clause.iter().map(|l| format!("{l} ")).collect();
    s.push('0');
    s
}

/// Checks that every clause of `cnf` has a true literal under `model`.
pub fn check_model(cnf: &Cnf, model: &Model) -> Result<(), CheckError> {
    if let Some(l) = model.lits().last()
        && l.var().dimacs() > cnf.num_vars()
    {
        return Err(CheckError::ExtraVariable(l.var().dimacs(), cnf.num_vars()));
    }
    for (i, clause) in cnf.clauses().enumerate() {
        if !clause.iter().any(|&l| model.lit_value(l) == Some(true)) {
            return Err(CheckError::Clause {
                index: i + 1,
                clause: clause.to_vec(),
            });
        }
    }
    Ok(())
}

/// Reads the grids of a model that satisfies `cnf` (see [`check_model`]): from the grid
/// variables that occur in `cnf`, the givens filling the rest, held against the rules and
/// the givens.
pub fn read_grids(cnf: &Cnf, puzzle: &Puzzle, model: &Model) -> Reading {
    read_grids_used(puzzle, model, &cnf.used_vars())
}

/// [`read_grids`] with the formula's used variables already computed.
pub fn read_grids_used(puzzle: &Puzzle, model: &Model, used: &[bool]) -> Reading {
    let solution = match decode(puzzle, model, used) {
        Ok(s) => s,
        Err(e) => return Reading::Open(e.into()),
    };
    match puzzle.check_solution(&solution) {
        Ok(()) => Reading::Solved(solution),
        Err(e) => Reading::Open(e.into()),
    }
}

/// Checks a model of a puzzle's encoding: the clauses (an unsatisfied one makes the
/// answer wrong), then reads the grids from what the formula says.
pub fn check_puzzle_model(
    cnf: &Cnf,
    puzzle: &Puzzle,
    model: &Model,
) -> Result<Reading, CheckError> {
    check_model(cnf, model)?;
    Ok(read_grids(cnf, puzzle, model))
}

/// Checks a model of a CNF that may carry a `c bench` header: with a header, also reads
/// the grids. `Ok(None)` for a plain CNF.
pub fn check_with_header(
    cnf: &Cnf,
    header: Option<&BenchHeader>,
    model: &Model,
) -> Result<Option<Reading>, CheckError> {
    match header {
        Some(h) => check_puzzle_model(cnf, &h.puzzle, model).map(Some),
        None => check_model(cnf, model).map(|_| None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unassigned_satisfies_nothing() {
        let cnf = Cnf::from_dimacs_clauses(3, &[vec![1, 2], vec![-3]]);
        let partial = Model::from_lits([Lit::from_dimacs(2)]);
        let err = check_model(&cnf, &partial).unwrap_err();
        assert_eq!(err.to_string(), "clause 2 is not satisfied: -3 0");
        let full = Model::from_lits([Lit::from_dimacs(2), Lit::from_dimacs(-3)]);
        assert!(check_model(&cnf, &full).is_ok());
        let extra = Model::from_lits([
            Lit::from_dimacs(2),
            Lit::from_dimacs(-3),
            Lit::from_dimacs(9),
        ]);
        assert!(matches!(
            check_model(&cnf, &extra),
            Err(CheckError::ExtraVariable(9, 3))
        ));
    }
}
