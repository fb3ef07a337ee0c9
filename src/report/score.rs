//! Scores in the SAT-competition conventions, computed from result rows alone.
//!
//! Per solver × encoding: runs, solved (SAT + UNSAT, wrong answers excluded), timeouts,
//! memouts, errors, WRONG, PAR-2 (the mean over runs of the wall time for a solved run and
//! twice the timeout otherwise), the mean and median wall time of solved runs, and the
//! total wall time of all runs. Wrong answers are listed before anything else.
//!
//! The timeout is each row's own `timeout_s`, unless the report is given one
//! (`bench report --timeout`): then a run that answered after that timeout counts as a
//! timeout, as it would have in a benchmark run with the shorter limit.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::report::TimeBasis;
use crate::report::summary::WrongAnswer;
use crate::report::table::{Exporter, Markdown, Terminal};
use crate::report::tables;
use crate::run::results::Row;
use crate::solver::Status;

/// The scores of one solver on one encoding.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Score {
    /// Solver name.
    pub solver: String,
    /// Encoding name.
    pub encoding: String,
    /// Runs.
    pub runs: usize,
    /// Right answers (SAT + UNSAT, not wrong).
    pub solved: usize,
    /// Right SAT answers.
    pub sat: usize,
    /// Right UNSAT answers.
    pub unsat: usize,
    /// Timeouts.
    pub timeouts: usize,
    /// Memory-outs.
    pub memouts: usize,
    /// Errors and UNKNOWNs.
    pub errors: usize,
    /// Wrong answers.
    pub wrong: usize,
    /// Penalised average runtime, seconds.
    pub par2: f64,
    /// Mean wall time of the solved runs, seconds (0 if none).
    pub mean_s: f64,
    /// Median wall time of the solved runs, seconds (0 if none).
    pub median_s: f64,
    /// Total wall time of all runs, seconds.
    pub total_s: f64,
}

/// The median of `values` (0 for none).
pub fn median(values: &mut [f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let m = values.len() / 2;
    if values.len() % 2 == 1 {
        values[m]
    } else {
        (values[m - 1] + values[m]) / 2.0
    }
}

/// The mean of `values` (0 for none).
pub fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        0.0
    } else {
        values.iter().sum::<f64>() / values.len() as f64
    }
}

/// The timeout that scores `row`: the report's own if it has one, else the row's.
pub fn effective_timeout(row: &Row, timeout: Option<f64>) -> f64 {
    timeout.unwrap_or(row.timeout_s)
}

/// The status `row` counts as under `timeout`: an answer that came after the report's
/// timeout is a timeout. Rows with an unparseable status count as errors.
pub fn effective_status(row: &Row, timeout: Option<f64>) -> Status {
    let status = row.status().unwrap_or(Status::Error);
    match timeout {
        Some(t) if status.is_solved() && row.wall_s > t => Status::Timeout,
        _ => status,
    }
}

/// Solved, right, and within the timeout: counts towards the solved total and PAR-2.
pub fn counts_as_solved(row: &Row, timeout: Option<f64>) -> bool {
    !row.wrong && effective_status(row, timeout).is_solved()
}

/// Scores per (solver, encoding), in name order, each row scored against its own timeout.
pub fn scores(rows: &[Row]) -> Vec<Score> {
    scores_with_timeout(rows, None)
}

/// Scores per (solver, encoding), in name order; `timeout` (if any) replaces the rows' own.
pub fn scores_with_timeout(rows: &[Row], timeout: Option<f64>) -> Vec<Score> {
    let mut groups: BTreeMap<(String, String), Vec<&Row>> = BTreeMap::new();
    for r in rows {
        groups
            .entry((r.solver.clone(), r.encoding.clone()))
            .or_default()
            .push(r);
    }
    groups
        .into_iter()
        .map(|((solver, encoding), rows)| {
            let mut s = Score {
                solver,
                encoding,
                runs: rows.len(),
                ..Score::default()
            };
            let mut solved_times = Vec::new();
            let mut penalised = 0.0;
            for r in &rows {
                s.total_s += r.wall_s;
                if r.wrong {
                    s.wrong += 1;
                } else {
                    match effective_status(r, timeout) {
                        Status::Sat => s.sat += 1,
                        Status::Unsat => s.unsat += 1,
                        Status::Timeout => s.timeouts += 1,
                        Status::Memout => s.memouts += 1,
                        Status::Unknown | Status::Error => s.errors += 1,
                    }
                }
                if counts_as_solved(r, timeout) {
                    solved_times.push(r.wall_s);
                    penalised += r.wall_s;
                } else {
                    penalised += 2.0 * effective_timeout(r, timeout);
                }
            }
            s.solved = s.sat + s.unsat;
            s.par2 = penalised / rows.len() as f64;
            s.mean_s = mean(&solved_times);
            s.median_s = median(&mut solved_times);
            s
        })
        .collect()
}

/// The wrong answers, one line each.
pub fn wrong_lines(rows: &[Row]) -> Vec<String> {
    rows.iter()
        .filter(|r| r.wrong)
        .map(|r| {
            format!(
                "WRONG {} on {} ({}, run {}): {} — {}",
                r.solver, r.instance, r.encoding, r.run, r.status, r.error
            )
        })
        .collect()
}

/// The scores table for the terminal, the times being `time` (see
/// [`super::timed_rows`]).
pub fn text_table(scores: &[Score], time: TimeBasis) -> String {
    Terminal.table(&tables::scores(scores, time))
}

/// The plain summary that stands in for the report when it cannot be drawn: the wrong
/// answers first, the scores, and the inputs that were skipped.
pub fn markdown(rows: &[Row], scores: &[Score], skipped: &[String]) -> String {
    let mut out = String::from("# Summary\n\n");
    let wrong: Vec<WrongAnswer> = rows
        .iter()
        .filter(|r| r.wrong)
        .map(WrongAnswer::of)
        .collect();
    if !wrong.is_empty() {
        let _ = writeln!(out, "## WRONG answers ({})\n", wrong.len());
        out += &Markdown.table(&tables::wrong_answers(&wrong));
        out.push('\n');
    }
    out += &Markdown.table(&tables::scores(scores, TimeBasis::Wall));
    if !skipped.is_empty() {
        let _ = writeln!(out, "\n## Skipped inputs ({})\n", skipped.len());
        for s in skipped {
            let _ = writeln!(out, "- {s}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(solver: &str, status: &str, wall: f64, wrong: bool) -> Row {
        Row {
            corpus: "c".into(),
            instance: "i".into(),
            kind: "sudoku".into(),
            side: 9,
            encoding: "extended".into(),
            vars: 1,
            clauses: 1,
            solver: solver.into(),
            run: 1,
            status: status.into(),
            check: "unchecked".into(),
            wall_s: wall,
            cpu_s: None,
            max_rss_kb: None,
            exit_code: None,
            timeout_s: 10.0,
            jobs: 1,
            error: String::new(),
            wrong,
            solutions: None,
            givens: None,
        }
    }

    #[test]
    fn par2_by_hand() {
        let rows = vec![
            row("a", "SAT", 1.0, false),
            row("a", "UNSAT", 3.0, false),
            row("a", "TIMEOUT", 10.0, false),
            row("a", "UNSAT", 0.5, true),
        ];
        let s = &scores(&rows)[0];
        assert_eq!(
            (s.runs, s.solved, s.sat, s.unsat, s.timeouts, s.wrong),
            (4, 2, 1, 1, 1, 1)
        );
        // (1 + 3 + 20 + 20) / 4
        assert!((s.par2 - 11.0).abs() < 1e-9);
        assert!((s.median_s - 2.0).abs() < 1e-9);
        assert!((s.mean_s - 2.0).abs() < 1e-9);
        assert!((s.total_s - 14.5).abs() < 1e-9);
        assert_eq!(wrong_lines(&rows).len(), 1);
    }

    #[test]
    fn a_shorter_report_timeout_turns_late_answers_into_timeouts() {
        let rows = vec![row("a", "SAT", 1.0, false), row("a", "UNSAT", 3.0, false)];
        let s = &scores_with_timeout(&rows, Some(2.0))[0];
        assert_eq!((s.solved, s.sat, s.unsat, s.timeouts), (1, 1, 0, 1));
        // (1 + 2·2) / 2
        assert!((s.par2 - 2.5).abs() < 1e-9);
    }
}
