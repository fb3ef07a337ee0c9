//! The distribution of per-instance speed-ups of NEW over OLD (OLD's time / NEW's time,
//! log scale) over the instances both solved, sorted: one mark per instance, green where
//! NEW is faster, red where slower, a line at 1 (no change) and, with a regression factor
//! F, a dashed line at 1/F below which a slowdown counts as a regression. The median is
//! marked. Where half the marks sit above 1 and half below, nothing changed; a curve that
//! sits above 1 across is a speed-up everywhere, not a few lucky instances.

use plotters::prelude::*;
use plotters::style::text_anchor::HPos;

use crate::report::charts::TIMEOUT_COLOR;
use crate::report::charts::draw::{
    FONT, GREY, Legend, LegendEntry, Linear, PLOT_LEFT, Shape, chart, font, format_number, line,
    linear_ticks, log_axis, plot, rgb, text,
};
use crate::report::compare::Comparison;

/// Width and height of the plot, px.
const SIZE: (i32, i32) = (620, 400);
/// NEW faster.
const FASTER: RGBColor = rgb(0x009E73);
/// NEW slower.
const SLOWER: RGBColor = rgb(0xD55E00);

/// The chart as SVG.
pub fn speedups(c: &Comparison) -> anyhow::Result<String> {
    // Only finite, positive ratios make the axis (a time of 0 gives an infinite one).
    let mut ratios: Vec<f64> = c
        .instances
        .iter()
        .filter_map(|i| i.speedup)
        .filter(|r| r.is_finite() && *r > 0.0)
        .collect();
    ratios.sort_unstable_by(f64::total_cmp);
    let n = ratios.len();
    let floor = c.factor.filter(|f| f.is_finite()).map(|f| 1.0 / f);
    let lo = ratios
        .first()
        .copied()
        .unwrap_or(1.0)
        .min(floor.unwrap_or(1.0))
        .min(1.0)
        / 1.5;
    let hi = ratios.last().copied().unwrap_or(1.0).max(1.0) * 1.5;
    let title = format!("Speed-up of {} over {}", c.new, c.old);
    let subtitle = format!(
        "{n} instances both solved, sorted; {} / {} per instance; above 1: NEW faster",
        c.time.words(),
        c.time.words()
    );
    let mut entries = vec![
        LegendEntry::mark("NEW faster".into(), FASTER, Shape::Circle, true),
        LegendEntry::mark("NEW slower".into(), SLOWER, Shape::Circle, true),
        LegendEntry::line("no change".into(), GREY, 1, None),
    ];
    if let Some(f) = floor {
        entries.push(LegendEntry::line(
            format!("regression: {}× slower", format_number(1.0 / f)),
            TIMEOUT_COLOR,
            2,
            Some((6, 4)),
        ));
    }
    let legend = Legend {
        heading: "marks",
        entries,
    };
    let size = (PLOT_LEFT + SIZE.0 + 10, SIZE.1 + 60);
    chart((&title, &subtitle), size, Some(&legend), |root, area| {
        let top = n.max(1) as f64;
        let x = Linear {
            range: 0.0..top + 1.0,
            ticks: linear_ticks(1.0, top, 6.0),
        };
        let format = |v: &f64| format_number(*v);
        let labels = ("instances, slowest to fastest", "speed-up (log scale)");
        let chart = plot(
            area,
            PLOT_LEFT as u32,
            (x, log_axis(lo, hi)),
            &format,
            labels,
        )?;
        let at = |i: f64, r: f64| chart.backend_coord(&(i, r.clamp(lo, hi)));
        let (left, one) = at(0.0, 1.0);
        let (right, _) = at(top + 1.0, 1.0);
        line(
            root,
            [(left, one), (right, one)],
            GREY.stroke_width(1),
            None,
        )?;
        if let Some(f) = floor {
            let (_, y) = at(0.0, f);
            line(
                root,
                [(left, y), (right, y)],
                TIMEOUT_COLOR.stroke_width(2),
                Some((6, 4)),
            )?;
        }
        let radius = if n > 2000 { 1 } else { 3 };
        for (i, r) in ratios.iter().enumerate() {
            let color = if *r >= 1.0 { FASTER } else { SLOWER };
            root.draw(&Circle::new(
                at(i as f64 + 1.0, *r),
                radius,
                color.mix(0.8).filled(),
            ))?;
        }
        if let Some(median) = c.speedups.estimate() {
            let (mx, my) = at(top / 2.0 + 0.5, median);
            line(
                root,
                [(mx, my - 12), (mx, my + 12)],
                BLACK.stroke_width(2),
                None,
            )?;
            let label = format!("median {}×", format_number(median));
            text(root, (mx + 6, my - 16), &label, font(FONT), HPos::Left)?;
        }
        Ok(())
    })
}
