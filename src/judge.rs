//! The judgement of an answer, one place for it: what a run's answer is worth once it has
//! been checked ([`Verdict`]), written into a row's `check`, `wrong` and `error` columns
//! by [`apply`] alone; what the count of solutions says ([`count_step`]); what the
//! corpus's records of the answer say ([`hold_against_records`]); and the cross-check of
//! UNSAT answers against the verified models of the same instance ([`cross_check_unsat`]).
//!
//! Every place rows meet applies the same judgement: `bench run` (fresh formula,
//! session, child process alike), `--resume` (old rows with new), `bench merge` (shards)
//! and `bench report` over several CSVs (a lie in one file, a verified model in another).

use std::collections::BTreeMap;

use crate::puzzle::Puzzle;
use crate::puzzle::format::Expected;
use crate::results::{Check, Row};
use crate::solver::Status;

/// What checking one answer found.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The model satisfies every clause (and, for puzzles, solves the puzzle).
    ModelOk,
    /// The model satisfies every clause, but the formula leaves the puzzle open: a fact
    /// about the encoding; the solver is right.
    EncodingOpen(String),
    /// The model is wrong: why.
    ModelWrong(String),
    /// `rate` verified the DRAT proof of UNSAT.
    ProofOk,
    /// `rate` rejected the proof: why.
    ProofFailed(String),
    /// Nothing could be checked (UNSAT without a proof, no answer), with a note if any.
    Unchecked(Option<String>),
}

impl Verdict {
    /// The `check` column.
    pub fn check(&self) -> Check {
        match self {
            Verdict::ModelOk => Check::ModelOk,
            Verdict::EncodingOpen(_) => Check::EncodingOpen,
            Verdict::ModelWrong(_) => Check::ModelWrong,
            Verdict::ProofOk => Check::ProofOk,
            Verdict::ProofFailed(_) => Check::ProofFailed,
            Verdict::Unchecked(_) => Check::Unchecked,
        }
    }

    /// A wrong answer.
    pub fn wrong(&self) -> bool {
        matches!(self, Verdict::ModelWrong(_) | Verdict::ProofFailed(_))
    }

    /// Why, if there is something to say.
    pub fn reason(&self) -> Option<&str> {
        match self {
            Verdict::EncodingOpen(why) | Verdict::ModelWrong(why) | Verdict::ProofFailed(why) => {
                Some(why)
            }
            Verdict::Unchecked(note) => note.as_deref(),
            Verdict::ModelOk | Verdict::ProofOk => None,
        }
    }
}

/// Writes a verdict into `row` (with the solver's own error, if it gave one): the only
/// writer of `check`, and of `wrong` for what the check found.
pub fn apply(row: &mut Row, verdict: &Verdict, solver_error: Option<&str>) {
    row.check = verdict.check();
    row.wrong = verdict.wrong();
    let why: Vec<&str> = verdict
        .reason()
        .into_iter()
        .chain(solver_error)
        .filter(|s| !s.is_empty())
        .collect();
    // One line: CSV readers cope with newlines, people reading the file less so.
    row.error = why.join("; ").replace(['\n', '\r'], " ");
}

/// Marks `row` wrong for a reason found after its check (a count that contradicts the
/// answer, the corpus's record, another run's verified model): the check column keeps
/// what the check of this answer found.
pub fn mark_wrong(row: &mut Row, why: &str) {
    row.wrong = true;
    note(row, why);
}

/// Adds a note to the row's error column.
fn note(row: &mut Row, text: &str) {
    if !row.error.is_empty() {
        row.error.push_str("; ");
    }
    row.error.push_str(text);
}

/// With `--count`: what solution number `k` (from 2) found after blocking the earlier
/// ones says. The same judgement in a session and in a fresh formula: a solution that
/// repeats a blocked one broke its blocking clause, a wrong answer.
pub fn count_step(seen: &[Puzzle], next: &Puzzle, k: usize) -> Result<(), String> {
    if seen.contains(next) {
        Err(format!("solution {k} repeats a blocked one"))
    } else {
        Ok(())
    }
}

/// With `--count`: notes why a count did not finish (a solve of it gave no answer): the
/// `solutions` column stays empty, the first answer stands.
pub fn count_unfinished(row: &mut Row, found: usize, why: &str) {
    note(
        row,
        &format!("the count stopped after {found} solution(s): {why}"),
    );
}

/// Holds a row against every record the corpus holds of its instance (one per line that
/// held the instance's content).
pub fn hold_against_records(
    row: &mut Row,
    records: &[Expected],
    grids: Option<&Puzzle>,
    limit: u32,
) {
    // A puzzle answered UNSAT has no solution: counted, that is 0.
    if limit >= 2 && row.status == Status::Unsat && row.kind.is_puzzle() {
        row.solutions = Some(0);
    }
    for r in records {
        hold_against_record(row, r, grids, limit);
    }
}

/// Holds a row against what the corpus records of the answer (`puzzle,solution`,
/// `puzzle:count:solution`). A claim the solver cannot back is WRONG when the record
/// contradicts it: UNSAT, or fewer solutions than recorded (the recorded solution was
/// checked against the rules and givens when read, so it is a witness). A verified model
/// that disagrees with the record proves the record wrong, not the solver: it is noted.
/// `grids` are the SAT answer's grids, `limit` the `--count` asked for.
pub fn hold_against_record(row: &mut Row, expected: &Expected, grids: Option<&Puzzle>, limit: u32) {
    if row.wrong || expected.is_empty() {
        return;
    }
    let differs = match (grids, &expected.solution) {
        (Some(g), Some(s)) => g != s,
        _ => false,
    };
    match row.status {
        Status::Unsat => {
            if expected.solution.is_some() {
                mark_wrong(row, "UNSAT, but the corpus records a solution");
            } else if let Some(c) = expected.count.filter(|&c| c > 0) {
                mark_wrong(row, &format!("UNSAT, but the corpus records {c} solutions"));
            }
        }
        Status::Sat if row.check == Check::ModelOk => {
            if expected.count == Some(0) {
                note(
                    row,
                    "the corpus records no solution: this verified model proves the record wrong",
                );
            }
            match (row.solutions, expected.count) {
                (Some(1), _) if differs => mark_wrong(
                    row,
                    "claims a unique solution, but the corpus records another one",
                ),
                (Some(k), Some(c)) if u64::from(k) < c.min(u64::from(limit)) => mark_wrong(
                    row,
                    &format!("found {k} solution(s), the corpus records {c}"),
                ),
                (Some(k), Some(c)) if u64::from(k) > c => note(
                    row,
                    &format!("{k} verified solutions, the corpus records {c}: the record is wrong"),
                ),
                _ if differs && expected.count == Some(1) => note(
                    row,
                    "a verified solution other than the corpus's: the puzzle is not unique as recorded",
                ),
                _ => {}
            }
        }
        _ => {}
    }
}

/// Holds every UNSAT answer against the verified models of the same instance (by content
/// hash): a contradicted UNSAT is WRONG. A model whose grids solve the puzzle refutes UNSAT
/// under every encoding (all encodings of a puzzle have the same solutions); a model that
/// only satisfies the clauses of an encoding that leaves the puzzle open refutes UNSAT
/// under that encoding alone. Returns true if any row changed.
pub fn cross_check_unsat(rows: &mut [Row]) -> bool {
    // (instance, encoding or "" for every encoding) -> who witnessed a model.
    let mut witnessed: BTreeMap<(String, String), String> = BTreeMap::new();
    for r in rows.iter() {
        if r.status != Status::Sat {
            continue;
        }
        let scope = match r.check {
            Check::ModelOk => String::new(),
            Check::EncodingOpen => r.encoding.to_string(),
            _ => continue,
        };
        witnessed
            .entry((r.instance_key().to_string(), scope))
            .or_insert_with(|| format!("{} ({})", r.solver, r.encoding));
    }
    let mut changed = false;
    for r in rows.iter_mut() {
        if r.status != Status::Unsat || r.wrong {
            continue;
        }
        let by = witnessed
            .get(&(r.instance_key().to_string(), String::new()))
            .or_else(|| witnessed.get(&(r.instance_key().to_string(), r.encoding.to_string())));
        if let Some(by) = by {
            let why = format!("UNSAT contradicted by the verified model of {by}");
            mark_wrong(r, &why);
            changed = true;
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{Grid, Kind};

    #[test]
    fn a_repeated_solution_is_wrong() {
        let latin = |cells: [u16; 4]| {
            Puzzle::new(
                Kind::Latin,
                vec![Grid::from_cells(2, cells.to_vec()).unwrap()],
            )
            .unwrap()
        };
        let (a, b) = (latin([1, 2, 2, 1]), latin([2, 1, 1, 2]));
        assert_eq!(count_step(std::slice::from_ref(&a), &b, 2), Ok(()));
        assert_eq!(
            count_step(&[a.clone(), b], &a, 3),
            Err("solution 3 repeats a blocked one".into())
        );
    }

    #[test]
    fn the_columns_come_from_the_verdict_alone() {
        let mut row = Row::default();
        apply(
            &mut row,
            &Verdict::ModelWrong("clause 3".into()),
            Some("exit 1"),
        );
        assert_eq!(
            (row.check, row.wrong, row.error.as_str()),
            (Check::ModelWrong, true, "clause 3; exit 1")
        );
        apply(&mut row, &Verdict::ModelOk, None);
        assert_eq!(
            (row.check, row.wrong, row.error.as_str()),
            (Check::ModelOk, false, "")
        );
        row.status = Status::Unsat;
        row.hash = "h".into();
        let mut witness = Row {
            status: Status::Sat,
            solver: "kissat".into(),
            hash: "h".into(),
            ..Row::default()
        };
        apply(&mut witness, &Verdict::ModelOk, None);
        let mut rows = vec![row, witness];
        assert!(cross_check_unsat(&mut rows));
        assert!(rows[0].wrong && rows[0].error.contains("verified model of kissat"));
    }
}
