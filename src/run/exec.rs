//! One run: solve, check the answer, and make the result row.
//!
//! SAT answers are checked against the clauses and, for puzzles, decoded and held against
//! the rules and the givens. UNSAT answers come with a DRAT proof when `--proofs` is on and
//! the solver can write one; `rate` checks it. With `--count 2`, a verified solution is
//! blocked and the instance solved again to learn whether the solution is unique.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use wait_timeout::ChildExt;

use crate::check::{Reading, check_model, check_puzzle_model, read_grids};
use crate::cnf::{Cnf, Lit, Model};
use crate::encode::decode::is_used;
use crate::encode::grid_var;
use crate::encode::header::BenchHeader;
use crate::run::results::{Row, check};
use crate::solver::{Limits, Outcome, ProofStyle, Solver, Status};

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
    /// The model is right (and, for puzzles, its grids solve the puzzle).
    Ok,
    /// The model is right, but the formula leaves the puzzle open: its grids are no
    /// solution. A fact about the encoding, not the solver.
    Open(String),
}

/// Checks a model: every clause (else `Err`, a wrong answer), then for puzzles the grids
/// read from the variables the formula uses.
pub fn check_sat(built: &Built, model: &Model) -> Result<SatCheck, String> {
    match &built.header {
        Some(h) => match check_puzzle_model(&built.cnf, &h.puzzle, model) {
            Ok(Reading::Solved(_)) => Ok(SatCheck::Ok),
            Ok(Reading::Open(e)) => Ok(SatCheck::Open(format!(
                "the formula leaves the puzzle open: {e} (the model satisfies every clause; \
                 a fact about the {} encoding, not the solver)",
                h.opts.encoding
            ))),
            Err(e) => Err(e.to_string()),
        },
        None => check_model(&built.cnf, model)
            .map(|()| SatCheck::Ok)
            .map_err(|e| e.to_string()),
    }
}

/// Finds the DRAT checker `rate`: on PATH or in cargo's bin folder.
pub fn find_rate() -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    if let Some(home) = std::env::var_os("HOME") {
        dirs.push(Path::new(&home).join(".cargo/bin"));
    }
    dirs.into_iter()
        .map(|d| d.join("rate"))
        .find(|p| p.is_file())
}

/// Runs `rate CNF PROOF` with a time limit (with `--skip-unit-deletions` for a solver
/// whose proofs need drat-trim's reading); true for `s VERIFIED`.
pub fn check_proof(
    cnf: &Cnf,
    proof: &Path,
    style: ProofStyle,
    limit: Duration,
) -> Result<bool, String> {
    let rate = find_rate().ok_or("rate is not installed (cargo install rate)")?;
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let cnf_path = dir.path().join("f.cnf");
    let file = std::fs::File::create(&cnf_path).map_err(|e| e.to_string())?;
    crate::cnf::dimacs::write_cnf(file, cnf, &[]).map_err(|e| e.to_string())?;
    let mut child = Command::new(rate)
        .args(style.skip_unit_deletions.then_some("--skip-unit-deletions"))
        .arg(&cnf_path)
        .arg(proof)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| e.to_string())?;
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stdout, &mut s);
        s
    });
    let status = match child.wait_timeout(limit).map_err(|e| e.to_string())? {
        Some(s) => s,
        None => {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("rate did not finish within {} s", limit.as_secs()));
        }
    };
    let out = reader.join().unwrap_or_default();
    Ok(status.success() && out.lines().any(|l| l.trim() == "s VERIFIED"))
}

/// The clause that excludes a puzzle solution: not all of its grid literals again, over
/// the grid variables the formula uses. A variable that occurs in no clause cannot carry
/// the block (a solver would satisfy it by flipping that free variable and hand back the
/// same grid). None for a plain CNF or a model whose grids are no solution; an empty
/// clause when the formula uses no variable of the solution (the givens decide it all).
pub fn blocking_clause(built: &Built, model: &Model) -> Option<Vec<Lit>> {
    let h = built.header.as_ref()?;
    let used = built.cnf.used_vars();
    let solved = crate::check::read_grids_used(&h.puzzle, model, &used).solved()?;
    let n = solved.side();
    let mut clause = Vec::new();
    for (b, board) in solved.boards().iter().enumerate() {
        for r in 0..n {
            for c in 0..n {
                let v = board.get(r, c) as usize;
                let var = grid_var(n, b, r, c, v - 1);
                if is_used(&used, var) {
                    clause.push(!var.pos());
                }
            }
        }
    }
    Some(clause)
}

/// What checking one answer gave: the check column, whether it is wrong, and why.
pub struct Verdict {
    /// model-ok, encoding-open, model-wrong, proof-ok, proof-failed, unchecked.
    pub check: &'static str,
    /// Wrong answer.
    pub wrong: bool,
    /// Why (wrong answers).
    pub reason: Option<String>,
}

/// Checks an outcome (the model of SAT, the proof of UNSAT when there is one).
pub fn verdict(
    built: &Built,
    outcome: &Outcome,
    proof: Option<(&Path, ProofStyle)>,
    proof_limit: Duration,
) -> Verdict {
    match outcome.status {
        Status::Sat => match outcome.model.as_ref().map(|m| check_sat(built, m)) {
            Some(Ok(SatCheck::Ok)) => Verdict {
                check: check::MODEL_OK,
                wrong: false,
                reason: None,
            },
            Some(Ok(SatCheck::Open(why))) => Verdict {
                check: check::ENCODING_OPEN,
                wrong: false,
                reason: Some(why),
            },
            Some(Err(e)) => Verdict {
                check: check::MODEL_WRONG,
                wrong: true,
                reason: Some(e),
            },
            None => Verdict {
                check: check::MODEL_WRONG,
                wrong: true,
                reason: Some("SAT without a model".into()),
            },
        },
        Status::Unsat => match proof.filter(|(p, _)| p.exists()) {
            Some((p, style)) => match check_proof(&built.cnf, p, style, proof_limit) {
                Ok(true) => Verdict {
                    check: check::PROOF_OK,
                    wrong: false,
                    reason: None,
                },
                Ok(false) => Verdict {
                    check: check::PROOF_FAILED,
                    wrong: true,
                    reason: Some("rate did not verify the DRAT proof".into()),
                },
                Err(e) => Verdict {
                    check: check::UNCHECKED,
                    wrong: false,
                    reason: Some(format!("proof not checked: {e}")),
                },
            },
            None => Verdict {
                check: check::UNCHECKED,
                wrong: false,
                reason: None,
            },
        },
        _ => Verdict {
            check: check::UNCHECKED,
            wrong: false,
            reason: None,
        },
    }
}

/// Fills the measured and checked columns of `row` from an outcome.
pub fn fill_row(row: &mut Row, outcome: &Outcome, verdict: &Verdict) {
    row.status = outcome.status.to_string();
    row.check = verdict.check.to_string();
    row.wrong = verdict.wrong;
    row.wall_s = outcome.wall.as_secs_f64();
    row.cpu_s = outcome.cpu.map(|d| d.as_secs_f64());
    row.max_rss_kb = outcome.max_rss_kb;
    row.exit_code = outcome.exit_code;
    let mut why: Vec<String> = Vec::new();
    if let Some(r) = &verdict.reason {
        why.push(r.clone());
    }
    if let Some(e) = &outcome.error {
        why.push(e.clone());
    }
    // One line: CSV readers cope with newlines, people reading the file less so.
    row.error = why.join("; ").replace(['\n', '\r'], " ");
}

/// With `--count 2`: solves again with the solution blocked. Some(1) unique, Some(2)
/// several (the second solution verified: it satisfies every clause, its grids solve the
/// puzzle, and they differ from the first), None if the second solve gave no answer or
/// the count cannot be read from the formula. `Err` only for a wrong second answer.
pub fn count_solutions(
    solver: &dyn Solver,
    built: &Built,
    model: &Model,
    limits: &Limits,
) -> Result<Option<u32>, String> {
    let Some(block) = blocking_clause(built, model) else {
        return Ok(None);
    };
    if block.is_empty() {
        // The givens decide every cell: the formula has this one solution.
        return Ok(Some(1));
    }
    let mut cnf = built.cnf.clone();
    crate::cnf::ClauseSink::add_clause(&mut cnf, &block);
    let outcome = solver.solve(&cnf, limits);
    match outcome.status {
        Status::Unsat => Ok(Some(1)),
        Status::Sat => {
            let Some(second) = outcome.model.as_ref() else {
                return Err("second solve said SAT without a model".into());
            };
            check_model(&cnf, second).map_err(|e| format!("second solution is wrong: {e}"))?;
            let h = built
                .header
                .as_ref()
                .expect("a blocking clause needs a header");
            let first = read_grids(&built.cnf, &h.puzzle, model).solved();
            match (first, read_grids(&cnf, &h.puzzle, second)) {
                (Some(first), Reading::Solved(again)) if again != first => Ok(Some(2)),
                // Satisfying the block with the same grids, or with grids that are no
                // solution, is the formula's looseness, not a wrong answer: no count.
                _ => Ok(None),
            }
        }
        _ => Ok(None),
    }
}
