//! Checking answers: a model against the clauses, and for puzzles the decoded grids
//! against the rules and the givens. A wrong answer caught here is a success; one accepted
//! is the worst bug bench can have, so the check assumes nothing the model does not say:
//! a variable the model leaves out is unassigned and satisfies no literal.

use crate::cnf::{Cnf, Lit, Model};
use crate::encode::decode::{DecodeError, decode};
use crate::encode::header::BenchHeader;
use crate::puzzle::{Puzzle, RuleViolation};

/// Why a model is wrong.
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
    /// Two values in one cell.
    #[error("{0}")]
    Decode(#[from] DecodeError),
    /// The grids break a rule or lose a given.
    #[error("{0}")]
    Rule(#[from] RuleViolation),
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

/// Checks a model of a puzzle's encoding: the clauses, then the decoded grids against the
/// rules and the givens. Returns the solved puzzle.
pub fn check_puzzle_model(cnf: &Cnf, puzzle: &Puzzle, model: &Model) -> Result<Puzzle, CheckError> {
    check_model(cnf, model)?;
    let solution = decode(puzzle, model)?;
    puzzle.check_solution(&solution)?;
    Ok(solution)
}

/// Checks a model of a CNF that may carry a `c bench` header: with a header, also decodes
/// and checks the grids. Returns the solved puzzle when there is one.
pub fn check_with_header(
    cnf: &Cnf,
    header: Option<&BenchHeader>,
    model: &Model,
) -> Result<Option<Puzzle>, CheckError> {
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
