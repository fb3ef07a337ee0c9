//! The report's numbers in one place, and their two text forms: `summary.json` for tools
//! and `summary.md` for people. WRONG answers come first in both: a benchmark that
//! returned a wrong answer has a bigger problem than any speed difference.

use std::fmt::Write;

use crate::report::bootstrap::{RESAMPLES, SEED};
use crate::report::score::Score;
use crate::report::speedup::{CONFIDENCE, Speedup};
use crate::report::vbs::VirtualBest;
use crate::run::results::Row;

/// One wrong answer.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct WrongAnswer {
    /// Solver.
    pub solver: String,
    /// Encoding.
    pub encoding: String,
    /// Instance id.
    pub instance: String,
    /// Repetition.
    pub run: u32,
    /// What the solver said.
    pub status: String,
    /// What the check found.
    pub check: String,
    /// Why it is wrong.
    pub error: String,
}

impl WrongAnswer {
    /// The wrong answer of `row`.
    pub fn of(row: &Row) -> WrongAnswer {
        WrongAnswer {
            solver: row.solver.clone(),
            encoding: row.encoding.clone(),
            instance: row.instance.clone(),
            run: row.run,
            status: row.status.clone(),
            check: row.check.clone(),
            error: row.error.clone(),
        }
    }
}

/// How the speedup intervals were computed.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct BootstrapSettings {
    /// Confidence of the intervals.
    pub confidence: f64,
    /// Resamples.
    pub resamples: usize,
    /// Seed of the splitmix64 generator.
    pub seed: u64,
}

/// Everything the summary reports.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Summary {
    /// Wrong answers, first of all.
    pub wrong_answers: Vec<WrongAnswer>,
    /// Result rows read (after merging).
    pub rows: usize,
    /// Distinct instances.
    pub instances: usize,
    /// Solvers, in the order they first appear.
    pub solvers: Vec<String>,
    /// Encodings, in the order they first appear.
    pub encodings: Vec<String>,
    /// The timeout the charts mark, seconds.
    pub timeout_s: f64,
    /// True when `--timeout` set it; false when it came from the rows (each run's own
    /// timeout then scores that run).
    pub timeout_given: bool,
    /// Scores per solver × encoding.
    pub scores: Vec<Score>,
    /// The virtual best solver.
    pub virtual_best: VirtualBest,
    /// The solver the speedups are against (None with a single solver).
    pub baseline: Option<String>,
    /// Speedups against the baseline.
    pub speedups: Vec<Speedup>,
    /// How the speedup intervals were computed.
    pub bootstrap: BootstrapSettings,
    /// Remarks: merged duplicates, skipped inputs, mixed timeouts.
    pub notes: Vec<String>,
    /// The chart files, in the order the page shows them.
    pub charts: Vec<String>,
}

impl Summary {
    /// The default bootstrap settings.
    pub fn bootstrap_settings() -> BootstrapSettings {
        BootstrapSettings {
            confidence: CONFIDENCE,
            resamples: RESAMPLES,
            seed: SEED,
        }
    }

    /// `summary.json`.
    pub fn to_json(&self) -> String {
        // Plain data of strings and numbers: serialisation cannot fail. Non-finite
        // numbers (none are produced) would become null.
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
            + "\n"
    }

    /// `summary.md`.
    pub fn to_markdown(&self) -> String {
        let mut out = String::from("# bench report\n\n");
        let _ = writeln!(
            out,
            "{} runs of {} solver(s) × {} encoding(s) on {} instances; timeout {} s{}.\n",
            self.rows,
            self.solvers.len(),
            self.encodings.len(),
            self.instances,
            self.timeout_s,
            if self.timeout_given {
                " (set for the report)"
            } else {
                ""
            }
        );
        if self.wrong_answers.is_empty() {
            out.push_str("No wrong answers.\n\n");
        } else {
            let _ = writeln!(out, "## WRONG answers ({})\n", self.wrong_answers.len());
            out.push_str("| solver | encoding | instance | run | said | check | why |\n");
            out.push_str("|---|---|---|---:|---|---|---|\n");
            for w in &self.wrong_answers {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} | {} | {} | {} |",
                    md(&w.solver),
                    md(&w.encoding),
                    md(&w.instance),
                    w.run,
                    md(&w.status),
                    md(&w.check),
                    md(&w.error)
                );
            }
            out.push('\n');
        }

        out.push_str("## Scores per solver × encoding\n\n");
        out.push_str("| solver | encoding | WRONG | runs | solved | SAT | UNSAT | timeouts | memouts | errors | PAR-2 (s) | mean (s) | median (s) | total (s) |\n");
        out.push_str("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for s in &self.scores {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                md(&s.solver),
                md(&s.encoding),
                if s.wrong > 0 {
                    format!("**{}**", s.wrong)
                } else {
                    "0".into()
                },
                s.runs,
                s.solved,
                s.sat,
                s.unsat,
                s.timeouts,
                s.memouts,
                s.errors,
                seconds(s.par2),
                seconds(s.mean_s),
                seconds(s.median_s),
                seconds(s.total_s)
            );
        }
        out.push_str(
            "\nPAR-2: the mean over runs of the wall time if solved, else twice the timeout. \
             Mean and median: over solved runs. Total: all runs. WRONG answers never count as solved.\n\n",
        );

        let v = &self.virtual_best;
        out.push_str("## Virtual best solver\n\n");
        out.push_str(
            "Per instance, the fastest right answer of any solver under any encoding.\n\n",
        );
        out.push_str("| instances | solved | SAT | UNSAT | PAR-2 (s) | mean (s) | median (s) | total (s) |\n");
        out.push_str("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
            v.instances,
            v.solved,
            v.sat,
            v.unsat,
            seconds(v.par2),
            seconds(v.mean_s),
            seconds(v.median_s),
            seconds(v.total_s)
        );
        if !v.contributions.is_empty() {
            out.push_str("Fastest on (instances): ");
            let parts: Vec<String> = v
                .contributions
                .iter()
                .map(|c| format!("{} · {} {}", md(&c.solver), md(&c.encoding), c.instances))
                .collect();
            out.push_str(&parts.join(", "));
            out.push_str("\n\n");
        }

        if let Some(baseline) = &self.baseline {
            let _ = writeln!(out, "## Speedup against {}\n", md(baseline));
            let _ = writeln!(
                out,
                "Median over the instances both solved (same encoding) of {} time / solver time; \
                 above 1 is faster than {}. {:.0} % bootstrap interval, {} resamples, seed {:#x}.\n",
                md(baseline),
                md(baseline),
                self.bootstrap.confidence * 100.0,
                self.bootstrap.resamples,
                self.bootstrap.seed
            );
            if self.speedups.is_empty() {
                out.push_str("No other solver to compare.\n\n");
            } else {
                out.push_str(
                    "| solver | encoding | both solved | median speedup | 95 % interval |\n",
                );
                out.push_str("|---|---|---:|---:|---|\n");
                for s in &self.speedups {
                    let _ = writeln!(
                        out,
                        "| {} | {} | {} | {} | {} |",
                        md(&s.solver),
                        md(&s.encoding),
                        s.both_solved,
                        s.median.map_or("–".into(), ratio),
                        match (s.ci_low, s.ci_high) {
                            (Some(lo), Some(hi)) => format!("{} – {}", ratio(lo), ratio(hi)),
                            _ => "–".into(),
                        }
                    );
                }
                out.push('\n');
            }
        }

        if !self.charts.is_empty() {
            out.push_str("## Charts\n\n");
            for chart in &self.charts {
                let _ = writeln!(out, "![{chart}]({chart})\n");
            }
        }
        if !self.notes.is_empty() {
            out.push_str("## Notes\n\n");
            for note in &self.notes {
                let _ = writeln!(out, "- {}", md(note));
            }
        }
        out
    }
}

/// Seconds for tables: enough digits for sub-millisecond runs, no more than needed.
pub fn seconds(v: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else if v >= 100.0 {
        format!("{v:.1}")
    } else if v >= 1.0 {
        format!("{v:.3}")
    } else {
        format!("{v:.4}")
    }
}

/// A speedup ratio for tables.
pub fn ratio(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}×")
    } else if v >= 10.0 {
        format!("{v:.1}×")
    } else {
        format!("{v:.2}×")
    }
}

/// Text made safe for a Markdown table cell.
fn md(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}
