//! The report's numbers in one place, and their two text forms: `summary.json` for tools
//! and `summary.md` for people. WRONG answers come first in both: a benchmark that
//! returned a wrong answer has a bigger problem than any speed difference.

use std::fmt::Write;

use crate::report::TimeBasis;
use crate::report::bootstrap::METHOD;
use crate::report::rows::Row;
use crate::report::score::{Score, WrongAnswer};
use crate::report::speedup::{CONFIDENCE, Speedup};
use crate::report::table::{Exporter, Markdown, markdown_text as md};
use crate::report::tables;
use crate::report::vbs::VirtualBest;

/// How the speedup intervals were computed.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct BootstrapSettings {
    /// Confidence of the intervals.
    pub confidence: f64,
    /// How they are computed.
    pub method: &'static str,
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
    /// The timeout the charts mark, seconds (the longest, when runs had several).
    pub timeout_s: f64,
    /// The shortest timeout of a run, seconds (equal to `timeout_s` unless runs had
    /// different ones and the report was given none).
    pub shortest_timeout_s: f64,
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
    /// Paired tests between configurations, unique solves, VBS contributions.
    pub stats: crate::report::stats::Statistics,
    /// Solved counts and PAR-2 per instance family.
    pub families: Vec<crate::report::family::Family>,
    /// The solvers' own work counters (conflicts, decisions, propagations, guesses).
    pub work: Vec<crate::report::work::WorkFigures>,
    /// The spread of the times across repetitions, per configuration (`--repeat`).
    pub noise: Vec<crate::report::noise::Spread>,
    /// The configurations ranked by a work counter (`--score COUNTER`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ranking: Option<crate::report::counter_rank::CounterRanking>,
    /// The run's record (machine, solvers and their checksums), if known; it is beside
    /// `summary.json` as `run.json`, not repeated in it.
    #[serde(skip)]
    pub run: Option<serde_json::Value>,
    /// How the speedup intervals were computed.
    pub bootstrap: BootstrapSettings,
    /// Remarks: merged duplicates, skipped inputs, mixed timeouts.
    pub notes: Vec<String>,
    /// The chart files, in the order the page shows them.
    pub charts: Vec<String>,
    /// Which time every score and chart is in.
    pub time: super::TimeBasis,
}

impl Summary {
    /// The default bootstrap settings.
    pub fn bootstrap_settings() -> BootstrapSettings {
        BootstrapSettings {
            confidence: CONFIDENCE,
            method: METHOD,
        }
    }

    /// `summary.json`.
    pub fn to_json(&self) -> String {
        // Plain data of strings and numbers: serialisation cannot fail. Non-finite
        // numbers (none are produced) would become null.
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
            + "\n"
    }

    /// The opening sentence: what was run, and against which timeout.
    pub fn headline(&self, names: bool) -> String {
        let list = |names_of: &[String]| {
            if names {
                format!(" ({})", names_of.join(", "))
            } else {
                String::new()
            }
        };
        let timeout = if self.timeout_given {
            format!("timeout {} s (set for the report)", self.timeout_s)
        } else if self.shortest_timeout_s < self.timeout_s {
            format!(
                "timeouts {} to {} s (each run scored against its own, the charts mark the \
                 longest; --timeout sets one for all)",
                self.shortest_timeout_s, self.timeout_s
            )
        } else {
            format!("timeout {} s", self.timeout_s)
        };
        format!(
            "{} runs of {} solver(s){} × {} encoding(s){} on {} instances; {timeout}.",
            self.rows,
            self.solvers.len(),
            list(&self.solvers),
            self.encodings.len(),
            list(&self.encodings),
            self.instances,
        )
    }

    /// The speedup section's explanation.
    pub fn speedup_note(&self, baseline: &str) -> String {
        format!(
            "Median over the instances both solved (same encoding) of {baseline} time / solver \
             time; above 1 is faster than {baseline}. {:.0} % bootstrap interval (exact, no \
             resampling noise).",
            self.bootstrap.confidence * 100.0,
        )
    }

    /// `summary.md`.
    pub fn to_markdown(&self) -> String {
        let mut out = format!("# bench report\n\n{}\n\n", self.headline(false));
        if self.wrong_answers.is_empty() {
            out.push_str("No wrong answers.\n\n");
        } else {
            let _ = writeln!(out, "## WRONG answers ({})\n", self.wrong_answers.len());
            out += &Markdown.table(&tables::wrong_answers(&self.wrong_answers));
            out.push('\n');
        }

        if let Some(r) = &self.ranking {
            let _ = writeln!(out, "## Ranked by {}\n", r.counter);
            let several = self.encodings.len() > 1;
            out += &Markdown.table(&crate::report::counter_rank::table(r, several));
            out.push('\n');
        }

        out.push_str("## Scores per solver × encoding\n\n");
        out += &Markdown.table(&tables::scores(&self.scores, self.time));
        out.push('\n');

        let v = &self.virtual_best;
        out.push_str("## Virtual best solver\n\n");
        out.push_str(
            "Per instance, the fastest right answer of any solver under any encoding.\n\n",
        );
        out += &Markdown.table(&tables::virtual_best(v));
        out.push('\n');
        if !v.contributions.is_empty() {
            out.push_str("Fastest on (instances): ");
            let parts: Vec<String> = v
                .contributions
                .iter()
                .map(|c| {
                    format!(
                        "{} · {} · {} {}",
                        md(&c.config.solver),
                        md(&c.config.encoding),
                        md(&c.config.mode.to_string()),
                        c.instances
                    )
                })
                .collect();
            out.push_str(&parts.join(", "));
            out.push_str("\n\n");
        }

        if let Some(baseline) = &self.baseline {
            let _ = writeln!(out, "## Speedup against {}\n", md(baseline));
            let _ = writeln!(out, "{}\n", md(&self.speedup_note(baseline)));
            if self.speedups.is_empty() {
                out.push_str("No other solver to compare.\n\n");
            } else {
                out += &Markdown.table(&tables::speedups(&self.speedups));
                out.push('\n');
            }
        }

        out += &crate::report::stats::render::markdown(&self.stats);
        out += &crate::report::family::markdown(&self.families, self.encodings.len() > 1);
        let several = self.encodings.len() > 1;
        if !self.work.is_empty() {
            out.push_str("## Work counters\n\n");
            out += &Markdown.table(&crate::report::work::table(&self.work, several));
            out.push('\n');
            if let Some(t) = crate::report::work::guesses_table(&self.work, several) {
                out += &Markdown.table(&t);
                out.push('\n');
            }
        }
        if !self.noise.is_empty() {
            out.push_str("## Spread across repetitions\n\n");
            let t = crate::report::noise::table(&self.noise, several, self.time.words());
            out += &Markdown.table(&t);
            out.push('\n');
        }
        out += &crate::report::measurement::markdown(self.run.as_ref());

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

/// The plain summary that stands in for the report when it cannot be drawn: the wrong
/// answers first, the scores, and the inputs that were skipped.
pub fn plain_markdown(
    rows: &[Row],
    scores: &[Score],
    time: TimeBasis,
    skipped: &[String],
) -> String {
    let mut out = String::from("# Summary\n\n");
    let wrong = WrongAnswer::all(rows);
    if !wrong.is_empty() {
        let _ = writeln!(out, "## WRONG answers ({})\n", wrong.len());
        out += &Markdown.table(&tables::wrong_answers(&wrong));
        out.push('\n');
    }
    out += &Markdown.table(&tables::scores(scores, time));
    if !skipped.is_empty() {
        let _ = writeln!(out, "\n## Skipped inputs ({})\n", skipped.len());
        for s in skipped {
            let _ = writeln!(out, "- {}", md(s));
        }
    }
    out
}
