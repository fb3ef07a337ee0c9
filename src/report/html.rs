//! `index.html`: the whole report on one self-contained page: the summary tables and every
//! chart, the SVG markup inlined. No network, no scripts, no external files, so the page
//! can be mailed, archived or opened from a CI artefact as it is.

use std::fmt::Write;

use crate::report::summary::{Summary, ratio, seconds};

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
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>bench report</title>\n<style>\n{STYLE}\n</style>\n</head>\n<body>\n\
         <h1>bench report</h1>\n"
    );
    let _ = writeln!(
        out,
        "<p>{} runs of {} solver(s) ({}) × {} encoding(s) ({}) on {} instances; timeout {} s{}.</p>",
        summary.rows,
        summary.solvers.len(),
        esc(&summary.solvers.join(", ")),
        summary.encodings.len(),
        esc(&summary.encodings.join(", ")),
        summary.instances,
        summary.timeout_s,
        if summary.timeout_given {
            " (set for the report)"
        } else {
            ""
        }
    );

    if summary.wrong_answers.is_empty() {
        out.push_str("<p class=\"ok\">No wrong answers.</p>\n");
    } else {
        let _ = writeln!(
            out,
            "<div class=\"wrong\"><h2>WRONG answers ({})</h2>",
            summary.wrong_answers.len()
        );
        table_head(
            &mut out,
            &[
                "solver", "encoding", "instance", "run", "said", "check", "why",
            ],
        );
        for w in &summary.wrong_answers {
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(&w.solver),
                esc(&w.encoding),
                esc(&w.instance),
                w.run,
                esc(&w.status),
                esc(&w.check),
                esc(&w.error)
            );
        }
        out.push_str("</table></div>\n");
    }

    out.push_str("<h2>Scores per solver × encoding</h2>\n");
    table_head(
        &mut out,
        &[
            "solver",
            "encoding",
            "WRONG",
            "runs",
            "solved",
            "SAT",
            "UNSAT",
            "timeouts",
            "memouts",
            "errors",
            "PAR-2 (s)",
            "mean (s)",
            "median (s)",
            "total (s)",
        ],
    );
    for s in &summary.scores {
        let wrong = if s.wrong > 0 {
            format!("<b style=\"color:#c00000\">{}</b>", s.wrong)
        } else {
            "0".into()
        };
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td>{}</tr>",
            esc(&s.solver),
            esc(&s.encoding),
            numbers(&[
                wrong,
                s.runs.to_string(),
                s.solved.to_string(),
                s.sat.to_string(),
                s.unsat.to_string(),
                s.timeouts.to_string(),
                s.memouts.to_string(),
                s.errors.to_string(),
                seconds(s.par2),
                seconds(s.mean_s),
                seconds(s.median_s),
                seconds(s.total_s),
            ])
        );
    }
    out.push_str(
        "</table>\n<p class=\"note\">PAR-2: the mean over runs of the wall time if solved, else \
         twice the timeout. Mean and median: over solved runs. Total: all runs. WRONG answers \
         never count as solved.</p>\n",
    );

    let v = &summary.virtual_best;
    out.push_str(
        "<h2>Virtual best solver</h2>\n<p>Per instance, the fastest right answer of any solver \
         under any encoding.</p>\n",
    );
    table_head(
        &mut out,
        &[
            "instances",
            "solved",
            "SAT",
            "UNSAT",
            "PAR-2 (s)",
            "mean (s)",
            "median (s)",
            "total (s)",
        ],
    );
    let _ = writeln!(
        out,
        "<tr>{}</tr>\n</table>",
        numbers(&[
            v.instances.to_string(),
            v.solved.to_string(),
            v.sat.to_string(),
            v.unsat.to_string(),
            seconds(v.par2),
            seconds(v.mean_s),
            seconds(v.median_s),
            seconds(v.total_s),
        ])
    );
    if !v.contributions.is_empty() {
        let parts: Vec<String> = v
            .contributions
            .iter()
            .map(|c| format!("{} · {}: {}", esc(&c.solver), esc(&c.encoding), c.instances))
            .collect();
        let _ = writeln!(
            out,
            "<p class=\"note\">Fastest on (instances): {}</p>",
            parts.join("; ")
        );
    }

    if let Some(baseline) = &summary.baseline {
        let _ = writeln!(out, "<h2>Speedup against {}</h2>", esc(baseline));
        let _ = writeln!(
            out,
            "<p class=\"note\">Median over the instances both solved (same encoding) of {b} time / \
             solver time; above 1 is faster than {b}. {:.0} % bootstrap interval, {} resamples, \
             seed {:#x}.</p>",
            summary.bootstrap.confidence * 100.0,
            summary.bootstrap.resamples,
            summary.bootstrap.seed,
            b = esc(baseline)
        );
        if summary.speedups.is_empty() {
            out.push_str("<p>No other solver to compare.</p>\n");
        } else {
            table_head(
                &mut out,
                &[
                    "solver",
                    "encoding",
                    "both solved",
                    "median speedup",
                    "95 % interval",
                ],
            );
            for s in &summary.speedups {
                let interval = match (s.ci_low, s.ci_high) {
                    (Some(lo), Some(hi)) => format!("{} – {}", ratio(lo), ratio(hi)),
                    _ => "–".into(),
                };
                let _ = writeln!(
                    out,
                    "<tr><td>{}</td><td>{}</td>{}</tr>",
                    esc(&s.solver),
                    esc(&s.encoding),
                    numbers(&[
                        s.both_solved.to_string(),
                        s.median.map_or("–".into(), ratio),
                        interval,
                    ])
                );
            }
            out.push_str("</table>\n");
        }
    }

    out.push_str("<h2>Charts</h2>\n");
    for (name, svg) in charts {
        let _ = writeln!(
            out,
            "<figure id=\"{id}\">\n{svg}<figcaption>{name}</figcaption>\n</figure>",
            id = esc(name.trim_end_matches(".svg")),
            name = esc(name),
        );
    }
    if !summary.notes.is_empty() {
        out.push_str("<h2>Notes</h2>\n<ul>\n");
        for note in &summary.notes {
            let _ = writeln!(out, "<li>{}</li>", esc(note));
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</body>\n</html>\n");
    out
}

fn table_head(out: &mut String, columns: &[&str]) {
    out.push_str("<table>\n<tr>");
    for c in columns {
        let _ = write!(out, "<th>{}</th>", esc(c));
    }
    out.push_str("</tr>\n");
}

/// Right-aligned cells; the values are already safe (numbers, or markup made here).
fn numbers(values: &[String]) -> String {
    values
        .iter()
        .map(|v| format!("<td class=\"n\">{v}</td>"))
        .collect()
}

/// Escapes text for HTML.
fn esc(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
