//! `index.html`: the whole report on one self-contained page. It opens with what was run
//! (corpus, date, command, machine, bench's and the solvers' versions, jobs, containment,
//! time basis: from the run's `run.json` and the rows), then the wrong answers, the
//! solvers ranked, the virtual best solver, the speed-ups, the statistics, every chart (the
//! SVG markup inlined) and the per-instance table. No network and no external files; the
//! one script is the per-instance table's few inline lines. The page can be mailed,
//! archived or opened from a CI artefact as it is.
//!
//! The page is a `maud` template: the markup is checked when the crate compiles and every
//! piece of text is escaped; the tables come from `report::tables` through the HTML
//! exporter, as `summary.md`'s do through the Markdown one. Each section is a function of
//! its own, so sections can be added without touching the others.

use maud::{DOCTYPE, Markup, PreEscaped, html};

use crate::report::provenance::Provenance;
use crate::report::summary::Summary;
use crate::report::table::Html;
use crate::report::tables;

/// The page's style: readable tables, charts scaled down to the window, never up. The
/// page is as wide as the widest table needs (the scores table of 16 columns fits 1,400
/// px); running text keeps a readable measure.
const STYLE: &str = "\
body{font-family:DejaVu Sans,Arial,Helvetica,sans-serif;margin:24px auto;max-width:1600px;padding:0 16px;color:#222;line-height:1.4}
p{max-width:72em}
h1{font-size:26px;margin-bottom:4px}h2{font-size:20px;margin-top:32px;border-bottom:1px solid #ddd;padding-bottom:4px}
table{border-collapse:collapse;margin:8px 0 12px;font-size:14px}
th,td{border:1px solid #ccc;padding:4px 8px}th{background:#f0f0f0;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.wrong{background:#fde8e8;border:2px solid #c00000;padding:8px 14px;margin:12px 0}
.wrong h2{color:#c00000;border:none;margin-top:6px}
.ok{color:#1e7b34}
.scroll{overflow-x:auto}figure{margin:20px 0;overflow-x:auto}figure svg{max-width:100%;height:auto;display:block}
figcaption{font-size:13px;color:#555;margin-top:4px}
.note{font-size:14px;color:#444}
table.about th{background:none;border:none;padding:2px 12px 2px 0;vertical-align:top;white-space:nowrap}
table.about td{border:none;padding:2px 0}table.about code{font-size:13px;word-break:break-all}";

/// What the page says about the run behind the rows, beside the [`Summary`].
#[derive(Clone, Debug, Default)]
pub struct About {
    /// Each run's record (one per `run.json` found; none when there was none).
    pub runs: Vec<Provenance>,
    /// The corpora, as the rows name them, in order of first appearance.
    pub corpora: Vec<String>,
    /// The distinct `--jobs` values of the rows.
    pub jobs: Vec<u32>,
    /// Solvers that ran inside bench (no process start) and as child processes.
    pub in_process: Vec<String>,
    /// Solvers that ran as child processes (each run pays a process start).
    pub child: Vec<String>,
    /// Each solver and the modes it ran in (see `report::mode`).
    pub modes: Vec<(String, String)>,
}

/// The page, with `charts` as (file name, SVG markup) in display order and `instances` the
/// per-instance section.
pub fn page(
    summary: &Summary,
    about: &About,
    charts: &[(String, String)],
    instances: Markup,
) -> String {
    let page: Markup = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { "bench report: " (about.corpora.join(", ")) }
                style { (PreEscaped(STYLE)) (PreEscaped(crate::report::instances::STYLE)) }
            }
            body {
                h1 { "bench report" }
                (what_was_run(summary, about))
                (wrong_answers(summary))
                @if let Some(r) = &summary.ranking {
                    h2 { "Ranked by " (r.counter) }
                    (Html.markup(&crate::report::counter_rank::table(r, summary.encodings.len() > 1)))
                }
                h2 { "Solvers ranked" }
                (Html.markup(&tables::scores(&summary.scores, summary.time)))
                (virtual_best(summary))
                (speedups(summary))
                (crate::report::stats::render::html(&summary.stats))
                (crate::report::family::html(&summary.families, summary.encodings.len() > 1))
                @if !summary.work.is_empty() {
                    h2 { "Work counters" }
                    (Html.markup(&crate::report::work::table(&summary.work, summary.encodings.len() > 1)))
                    @if let Some(t) = crate::report::work::guesses_table(&summary.work, summary.encodings.len() > 1) {
                        (Html.markup(&t))
                    }
                }
                @if !summary.noise.is_empty() {
                    h2 { "Spread across repetitions" }
                    (Html.markup(&crate::report::noise::table(&summary.noise, summary.encodings.len() > 1, summary.time.words())))
                }
                (crate::report::measurement::html(summary.run.as_ref()))
                (charts_section(charts))
                h2 id="per-instance" { "Per instance" }
                (instances)
                (notes(summary))
            }
        }
    };
    page.into_string() + "\n"
}

/// What was run: corpus, date, command, machine, versions, jobs, containment, scoring.
fn what_was_run(summary: &Summary, about: &About) -> Markup {
    let several = about.runs.len() > 1;
    let versions = |p: &Provenance| {
        p.solvers
            .iter()
            .map(|(name, version)| match version {
                Some(v) => format!("{name} {v}"),
                None => name.clone(),
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let jobs: Vec<String> = about.jobs.iter().map(u32::to_string).collect();
    html! {
        table class="about" {
            tr { th { "corpus" } td { (about.corpora.join(", ")) } }
            @for (i, run) in about.runs.iter().enumerate() {
                @let tag = if several { format!(" (run {})", i + 1) } else { String::new() };
                @if let Some(date) = &run.started { tr { th { "date" (tag) } td { (date) } } }
                @if let Some(command) = &run.command {
                    tr { th { "command" (tag) } td { code { (command) } } }
                }
                @if let Some(machine) = &run.machine { tr { th { "machine" (tag) } td { (machine) } } }
                @if let Some(v) = &run.bench_version { tr { th { "bench" (tag) } td { (v) } } }
                @if !run.solvers.is_empty() { tr { th { "solvers" (tag) } td { (versions(run)) } } }
                @if let Some(c) = &run.containment { tr { th { "containment" (tag) } td { (c) } } }
                @if let Some(ms) = run.overhead_ms {
                    tr {
                        th { "bench's overhead per run" (tag) }
                        td { (format!("{ms:.2} ms CPU")) span class="note" { " (bench's process tree less the solvers' cpu_s, over the rows)" } }
                    }
                }
            }
            tr { th { "jobs" } td { (jobs.join(", ")) } }
            tr {
                th { "modes" }
                td {
                    (about.modes.iter().map(|(s, m)| format!("{s}: {m}")).collect::<Vec<_>>().join("; "))
                    br;
                    span class="note" { (mode_words(about)) }
                }
            }
            tr {
                th { "time basis" }
                td {
                    (summary.time.words())
                    @if summary.time == crate::results::TimeBasis::Cpu {
                        " (user + system), as SAT competitions score sequential solvers"
                    }
                }
            }
            tr { th { "runs" } td { (summary.headline(true)) } }
        }
        @if about.runs.is_empty() {
            p class="note" {
                "No run.json beside the results: the command, date, machine, versions and "
                "containment of the run are not known."
            }
        }
    }
}

/// What the modes of the run mean, those that occur, and a word on comparing across them.
fn mode_words(about: &About) -> String {
    let seen = |m: &str| {
        about
            .modes
            .iter()
            .any(|(_, modes)| modes.split([',', '+', ' ']).any(|w| w == m))
    };
    let mut words: Vec<&str> = Vec::new();
    if seen("session") {
        words.push(
            "session: in bench, the encoding's rules loaded once per worker and each puzzle's \
             givens assumed",
        );
    }
    if seen("fresh") {
        words.push("fresh: in bench, a formula per instance");
    }
    if seen("process") {
        words.push("process: a child process reading a DIMACS file");
    }
    if seen("in-process") {
        words.push("in-process: session or fresh, not recorded by the bench that ran it");
    }
    let mut text = words.join("; ") + ".";
    if !about.in_process.is_empty() && !about.child.is_empty() {
        text += " A child process pays a process start of a few milliseconds on every run, \
                 which an in-process solver does not: compare like with like (e.g. native-proc).";
    }
    text
}

/// The wrong answers first, or a line saying there are none.
fn wrong_answers(summary: &Summary) -> Markup {
    html! {
        @if summary.wrong_answers.is_empty() {
            p class="ok" { "No wrong answers." }
        } @else {
            div class="wrong" {
                h2 { "WRONG answers (" (summary.wrong_answers.len()) ")" }
                (Html.markup(&tables::wrong_answers(&summary.wrong_answers)))
            }
        }
    }
}

/// The virtual best solver and which solvers make it.
fn virtual_best(summary: &Summary) -> Markup {
    let v = &summary.virtual_best;
    let fastest: Vec<String> = v
        .contributions
        .iter()
        .map(|c| {
            format!(
                "{} · {} · {}: {}",
                c.config.solver, c.config.encoding, c.config.mode, c.instances
            )
        })
        .collect();
    html! {
        h2 { "Virtual best solver" }
        p { "Per instance, the fastest right answer of any solver under any encoding." }
        (Html.markup(&tables::virtual_best(v)))
        @if !fastest.is_empty() {
            p class="note" { "Fastest on (instances): " (fastest.join("; ")) }
        }
    }
}

/// The speed-ups against the baseline, if there is one.
fn speedups(summary: &Summary) -> Markup {
    html! {
        @if let Some(baseline) = &summary.baseline {
            h2 { "Speedup against " (baseline) }
            p class="note" { (summary.speedup_note(baseline)) }
            @if summary.speedups.is_empty() {
                p { "No other solver to compare." }
            } @else {
                (Html.markup(&tables::speedups(&summary.speedups)))
            }
        }
    }
}

/// Every chart, inlined.
fn charts_section(charts: &[(String, String)]) -> Markup {
    html! {
        h2 { "Charts" }
        @for (name, svg) in charts {
            // The charts are SVG written by plotters: no ids, so none can clash.
            figure id=(name.trim_end_matches(".svg")) {
                (PreEscaped(svg))
                figcaption { (name) }
            }
        }
    }
}

/// The notes (skipped inputs, merged duplicates, mixed timeouts).
fn notes(summary: &Summary) -> Markup {
    html! {
        @if !summary.notes.is_empty() {
            h2 { "Notes" }
            ul { @for note in &summary.notes { li { (note) } } }
        }
    }
}
