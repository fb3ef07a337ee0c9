//! The scatter plot of one solver against another: one mark per (instance, encoding) both
//! ran, at (time of the x solver, time of the y solver), log-log. Marks below the diagonal
//! are instances the y solver was faster on; the 2× and 10× lines show by how much.
//!
//! A run that did not solve its instance is drawn on the border, at the timeout: a
//! timeout keeps the SAT/UNSAT mark of the answer the other solver found (a diamond if
//! neither did), an error is a cross, a wrong answer a red star, so that failures are
//! never mistaken for slow answers. Colours tell encodings apart.

use std::collections::HashMap;

use plotters::prelude::*;
use plotters::style::text_anchor::HPos;

use crate::report::charts::{
    ChartData, FONT, GREY, Legend, LegendEntry, PLOT_LEFT, Shape, TIMEOUT_COLOR, TIMEOUT_DASH, TOP,
    WRONG_COLOR, font, format_number, line, plot, styled, svg, text, text_width,
};
use crate::report::outcome::{Answer, Outcome};

/// The colour of the marks when colour does not stand for an encoding.
const ONE_ENCODING_COLOR: RGBColor = RGBColor(0x33, 0x22, 0x88);
/// Width and height of the plot, px.
const SIDE: i32 = 500;

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

    /// Shape, filled, label.
    fn look(self) -> (Shape, bool, &'static str) {
        match self {
            Mark::Sat => (Shape::Circle, false, "SAT"),
            Mark::Unsat => (Shape::Square, true, "UNSAT"),
            Mark::NeitherSolved => (Shape::Diamond, false, "timeout on both"),
            Mark::Error => (Shape::Cross, false, "error (on the border)"),
            Mark::Wrong => (Shape::Star, false, "WRONG answer"),
        }
    }
}

/// The scatter plot of `y_solver` (vertical) against `x_solver` (horizontal).
pub fn scatter(data: &ChartData, x_solver: &str, y_solver: &str) -> anyhow::Result<String> {
    let mut x_outcomes: HashMap<(&str, &str), &Outcome> = HashMap::new();
    for o in data.outcomes.iter().filter(|o| o.solver == x_solver) {
        x_outcomes.insert((&o.instance, &o.encoding), o);
    }
    // Failures last, so that they are drawn over the answers they might hide.
    let mut pairs: Vec<(Mark, &Outcome, &Outcome)> = data
        .outcomes
        .iter()
        .filter(|o| o.solver == y_solver)
        .filter_map(|y| {
            let x = *x_outcomes.get(&(y.instance.as_str(), y.encoding.as_str()))?;
            Some((Mark::of(x, y), x, y))
        })
        .collect();
    pairs.sort_by_key(|(m, _, _)| *m);

    let several_encodings = data.encodings.len() > 1;
    let mark_color = |m: Mark, encoding: Option<&str>| match (m, encoding) {
        (Mark::Wrong, _) => WRONG_COLOR,
        (_, Some(e)) if several_encodings => data.encoding_color(e),
        _ if several_encodings => RGBColor(0x44, 0x44, 0x44),
        _ => ONE_ENCODING_COLOR,
    };
    let mut marks: Vec<Mark> = pairs.iter().map(|(m, _, _)| *m).collect();
    marks.extend([Mark::Sat, Mark::Unsat]);
    marks.sort();
    marks.dedup();
    let mut entries: Vec<LegendEntry> = marks
        .iter()
        .map(|m| {
            let (shape, filled, label) = m.look();
            LegendEntry::mark(label.into(), mark_color(*m, None), shape, filled)
        })
        .collect();
    if several_encodings {
        for e in &data.encodings {
            let color = data.encoding_color(e);
            entries.push(LegendEntry::mark(
                format!("encoding {e}"),
                color,
                Shape::Circle,
                true,
            ));
        }
    }
    let guides = [
        (1.0, None, "equal time"),
        (2.0, Some((6, 4)), "2× apart"),
        (10.0, Some((2, 3)), "10× apart"),
    ];
    for (_, dash, label) in guides {
        entries.push(LegendEntry::line(label.into(), GREY, 1, dash));
    }
    entries.push(data.timeout_entry());
    let legend = Legend {
        heading: "marks",
        entries,
    };

    let right = PLOT_LEFT + SIDE + 10;
    let size = (
        right + 20 + legend.width() + 20,
        TOP as i32 + SIDE.max(legend.height()) + 60,
    );
    let title = format!("{y_solver} vs {x_solver}: wall time per instance");
    let what = if several_encodings {
        "(instance, encoding) pairs"
    } else {
        "instances"
    };
    let subtitle = format!(
        "{} {what} both ran; below the diagonal: {y_solver} faster",
        pairs.len()
    );
    svg((size.0 as u32, size.1 as u32), &title, &subtitle, |root| {
        let area = root.margin(TOP, 0, 0, 0);
        let (area, _) = area.split_horizontally(right);
        let (area, _) = area.split_vertically(SIDE + 60);
        let (lo, hi) = data.time_range();
        let format = |v: &f64| format_number(*v);
        let axes = (
            format!("{x_solver}: wall time (s, log scale)"),
            format!("{y_solver}: wall time (s, log scale)"),
        );
        let chart = plot(
            &area,
            PLOT_LEFT as u32,
            (data.time_axis(), data.time_axis()),
            &format,
            (&axes.0, &axes.1),
        )?;
        let at = |x: f64, y: f64| chart.backend_coord(&(x.clamp(lo, hi), y.clamp(lo, hi)));

        // y = f·x inside the square lo..hi: x from max(lo, lo/f) to min(hi, hi/f). Each
        // is labelled where it enters the plot (the left edge above the diagonal, the
        // bottom edge below it): the top right corner is where the timeout lines and the
        // border marks crowd.
        for (factor, dash, _) in guides {
            for f in if factor == 1.0 {
                vec![1.0]
            } else {
                vec![factor, 1.0 / factor]
            } {
                let (from, to) = (lo.max(lo / f), hi.min(hi / f));
                let (start, end) = (at(from, from * f), at(to, to * f));
                line(root, vec![start, end], GREY.stroke_width(1), dash)?;
                if factor > 1.0 {
                    let label = format!("{factor}×");
                    let place = if f > 1.0 {
                        (start.0 + 5, start.1 - 10)
                    } else {
                        (start.0 + 6, start.1 - 9)
                    };
                    text(
                        root,
                        place,
                        &label,
                        font(FONT).color(&RGBColor(0x66, 0x66, 0x66)),
                        HPos::Left,
                    )?;
                }
            }
        }
        let (tx, ty) = if data.timeout_on_scale() {
            let corner = at(data.timeout, data.timeout);
            let (left, bottom) = at(lo, lo);
            let (right, top) = at(hi, hi);
            let border = TIMEOUT_COLOR.stroke_width(2);
            line(
                root,
                vec![(corner.0, top), (corner.0, bottom)],
                border,
                TIMEOUT_DASH,
            )?;
            line(
                root,
                vec![(left, corner.1), (right, corner.1)],
                border,
                TIMEOUT_DASH,
            )?;
            corner
        } else {
            at(hi, hi)
        };

        // Faster on: a count per side, each in the corner of the side it counts, inside
        // the timeout lines, on a white ground so that marks under it do not garble it.
        let y_faster = pairs
            .iter()
            .filter(|(_, a, b)| b.answer.solved() && (!a.answer.solved() || b.time < a.time))
            .count();
        let x_faster = pairs
            .iter()
            .filter(|(_, a, b)| a.answer.solved() && (!b.answer.solved() || a.time < b.time))
            .count();
        let (left, bottom) = at(lo, lo);
        let x_label = format!("{x_solver} faster: {x_faster}");
        let y_label = format!("{y_solver} faster: {y_faster}");
        let y_width = text_width(&y_label) + 12;
        for (label, corner) in [
            (x_label, (left + 8, ty + 10)),
            (y_label, (tx - 8 - y_width, bottom - 30)),
        ] {
            let far = (corner.0 + text_width(&label) + 12, corner.1 + 20);
            root.draw(&Rectangle::new([corner, far], WHITE.mix(0.85).filled()))?;
            root.draw(&Rectangle::new([corner, far], RGBColor(0xbb, 0xbb, 0xbb)))?;
            let bold = styled(FONT, FontStyle::Bold);
            text(
                root,
                (corner.0 + 6, corner.1 + 10),
                &label,
                bold,
                HPos::Left,
            )?;
        }

        let place = |o: &Outcome| {
            if o.answer.solved() {
                o.time
            } else {
                data.timeout
            }
        };
        for (mark, a, b) in &pairs {
            let (shape, filled, _) = mark.look();
            let color = mark_color(*mark, Some(&a.encoding));
            shape.draw(root, at(place(a), place(b)), 9, color, filled)?;
        }
        legend.draw(root, (right + 20, TOP as i32 + 10))
    })
}
