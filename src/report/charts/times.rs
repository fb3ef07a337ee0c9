//! The distribution of run times: one horizontal box plot per solver × encoding, over the
//! wall times of its solved instances (log scale): the box spans the middle half, the bar
//! inside is the median, the whiskers reach the fastest and the slowest, and every run is
//! a faint dot, so that small samples are not hidden behind a box. How many were solved
//! is written at the right: a fast box over few solved instances is not a fast solver.

use crate::report::charts::svg::{
    Anchor, Area, CHAR_WIDTH, FONT, Stroke, Svg, draw_frame_with_ticks, draw_title, format_seconds,
};
use crate::report::charts::{ChartData, TIMEOUT_COLOR};

/// Height of one box row, px.
const ROW: f64 = 44.0;

/// The q-quantile of ascending `sorted` (linear interpolation between order statistics).
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let pos = q * (sorted.len() - 1) as f64;
    let below = pos.floor() as usize;
    let above = pos.ceil() as usize;
    sorted[below] + (sorted[above] - sorted[below]) * (pos - below as f64)
}

/// The run-time distribution chart as SVG.
pub fn times(data: &ChartData) -> String {
    let series = data.series();
    let labels: Vec<String> = series
        .iter()
        .map(|(s, e)| data.series_label(s, e))
        .collect();
    let label_w = labels
        .iter()
        .map(|l| l.chars().count() as f64 * CHAR_WIDTH)
        .fold(0.0, f64::max);
    let area = Area {
        left: label_w.max(60.0) + 30.0,
        top: 70.0,
        width: 600.0,
        height: ROW * series.len().max(1) as f64,
    };
    let width = area.right() + 150.0;
    let height = area.bottom() + 65.0;
    let title = "Wall time of solved instances, per solver × encoding";
    let mut svg = Svg::new(width, height, title);
    draw_title(
        &mut svg,
        width,
        title,
        "box: middle half; bar: median; whiskers: fastest and slowest; dots: each instance",
    );
    let (lo, hi) = data.time_range();
    let x = area.x_axis(lo, hi, true);
    // The y axis only places rows; its ticks are the row labels, drawn below.
    let y = area.y_axis(0.0, series.len().max(1) as f64, false);
    draw_frame_with_ticks(
        &mut svg,
        area,
        (&x, &x.ticks()),
        (&y, &[]),
        "wall time (s, log scale)",
        "",
    );
    if data.timeout_on_scale() {
        let tx = x.map(data.timeout);
        svg.line(
            tx,
            area.top,
            tx,
            area.bottom(),
            Stroke {
                color: TIMEOUT_COLOR,
                width: 1.5,
                dash: Some("6 4"),
            },
        );
        // Ending at the line, so that it never runs into the "solved" column heading.
        svg.text(
            tx + 4.0,
            area.top - 6.0,
            &format!("timeout {} s", format_seconds(data.timeout)),
            FONT,
            Anchor::End,
            &format!("fill=\"{TIMEOUT_COLOR}\""),
        );
    } else {
        svg.text(
            area.right(),
            area.top - 6.0,
            &data.timeout_label(),
            FONT,
            Anchor::End,
            &format!("fill=\"{TIMEOUT_COLOR}\""),
        );
    }

    svg.text(
        area.right() + 12.0,
        area.top - 6.0,
        "solved",
        FONT,
        Anchor::Start,
        "font-weight=\"bold\"",
    );

    for (row, ((solver, encoding), label)) in series.iter().zip(&labels).enumerate() {
        let mid = area.top + ROW * (row as f64 + 0.5);
        let color = data.solver_color(solver);
        let times = data.solved_times(solver, encoding);
        let ran = data
            .outcomes
            .iter()
            .filter(|o| &o.solver == solver && &o.encoding == encoding)
            .count();
        svg.text(area.left - 10.0, mid + 4.5, label, FONT, Anchor::End, "");
        svg.text(
            area.right() + 12.0,
            mid + 4.5,
            &format!("{} / {ran}", times.len()),
            FONT,
            Anchor::Start,
            "",
        );
        if row > 0 {
            let sep = area.top + ROW * row as f64;
            svg.line(
                area.left,
                sep,
                area.right(),
                sep,
                Stroke {
                    color: "#e2e2e2",
                    width: 1.0,
                    dash: None,
                },
            );
        }
        if times.is_empty() {
            svg.text(
                area.left + 10.0,
                mid + 4.5,
                "none solved",
                FONT,
                Anchor::Start,
                "font-style=\"italic\" fill-opacity=\"0.7\"",
            );
            continue;
        }
        let px = |v: f64| x.map(x.clamp(v));
        let (q1, q2, q3) = (
            quantile(&times, 0.25),
            quantile(&times, 0.5),
            quantile(&times, 0.75),
        );
        let (fastest, slowest) = (times[0], times[times.len() - 1]);
        let whisker = Stroke {
            color,
            width: 1.5,
            dash: None,
        };
        svg.line(px(fastest), mid, px(q1), mid, whisker);
        svg.line(px(q3), mid, px(slowest), mid, whisker);
        for end in [fastest, slowest] {
            svg.line(px(end), mid - 7.0, px(end), mid + 7.0, whisker);
        }
        let half = ROW * 0.28;
        svg.raw(&format!(
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{color}\" fill-opacity=\"0.25\" stroke=\"{color}\" stroke-width=\"1.5\"/>",
            px(q1),
            mid - half,
            (px(q3) - px(q1)).max(1.5),
            2.0 * half
        ));
        svg.line(
            px(q2),
            mid - half,
            px(q2),
            mid + half,
            Stroke {
                color,
                width: 3.0,
                dash: None,
            },
        );
        for (i, t) in times.iter().enumerate() {
            // A fixed spread over five lanes rather than random jitter: the same data
            // always draws the same picture.
            let lane = (i % 5) as f64 - 2.0;
            svg.raw(&format!(
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.2\" fill=\"#222\" fill-opacity=\"0.45\"/>",
                px(*t),
                mid + lane * 3.0
            ));
        }
    }
    svg.finish()
}
