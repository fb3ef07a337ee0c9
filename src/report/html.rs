//! `index.html`: the whole report on one self-contained page: the summary tables and every
//! chart, the SVG markup inlined. No network, no scripts, no external files, so the page
//! can be mailed, archived or opened from a CI artefact as it is.
//!
//! The page is a `maud` template: the markup is checked when the crate compiles and every
//! piece of text is escaped; the tables come from `report::tables` through the HTML
//! exporter, as `summary.md`'s do through the Markdown one.

use maud::{DOCTYPE, Markup, PreEscaped, html};

use crate::report::summary::Summary;
use crate::report::table::Html;
use crate::report::tables;

/// The page's style: readable tables, charts scaled down to the window, never up.
const STYLE: &str = "\
body{font-family:DejaVu Sans,Arial,Helvetica,sans-serif;margin:24px auto;max-width:1200px;padding:0 16px;color:#222;line-height:1.4}
h1{font-size:26px;margin-bottom:4px}h2{font-size:20px;margin-top:32px;border-bottom:1px solid #ddd;padding-bottom:4px}
table{border-collapse:collapse;margin:8px 0 12px;font-size:14px}
th,td{border:1px solid #ccc;padding:4px 8px}th{background:#f0f0f0;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}
.wrong{background:#fde8e8;border:2px solid #c00000;padding:8px 14px;margin:12px 0}
.wrong h2{color:#c00000;border:none;margin-top:6px}
.ok{color:#1e7b34}
figure{margin:20px 0;overflow-x:auto}figure svg{max-width:100%;height:auto;display:block}
figcaption{font-size:13px;color:#555;margin-top:4px}
.note{font-size:14px;color:#444}";

/// The page, with `charts` as (file name, SVG markup) in display order.
pub fn page(summary: &Summary, charts: &[(String, String)]) -> String {
    let v = &summary.virtual_best;
    let fastest: Vec<String> = v
        .contributions
        .iter()
        .map(|c| format!("{} · {}: {}", c.solver, c.encoding, c.instances))
        .collect();
    let page: Markup = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { "bench report" }
                style { (PreEscaped(STYLE)) }
            }
            body {
                h1 { "bench report" }
                p { (summary.headline(true)) }
                @if summary.wrong_answers.is_empty() {
                    p class="ok" { "No wrong answers." }
                } @else {
                    div class="wrong" {
                        h2 { "WRONG answers (" (summary.wrong_answers.len()) ")" }
                        (Html.markup(&tables::wrong_answers(&summary.wrong_answers)))
                    }
                }
                h2 { "Scores per solver × encoding" }
                (Html.markup(&tables::scores(&summary.scores, summary.time)))
                h2 { "Virtual best solver" }
                p { "Per instance, the fastest right answer of any solver under any encoding." }
                (Html.markup(&tables::virtual_best(v)))
                @if !fastest.is_empty() {
                    p class="note" { "Fastest on (instances): " (fastest.join("; ")) }
                }
                @if let Some(baseline) = &summary.baseline {
                    h2 { "Speedup against " (baseline) }
                    p class="note" { (summary.speedup_note(baseline)) }
                    @if summary.speedups.is_empty() {
                        p { "No other solver to compare." }
                    } @else {
                        (Html.markup(&tables::speedups(&summary.speedups)))
                    }
                }
                (crate::report::stats::render::html(&summary.stats))
                (crate::report::family::html(&summary.families, summary.encodings.len() > 1))
                h2 { "Charts" }
                @for (name, svg) in charts {
                    // The charts are SVG written by plotters: no ids, so none can clash.
                    figure id=(name.trim_end_matches(".svg")) {
                        (PreEscaped(svg))
                        figcaption { (name) }
                    }
                }
                @if !summary.notes.is_empty() {
                    h2 { "Notes" }
                    ul { @for note in &summary.notes { li { (note) } } }
                }
            }
        }
    };
    page.into_string() + "\n"
}
