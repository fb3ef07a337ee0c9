//! The size of each encoding against the puzzle side: two panels, variables and clauses,
//! one line per encoding (per encoding and kind when kinds are mixed), each point the
//! median over the instances of that side (givens make sizes vary a little, and the
//! pruned encoding a lot). Drawn only when the results hold several encodings.

use std::collections::BTreeMap;

use plotters::prelude::*;
use plotters::style::text_anchor::HPos;

use crate::report::charts::ChartData;
use crate::report::charts::draw::{
    FONT, Legend, LegendEntry, Linear, PLOT_LEFT, chart, font, line, log_axis, plot, styled, text,
};
use crate::report::outcome::first_appearance;
use crate::report::rows::{Name, NameMap};
use crate::report::score::median_unordered;

/// What the chart draws, worked out from the rows (each formula's size is a row's
/// column): made before the rows are let go, since the outcomes do not hold sizes.
#[derive(Default)]
pub struct EncodingSizes {
    /// One line per encoding (and kind, when kinds are mixed).
    series: Vec<Series>,
    /// The puzzle sides, in order.
    sides: Vec<u32>,
    /// The results hold puzzles under more than one encoding.
    several: bool,
}

impl EncodingSizes {
    /// The sizes of `rows`' formulas, under `encodings` (in the order of the results),
    /// with the `modes` the legend names.
    pub fn of(
        rows: &[crate::report::rows::Row],
        encodings: &[String],
        modes: &crate::report::mode::Modes,
    ) -> EncodingSizes {
        let puzzle_encodings = first_appearance(
            rows.iter()
                .filter(|r| encoded_puzzle(r))
                .map(|r| r.encoding().as_str()),
        );
        if puzzle_encodings.len() <= 1 {
            return EncodingSizes::default();
        }
        let (series, sides) = series_of(rows, encodings, modes);
        EncodingSizes {
            series,
            sides,
            several: true,
        }
    }
}

/// One line of a panel: its name, style, and (side, median vars, median clauses) points.
struct Series {
    label: String,
    encoding: String,
    points: Vec<(u32, f64, f64)>,
}

/// Variables and clauses of a group of instances.
type Sizes = (Vec<f64>, Vec<f64>);

/// True when `r` is a puzzle solved through a formula (a dedicated solver's run is given
/// the puzzle itself: no formula, no size).
fn encoded_puzzle(r: &crate::report::rows::Row) -> bool {
    r.side() > 0 && r.mode() != Some(crate::results::Mode::Dedicated)
}

/// True when the results hold puzzles under more than one encoding.
pub fn has_several_encodings(data: &ChartData) -> bool {
    data.sizes.several
}

/// The encoding-size chart as SVG.
pub fn encodings(data: &ChartData) -> anyhow::Result<String> {
    let (series, sides) = (&data.sizes.series, &data.sizes.sides);
    let legend = Legend {
        heading: "encoding",
        entries: series
            .iter()
            .map(|s| LegendEntry {
                mark: Some((data.encoding_shape(&s.encoding), true)),
                ..LegendEntry::line(s.label.clone(), data.encoding_color(&s.encoding), 2, None)
            })
            .collect(),
    };
    let titles = (
        "CNF size per encoding against puzzle side",
        "median over the instances of each side, givens included",
    );
    let panel = (PLOT_LEFT + 350, 340.max(legend.height()) + 60);
    chart(
        titles,
        (2 * panel.0, panel.1 + 20),
        Some(&legend),
        |root, area| {
            // Sides are categories (4, 9, 16, 25 ...), evenly spaced, so that one side still
            // plots. Encodings often share a size (the same grid variables): each series is
            // shifted a little within its category so that no mark hides another.
            let position = |side: u32| sides.iter().position(|s| *s == side).unwrap_or(0) as f64;
            let spread = (0.5 / series.len().max(1) as f64).min(0.2);
            let shift = |i: usize| (i as f64 - (series.len() as f64 - 1.0) / 2.0) * spread;
            let side_name = |v: &f64| {
                let side = sides.get(v.round().max(0.0) as usize).copied().unwrap_or(0);
                format!("{side}×{side}")
            };
            let (first, second) = area.margin(20, 0, 0, 0).split_horizontally(panel.0);
            for (panel, (area, what)) in [first, second]
                .iter()
                .zip(["variables", "clauses"])
                .enumerate()
            {
                let value = |p: &(u32, f64, f64)| if panel == 0 { p.1 } else { p.2 };
                let values = series.iter().flat_map(|s| s.points.iter().map(value));
                let (lo, hi) =
                    values.fold((f64::INFINITY, 0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
                let ticks = (0..sides.len()).map(|i| i as f64).collect();
                let x = Linear {
                    range: -0.5..sides.len() as f64 - 0.5,
                    ticks,
                };
                let y = log_axis((lo / 1.5).max(1.0), hi * 1.5);
                let y_label = format!("{what} (log scale)");
                let chart = plot(
                    area,
                    PLOT_LEFT as u32,
                    (x, y),
                    &side_name,
                    ("puzzle side", &y_label),
                )?;
                let (left, top) = chart.backend_coord(&(-0.5, hi * 1.5));
                let (right, _) = chart.backend_coord(&(sides.len() as f64 - 0.5, hi * 1.5));
                let bold = styled(FONT + 1.0, FontStyle::Bold);
                text(
                    root,
                    ((left + right) / 2, top - 14),
                    what,
                    bold,
                    HPos::Center,
                )?;
                for (i, s) in series.iter().enumerate() {
                    let (color, shape) = (
                        data.encoding_color(&s.encoding),
                        data.encoding_shape(&s.encoding),
                    );
                    let at = |p: &(u32, f64, f64)| {
                        chart.backend_coord(&(position(p.0) + shift(i), value(p)))
                    };
                    let points: Vec<(i32, i32)> = s.points.iter().map(at).collect();
                    line(root, points.clone(), color.stroke_width(2), None)?;
                    for (point, p) in points.iter().zip(&s.points) {
                        shape.draw(root, *point, 9, color, true)?;
                        // With a single side the values are otherwise hard to read off a log
                        // axis.
                        if sides.len() == 1 {
                            let label = format!("{:.0}", value(p));
                            text(
                                root,
                                (point.0 + 8, point.1),
                                &label,
                                font(FONT - 1.0),
                                HPos::Left,
                            )?;
                        }
                    }
                }
            }
            Ok(())
        },
    )
}

/// The lines of the chart, one per encoding (and kind, when kinds are mixed), each point a
/// side's median sizes; and the sides, in order.
fn series_of(
    rows: &[crate::report::rows::Row],
    encodings: &[String],
    modes: &crate::report::mode::Modes,
) -> (Vec<Series>, Vec<u32>) {
    let puzzles = || rows.iter().filter(|r| encoded_puzzle(r));
    let kinds = first_appearance(puzzles().map(|r| r.kind().as_str()));
    let encoding_index = |e: &str| encodings.iter().position(|x| x == e).unwrap_or(0);
    // One size per (instance, encoding), its first row's: every solver's row repeats it.
    // A set of name pairs (8 bytes each) says which were met; their sizes go straight to
    // their (encoding, kind, side) group, whose order does not matter (medians).
    let mut met: NameMap<(Name, Name), ()> = NameMap::default();
    let mut groups: BTreeMap<(usize, usize, u32), Sizes> = BTreeMap::new();
    let mut last = None;
    for r in puzzles() {
        let key = (r.instance_name(), r.encoding());
        // Rows of one instance and encoding mostly come together.
        if last == Some(key) || met.insert(key, ()).is_some() {
            continue;
        }
        last = Some(key);
        let kind = r.kind().as_str();
        let kind_index = kinds.iter().position(|k| k.as_str() == kind).unwrap_or(0);
        let group = groups
            .entry((encoding_index(r.encoding().as_str()), kind_index, r.side()))
            .or_default();
        group.0.push(r.vars() as f64);
        group.1.push(r.clauses() as f64);
    }
    drop(met);
    let mut sides: Vec<u32> = groups.keys().map(|k| k.2).collect();
    sides.sort_unstable();
    sides.dedup();
    let mut series: Vec<Series> = Vec::new();
    for ((e, k, side), (mut vars, mut clauses)) in groups {
        let encoding = &encodings[e];
        let modes = modes.of_encoding(encoding);
        let label = if kinds.len() > 1 {
            format!("{encoding} ({}) · {modes}", kinds[k])
        } else {
            format!("{encoding} · {modes}")
        };
        let point = (
            side,
            median_unordered(&mut vars),
            median_unordered(&mut clauses),
        );
        match series.last_mut() {
            Some(s) if s.label == label => s.points.push(point),
            _ => series.push(Series {
                label,
                encoding: encoding.clone(),
                points: vec![point],
            }),
        }
    }
    (series, sides)
}
