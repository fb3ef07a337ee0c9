//! One run: solve, check the answer, and make the result row.
//!
//! SAT answers are checked against the clauses and, for puzzles, decoded and held against
//! the rules and the givens. UNSAT answers come with a DRAT proof when `--proofs` is on and
//! the solver can write one; `rate` checks it (run through the helper like a solver, so it
//! too ends when bench dies). With `--count 2`, a verified solution is
//! blocked and the instance solved again to learn whether the solution is unique.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::check::{check_model, check_puzzle_model};
use crate::cnf::{Cnf, Lit, Model};
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

/// Checks a model: clauses, then rules and givens for puzzles.
pub fn check_sat(built: &Built, model: &Model) -> Result<(), String> {
    match &built.header {
        Some(h) => check_puzzle_model(&built.cnf, &h.puzzle, model)
            .map(|_| ())
            .map_err(|e| e.to_string()),
        None => check_model(&built.cnf, model).map_err(|e| e.to_string()),
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
    let dir = crate::solver::external::run::temp_dir().map_err(|e| e.to_string())?;
    let cnf_path = dir.path().join("f.cnf");
    let file = std::fs::File::create(&cnf_path).map_err(|e| e.to_string())?;
    crate::cnf::dimacs::write_cnf(file, cnf, &[]).map_err(|e| e.to_string())?;
    // Run like a solver (contained, ended with bench), with the proof's time limit.
    let mut args: Vec<std::ffi::OsString> = Vec::new();
    if style.skip_unit_deletions {
        args.push("--skip-unit-deletions".into());
    }
    args.push(cnf_path.clone().into_os_string());
    args.push(proof.as_os_str().to_owned());
    let mut spec = crate::solver::external::run::Spec::new(&rate, &args);
    spec.timeout = Some(limit);
    spec.tmp_dir = Some(dir.path());
    let done = crate::solver::external::run::run(&spec).map_err(|e| e.to_string())?;
    if done.stopped.is_some() {
        return Err(format!("rate did not finish within {} s", limit.as_secs()));
    }
    let out = String::from_utf8_lossy(&done.stdout);
    Ok(done.exit == crate::solver::external::run::Exit::Code(0)
        && out.lines().any(|l| l.trim() == "s VERIFIED"))
}

/// The clause that excludes a puzzle solution: not all of its grid literals again.
pub fn blocking_clause(built: &Built, model: &Model) -> Option<Vec<Lit>> {
    let h = built.header.as_ref()?;
    let solved = crate::encode::decode::decode(&h.puzzle, model).ok()?;
    let n = solved.side();
    let mut clause = Vec::new();
    for (b, board) in solved.boards().iter().enumerate() {
        for r in 0..n {
            for c in 0..n {
                let v = board.get(r, c) as usize;
                clause.push(!grid_var(n, b, r, c, v - 1).pos());
            }
        }
    }
    Some(clause)
}

/// What checking one answer gave: the check column, whether it is wrong, and why.
pub struct Verdict {
    /// model-ok, model-wrong, proof-ok, proof-failed, unchecked.
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
            Some(Ok(())) => Verdict {
                check: check::MODEL_OK,
                wrong: false,
                reason: None,
            },
            Some(Err(e)) => Verdict {
                check: check::MODEL_WRONG,
                wrong: true,
                reason: Some(e),
            },
            // A claimed model that is no model says why in the outcome's error.
            None => Verdict {
                check: check::MODEL_WRONG,
                wrong: true,
                reason: outcome
                    .error
                    .is_none()
                    .then(|| "SAT without a model".into()),
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
/// several (the second solution verified), None if the second solve gave no answer.
pub fn count_solutions(
    solver: &dyn Solver,
    built: &Built,
    model: &Model,
    limits: &Limits,
) -> Result<Option<u32>, String> {
    let Some(block) = blocking_clause(built, model) else {
        return Ok(None);
    };
    let mut cnf = built.cnf.clone();
    crate::cnf::ClauseSink::add_clause(&mut cnf, &block);
    let again = Built {
        cnf,
        header: built.header.clone(),
    };
    let outcome = solver.solve(&again.cnf, limits);
    match outcome.status {
        Status::Unsat => Ok(Some(1)),
        Status::Sat => match outcome.model.as_ref().map(|m| check_sat(&again, m)) {
            Some(Ok(())) => Ok(Some(2)),
            Some(Err(e)) => Err(format!("second solution is wrong: {e}")),
            None => Err("second solve said SAT without a model".into()),
        },
        _ => Ok(None),
    }
}
