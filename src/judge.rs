//! The judgement of an answer, one place for it: what the check of a run's answer found
//! ([`Verdict`]), and the one pure function ([`judge`]) from a finished run's answer
//! ([`Answer`]) and the corpus's records of its instance to the judged columns of its
//! row ([`Judged`]: `check`, `wrong`, `error`, `solutions`). It weighs the check of the
//! first answer, what the count of solutions found ([`count_step`] judges each solution
//! as the count runs), and what the corpus records. Every runner (fresh formula, session,
//! child process) leaves the same finished value, whose [`Answer`] is judged here alike.
//!
//! The cross-check of UNSAT answers against verified models of the same instance needs
//! every row of a benchmark, so it runs where rows are read:
//! [`crate::results::cross_check_unsat`].

use crate::count::Counted;
use crate::puzzle::Puzzle;
use crate::puzzle::format::Expected;
use crate::results::{Check, Trust};
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
    /// `rate` verified the DRAT proof of UNSAT, and no verified checker did (none is
    /// installed, or it failed: why).
    ProofOk(Option<String>),
    /// `rate` verified the DRAT proof and cake_lpr, a formally verified checker, the LRAT
    /// proof `rate` made of it.
    ProofVerified,
    /// A checker rejected the proof: which and why.
    ProofFailed(String),
    /// A checker ran out of its time or memory: neither wrong nor certified; which and why.
    ProofTimeout(String),
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
            Verdict::ProofOk(_) | Verdict::ProofVerified => Check::ProofOk,
            Verdict::ProofFailed(_) => Check::ProofFailed,
            Verdict::ProofTimeout(_) | Verdict::Unchecked(_) => Check::Unchecked,
        }
    }

    /// A wrong answer.
    pub fn wrong(&self) -> bool {
        matches!(self, Verdict::ModelWrong(_) | Verdict::ProofFailed(_))
    }

    /// Why, if there is something to say.
    pub fn reason(&self) -> Option<&str> {
        match self {
            Verdict::EncodingOpen(why)
            | Verdict::ModelWrong(why)
            | Verdict::ProofFailed(why)
            | Verdict::ProofTimeout(why) => Some(why),
            Verdict::Unchecked(note) | Verdict::ProofOk(note) => note.as_deref(),
            Verdict::ModelOk | Verdict::ProofVerified => None,
        }
    }

    /// How far an answer of `status` with this verdict is trusted, when nothing else
    /// makes it wrong.
    pub fn trust(&self, status: Status) -> Trust {
        match (self, status) {
            (Verdict::ModelOk, Status::Sat) => Trust::ModelChecked,
            (Verdict::ProofVerified, Status::Unsat) => Trust::ProofVerified,
            (Verdict::ProofOk(_), Status::Unsat) => Trust::ProofChecked,
            (Verdict::ProofTimeout(_), Status::Unsat) => Trust::ProofTimeout,
            (Verdict::Unchecked(_), Status::Unsat) => Trust::CrossChecked,
            _ => Trust::Unchecked,
        }
    }
}

/// The judged columns of a row: `check`, `trust`, `wrong`, `error` and `solutions`,
/// written by [`judge`] alone.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Judged {
    /// What the check found (the `check` column).
    pub check: Check,
    /// How far the answer is trusted (the `trust` column).
    pub trust: Option<Trust>,
    /// A wrong answer.
    pub wrong: bool,
    /// Why, in one line: the check's reason, the solver's own error, later notes.
    pub error: String,
    /// With `--count`: how many solutions (the limit meaning at least that many).
    pub solutions: Option<u32>,
}

impl Judged {
    /// The columns of a verdict (with the solver's own error, if it gave one).
    pub fn of(verdict: &Verdict, solver_error: Option<&str>) -> Judged {
        let why: Vec<&str> = verdict
            .reason()
            .into_iter()
            .chain(solver_error)
            .filter(|s| !s.is_empty())
            .collect();
        Judged {
            check: verdict.check(),
            trust: None,
            wrong: verdict.wrong(),
            // One line: CSV readers cope with newlines, people reading the file less so.
            error: why.join("; ").replace(['\n', '\r'], " "),
            solutions: None,
        }
    }

    /// Marks the answer wrong for a reason found after its check (a count that
    /// contradicts it, the corpus's record): `check` keeps what the check found.
    fn mark_wrong(&mut self, why: &str) {
        self.wrong = true;
        self.note(why);
    }

    /// Adds a note to the error column.
    fn note(&mut self, text: &str) {
        if !self.error.is_empty() {
            self.error.push_str("; ");
        }
        self.error.push_str(text);
    }
}

/// What the judgement reads of a finished run: the first solve's status and the solver's
/// own error, what the check of its answer found, what the count found, and the solutions
/// it found (every one the count found, else the first answer's grids).
#[derive(Clone, Copy, Debug)]
pub struct Answer<'a> {
    /// The first solve's status.
    pub status: Status,
    /// The solver's own error, if any.
    pub error: Option<&'a str>,
    /// What the check of the first answer found.
    pub checked: &'a Verdict,
    /// With `--count` on a puzzle: what the count found.
    pub count: Option<&'a Counted>,
    /// The solutions found (checked by the runner; kept only if the judgement says so).
    pub solutions: &'a [Puzzle],
}

/// The judgement of a finished run, the one function from it (and the corpus's records of
/// its instance) to the judged columns: the check of the first answer, then what the
/// count found (a wrong solution makes the answer wrong; a count cut short is noted), then
/// the records. `puzzle` says the instance is a puzzle (a puzzle answered UNSAT has 0
/// solutions when counted), `limit` is `--count`.
pub fn judge(answer: &Answer<'_>, records: &[Expected], puzzle: bool, limit: u32) -> Judged {
    let mut judged = Judged::of(answer.checked, answer.error);
    if let Some(counted) = answer.count {
        if let Some(why) = &counted.wrong {
            judged = Judged::of(&Verdict::ModelWrong(why.clone()), None);
        }
        judged.solutions = counted.count;
        if let Some(why) = &counted.stopped {
            judged.note(&format!(
                "the count stopped after {} solution(s): {why}",
                counted.grids.len()
            ));
        }
    }
    let grids = verified(answer, &judged).first();
    // A puzzle answered UNSAT has no solution: counted, that is 0.
    if limit >= 2 && answer.status == Status::Unsat && puzzle {
        judged.solutions = Some(0);
    }
    for r in records {
        hold_against_record(&mut judged, answer.status, r, grids, limit);
    }
    judged.trust = Some(if judged.wrong {
        Trust::Unchecked
    } else {
        answer.checked.trust(answer.status)
    });
    judged
}

/// The solutions of a finished run that its judgement verified (none unless its check
/// is `model-ok`): what `solutions/` keeps and the records are held against.
pub fn verified<'a>(answer: &Answer<'a>, judged: &Judged) -> &'a [Puzzle] {
    if judged.check == Check::ModelOk {
        answer.solutions
    } else {
        &[]
    }
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

/// Holds an answer against what the corpus records of it (`puzzle,solution`,
/// `puzzle:count:solution`). A claim the solver cannot back is WRONG when the record
/// contradicts it: UNSAT, or fewer solutions than recorded (the recorded solution was
/// checked against the rules and givens when read, so it is a witness). A verified model
/// that disagrees with the record proves the record wrong, not the solver: it is noted.
/// `grids` are the SAT answer's grids, `limit` the `--count` asked for.
fn hold_against_record(
    judged: &mut Judged,
    status: Status,
    expected: &Expected,
    grids: Option<&Puzzle>,
    limit: u32,
) {
    if judged.wrong || expected.is_empty() {
        return;
    }
    let differs = match (grids, &expected.solution) {
        (Some(g), Some(s)) => g != s,
        _ => false,
    };
    match status {
        Status::Unsat => {
            if expected.solution.is_some() {
                judged.mark_wrong("UNSAT, but the corpus records a solution");
            } else if let Some(c) = expected.count.filter(|&c| c > 0) {
                judged.mark_wrong(&format!("UNSAT, but the corpus records {c} solutions"));
            }
        }
        Status::Sat if judged.check == Check::ModelOk => {
            if expected.count == Some(0) {
                judged.note(
                    "the corpus records no solution: this verified model proves the record wrong",
                );
            }
            match (judged.solutions, expected.count) {
                (Some(1), _) if differs => judged.mark_wrong(
                    "claims a unique solution, but the corpus records another one",
                ),
                (Some(k), Some(c)) if u64::from(k) < c.min(u64::from(limit)) => judged
                    .mark_wrong(&format!("found {k} solution(s), the corpus records {c}")),
                (Some(k), Some(c)) if u64::from(k) > c => judged.note(&format!(
                    "{k} verified solutions, the corpus records {c}: the record is wrong"
                )),
                _ if differs && expected.count == Some(1) => judged.note(
                    "a verified solution other than the corpus's: the puzzle is not unique as recorded",
                ),
                _ => {}
            }
        }
        _ => {}
    }
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
        let judged = Judged::of(&Verdict::ModelWrong("clause 3".into()), Some("exit 1"));
        assert_eq!(
            (judged.check, judged.wrong, judged.error.as_str()),
            (Check::ModelWrong, true, "clause 3; exit 1")
        );
        let judged = Judged::of(&Verdict::ModelOk, None);
        assert_eq!(
            (judged.check, judged.wrong, judged.error.as_str()),
            (Check::ModelOk, false, "")
        );
    }
}
