//! The distribution of run times: one horizontal box plot per solver × encoding, over the
//! times of its solved instances (CPU by default, wall under `--time wall`; log scale):
//! the box spans the middle half, the bar inside is the median, the whiskers reach the
//! fastest and the slowest, and every run is a faint dot, so that small samples are not
//! hidden behind a box. How many were solved
//! is written at the right: a fast box over few solved instances is not a fast solver.

use std::collections::BTreeMap;

use plotters::prelude::*;
use plotters::style::text_anchor::HPos;

use crate::report::charts::draw::{
    Canvas, FONT, Linear, chart, font, format_number, format_seconds, line, plot, rgb, styled,
    text, text_width,
};
use crate::report::charts::{ChartData, TIMEOUT_COLOR, TIMEOUT_DASH};
use crate::report::score::quantile;

/// Height of one box row, px.
const ROW: i32 = 44;
/// Width of the plot, px.
const WIDTH: i32 = 600;

/// The run-time distribution chart as SVG.
pub fn times(data: &ChartData) -> anyhow::Result<String> {
    let series = data.series();
    let labels: Vec<String> = series.iter().map(|s| data.series_label(s)).collect();
    let left = labels.iter().map(|l| text_width(l)).fold(60, i32::max) + 30;
    let rows = series.len().max(1) as i32;
    let title = match data.time {
        super::super::TimeBasis::Cpu => "CPU time of solved instances, per solver × encoding",
        super::super::TimeBasis::Wall => "Wall time of solved instances, per solver × encoding",
    };
    let titles = (
        title,
        "box: middle half; bar: median; whiskers: fastest and slowest; dots: each instance",
    );
    // The plot, then a column of how many each solved.
    let size = (left + WIDTH + 10 + 150, rows * ROW + 60);
    chart(titles, size, None, |root, area| {
        let area = area.split_horizontally(left + WIDTH + 10).0;
        // The y axis only places rows: no ticks, the row labels are drawn below.
        let y = Linear {
            range: 0.0..rows as f64,
            ticks: Vec::new(),
        };
        let x_title = format!("{} (s, log scale)", data.time.words());
        let (format, axes) = (|v: &f64| format_number(*v), (x_title.as_str(), ""));
        let chart = plot(&area, left as u32, (data.time_axis(), y), &format, axes)?;
        let (lo, hi) = data.time_range();
        let at = |t: f64, row: f64| chart.backend_coord(&(t.clamp(lo, hi), rows as f64 - row));
        let ((plot_left, top), (plot_right, bottom)) = (at(lo, 0.0), at(hi, rows as f64));

        let red = font(FONT).color(&TIMEOUT_COLOR);
        if data.timeout_on_scale() {
            let (tx, _) = at(data.timeout, 0.0);
            line(
                root,
                [(tx, top), (tx, bottom)],
                TIMEOUT_COLOR.stroke_width(2),
                TIMEOUT_DASH,
            )?;
            // Ending at the line, so that it never runs into the "solved" column heading.
            let label = format!("timeout {} s", format_seconds(data.timeout));
            text(root, (tx + 4, top - 10), &label, red, HPos::Right)?;
        } else {
            text(
                root,
                (plot_right, top - 10),
                &data.timeout_entry().label,
                red,
                HPos::Right,
            )?;
        }
        let bold = styled(FONT, FontStyle::Bold);
        text(
            root,
            (plot_right + 12, top - 10),
            "solved",
            bold,
            HPos::Left,
        )?;

        for (row, (config, label)) in series.iter().zip(&labels).enumerate() {
            let (_, mid) = at(lo, row as f64 + 0.5);
            let color = data.solver_color(&config.solver);
            let (times, ran) = data.solved_times(config);
            text(root, (plot_left - 10, mid), label, font(FONT), HPos::Right)?;
            let count = format!("{} / {ran}", times.len());
            text(root, (plot_right + 12, mid), &count, font(FONT), HPos::Left)?;
            if row > 0 {
                let (_, y) = at(lo, row as f64);
                line(
                    root,
                    [(plot_left + 1, y), (plot_right - 1, y)],
                    GRID.into(),
                    None,
                )?;
            }
            if times.is_empty() {
                let faint = styled(FONT, FontStyle::Italic).color(&INK_FAINT);
                text(
                    root,
                    (plot_left + 10, mid),
                    "none solved",
                    faint,
                    HPos::Left,
                )?;
                continue;
            }
            draw_box(root, &times, mid, color, &|t: f64| at(t, 0.0).0)?;
        }
        Ok(())
    })
}

/// The colour of the dots of single runs.
const DOT: RGBColor = rgb(0x222222);
/// The opacity of one dot.
const DOT_ALPHA: f64 = 0.45;
/// The colour of the lines between rows.
const GRID: RGBColor = rgb(0xE2E2E2);
/// Faint text.
const INK_FAINT: RGBAColor = RGBAColor(0x22, 0x22, 0x22, 0.7);

/// One row's box over its sorted solved `times` at height `mid`, `px` placing a time:
/// every time a faint dot, then the box, its median and its whiskers in `color`.
fn draw_box(
    root: &Canvas,
    times: &[f64],
    mid: i32,
    color: RGBColor,
    px: &dyn Fn(f64) -> i32,
) -> anyhow::Result<()> {
    // The dots first, so that the box and its median stay on top of thousands of
    // them. Dots on one spot are drawn as one, as dark as they were together (k layers
    // of opacity a are one of 1 − (1 − a)^k), so that a million runs make no more
    // dots than there are spots.
    let mut layers: BTreeMap<(i32, i32), i32> = BTreeMap::new();
    for (i, t) in times.iter().enumerate() {
        // A fixed spread over five lanes rather than random jitter: the same data
        // always draws the same picture.
        let lane = (i % 5) as i32 - 2;
        *layers.entry((px(*t), mid + lane * 3)).or_insert(0) += 1;
    }
    for (centre, k) in layers {
        let alpha = 1.0 - (1.0 - DOT_ALPHA).powi(k);
        root.draw(&Circle::new(centre, 2, DOT.mix(alpha).filled()))?;
    }
    let [q1, q2, q3] = [0.25, 0.5, 0.75].map(|q| px(quantile(times, q)));
    let (fastest, slowest) = (px(times[0]), px(times[times.len() - 1]));
    let whisker = color.stroke_width(2);
    line(root, [(fastest, mid), (q1, mid)], whisker, None)?;
    line(root, [(q3, mid), (slowest, mid)], whisker, None)?;
    for end in [fastest, slowest] {
        line(root, [(end, mid - 7), (end, mid + 7)], whisker, None)?;
    }
    let half = ROW * 28 / 100;
    let corners = [(q1, mid - half), (q3.max(q1 + 2), mid + half)];
    root.draw(&Rectangle::new(corners, color.mix(0.25).filled()))?;
    root.draw(&Rectangle::new(corners, color.stroke_width(2)))?;
    line(
        root,
        [(q2, mid - half), (q2, mid + half)],
        color.stroke_width(3),
        None,
    )?;
    Ok(())
}
