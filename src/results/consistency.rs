//! One judgement on read: every row read from a results CSV (by `bench report`,
//! `--compare`, `bench merge`, `--resume` and `bench status` alike) is held to the rules
//! that bind its columns, and a row that breaks one is refused naming its file and line.
//! A file a person edited or received is data to validate, not truth: the verdict a row
//! counts as comes from its status and check (and the UNSAT cross-check,
//! [`super::cross_check_unsat`]), and the stored `wrong` flag must agree with them.
//!
//! The rules, which every row the run core writes keeps (see `judge.rs`):
//! - a check goes with the status it checks: `model-ok`, `encoding-open` and
//!   `model-wrong` with SAT, `proof-ok` and `proof-failed` with UNSAT, and a SAT answer is
//!   always checked (never `unchecked`);
//! - a check that found the answer wrong (`model-wrong`, `proof-failed`) makes the row
//!   wrong;
//! - a row is wrong for another reason (a count or the corpus's record contradicting it)
//!   only if it is an answer (SAT or UNSAT) and its `error` column says why;
//! - a stored trust level claims no more than status, check and wrong bear;
//! - a `limit` goes with the status it ends a run in (`wall` and `cpu` with TIMEOUT,
//!   `memory` with MEMOUT), and `cpu` only where the row has a CPU limit;
//! - every time is a finite number of seconds, ≥ 0.

use super::{Check, Row, Trust};
use crate::solver::{LimitHit, Status};

impl Check {
    /// The check found the answer wrong: a bad model or a rejected proof.
    pub fn found_wrong(self) -> bool {
        matches!(self, Check::ModelWrong | Check::ProofFailed)
    }

    /// The check can be of an answer with `status`.
    pub fn fits(self, status: Status) -> bool {
        match self {
            Check::ModelOk | Check::EncodingOpen | Check::ModelWrong => status == Status::Sat,
            Check::ProofOk | Check::ProofFailed => status == Status::Unsat,
            Check::Unchecked => status != Status::Sat,
        }
    }
}

/// Refuses a row whose columns contradict each other or whose times no run can have;
/// `Err` says which columns and why (the caller adds `file:line`).
pub(crate) fn check_row(row: &Row) -> Result<(), String> {
    check_times(row)?;
    let (status, check) = (row.status, row.check);
    if !check.fits(status) {
        return Err(if check == Check::Unchecked {
            format!("status SAT with check {check}: every SAT answer is checked")
        } else {
            format!("status {status} with check {check}: that check cannot go with that status")
        });
    }
    if check.found_wrong() && !row.wrong {
        return Err(format!(
            "check {check} with wrong=false: an answer its check found wrong is wrong"
        ));
    }
    if let Some(trust) = row.trust
        && !trust_fits(trust, row)
    {
        return Err(format!(
            "trust {trust} with status {status}, check {check} and wrong={}: the columns \
             do not bear that much trust",
            row.wrong
        ));
    }
    check_limit(row)?;
    if row.wrong && !check.found_wrong() {
        if !status.is_solved() {
            return Err(format!(
                "wrong=true for a {status} row: only an answer (SAT or UNSAT) can be wrong"
            ));
        }
        if row.error.trim().is_empty() {
            return Err(format!(
                "wrong=true with check {check} and no reason in the error column: the \
                 columns contradict each other"
            ));
        }
    }
    Ok(())
}

/// A stored trust level claims no more than the row's status, check and wrong columns
/// bear: `proof-verified` only where a proof was checked, `proof-timeout` only for an
/// UNSAT whose proof went unchecked; less trust than they bear (`unchecked`) is allowed.
fn trust_fits(trust: Trust, row: &Row) -> bool {
    let bears = Trust::derive(row.status, row.check, row.wrong);
    trust == bears
        || trust == Trust::Unchecked
        || matches!(
            (trust, bears),
            (Trust::ProofVerified, Trust::ProofChecked)
                | (Trust::ProofTimeout, Trust::CrossChecked)
        )
}

/// Refuses a `limit` that cannot have ended the row's run.
fn check_limit(row: &Row) -> Result<(), String> {
    let Some(limit) = row.limit else {
        return Ok(());
    };
    let fits = match limit {
        LimitHit::Wall | LimitHit::Cpu => row.status == Status::Timeout,
        LimitHit::Memory => row.status == Status::Memout,
    };
    if !fits {
        return Err(format!(
            "limit {limit} with status {}: that limit does not end a run that way",
            row.status
        ));
    }
    if limit == LimitHit::Cpu && row.cpu_limit_s.is_none() {
        return Err("limit cpu with no cpu_limit_s: the run had no CPU limit".into());
    }
    Ok(())
}

/// Refuses a row whose times no run can have: NaN, infinite or negative.
fn check_times(row: &Row) -> Result<(), String> {
    let times = [
        ("wall_s", Some(row.wall_s)),
        ("cpu_s", row.cpu_s),
        ("timeout_s", Some(row.timeout_s)),
        ("cpu_limit_s", row.cpu_limit_s),
        ("count_wall_s", row.count_wall_s),
        ("count_cpu_s", row.count_cpu_s),
        ("check_s", row.check_s),
    ];
    for (column, t) in times {
        if let Some(t) = t
            && !(t.is_finite() && t >= 0.0)
        {
            return Err(format!(
                "{column} is {t}: a time is a finite number of seconds ≥ 0"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::{Judged, Verdict};

    fn row(status: Status, check: Check, wrong: bool, error: &str) -> Row {
        Row {
            status,
            check,
            wrong,
            error: error.into(),
            ..Row::default()
        }
    }

    /// Every verdict the run core gives, with every status it gives it to (see
    /// `run/exec.rs`, `run/incremental.rs`, `run/finished.rs`), passes; so does a row the
    /// count or the corpus's record marked wrong, and a cross-checked UNSAT.
    #[test]
    fn every_row_bench_writes_passes() {
        let verdicts = [
            (Status::Sat, Verdict::ModelOk),
            (Status::Sat, Verdict::EncodingOpen("open".into())),
            (Status::Sat, Verdict::ModelWrong("clause 3".into())),
            (Status::Sat, Verdict::ModelWrong(String::new())),
            (Status::Unsat, Verdict::ProofOk(None)),
            (
                Status::Unsat,
                Verdict::ProofOk(Some("cake_lpr not found".into())),
            ),
            (Status::Unsat, Verdict::ProofVerified),
            (
                Status::Unsat,
                Verdict::ProofTimeout("cake_lpr: out of time".into()),
            ),
            (Status::Unsat, Verdict::ProofFailed("rate".into())),
            (Status::Unsat, Verdict::Unchecked(None)),
            (
                Status::Unsat,
                Verdict::Unchecked(Some("proof not checked".into())),
            ),
            (Status::Unknown, Verdict::Unchecked(None)),
            (Status::Timeout, Verdict::Unchecked(None)),
            (Status::Memout, Verdict::Unchecked(None)),
            (Status::Error, Verdict::Unchecked(None)),
        ];
        for (status, verdict) in verdicts {
            // A model claimed wrong without a reason gets the solver's own error.
            let judged = Judged::of(&verdict, Some("exit 1"));
            let mut r = row(status, judged.check, judged.wrong, &judged.error);
            assert_eq!(check_row(&r), Ok(()), "{r:?}");
            // With the trust level the judgement gives it (as `judge::judge` does).
            r.trust = Some(if judged.wrong {
                Trust::Unchecked
            } else {
                verdict.trust(status)
            });
            assert_eq!(check_row(&r), Ok(()), "{r:?}");
        }
        for (status, check) in [
            (Status::Sat, Check::ModelOk),
            (Status::Unsat, Check::Unchecked),
            (Status::Unsat, Check::ProofOk),
        ] {
            let r = row(status, check, true, "the corpus records another solution");
            assert_eq!(check_row(&r), Ok(()), "{r:?}");
        }
        let mut rows = vec![
            row(Status::Sat, Check::ModelOk, false, ""),
            row(Status::Unsat, Check::Unchecked, false, ""),
        ];
        crate::results::cross_check_unsat(&mut rows);
        assert!(rows[1].wrong);
        assert_eq!(check_row(&rows[1]), Ok(()));
    }

    #[test]
    fn contradicting_columns_are_refused() {
        let trusting = |status, check, trust| Row {
            trust: Some(trust),
            ..row(status, check, false, "")
        };
        let bad = [
            (
                trusting(Status::Unsat, Check::Unchecked, Trust::ProofVerified),
                "trust proof-verified",
            ),
            (
                trusting(Status::Sat, Check::EncodingOpen, Trust::ModelChecked),
                "trust model-checked",
            ),
            (
                trusting(Status::Unsat, Check::ProofOk, Trust::ProofTimeout),
                "trust proof-timeout",
            ),
            (
                row(Status::Sat, Check::ModelWrong, false, ""),
                "wrong=false",
            ),
            (
                row(Status::Unsat, Check::ProofFailed, false, "x"),
                "wrong=false",
            ),
            (row(Status::Sat, Check::ModelOk, true, ""), "no reason"),
            (
                row(Status::Sat, Check::Unchecked, false, ""),
                "every SAT answer",
            ),
            (
                row(Status::Unsat, Check::ModelOk, false, ""),
                "cannot go with",
            ),
            (
                row(Status::Timeout, Check::ModelOk, false, ""),
                "cannot go with",
            ),
            (
                row(Status::Sat, Check::ProofOk, false, ""),
                "cannot go with",
            ),
            (
                row(Status::Error, Check::Unchecked, true, "x"),
                "only an answer",
            ),
            (
                Row {
                    limit: Some(LimitHit::Cpu),
                    ..row(Status::Timeout, Check::Unchecked, false, "")
                },
                "no cpu_limit_s",
            ),
            (
                Row {
                    limit: Some(LimitHit::Wall),
                    ..row(Status::Sat, Check::ModelOk, false, "")
                },
                "limit wall with status SAT",
            ),
            (
                Row {
                    limit: Some(LimitHit::Memory),
                    ..row(Status::Timeout, Check::Unchecked, false, "")
                },
                "limit memory",
            ),
        ];
        for (r, why) in bad {
            let err = check_row(&r).unwrap_err();
            assert!(err.contains(why), "{r:?}: {err}");
        }
    }
}
