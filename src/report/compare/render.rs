//! A comparison on paper: the counts and the per-instance changes as [`Table`]s, drawn for
//! the terminal, `compare.md` and `compare.html` alike; `compare.json` for tools; and the
//! files of the comparison's folder.

use std::fmt::Write;

use maud::{DOCTYPE, PreEscaped, html};

use crate::report::ReportFile;
use crate::report::compare::{Change, Comparison, InstanceChange, Side, chart};
use crate::report::outcome::Answer;
use crate::report::table::{
    Align, Cell, Exporter, Html, Markdown, Table, Terminal, ratio, seconds,
};

use Align::{Left, Right};

/// An outcome in a cell: `SAT 1.234 s`, `TIMEOUT`, `–` when the side did not run it.
fn side(s: Option<&Side>) -> String {
    match s {
        None => "–".into(),
        Some(s) => match s.answer {
            Answer::Sat => format!("SAT {} s", seconds(s.time)),
            Answer::Unsat => format!("UNSAT {} s", seconds(s.time)),
            Answer::Timeout => "TIMEOUT".into(),
            Answer::Error => "ERROR".into(),
            Answer::Wrong => "WRONG".into(),
        },
    }
}

/// What the comparison is, in one sentence.
pub fn headline(c: &Comparison) -> String {
    let mut out = format!(
        "OLD: {}; NEW: {}. {} instance(s) compared on {}: {} regression(s)",
        c.old,
        c.new,
        c.counts.compared,
        c.time.words(),
        c.counts.regressions
    );
    match c.factor {
        Some(f) if f.is_finite() => {
            let _ = write!(
                out,
                " (solved → unsolved, answers changed, WRONG in NEW, or over {}× slower)",
                f
            );
        }
        _ => out.push_str(" (solved → unsolved, answers changed, WRONG in NEW)"),
    }
    out.push('.');
    if c.old_limits != c.new_limits {
        let _ = write!(
            out,
            " The time limits differ (OLD: {}; NEW: {}): each side is scored against its \
             own, and a timeout of one is not a timeout of the other.",
            c.old_limits, c.new_limits
        );
    }
    out
}

/// The rules, for the note under the counts.
fn rules(c: &Comparison) -> String {
    format!(
        "A timeout in NEW where OLD took at least {:.0} % of its timeout is flapping and not \
         counted. Slowdowns compare times of at least {} s (shorter ones count as that). \
         Speed-up: OLD's time / NEW's time; above 1, NEW is faster.",
        c.flapping_share * 100.0,
        c.noise_floor_s
    )
}

/// The counts per kind of change, and the speed-ups.
pub fn counts_table(c: &Comparison) -> Table {
    let mut rows: Vec<Vec<Cell>> = c
        .counts
        .by_change
        .iter()
        .map(|(change, n)| {
            let alarm = matches!(
                change,
                Change::Wrong | Change::AnswerChanged | Change::Lost | Change::Slower
            );
            vec![
                Cell::Text(change.as_str().into()),
                if alarm {
                    Cell::Alarm(*n)
                } else {
                    Cell::Count(*n)
                },
            ]
        })
        .collect();
    rows.push(vec![
        Cell::Text("regressions".into()),
        Cell::Alarm(c.counts.regressions),
    ]);
    let s = &c.speedups;
    let speed = match (s.estimate(), s.interval(), s.geometric_mean) {
        (Some(m), Some((lo, hi)), Some(g)) => format!(
            " Over the {} instances both solved, NEW is faster on {} and slower on {}; median \
             speed-up {} (95 % interval {} – {}), geometric mean {}.",
            s.both_solved,
            s.faster,
            s.slower,
            ratio(m),
            ratio(lo),
            ratio(hi),
            ratio(g)
        ),
        _ => " No instance solved by both.".into(),
    };
    let modes = if c.old_modes == c.new_modes {
        format!(" Both ran as {}.", c.old_modes)
    } else {
        format!(
            " Across modes: OLD ran as {}, NEW as {}, so every speed-up measures the modes as \
             well (a child process pays its start and the reading of the file, a session keeps \
             the rules loaded and what it learnt).",
            c.old_modes, c.new_modes
        )
    };
    Table {
        columns: vec![("change", Left), ("instances", Right)],
        rows,
        note: Some(rules(c) + &speed + &modes),
    }
}

/// The instances: every one when `all`, else only those that changed (not both solved
/// within the factor, not unsolved on both).
pub fn changes_table(c: &Comparison, all: bool) -> Table {
    let shown = |i: &&InstanceChange| {
        all || !matches!(i.change, Change::BothSolved | Change::NeitherSolved)
    };
    Table {
        columns: vec![
            ("change", Left),
            ("regression", Left),
            ("instance", Left),
            ("encoding", Left),
            ("OLD", Left),
            ("NEW", Left),
            ("speed-up", Right),
        ],
        rows: c
            .instances
            .iter()
            .filter(shown)
            .map(|i| {
                vec![
                    Cell::Text(i.change.as_str().into()),
                    Cell::Text(if i.regression {
                        "REGRESSION".into()
                    } else {
                        String::new()
                    }),
                    Cell::Text(i.instance.clone()),
                    Cell::Text(i.encoding.clone()),
                    Cell::Text(side(i.old.as_ref())),
                    Cell::Text(side(i.new.as_ref())),
                    Cell::Ratio(i.speedup),
                ]
            })
            .collect(),
        note: None,
    }
}

/// The time and work ratios side by side (None: no counter on both sides).
pub fn work_table(c: &Comparison) -> Option<Table> {
    (!c.counters.is_empty()).then(|| super::work::table(&c.speedups, c.time.words(), &c.counters))
}

/// What the terminal shows.
pub fn terminal(c: &Comparison) -> String {
    let mut out = headline(c) + "\n\n";
    out += &Terminal.table(&counts_table(c));
    if let Some(t) = work_table(c) {
        out.push('\n');
        out += &Terminal.table(&t);
    }
    let changes = changes_table(c, false);
    if !changes.rows.is_empty() {
        out.push('\n');
        out += &Terminal.table(&changes);
    }
    out
}

/// `compare.md`.
pub fn markdown(c: &Comparison) -> String {
    let mut out = format!("# bench comparison\n\n{}\n\n", headline(c));
    out += &Markdown.table(&counts_table(c));
    if let Some(t) = work_table(c) {
        out.push_str("\n## Time and work ratios\n\n");
        out += &Markdown.table(&t);
    }
    out.push_str("\n## Per instance (regressions first)\n\n");
    out += &Markdown.table(&changes_table(c, true));
    out.push_str("\n![speed-ups](compare-speedups.svg)\n");
    out
}

/// `compare.html`: one page, the chart inlined.
pub fn page(c: &Comparison, svg: &str) -> String {
    const STYLE: &str = "body{font-family:DejaVu Sans,Arial,Helvetica,sans-serif;margin:24px auto;\
        max-width:1200px;padding:0 16px;color:#222;line-height:1.4}\
        table{border-collapse:collapse;margin:8px 0 12px;font-size:14px}\
        th,td{border:1px solid #ccc;padding:4px 8px}th{background:#f0f0f0;text-align:left}\
        td.n{text-align:right;font-variant-numeric:tabular-nums}.note{font-size:14px;color:#444}\
        figure svg{max-width:100%;height:auto}";
    let page = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                title { "bench comparison" }
                style { (PreEscaped(STYLE)) }
            }
            body {
                h1 { "bench comparison" }
                p { (headline(c)) }
                (Html.markup(&counts_table(c)))
                @if let Some(t) = work_table(c) {
                    h2 { "Time and work ratios" }
                    (Html.markup(&t))
                }
                figure { (PreEscaped(svg)) }
                h2 { "Per instance (regressions first)" }
                (Html.markup(&changes_table(c, true)))
            }
        }
    }
    .into_string();
    crate::text::document(&page).into_owned() + "\n"
}

/// Every file of the comparison: `compare-speedups.svg`, `compare.md`, `compare.json` and
/// `compare.html`.
pub fn files(c: &Comparison) -> anyhow::Result<Vec<ReportFile>> {
    let svg = chart::speedups(c)?;
    let json = serde_json::to_string_pretty(c)? + "\n";
    Ok(vec![
        ReportFile {
            name: "compare-speedups.svg".into(),
            bytes: svg.clone().into_bytes(),
        },
        ReportFile {
            name: "compare.md".into(),
            bytes: markdown(c).into_bytes(),
        },
        ReportFile {
            name: "compare.json".into(),
            bytes: json.into_bytes(),
        },
        ReportFile {
            name: "compare.html".into(),
            bytes: page(c, &svg).into_bytes(),
        },
    ])
}
