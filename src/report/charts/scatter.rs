//! The scatter plot of one solver against another: one mark per (instance, encoding) both
//! ran, at (time of the x solver, time of the y solver), log-log. Marks below the diagonal
//! are instances the y solver was faster on; the 2× and 10× lines show by how much.
//!
//! A run that did not solve its instance is drawn on the border, at the timeout: a
//! timeout keeps the SAT/UNSAT mark of the answer the other solver found (a diamond if
//! neither did), an error is a cross, a wrong answer a red star, so that failures are
//! never mistaken for slow answers. Colours tell encodings apart.

use std::collections::HashMap;

use crate::report::charts::svg::{
    Anchor, Area, CHAR_WIDTH, FONT, LegendEntry, Shape, Stroke, Svg, clip_segment, draw_frame,
    draw_legend, draw_title, legend_width,
};
use crate::report::charts::{ChartData, TIMEOUT_COLOR, WRONG_COLOR};
use crate::report::outcome::{Answer, Outcome};

/// The colour of the marks when colour does not stand for an encoding.
const ONE_ENCODING_COLOR: &str = "#332288";

/// What a mark says about a pair of outcomes, in the order the legend lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Mark {
    Sat,
    Unsat,
    NeitherSolved,
    Error,
    Wrong,
}

impl Mark {
    fn of(x: &Outcome, y: &Outcome) -> Mark {
        let either = |a: Answer| x.answer == a || y.answer == a;
        if either(Answer::Wrong) {
            Mark::Wrong
        } else if either(Answer::Error) {
            Mark::Error
        } else if either(Answer::Sat) {
            Mark::Sat
        } else if either(Answer::Unsat) {
            Mark::Unsat
        } else {
            Mark::NeitherSolved
        }
    }

    fn shape(self) -> Shape {
        match self {
            Mark::Sat => Shape::Circle,
            Mark::Unsat => Shape::Square,
            Mark::NeitherSolved => Shape::Diamond,
            Mark::Error => Shape::Cross,
            Mark::Wrong => Shape::Star,
        }
    }

    fn filled(self) -> bool {
        matches!(self, Mark::Unsat)
    }

    fn label(self) -> &'static str {
        match self {
            Mark::Sat => "SAT",
            Mark::Unsat => "UNSAT",
            Mark::NeitherSolved => "timeout on both",
            Mark::Error => "error (on the border)",
            Mark::Wrong => "WRONG answer",
        }
    }
}

/// The scatter plot of `y_solver` (vertical) against `x_solver` (horizontal).
pub fn scatter(data: &ChartData, x_solver: &str, y_solver: &str) -> String {
    let mut x_outcomes: HashMap<(&str, &str), &Outcome> = HashMap::new();
    for o in data.outcomes.iter().filter(|o| o.solver == x_solver) {
        x_outcomes.insert((&o.instance, &o.encoding), o);
    }
    let pairs: Vec<(&Outcome, &Outcome)> = data
        .outcomes
        .iter()
        .filter(|o| o.solver == y_solver)
        .filter_map(|y| {
            Some((
                *x_outcomes.get(&(y.instance.as_str(), y.encoding.as_str()))?,
                y,
            ))
        })
        .collect();

    let several_encodings = data.encodings.len() > 1;
    let mut marks_present: Vec<Mark> = pairs.iter().map(|(x, y)| Mark::of(x, y)).collect();
    marks_present.extend([Mark::Sat, Mark::Unsat]);
    marks_present.sort();
    marks_present.dedup();
    let mut legend: Vec<LegendEntry> = marks_present
        .iter()
        .map(|m| LegendEntry {
            label: m.label().to_string(),
            color: if *m == Mark::Wrong {
                WRONG_COLOR
            } else if several_encodings {
                "#444"
            } else {
                ONE_ENCODING_COLOR
            }
            .to_string(),
            shape: Some(m.shape()),
            filled: m.filled(),
            line: None,
        })
        .collect();
    if several_encodings {
        for encoding in &data.encodings {
            legend.push(LegendEntry {
                label: format!("encoding {encoding}"),
                color: data.encoding_color(encoding).to_string(),
                shape: Some(Shape::Circle),
                filled: true,
                line: None,
            });
        }
    }
    for (label, dash) in [
        ("equal time", None),
        ("2× apart", Some("6 4")),
        ("10× apart", Some("2 3")),
    ] {
        legend.push(LegendEntry {
            label: label.to_string(),
            color: "#888".to_string(),
            shape: None,
            filled: false,
            line: Some((1.2, dash.map(str::to_string))),
        });
    }
    legend.push(LegendEntry {
        label: data.timeout_label(),
        color: TIMEOUT_COLOR.to_string(),
        shape: None,
        filled: false,
        line: Some((1.5, Some("6 4".to_string()))),
    });

    let heading = "marks";
    let legend_w = legend_width(&legend, heading);
    let area = Area {
        left: 95.0,
        top: 70.0,
        width: 500.0,
        height: 500.0,
    };
    let width = area.right() + 30.0 + legend_w + 20.0;
    let height = area.bottom() + 65.0;
    let title = format!("{y_solver} vs {x_solver}: wall time per instance");
    let mut svg = Svg::new(width, height, &title);
    let subtitle = if several_encodings {
        format!(
            "{} (instance, encoding) pairs both ran; below the diagonal: {y_solver} faster",
            pairs.len()
        )
    } else {
        format!(
            "{} instances both ran; below the diagonal: {y_solver} faster",
            pairs.len()
        )
    };
    draw_title(&mut svg, width, &title, &subtitle);

    let (lo, hi) = data.time_range();
    let x = area.x_axis(lo, hi, true);
    let y = area.y_axis(lo, hi, true);
    draw_frame(
        &mut svg,
        area,
        &x,
        &y,
        &format!("{x_solver}: wall time (s, log scale)"),
        &format!("{y_solver}: wall time (s, log scale)"),
    );

    let guide = |dash| Stroke {
        color: "#888",
        width: 1.2,
        dash,
    };
    for (factor, dash, label) in [
        (1.0, None, ""),
        (2.0, Some("6 4"), "2×"),
        (10.0, Some("2 3"), "10×"),
    ] {
        for f in if factor == 1.0 {
            vec![1.0]
        } else {
            vec![factor, 1.0 / factor]
        } {
            if let Some(((x1, y1), (x2, y2))) = clip_segment((lo, lo * f), (hi, hi * f), &x, &y) {
                svg.line(x1, y1, x2, y2, guide(dash));
                if !label.is_empty() {
                    // Labelled where the line enters the plot (left edge above the
                    // diagonal, bottom edge below it): the top right corner is where the
                    // timeout lines and the border marks crowd.
                    let (tx, ty) = if f > 1.0 {
                        (x1 + 5.0, y1 - 6.0)
                    } else {
                        (x1 + 6.0, y1 - 5.0)
                    };
                    svg.text(tx, ty, label, FONT, Anchor::Start, "fill=\"#666\"");
                }
            }
        }
    }
    let border = Stroke {
        color: TIMEOUT_COLOR,
        width: 1.5,
        dash: Some("6 4"),
    };
    let (tx, ty) = if data.timeout_on_scale() {
        let (tx, ty) = (x.map(data.timeout), y.map(data.timeout));
        svg.line(tx, area.top, tx, area.bottom(), border);
        svg.line(area.left, ty, area.right(), ty, border);
        (tx, ty)
    } else {
        (area.right(), area.top)
    };

    // Faster on: a count per side, placed in the empty corners of the plot.
    let y_faster = pairs
        .iter()
        .filter(|(a, b)| b.answer.solved() && (!a.answer.solved() || b.time < a.time))
        .count();
    let x_faster = pairs
        .iter()
        .filter(|(a, b)| a.answer.solved() && (!b.answer.solved() || a.time < b.time))
        .count();
    // Each count sits in the corner of the side it counts, inside the timeout lines,
    // on a white ground so that marks under it do not garble it.
    let x_label = format!("{x_solver} faster: {x_faster}");
    let y_label = format!("{y_solver} faster: {y_faster}");
    let boxed = |svg: &mut Svg, text: &str, left: f64, baseline: f64| {
        let w = text.chars().count() as f64 * CHAR_WIDTH + 12.0;
        svg.raw(&format!(
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"20\" fill=\"white\" fill-opacity=\"0.85\" stroke=\"#bbb\"/>",
            left,
            baseline - 14.5
        ));
        svg.text(
            left + 6.0,
            baseline,
            text,
            FONT,
            Anchor::Start,
            "font-weight=\"bold\"",
        );
    };
    boxed(&mut svg, &x_label, area.left + 8.0, ty + 24.0);
    let y_label_w = y_label.chars().count() as f64 * CHAR_WIDTH + 12.0;
    boxed(
        &mut svg,
        &y_label,
        tx - 8.0 - y_label_w,
        area.bottom() - 10.0,
    );

    // Failures last, so that they are drawn over the answers they might hide.
    let mut marked: Vec<(Mark, &Outcome, &Outcome)> = pairs
        .iter()
        .map(|(a, b)| (Mark::of(a, b), *a, *b))
        .collect();
    marked.sort_by_key(|(m, _, _)| *m);
    for (mark, a, b) in marked {
        let place = |o: &Outcome| {
            if o.answer.solved() {
                o.time
            } else {
                data.timeout
            }
        };
        let color = if mark == Mark::Wrong {
            WRONG_COLOR
        } else if several_encodings {
            data.encoding_color(&a.encoding)
        } else {
            ONE_ENCODING_COLOR
        };
        svg.mark(
            mark.shape(),
            x.map(x.clamp(place(a))),
            y.map(y.clamp(place(b))),
            9.0,
            color,
            mark.filled(),
        );
    }
    draw_legend(&mut svg, area.right() + 30.0, area.top, heading, &legend);
    svg.finish()
}
