//! Checking an answer: the model of SAT against the clauses and, for puzzles, the rules
//! and the givens; the DRAT proof of UNSAT; and with `--count` the further solutions of a
//! formula, each checked.
//!
//! SAT answers are checked against the clauses and, for puzzles, decoded and held against
//! the rules and the givens. UNSAT answers come with a DRAT proof when `--proofs` is on and
//! the solver can write one; the proof chain checks it (`rate`, then cake_lpr, see
//! [`super::proof`]). With `--count 2`, a verified solution is
//! blocked and the instance solved again to learn whether the solution is unique.

use std::path::Path;

use crate::check::{Reading, check_model, check_puzzle_model, read_grids_used};
use crate::cnf::{Cnf, Lit, Model};
use crate::encode::decode::is_used;
use crate::encode::grid_var;
use crate::encode::header::BenchHeader;
use crate::judge::{self, Verdict};
use crate::puzzle::Puzzle;
use crate::run::finished::Counted;
use crate::run::proof::{ChainLimits, CheckerCost, check_chain};
use crate::solver::{Limits, Outcome, ProofStyle, Solver, SolverConfig, Status};

/// A formula ready to solve, built once and shared by every solver of its instance.
#[derive(Debug)]
pub struct Built {
    /// The formula.
    pub cnf: Cnf,
    /// For puzzles: the puzzle and encoding, to decode and check models.
    pub header: Option<BenchHeader>,
}

/// What the check of a SAT answer found when the model satisfies every clause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatCheck {
    /// The model is right (and, for puzzles, its grids, given here, solve the puzzle).
    Ok(Option<Puzzle>),
    /// The model is right, but the formula leaves the puzzle open: its grids are no
    /// solution. A fact about the encoding, not the solver.
    Open(String),
}

/// Checks a model: every clause (else `Err`, a wrong answer), then for puzzles the grids
/// read from the variables the formula uses.
pub fn check_sat(built: &Built, model: &Model) -> Result<SatCheck, String> {
    match &built.header {
        Some(h) => match check_puzzle_model(&built.cnf, &h.puzzle, model) {
            Ok(Reading::Solved(grids)) => Ok(SatCheck::Ok(Some(grids))),
            Ok(Reading::Open(e)) => Ok(SatCheck::Open(format!(
                "the formula leaves the puzzle open: {e} (the model satisfies every clause; \
                 a fact about the {} encoding, not the solver)",
                h.opts.encoding
            ))),
            Err(e) => Err(e.to_string()),
        },
        None => check_model(&built.cnf, model)
            .map(|()| SatCheck::Ok(None))
            .map_err(|e| e.to_string()),
    }
}

/// The clause that excludes a solved puzzle: not all of its grid literals again, over the
/// grid variables the formula uses (`used`, [`Cnf::used_vars`]). A variable that occurs
/// in no clause cannot carry the block (a solver would satisfy it by flipping that free
/// variable and hand back the same grids). Empty when the formula uses no variable of the
/// solution (the givens decide it all).
pub fn blocking_clause_of(solved: &crate::puzzle::Puzzle, used: &[bool]) -> Vec<Lit> {
    let n = solved.side();
    let mut clause = Vec::new();
    for (b, board) in solved.boards().iter().enumerate() {
        for r in 0..n {
            for c in 0..n {
                let v = board.get(r, c) as usize;
                let var = grid_var(n, b, r, c, v - 1);
                if is_used(used, var) {
                    clause.push(!var.pos());
                }
            }
        }
    }
    clause
}

/// What checking one answer gave: the verdict, the grids of a verified puzzle model
/// (the solution the check read), and what the proof checkers cost.
pub struct Checked {
    /// The judgement of the answer.
    pub verdict: Verdict,
    /// The grids of a verified puzzle model.
    pub grids: Option<Puzzle>,
    /// The proof checkers' cost, when a proof was checked.
    pub checker: Option<CheckerCost>,
}

/// Checks an outcome (the model of SAT, the proof of UNSAT when there is one, through
/// the proof chain under `chain`'s limits).
pub fn verdict(
    built: &Built,
    outcome: &Outcome,
    proof: Option<(&Path, ProofStyle)>,
    chain: &ChainLimits<'_>,
    config: &SolverConfig,
) -> Checked {
    let verdict = |verdict| Checked {
        verdict,
        grids: None,
        checker: None,
    };
    match outcome.status {
        Status::Sat => match outcome.model.as_ref().map(|m| check_sat(built, m)) {
            Some(Ok(SatCheck::Ok(grids))) => Checked {
                verdict: Verdict::ModelOk,
                grids,
                checker: None,
            },
            Some(Ok(SatCheck::Open(why))) => verdict(Verdict::EncodingOpen(why)),
            Some(Err(e)) => verdict(Verdict::ModelWrong(e)),
            // A claimed model that is no model says why in the outcome's error.
            None => verdict(Verdict::ModelWrong(if outcome.error.is_none() {
                "SAT without a model".into()
            } else {
                String::new()
            })),
        },
        Status::Unsat => match proof.filter(|(p, _)| p.exists()) {
            Some((p, style)) => {
                let found = check_chain(&built.cnf, p, style, chain, config);
                Checked {
                    verdict: found.verdict,
                    grids: None,
                    checker: found.cost,
                }
            }
            None => verdict(Verdict::Unchecked(None)),
        },
        _ => verdict(Verdict::Unchecked(None)),
    }
}

/// With `--count N`: blocks each verified solution and solves again, until the formula is
/// UNSAT (the count is exact) or `limit` solutions are found (there are at least that
/// many). Every solution is checked: it satisfies every clause, its grids solve the
/// puzzle, and they differ from every earlier one. `counted` holds the first solve (its
/// time and grids) and gathers the rest; its count stays None when a solve gave no answer
/// or the count cannot be read from the formula (a plain CNF, a loose encoding); `Err`
/// only for a wrong answer.
pub fn count_solutions(
    solver: &dyn Solver,
    built: &Built,
    counted: &mut Counted,
    limits: &Limits,
    limit: u32,
) -> Result<(), String> {
    let Some(h) = built.header.as_ref() else {
        return Ok(());
    };
    // Blocking clauses mention only used variables: the used set stays the same.
    let used = built.cnf.used_vars();
    let mut cnf = built.cnf.clone();
    loop {
        let found = counted.grids.len() as u32;
        if found >= limit {
            counted.count = Some(found);
            return Ok(());
        }
        let block = blocking_clause_of(&counted.grids[counted.grids.len() - 1], &used);
        if block.is_empty() {
            // The givens decide every cell: the formula has this one solution.
            counted.count = Some(found);
            return Ok(());
        }
        crate::cnf::ClauseSink::add_clause(&mut cnf, &block);
        let outcome = solver.solve(&cnf, limits);
        counted.add(&outcome);
        match outcome.status {
            Status::Unsat => {
                counted.count = Some(found);
                return Ok(());
            }
            Status::Sat => {
                let Some(next) = outcome.model.as_ref() else {
                    return Err(format!("solve {} said SAT without a model", found + 1));
                };
                check_model(&cnf, next)
                    .map_err(|e| format!("solution {} is wrong: {e}", found + 1))?;
                // Grids that are no solution are the formula's looseness, not a wrong
                // answer: no count. Grids seen before broke their block: wrong.
                let Some(grids) = read_grids_used(&h.puzzle, next, &used).solved() else {
                    return Ok(());
                };
                judge::count_step(&counted.grids, &grids, found as usize + 1)?;
                counted.grids.push(grids);
            }
            _ => {
                counted.stop(&outcome);
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::Cnf;
    use crate::encode::{EncodeOptions, Encoding, encode};
    use crate::puzzle::{Grid, Kind};

    /// A solver that hands back one fixed model whatever it is asked: a liar, which a
    /// real solver is not on demand.
    struct Repeater(crate::cnf::Model);

    impl Solver for Repeater {
        fn name(&self) -> &str {
            "repeater"
        }
        fn solve(&self, _: &Cnf, _: &Limits) -> Outcome {
            Outcome::sat(self.0.clone())
        }
    }

    #[test]
    fn a_repeated_solution_is_wrong_in_a_fresh_formula_too() {
        // An empty 2×2 Latin square: two solutions.
        let puzzle = crate::puzzle::Puzzle::new(Kind::Latin, vec![Grid::empty(2)]).unwrap();
        let opts = EncodeOptions {
            encoding: Encoding::Extended,
            amo: Default::default(),
        };
        let mut cnf = Cnf::new(0);
        let vars = encode(&puzzle, opts, &mut cnf);
        cnf.ensure_vars(vars);
        let built = Built {
            cnf,
            header: Some(BenchHeader {
                puzzle: puzzle.clone(),
                opts,
            }),
        };
        let native = crate::solver::by_name("native", &Default::default()).unwrap();
        let first = native.solve(&built.cnf, &Limits::default());
        let model = first.model.clone().unwrap();
        let Ok(SatCheck::Ok(Some(grids))) = check_sat(&built, &model) else {
            panic!("native's model is checked")
        };
        // The same solver counts 2, and keeps both grids; one that repeats the first
        // solution is wrong.
        let mut counted = Counted::start(&first, grids.clone());
        count_solutions(native.as_ref(), &built, &mut counted, &Limits::default(), 5).unwrap();
        assert_eq!(counted.count, Some(2));
        assert_eq!(counted.grids.len(), 2);
        assert!(counted.grids[0] != counted.grids[1] && counted.wall >= first.wall);
        let liar = Repeater(model);
        let mut counted = Counted::start(&first, grids.clone());
        let err = count_solutions(&liar, &built, &mut counted, &Limits::default(), 5).unwrap_err();
        assert!(err.starts_with("solution 2"), "{err}");
        // A solve of the count without an answer (a crash, which a real solver does not
        // on demand): no count, the row says why, the first answer stands.
        struct Crash;
        impl Solver for Crash {
            fn name(&self) -> &str {
                "crash"
            }
            fn solve(&self, _: &Cnf, _: &Limits) -> Outcome {
                Outcome::error("exit code 134")
            }
        }
        let mut counted = Counted::start(&first, grids.clone());
        count_solutions(&Crash, &built, &mut counted, &Limits::default(), 5).unwrap();
        let finished = crate::run::finished::Finished {
            mode: crate::results::Mode::Fresh,
            size: (0, 0),
            outcome: first.clone(),
            checked: Verdict::ModelOk,
            checker: None,
            grids: Some(grids),
            count: Some(counted),
        };
        let judged = judge::judge(&finished.answer(), &[], true, 5);
        assert_eq!(judged.solutions, None);
        assert_eq!(
            judged.error,
            "the count stopped after 1 solution(s): solve 2 answered ERROR (exit code 134)"
        );
        assert!(!judged.wrong);
    }
}
