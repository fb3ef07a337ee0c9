//! The cactus plot: for each solver × encoding, its solved instances sorted by time, the
//! k-th fastest drawn at (k, time). A line further right solved more; lower solved faster.
//! The virtual best solver is the thick black line; the timeout is the red dashed line.
//!
//! Results of puzzles and of DIMACS files together get a plot each ([`cactus_charts`]):
//! thirteen formulas beside a thousand puzzles would be a few pixels wide on a shared
//! axis of instances.

use plotters::prelude::*;
use plotters::style::text_anchor::HPos;

use crate::report::charts::draw::{
    FONT, Legend, LegendEntry, Linear, PLOT_LEFT, chart, font, format_number, format_seconds, line,
    linear_ticks, log_axis, plot, text,
};
use crate::report::charts::{ChartData, TIMEOUT_COLOR, TIMEOUT_DASH, time_range_of};
use crate::report::config::Config;
use crate::report::outcome::Outcome;
use crate::report::vbs::{VirtualBest, virtual_best};

/// The encoding column of a DIMACS file's runs.
const DIMACS: &str = "dimacs";

/// The file of the DIMACS files' cactus plot when puzzles have `cactus.svg`.
pub const CNF_FILE: &str = "cactus-cnf.svg";

/// How many marks a line gets at most, so that long lines stay lines.
const MAX_MARKS: usize = 24;

/// The cactus plots, by file name: `cactus.svg`, and when the results hold puzzles and
/// DIMACS files, `cactus.svg` of the puzzles and [`CNF_FILE`] of the DIMACS files, each
/// with its own virtual best solver, instance axis and time axis.
pub fn cactus_charts(data: &ChartData, vbs: &VirtualBest) -> anyhow::Result<Vec<(String, String)>> {
    let cnf = |o: &&Outcome| o.encoding() == DIMACS;
    let mixed = data.outcomes.iter().any(|o| cnf(&o)) && !data.outcomes.iter().all(|o| cnf(&o));
    if !mixed {
        return Ok(vec![("cactus.svg".into(), cactus(data, vbs)?)]);
    }
    let part = |of_cnf: bool, title: &str| {
        let keep = move |o: &&Outcome| cnf(o) == of_cnf;
        let panel = Panel {
            series: data
                .series()
                .into_iter()
                .filter(|s| (s.encoding == DIMACS) == of_cnf)
                .collect(),
            vbs: &virtual_best(data.outcomes.iter().filter(keep)),
            range: time_range_of(data.outcomes.iter().filter(keep), data.timeout),
        };
        draw(data, &panel, title)
    };
    Ok(vec![
        (
            "cactus.svg".into(),
            part(
                false,
                "Cactus plot of the puzzles: instances solved within a time",
            )?,
        ),
        (
            CNF_FILE.into(),
            part(
                true,
                "Cactus plot of the DIMACS files: instances solved within a time",
            )?,
        ),
    ])
}

/// The cactus plot as SVG.
pub fn cactus(data: &ChartData, vbs: &VirtualBest) -> anyhow::Result<String> {
    cactus_titled(data, vbs, "Cactus plot: instances solved within a time")
}

/// The cactus plot as SVG, under `title`.
pub fn cactus_titled(data: &ChartData, vbs: &VirtualBest, title: &str) -> anyhow::Result<String> {
    let panel = Panel {
        series: data.series(),
        vbs,
        range: data.time_range(),
    };
    draw(data, &panel, title)
}

/// What one plot draws: its lines, their virtual best solver, its time range.
struct Panel<'v> {
    series: Vec<Config>,
    vbs: &'v VirtualBest,
    range: (f64, f64),
}

/// One cactus plot of `panel` as SVG, under `title`.
fn draw(data: &ChartData, panel: &Panel, title: &str) -> anyhow::Result<String> {
    let vbs = panel.vbs;
    // Each line's times are worked out when it is drawn: a study's lines hold a million
    // times each. (None: the virtual best solver's.)
    let mut lines: Vec<(LegendEntry, Option<&Config>)> = panel
        .series
        .iter()
        .map(|series| {
            let solved = data.solved_count(series);
            let label = format!("{} ({})", data.series_label(series), solved);
            let (color, dash) = (
                data.solver_color(&series.solver),
                data.encoding_dash(&series.encoding),
            );
            let entry = LegendEntry {
                mark: Some((data.encoding_shape(&series.encoding), false)),
                ..LegendEntry::line(label, color, 2, dash)
            };
            (entry, Some(series))
        })
        .collect();
    let label = format!("virtual best solver ({})", vbs.solved_times.len());
    lines.push((LegendEntry::line(label, BLACK, 4, None), None));
    let mut entries: Vec<LegendEntry> = lines.iter().map(|(e, _)| e.clone()).collect();
    entries.push(data.timeout_entry_within(panel.range));
    let legend = Legend {
        heading: "solved (count)",
        entries,
    };

    let titles = (
        title,
        "one line per solver × encoding: the k-th fastest solved instance at (k, its time); right and low is better",
    );
    let size = (PLOT_LEFT + 630, 440.max(legend.height()) + 60);
    chart(titles, size, Some(&legend), |root, area| {
        let instances = vbs.instances.max(1) as f64;
        let ticks = linear_ticks(0.0, instances, 6.0);
        let x = Linear {
            range: 0.0..instances,
            ticks,
        };
        let format = |v: &f64| format_number(*v);
        let y_title = format!("{} per instance (s, log scale)", data.time.words());
        let axes = ("instances solved", y_title.as_str());
        let (lo, hi) = panel.range;
        let chart = plot(area, PLOT_LEFT as u32, (x, log_axis(lo, hi)), &format, axes)?;
        let at = |x: f64, t: f64| chart.backend_coord(&(x, t.clamp(lo, hi)));

        if data.timeout_within(panel.range) {
            let (start, end) = (at(0.0, data.timeout), at(instances, data.timeout));
            line(
                root,
                [start, end],
                TIMEOUT_COLOR.stroke_width(2),
                TIMEOUT_DASH,
            )?;
            let label = format!("timeout {} s", format_seconds(data.timeout));
            let red = font(FONT).color(&TIMEOUT_COLOR);
            text(root, (start.0 + 8, start.1 - 10), &label, red, HPos::Left)?;
        }
        for (entry, series) in &lines {
            let times = match series {
                Some(series) => std::borrow::Cow::Owned(data.solved_times(series).0),
                None => std::borrow::Cow::Borrowed(&vbs.solved_times[..]),
            };
            let points: Vec<(i32, i32)> = (1..)
                .zip(times.iter())
                .map(|(k, t)| at(k as f64, *t))
                .collect();
            drop(times);
            if let Some((width, dash)) = entry.line {
                // A point on the pixel of the one before adds nothing to the line: a
                // hundred thousand solved instances draw a line of at most a few thousand.
                let mut path = points.clone();
                path.dedup();
                line(root, path, entry.color.stroke_width(width), dash)?;
            }
            if let Some((shape, filled)) = entry.mark {
                let every = points.len().div_ceil(MAX_MARKS).max(1);
                for (k, point) in points.iter().enumerate() {
                    if k % every == 0 || k + 1 == points.len() {
                        shape.draw(root, *point, 8, entry.color, filled)?;
                    }
                }
            }
        }
        Ok(())
    })
}
