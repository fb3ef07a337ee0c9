//! The cactus plot: for each solver × encoding, its solved instances sorted by time, the
//! k-th fastest drawn at (k, time). A line further right solved more; lower solved faster.
//! The virtual best solver is the thick black line; the timeout is the red dashed line.

use crate::report::charts::svg::{
    Anchor, Area, FONT, LEGEND_ROW, LegendEntry, Shape, Stroke, Svg, draw_frame, draw_legend,
    draw_title, format_seconds, legend_width,
};
use crate::report::charts::{ChartData, TIMEOUT_COLOR};
use crate::report::vbs::VirtualBest;

/// How many marks a line gets at most, so that long lines stay lines.
const MAX_MARKS: usize = 24;

/// The cactus plot as SVG.
pub fn cactus(data: &ChartData, vbs: &VirtualBest) -> String {
    struct Line {
        label: String,
        color: &'static str,
        width: f64,
        dash: Option<&'static str>,
        shape: Option<Shape>,
        times: Vec<f64>,
    }
    let mut lines: Vec<Line> = data
        .series()
        .into_iter()
        .map(|(solver, encoding)| {
            let times = data.solved_times(&solver, &encoding);
            Line {
                label: format!(
                    "{} ({})",
                    data.series_label(&solver, &encoding),
                    times.len()
                ),
                color: data.solver_color(&solver),
                width: 2.0,
                dash: data.encoding_dash(&encoding),
                shape: Some(data.encoding_shape(&encoding)),
                times,
            }
        })
        .collect();
    lines.push(Line {
        label: format!("virtual best solver ({})", vbs.solved_times.len()),
        color: "#000",
        width: 3.5,
        dash: None,
        shape: None,
        times: vbs.solved_times.clone(),
    });

    let mut legend: Vec<LegendEntry> = lines
        .iter()
        .map(|l| LegendEntry {
            label: l.label.clone(),
            color: l.color.to_string(),
            shape: l.shape,
            filled: false,
            line: Some((l.width, l.dash.map(str::to_string))),
        })
        .collect();
    legend.push(LegendEntry {
        label: data.timeout_label(),
        color: TIMEOUT_COLOR.to_string(),
        shape: None,
        filled: false,
        line: Some((1.5, Some("6 4".to_string()))),
    });
    let heading = "solved (count)";
    let legend_w = legend_width(&legend, heading);
    let legend_h = (legend.len() + 1) as f64 * LEGEND_ROW + 12.0;
    let plot_h = 440f64.max(legend_h);
    let area = Area {
        left: 95.0,
        top: 70.0,
        width: 620.0,
        height: plot_h,
    };
    let width = area.right() + 30.0 + legend_w + 20.0;
    let height = area.bottom() + 65.0;
    let title = "Cactus plot: instances solved within a time";
    let mut svg = Svg::new(width, height, title);
    draw_title(
        &mut svg,
        width,
        title,
        "one line per solver × encoding: the k-th fastest solved instance at (k, its time); right and low is better",
    );

    let instances = vbs.instances.max(1) as f64;
    let x = area.x_axis(0.0, instances, false);
    let (lo, hi) = data.time_range();
    let y = area.y_axis(lo, hi, true);
    draw_frame(
        &mut svg,
        area,
        &x,
        &y,
        "instances solved",
        "wall time per instance (s, log scale)",
    );

    if data.timeout_on_scale() {
        let timeout_y = y.map(data.timeout);
        svg.line(
            area.left,
            timeout_y,
            area.right(),
            timeout_y,
            Stroke {
                color: TIMEOUT_COLOR,
                width: 1.5,
                dash: Some("6 4"),
            },
        );
        svg.text(
            area.left + 8.0,
            timeout_y - 7.0,
            &format!("timeout {} s", format_seconds(data.timeout)),
            FONT,
            Anchor::Start,
            &format!("fill=\"{TIMEOUT_COLOR}\""),
        );
    }

    for line in &lines {
        let points: Vec<(f64, f64)> = line
            .times
            .iter()
            .enumerate()
            .map(|(k, t)| (x.map((k + 1) as f64), y.map(y.clamp(*t))))
            .collect();
        svg.polyline(
            &points,
            Stroke {
                color: line.color,
                width: line.width,
                dash: line.dash,
            },
        );
        if let Some(shape) = line.shape {
            let every = points.len().div_ceil(MAX_MARKS).max(1);
            for (k, (px, py)) in points.iter().enumerate() {
                if k % every == 0 || k + 1 == points.len() {
                    svg.mark(shape, *px, *py, 8.0, line.color, false);
                }
            }
        }
    }
    draw_legend(&mut svg, area.right() + 30.0, area.top, heading, &legend);
    svg.finish()
}
