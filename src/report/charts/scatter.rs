//! The scatter plot of one solver against another: one mark per (instance, encoding) both
//! ran, at (time of the x solver, time of the y solver), log-log. Marks below the diagonal
//! are instances the y solver was faster on; the 2× and 10× lines show by how much.
//!
//! A run that did not solve its instance is drawn on the border, at the timeout: a
//! timeout keeps the SAT/UNSAT mark of the answer the other solver found (a diamond if
//! neither did), an error is a cross, a wrong answer a red star, so that failures are
//! never mistaken for slow answers. Colours tell encodings apart.

use plotters::prelude::*;
use plotters::style::text_anchor::HPos;

use crate::report::charts::draw::{
    Canvas, FONT, GREY, Legend, LegendEntry, PLOT_LEFT, Shape, chart, font, format_number, line,
    plot, styled, text, text_width,
};
use crate::report::charts::{ChartData, TIMEOUT_COLOR, TIMEOUT_DASH, WRONG_COLOR};
use crate::report::outcome::{Answer, Outcome, join_places};
use crate::report::rows::Name;

/// The colour of the marks when colour does not stand for an encoding.
const ONE_ENCODING_COLOR: RGBColor = RGBColor(0x33, 0x22, 0x88);
/// Width and height of the plot, px.
const SIDE: i32 = 500;
/// Pairs above which marks are snapped to a grid of [`GRID`] px.
const MANY_MARKS: usize = 20_000;
/// The grid, px: a mark moves by at most one pixel, a ninth of its width.
const GRID: i32 = 3;

/// What a mark says about a pair of outcomes, in the order the legend lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Mark {
    Sat,
    Unsat,
    NeitherSolved,
    Error,
    Wrong,
}

impl Mark {
    fn of(x: &Outcome, y: &Outcome) -> Mark {
        let either = |a: Answer| x.answer() == a || y.answer() == a;
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

/// True when `x_solver` and `y_solver` ran some instance under the same encoding: a
/// scatter plot of them has a point (a dedicated solver, which runs the puzzle itself,
/// meets no formula solver).
pub fn in_common(data: &ChartData, x_solver: &str, y_solver: &str) -> bool {
    // Outcomes come ordered by (instance, encoding): the first cell both ran settles it;
    // none found, every pair is looked for.
    let (x, y) = (Name::new(x_solver), Name::new(y_solver));
    let is = |o: &Outcome, name: Name| o.solver() == name;
    let same_cell = |a: &Outcome, b: &Outcome| a.key() == b.key() && a.encoding() == b.encoding();
    let found = data
        .outcomes
        .chunk_by(|a, b| same_cell(a, b))
        .any(|c| c.iter().any(|o| is(o, x)) && c.iter().any(|o| is(o, y)));
    found || !pairs_of(data, x_solver, y_solver).is_empty()
}

/// The (mark, x's outcome, y's outcome) of every instance and encoding both solvers ran,
/// in the order of the outcomes. When they come ordered by instance and encoding (as
/// [`ChartData`] finds them), each solver's outcomes are a list of their places, and
/// the pairs a merge of two lists; else the outcomes of both are sorted here.
fn pairs_of<'o, 'a>(
    data: &ChartData<'a>,
    x_solver: &str,
    y_solver: &str,
) -> Vec<(Mark, &'o Outcome, &'o Outcome)>
where
    'a: 'o,
{
    let outcomes: &'o [Outcome] = data.outcomes;
    // The outcomes' names are interned: equal texts are one name.
    let (x, y) = (Name::new(x_solver), Name::new(y_solver));
    let same_cell = |a: &Outcome, b: &Outcome| a.key() == b.key() && a.encoding() == b.encoding();
    if let (Some(xs), Some(ys)) = (data.places_of(x), data.places_of(y)) {
        let mut pairs = Vec::new();
        join_places(outcomes, (xs, ys), same_cell, |a, b| {
            pairs.push((Mark::of(a, b), a, b))
        });
        return pairs;
    }
    let is = |o: &Outcome, name: Name| o.solver() == name;
    let mut ordered: Vec<&Outcome> = outcomes.iter().filter(|o| is(o, x) || is(o, y)).collect();
    let cell = |o: &Outcome| (o.key(), o.encoding());
    ordered.sort_by_key(|a| cell(a));
    ordered
        .chunk_by(|a, b| same_cell(a, b))
        .filter_map(|runs| {
            let x = runs.iter().rev().find(|o| is(o, x))?;
            let y = runs.iter().find(|o| is(o, y))?;
            Some((Mark::of(x, y), *x, *y))
        })
        .collect()
}

/// A dash pattern: (drawn, gap) in px; none for a solid line.
type Dash = Option<(u32, u32)>;

/// The guide lines y = f·x: (f, dash) and their legend labels.
const GUIDES: [(f64, Dash, &str); 3] = [
    (1.0, None, "equal time"),
    (2.0, Some((6, 4)), "2× apart"),
    (10.0, Some((2, 3)), "10× apart"),
];

/// One pair of outcomes on the plot: its mark, x's outcome, y's outcome.
type Pair<'o> = (Mark, &'o Outcome, &'o Outcome);

/// The colour of a mark: WRONG's own, else its encoding's when there are several.
fn mark_color(data: &ChartData, m: Mark, encoding: Option<&str>) -> RGBColor {
    let several_encodings = data.encodings.len() > 1;
    match (m, encoding) {
        (Mark::Wrong, _) => WRONG_COLOR,
        (_, Some(e)) if several_encodings => data.encoding_color(e),
        _ if several_encodings => RGBColor(0x44, 0x44, 0x44),
        _ => ONE_ENCODING_COLOR,
    }
}

/// The legend: the marks drawn (SAT and UNSAT always), the encodings of the points, the
/// guide lines and the timeout.
fn legend_of(data: &ChartData, pairs: &[Pair]) -> Legend<'static> {
    let mut marks: Vec<Mark> = pairs.iter().map(|(m, _, _)| *m).collect();
    marks.extend([Mark::Sat, Mark::Unsat]);
    marks.sort();
    marks.dedup();
    let mut entries: Vec<LegendEntry> = marks
        .iter()
        .map(|m| {
            let (shape, filled, label) = m.look();
            LegendEntry::mark(label.into(), mark_color(data, *m, None), shape, filled)
        })
        .collect();
    if data.encodings.len() > 1 {
        // The encodings of its points only.
        let mut drawn: Vec<Name> = Vec::new(); // a few encodings
        for (_, _, y) in pairs {
            if !drawn.contains(&y.encoding()) {
                drawn.push(y.encoding());
            }
        }
        for e in data
            .encodings
            .iter()
            .filter(|e| drawn.iter().any(|d| d == *e))
        {
            let (label, color) = (format!("encoding {e}"), data.encoding_color(e));
            entries.push(LegendEntry::mark(label, color, Shape::Circle, true));
        }
    }
    for (_, dash, label) in GUIDES {
        entries.push(LegendEntry::line(label.into(), GREY, 1, dash));
    }
    entries.push(data.timeout_entry());
    Legend {
        heading: "marks",
        entries,
    }
}

/// The scatter plot of `y_solver` (vertical) against `x_solver` (horizontal).
pub fn scatter(data: &ChartData, x_solver: &str, y_solver: &str) -> anyhow::Result<String> {
    // Failures last, so that they are drawn over the answers they might hide.
    let mut pairs = pairs_of(data, x_solver, y_solver);
    pairs.sort_by_key(|(m, _, _)| *m);
    let legend = legend_of(data, &pairs);
    let what = if data.encodings.len() > 1 {
        "(instance, encoding) pairs"
    } else {
        "instances"
    };
    let n = pairs.len();
    // Beyond MANY_MARKS pairs, marks on a GRID × GRID px square are drawn once.
    let grid = if n > MANY_MARKS { GRID } else { 1 };
    let mut subtitle = format!("{n} {what} both ran; below the diagonal: {y_solver} faster");
    if grid > 1 {
        subtitle += &format!("; marks within {grid} px drawn once");
    }
    // Each solver's modes, named on its axis; a pair across modes says so.
    let (x_mode, y_mode) = (
        data.modes.of_solver(x_solver),
        data.modes.of_solver(y_solver),
    );
    let words = data.time.words();
    let title = if x_mode == y_mode {
        format!("{y_solver} vs {x_solver}: {words} per instance")
    } else {
        format!(
            "{y_solver} ({y_mode}) vs {x_solver} ({x_mode}): {words} per instance, across modes"
        )
    };
    let size = (PLOT_LEFT + SIDE + 10, SIDE + 60);
    chart((&title, &subtitle), size, Some(&legend), |root, area| {
        let (lo, hi) = data.time_range();
        let format = |v: &f64| format_number(*v);
        let x_label = format!("{x_solver} ({x_mode}): {words} (s, log scale)");
        let y_label = format!("{y_solver} ({y_mode}): {words} (s, log scale)");
        let axes = (data.time_axis(), data.time_axis());
        let chart = plot(area, PLOT_LEFT as u32, axes, &format, (&x_label, &y_label))?;
        let at = |x: f64, y: f64| chart.backend_coord(&(x.clamp(lo, hi), y.clamp(lo, hi)));
        let ((left, bottom), (right, top)) = (at(lo, lo), at(hi, hi));
        draw_guides(root, &at, (lo, hi))?;
        let (tx, ty) = if data.timeout_on_scale() {
            let (tx, ty) = at(data.timeout, data.timeout);
            let border = TIMEOUT_COLOR.stroke_width(2);
            line(root, [(tx, top), (tx, bottom)], border, TIMEOUT_DASH)?;
            line(root, [(left, ty), (right, ty)], border, TIMEOUT_DASH)?;
            (tx, ty)
        } else {
            (right, top)
        };
        let corners = ((left + 8, ty + 10), (tx - 20, bottom - 30));
        draw_faster_counts(root, &pairs, (x_solver, y_solver), corners)?;
        draw_marks(root, data, &pairs, &at, grid)
    })
}

/// The guide lines y = f·x inside the square lo..hi: x from max(lo, lo/f) to min(hi,
/// hi/f). Each is labelled where it enters the plot (the left edge above the diagonal,
/// the bottom edge below it): the top right corner is where the timeout lines and the
/// border marks crowd.
fn draw_guides(
    root: &Canvas,
    at: &dyn Fn(f64, f64) -> (i32, i32),
    (lo, hi): (f64, f64),
) -> anyhow::Result<()> {
    let grey = font(FONT).color(&RGBColor(0x66, 0x66, 0x66));
    for (factor, dash, _) in GUIDES {
        for f in [factor, 1.0 / factor]
            .into_iter()
            .take(if factor == 1.0 { 1 } else { 2 })
        {
            let (from, to) = (lo.max(lo / f), hi.min(hi / f));
            let (start, end) = (at(from, from * f), at(to, to * f));
            line(root, [start, end], GREY.stroke_width(1), dash)?;
            if factor > 1.0 {
                let place = (start.0 + 5, start.1 - 10);
                text(root, place, &format!("{factor}×"), grey.clone(), HPos::Left)?;
            }
        }
    }
    Ok(())
}

/// "Faster on": a count per side, each in the corner of the side it counts (x's top
/// left, y's bottom right, whose right edge is given), inside the timeout lines, on a
/// white ground so that marks under it do not garble it.
fn draw_faster_counts(
    root: &Canvas,
    pairs: &[Pair],
    (x_solver, y_solver): (&str, &str),
    (x_corner, (y_right, y_top)): ((i32, i32), (i32, i32)),
) -> anyhow::Result<()> {
    let faster =
        |a: &Outcome, b: &Outcome| a.answer().solved() && (!b.answer().solved() || a.time < b.time);
    let x_faster = pairs.iter().filter(|(_, a, b)| faster(a, b)).count();
    let y_faster = pairs.iter().filter(|(_, a, b)| faster(b, a)).count();
    let x_label = format!("{x_solver} faster: {x_faster}");
    let y_label = format!("{y_solver} faster: {y_faster}");
    let y_corner = (y_right - text_width(&y_label), y_top);
    for (label, corner) in [(x_label, x_corner), (y_label, y_corner)] {
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
    Ok(())
}

/// The marks, an unsolved run on the border at the timeout. Marks that fall on the same
/// pixel (or `grid` square) with the same look are drawn once, as the last of them, where
/// the last one drawn would have been: the picture is the same, and a study of a million
/// runs is not a chart of a million marks.
fn draw_marks(
    root: &Canvas,
    data: &ChartData,
    pairs: &[Pair],
    at: &dyn Fn(f64, f64) -> (i32, i32),
    grid: i32,
) -> anyhow::Result<()> {
    let place = |o: &Outcome| {
        if o.answer().solved() {
            o.time
        } else {
            data.timeout
        }
    };
    type Look = (Mark, (u8, u8, u8), (i32, i32));
    let looks: Vec<(Mark, RGBColor, (i32, i32))> = pairs
        .iter()
        .map(|(mark, a, b)| {
            let color = mark_color(data, *mark, Some(a.encoding().as_str()));
            let (x, y) = at(place(a), place(b));
            let snap = |v: i32| v - v.rem_euclid(grid) + grid / 2;
            (*mark, color, (snap(x), snap(y)))
        })
        .collect();
    let mut last: rustc_hash::FxHashMap<Look, usize> = Default::default();
    for (i, (mark, color, point)) in looks.iter().enumerate() {
        last.insert((*mark, (color.0, color.1, color.2), *point), i);
    }
    for (i, (mark, color, point)) in looks.iter().enumerate() {
        if last.get(&(*mark, (color.0, color.1, color.2), *point)) == Some(&i) {
            let (shape, filled, _) = mark.look();
            shape.draw(root, *point, 9, *color, filled)?;
        }
    }
    Ok(())
}
