//! The size of each encoding against the puzzle side: two panels, variables and clauses,
//! one line per encoding (per encoding and kind when kinds are mixed), each point the
//! median over the instances of that side (givens make sizes vary a little, and the
//! pruned encoding a lot). Drawn only when the results hold several encodings.

use std::collections::BTreeMap;

use crate::report::charts::ChartData;
use crate::report::charts::svg::{
    Anchor, Area, FONT, LEGEND_ROW, LegendEntry, Stroke, Svg, draw_frame_with_ticks, draw_legend,
    draw_title, legend_width,
};
use crate::report::outcome::first_appearance;
use crate::report::score::median;

/// One line of a panel: its name, style, and (side, median vars, median clauses) points.
struct Series {
    label: String,
    encoding: String,
    points: Vec<(u32, f64, f64)>,
}

/// Variables and clauses of a group of instances.
type Sizes = (Vec<f64>, Vec<f64>);

/// True when the results hold puzzles under more than one encoding.
pub fn has_several_encodings(data: &ChartData) -> bool {
    let puzzle_encodings = first_appearance(
        data.rows
            .iter()
            .filter(|r| r.side > 0)
            .map(|r| r.encoding.as_str()),
    );
    puzzle_encodings.len() > 1
}

/// The encoding-size chart as SVG.
pub fn encodings(data: &ChartData) -> String {
    let puzzles: Vec<_> = data.rows.iter().filter(|r| r.side > 0).collect();
    let kinds = first_appearance(puzzles.iter().map(|r| r.kind.as_str()));
    // One size per (instance, encoding): every solver's row repeats it.
    let mut sizes: BTreeMap<(&str, &str), (&str, u32, u64, u64)> = BTreeMap::new();
    for r in &puzzles {
        sizes
            .entry((&r.instance, &r.encoding))
            .or_insert((&r.kind, r.side, r.vars, r.clauses));
    }
    // (encoding, kind, side) → the sizes of its instances.
    let mut groups: BTreeMap<(usize, usize, u32), Sizes> = BTreeMap::new();
    let encoding_index = |e: &str| data.encodings.iter().position(|x| x == e).unwrap_or(0);
    for ((_, encoding), (kind, side, vars, clauses)) in &sizes {
        let kind_index = kinds.iter().position(|k| k == kind).unwrap_or(0);
        let group = groups
            .entry((encoding_index(encoding), kind_index, *side))
            .or_default();
        group.0.push(*vars as f64);
        group.1.push(*clauses as f64);
    }
    let mut series: Vec<Series> = Vec::new();
    for ((e, k, side), (mut vars, mut clauses)) in groups {
        let encoding = &data.encodings[e];
        let label = if kinds.len() > 1 {
            format!("{encoding} ({})", kinds[k])
        } else {
            encoding.clone()
        };
        let point = (side, median(&mut vars), median(&mut clauses));
        match series.last_mut() {
            Some(s) if s.label == label => s.points.push(point),
            _ => series.push(Series {
                label,
                encoding: encoding.clone(),
                points: vec![point],
            }),
        }
    }
    let mut sides: Vec<u32> = sizes.values().map(|v| v.1).collect();
    sides.sort_unstable();
    sides.dedup();

    let legend: Vec<LegendEntry> = series
        .iter()
        .map(|s| LegendEntry {
            label: s.label.clone(),
            color: data.encoding_color(&s.encoding).to_string(),
            shape: Some(data.encoding_shape(&s.encoding)),
            filled: true,
            line: Some((2.0, None)),
        })
        .collect();
    let heading = "encoding";
    let legend_w = legend_width(&legend, heading);
    let panel_h = 340f64.max((legend.len() + 1) as f64 * LEGEND_ROW + 12.0);
    let panels = [
        Area {
            left: 95.0,
            top: 90.0,
            width: 330.0,
            height: panel_h,
        },
        Area {
            left: 95.0 + 330.0 + 110.0,
            top: 90.0,
            width: 330.0,
            height: panel_h,
        },
    ];
    let width = panels[1].right() + 30.0 + legend_w + 20.0;
    let height = panels[0].bottom() + 65.0;
    let title = "CNF size per encoding against puzzle side";
    let mut svg = Svg::new(width, height, title);
    draw_title(
        &mut svg,
        width,
        title,
        "median over the instances of each side, givens included",
    );

    // Sides are categories (4, 9, 16, 25 ...), evenly spaced, so that one side still plots.
    let x_ticks: Vec<(f64, String)> = sides
        .iter()
        .enumerate()
        .map(|(i, side)| (i as f64, format!("{side}×{side}")))
        .collect();
    let position = |side: u32| sides.iter().position(|s| *s == side).unwrap_or(0) as f64;
    // Encodings often share a size (the same grid variables): each series is shifted a
    // little within its category so that no mark hides another.
    let spread = (0.5 / series.len().max(1) as f64).min(0.2);
    let shift = |i: usize| (i as f64 - (series.len() as f64 - 1.0) / 2.0) * spread;
    for (panel, (area, what)) in panels.iter().zip(["variables", "clauses"]).enumerate() {
        let value = |p: &(u32, f64, f64)| if panel == 0 { p.1 } else { p.2 };
        let values: Vec<f64> = series
            .iter()
            .flat_map(|s| s.points.iter().map(value))
            .collect();
        let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = values.iter().copied().fold(0.0, f64::max);
        let x = area.x_axis(-0.5, sides.len() as f64 - 0.5, false);
        let y = area.y_axis((lo / 1.5).max(1.0), hi * 1.5, true);
        draw_frame_with_ticks(
            &mut svg,
            *area,
            (&x, &x_ticks),
            (&y, &y.ticks()),
            "puzzle side",
            &format!("{what} (log scale)"),
        );
        svg.text(
            area.left + area.width / 2.0,
            area.top - 8.0,
            what,
            FONT + 1.0,
            Anchor::Middle,
            "font-weight=\"bold\"",
        );
        for (i, s) in series.iter().enumerate() {
            let color = data.encoding_color(&s.encoding);
            let points: Vec<(f64, f64)> = s
                .points
                .iter()
                .map(|p| (x.map(position(p.0) + shift(i)), y.map(value(p))))
                .collect();
            svg.polyline(
                &points,
                Stroke {
                    color,
                    width: 2.0,
                    dash: None,
                },
            );
            for (px, py) in &points {
                svg.mark(data.encoding_shape(&s.encoding), *px, *py, 9.0, color, true);
            }
        }
        // With a single side the values are otherwise hard to read off a log axis.
        if sides.len() == 1 {
            for (i, s) in series.iter().enumerate() {
                for p in &s.points {
                    svg.text(
                        x.map(position(p.0) + shift(i)) + 8.0,
                        y.map(value(p)) + 4.5,
                        &format!("{:.0}", value(p)),
                        FONT - 1.0,
                        Anchor::Start,
                        "",
                    );
                }
            }
        }
    }
    draw_legend(
        &mut svg,
        panels[1].right() + 30.0,
        panels[0].top,
        heading,
        &legend,
    );
    svg.finish()
}
