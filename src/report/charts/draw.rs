//! The drawing kit of the report's charts, on top of `plotters` and its SVG backend: the
//! frame every chart is drawn in (a title, a plot whose frame, grid, ticks and axis labels
//! plotters draws, a legend beside the plot, never over the data), log and linear axes with
//! readable ticks, text, dashed lines, and the marks that tell series apart.
//!
//! The plotters SVG backend writes plain elements (no ids, no `clipPath`, no scripts, no
//! fonts), so every chart inlines into `index.html` as it is. Plotters cannot measure text
//! without a font file, so widths of labels are estimated here from [`CHAR_WIDTH`].

use std::ops::Range;

use plotters::coord::Shift;
use plotters::coord::combinators::WithKeyPoints;
use plotters::coord::ranged1d::{AsRangedCoord, DefaultFormatting, KeyPointHint, ValueFormatter};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The colour of `0xRRGGBB`.
pub const fn rgb(hex: u32) -> RGBColor {
    RGBColor((hex >> 16) as u8, (hex >> 8) as u8, hex as u8)
}

/// Grey for guides and secondary text.
pub const GREY: RGBColor = rgb(0x888888);
/// The colour of text.
pub const INK: RGBColor = rgb(0x222222);

/// Text size of tick labels and legend entries, px.
pub const FONT: f64 = 13.0;
/// Roughly how wide one character of [`FONT`] text is, px: used to leave room for labels.
pub const CHAR_WIDTH: f64 = 7.4;
/// Height of one legend row, px.
pub const LEGEND_ROW: i32 = 22;
/// Height of the title and subtitle, px.
pub const TOP: u32 = 60;
/// Where the plot starts, px from the left: room for tick labels and the y axis label.
pub const PLOT_LEFT: i32 = 95;

/// The drawing area of a chart.
pub type Canvas<'a> = DrawingArea<SVGBackend<'a>, Shift>;
/// A plot with its two axes.
pub type Plot<'a, 'b, X, Y> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<X, Y>>;

/// The text style of `px` pixels (plotters writes 1/1.24 of the size it is given).
pub fn font(px: f64) -> TextStyle<'static> {
    styled(px, FontStyle::Normal)
}

/// [`font`] in bold or italics.
pub fn styled(px: f64, style: FontStyle) -> TextStyle<'static> {
    (
        "DejaVu Sans, Arial, Helvetica, sans-serif",
        px * 1.24,
        style,
    )
        .into_font()
        .color(&INK)
}

/// Text that is safe for XML (control characters are not allowed in XML 1.0; plotters
/// escapes the rest).
pub fn clean(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// About how wide `text` is at [`FONT`], px.
pub fn text_width(text: &str) -> i32 {
    (text.chars().count() as f64 * CHAR_WIDTH).ceil() as i32
}

/// A linear axis with chosen ticks (plotters' own loses its label formatting when given
/// ticks).
pub struct Linear {
    /// The range shown.
    pub range: Range<f64>,
    /// Where the ticks and grid lines are.
    pub ticks: Vec<f64>,
}

impl Ranged for Linear {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, (from, to): (i32, i32)) -> i32 {
        let t = (value - self.range.start) / (self.range.end - self.range.start);
        from + (t * f64::from(to - from)).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.range.clone()
    }
}

/// A log axis with chosen ticks.
pub type LogAxis = WithKeyPoints<LogCoord<f64>>;

/// A log axis over `lo..hi` whose ticks are [`log_ticks`] (the range made finite first,
/// see [`log_range`]).
pub fn log_axis(lo: f64, hi: f64) -> LogAxis {
    let (lo, hi) = log_range(lo, hi);
    (lo..hi).log_scale().with_key_points(log_ticks(lo, hi))
}

/// The smallest and largest values a log axis shows: 1e-300 and 1e300.
const LOG_LIMITS: (f64, f64) = (1e-300, 1e300);

/// A range a log axis can show, from any `lo..hi`: each end finite, positive and within
/// [`LOG_LIMITS`], and `hi` above `lo` (a decade above it if not). A NaN, an infinite or a
/// non-positive end (data no reader lets through, guarded here all the same) never reaches
/// the ticks.
pub fn log_range(lo: f64, hi: f64) -> (f64, f64) {
    let (min, max) = LOG_LIMITS;
    let usable = |v: f64| v.is_finite() && v > 0.0;
    let lo = if usable(lo) {
        lo.clamp(min, max / 10.0)
    } else {
        1e-3
    };
    let hi = if usable(hi) {
        hi.clamp(min, max)
    } else {
        lo * 1e3
    };
    if hi > lo {
        (lo, hi)
    } else {
        (lo, (lo * 10.0).min(max))
    }
}

/// Tick values of a log axis: every power of ten inside `lo..hi` (beyond 14 decades, every
/// other one, or fewer, so that about 14 are labelled), so that every decade the data
/// spans is labelled; with 2 and 5 × 10ᵏ in between when there are fewer than four powers
/// of ten; round linear steps when the range lies within about one decade. The range is
/// made finite first ([`log_range`]): at most 600 decades are ever looked at.
pub fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let (lo, hi) = log_range(lo, hi);
    let (first, last) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    let inside = |v: &f64| *v >= lo * (1.0 - 1e-9) && *v <= hi * (1.0 + 1e-9);
    let every = if last - first > 14 {
        (last - first + 13) / 14
    } else {
        1
    };
    let decades: Vec<f64> = (first..=last)
        .filter(|e| (e - first) % every == 0)
        .map(|e| 10f64.powi(e))
        .filter(inside)
        .collect();
    if decades.len() >= 4 {
        return decades;
    }
    let with_steps: Vec<f64> = (first..=last)
        .flat_map(|e| [1.0, 2.0, 5.0].map(|m| m * 10f64.powi(e)))
        .filter(inside)
        .collect();
    if with_steps.len() >= 3 {
        return with_steps;
    }
    let mut ticks: Vec<f64> = linear_ticks(lo, hi, 4.0)
        .into_iter()
        .filter(|v| *v > 0.0)
        .chain(decades)
        .collect();
    ticks.sort_unstable_by(f64::total_cmp);
    ticks.dedup_by(|a, b| (*a - *b).abs() <= 1e-12 * b.abs());
    ticks
}

/// Tick values of a linear axis: about `how_many` steps of 1, 2 or 5 × 10ᵏ.
pub fn linear_ticks(lo: f64, hi: f64, how_many: f64) -> Vec<f64> {
    // Only finite data makes an axis: no range, no ticks.
    if !(lo.is_finite() && hi.is_finite() && hi > lo && how_many >= 1.0) {
        return if lo.is_finite() { vec![lo] } else { Vec::new() };
    }
    let raw = (hi - lo) / how_many;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw * (1.0 - 1e-9))
        .unwrap_or(1.0);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step + 1e-9).floor() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

/// A number as a tick label: no trailing zeros, 10k and 1M for large ones, `1e-4` for tiny
/// ones, so that labels stay short.
pub fn format_number(v: f64) -> String {
    let trim = |s: String| {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    };
    if v == 0.0 {
        "0".into()
    } else if v.abs() >= 1e6 {
        format!("{}M", trim(format!("{:.2}", v / 1e6)))
    } else if v.abs() >= 1e4 {
        format!("{}k", trim(format!("{:.2}", v / 1e3)))
    } else if v.abs() < 1e-3 {
        format!("{v:e}")
    } else {
        trim(format!("{v:.3}"))
    }
}

/// A number of seconds for labels: three significant figures or so.
pub fn format_seconds(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else if v >= 0.1 {
        format!("{v:.2}")
    } else {
        format!("{v:.4}")
    }
}

/// Draws a chart: a white page with the title and subtitle centred on top ([`TOP`] px),
/// then an area of `width` × `height` px for the plot (its tick and axis labels included),
/// and the legend, if any, beside it, never over the data. `draw` draws on the page and
/// the plot area. Returns the SVG text with a `<title>` (what a browser shows on hover,
/// and what screen readers read).
pub fn chart(
    (title, subtitle): (&str, &str),
    (width, height): (i32, i32),
    legend: Option<&Legend>,
    draw: impl FnOnce(&Canvas, &Canvas) -> anyhow::Result<()>,
) -> anyhow::Result<String> {
    let (legend_w, legend_h) = legend.map_or((0, 0), |l| (l.width() + 40, l.height() + 20));
    let size = (width + legend_w, TOP as i32 + height.max(legend_h) + 5);
    let mut out = String::new();
    {
        let root =
            SVGBackend::with_string(&mut out, (size.0 as u32, size.1 as u32)).into_drawing_area();
        root.fill(&WHITE)?;
        let centre = size.0 / 2;
        text(
            &root,
            (centre, 22),
            title,
            styled(17.0, FontStyle::Bold),
            HPos::Center,
        )?;
        let grey = INK.mix(0.8);
        text(
            &root,
            (centre, 42),
            subtitle,
            font(FONT).color(&grey),
            HPos::Center,
        )?;
        let area = root.margin(TOP, 0, 0, 0).split_horizontally(width).0;
        draw(&root, &area.split_vertically(height).0)?;
        if let Some(legend) = legend {
            legend.draw(&root, (width + 20, TOP as i32 + 10))?;
        }
        root.present()?;
    }
    let escaped = clean(title)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    let head_end = out.find('\n').map_or(out.len(), |i| i + 1);
    out.insert_str(head_end, &format!("<title>{escaped}</title>\n"));
    Ok(out)
}

/// Sets up a plot on `area` (which leaves `left` px for the y tick labels and axis label,
/// and 50 px below for the x axis): a light background, grid lines at the ticks, labels
/// formatted by `x_format` / [`format_number`], the axis descriptions, and a frame.
pub fn plot<'a, 'b, X, Y>(
    area: &'a Canvas<'b>,
    left: u32,
    (x, y): (X, Y),
    x_format: &dyn Fn(&f64) -> String,
    (x_label, y_label): (&str, &str),
) -> anyhow::Result<Plot<'a, 'b, X::CoordDescType, Y::CoordDescType>>
where
    X: AsRangedCoord<Value = f64>,
    Y: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let mut chart = ChartBuilder::on(area)
        .margin_top(10)
        .margin_right(10)
        .margin_left(12)
        .x_label_area_size(50)
        .y_label_area_size(left.saturating_sub(12))
        .build_cartesian_2d(x, y)?;
    chart.plotting_area().fill(&rgb(0xFBFBFB))?;
    let y_format = |v: &f64| format_number(*v);
    chart
        .configure_mesh()
        .x_labels(64)
        .y_labels(64)
        .x_label_formatter(x_format)
        .y_label_formatter(&y_format)
        .label_style(font(FONT))
        .axis_desc_style(font(14.0))
        .x_desc(clean(x_label))
        .y_desc(clean(y_label))
        .bold_line_style(rgb(0xE2E2E2))
        .light_line_style(TRANSPARENT)
        .axis_style(rgb(0x555555))
        .draw()?;
    let frame = chart.plotting_area().strip_coord_spec();
    let (w, h) = frame.dim_in_pixel();
    let corner = (w as i32 - 1, h as i32 - 1);
    frame.draw(&Rectangle::new([(0, 0), corner], rgb(0x555555)))?;
    Ok(chart)
}

/// A line from `points` (pixels on `area`), solid or dashed (dash, gap).
pub fn line(
    area: &Canvas,
    points: impl Into<Vec<(i32, i32)>>,
    style: ShapeStyle,
    dash: Option<(u32, u32)>,
) -> anyhow::Result<()> {
    let points = points.into();
    match dash {
        None => area.draw(&PathElement::new(points, style))?,
        Some((on, off)) => area.draw(&plotters::element::DashedPathElement::new(
            points, on as i32, off as i32, style,
        ))?,
    }
    Ok(())
}

/// Text at (x, y) on `area` (vertically centred), in `style`, anchored at `h`.
pub fn text(
    area: &Canvas,
    (x, y): (i32, i32),
    text: &str,
    style: TextStyle,
    h: HPos,
) -> anyhow::Result<()> {
    area.draw(&Text::new(
        clean(text),
        (x, y),
        style.pos(Pos::new(h, VPos::Center)),
    ))?;
    Ok(())
}

/// The shape of a data mark; series that share a colour still differ by shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// ●
    Circle,
    /// ■
    Square,
    /// ▲
    Triangle,
    /// ◆
    Diamond,
    /// ▼
    TriangleDown,
    /// ×
    Cross,
    /// +
    Plus,
    /// ✱ (an asterisk of three strokes)
    Star,
}

impl Shape {
    /// The shapes in the order series get them.
    pub const CYCLE: [Shape; 6] = [
        Shape::Circle,
        Shape::Square,
        Shape::Triangle,
        Shape::Diamond,
        Shape::TriangleDown,
        Shape::Plus,
    ];

    /// Draws the mark `size` px wide centred on pixel (x, y) of `area`; hollow marks have
    /// a white fill so that they stay visible over lines.
    pub fn draw(
        self,
        area: &Canvas,
        (x, y): (i32, i32),
        size: i32,
        color: RGBColor,
        filled: bool,
    ) -> anyhow::Result<()> {
        let r = size / 2;
        let (fill, line) = (if filled { color } else { WHITE }, color.stroke_width(1));
        let outline: &[(i32, i32)] = match self {
            Shape::Square => &[(-r, -r), (r, -r), (r, r), (-r, r)],
            Shape::Triangle => &[(0, -r - 1), (r, r), (-r, r)],
            Shape::TriangleDown => &[(0, r + 1), (r, -r), (-r, -r)],
            Shape::Diamond => &[(0, -r - 1), (r, 0), (0, r + 1), (-r, 0)],
            _ => &[],
        };
        let arm = |k: f64| {
            let a = std::f64::consts::PI * (0.5 + k / 3.0);
            let d = (r as f64 * 1.25 * a.cos(), r as f64 * 1.25 * a.sin());
            [(-d.0 as i32, -d.1 as i32), (d.0 as i32, d.1 as i32)]
        };
        let strokes: &[[(i32, i32); 2]] = match self {
            Shape::Cross => &[[(-r, -r), (r, r)], [(-r, r), (r, -r)]],
            Shape::Plus => &[[(-r - 1, 0), (r + 1, 0)], [(0, -r - 1), (0, r + 1)]],
            Shape::Star => &[arm(0.0), arm(1.0), arm(2.0)],
            _ => &[],
        };
        let at = |points: &[(i32, i32)]| -> Vec<(i32, i32)> {
            points.iter().map(|(dx, dy)| (x + dx, y + dy)).collect()
        };
        if self == Shape::Circle {
            area.draw(&Circle::new((x, y), r, fill.filled()))?;
            area.draw(&Circle::new((x, y), r, line))?;
        } else if !outline.is_empty() {
            area.draw(&Polygon::new(at(outline), fill.filled()))?;
            let closed = [outline, &outline[..1]].concat();
            area.draw(&PathElement::new(at(&closed), line))?;
        }
        for s in strokes {
            area.draw(&PathElement::new(at(s), color.stroke_width(2)))?;
        }
        Ok(())
    }
}

/// One entry of a legend: a line sample and/or a mark, and the text.
#[derive(Clone, Debug)]
pub struct LegendEntry {
    /// What the entry stands for.
    pub label: String,
    /// Colour.
    pub color: RGBColor,
    /// The mark and whether it is filled, if the series has marks.
    pub mark: Option<(Shape, bool)>,
    /// The line sample, if the series is a line: width and dash.
    pub line: Option<(u32, Option<(u32, u32)>)>,
}

impl LegendEntry {
    /// An entry of a line without marks.
    pub fn line(label: String, color: RGBColor, width: u32, dash: Option<(u32, u32)>) -> Self {
        LegendEntry {
            label,
            color,
            mark: None,
            line: Some((width, dash)),
        }
    }

    /// An entry of a mark without a line.
    pub fn mark(label: String, color: RGBColor, shape: Shape, filled: bool) -> Self {
        LegendEntry {
            label,
            color,
            mark: Some((shape, filled)),
            line: None,
        }
    }
}

/// A legend: its heading and entries, drawn in a box beside the plot.
pub struct Legend<'a> {
    /// The bold first row.
    pub heading: &'a str,
    /// The entries, top down.
    pub entries: Vec<LegendEntry>,
}

impl Legend<'_> {
    /// The width of the box, px.
    pub fn width(&self) -> i32 {
        let longest = self
            .entries
            .iter()
            .map(|e| text_width(&e.label))
            .chain([text_width(self.heading)])
            .max()
            .unwrap_or(0);
        longest + 60
    }

    /// The height of the box, px.
    pub fn height(&self) -> i32 {
        (self.entries.len() as i32 + 1) * LEGEND_ROW + 12
    }

    /// Draws the box with its top-left corner at (x, y) of `area`.
    pub fn draw(&self, area: &Canvas, (x, y): (i32, i32)) -> anyhow::Result<()> {
        let corner = (x + self.width(), y + self.height());
        area.draw(&Rectangle::new([(x, y), corner], WHITE.filled()))?;
        area.draw(&Rectangle::new([(x, y), corner], rgb(0xBBBBBB)))?;
        let mut row = y + 6 + LEGEND_ROW / 2;
        let bold = styled(FONT, FontStyle::Bold);
        text(area, (x + 10, row), self.heading, bold, HPos::Left)?;
        for e in &self.entries {
            row += LEGEND_ROW;
            if let Some((width, dash)) = e.line {
                let style = e.color.stroke_width(width);
                line(area, vec![(x + 8, row), (x + 36, row)], style, dash)?;
            }
            if let Some((shape, filled)) = e.mark {
                shape.draw(area, (x + 22, row), 8, e.color, filled)?;
            }
            text(area, (x + 44, row), &e.label, font(FONT), HPos::Left)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_ticks_cover_the_decades() {
        let labels: Vec<String> = log_ticks(0.001, 100.0)
            .into_iter()
            .map(format_number)
            .collect();
        assert_eq!(labels, ["0.001", "0.01", "0.1", "1", "10", "100"]);
        let labels: Vec<String> = log_ticks(0.005, 0.15)
            .into_iter()
            .map(format_number)
            .collect();
        assert_eq!(labels, ["0.005", "0.01", "0.02", "0.05", "0.1"]);
        // Times from 3.4e-5 to 3.1e-3 s (a cactus plot's range 2.1e-5..7.7e-3): every
        // decade labelled, not a linear scale over the top decade alone.
        let labels: Vec<String> = log_ticks(2.1e-5, 7.7e-3)
            .into_iter()
            .map(format_number)
            .collect();
        assert_eq!(
            labels,
            ["5e-5", "1e-4", "2e-4", "5e-4", "0.001", "0.002", "0.005"]
        );
        // Many decades: each one.
        assert_eq!(log_ticks(1e-5, 1e4).len(), 10);
    }

    #[test]
    fn axes_are_made_of_finite_data_alone() {
        // Each of these once walked the whole i32 range, or made no axis at all.
        for (lo, hi) in [
            (1e-5, f64::INFINITY),
            (f64::NAN, 10.0),
            (0.0, 0.0),
            (-1.0, 5.0),
            (5.0, 1.0),
            (f64::MIN_POSITIVE, f64::MAX),
        ] {
            let ticks = log_ticks(lo, hi);
            assert!(
                !ticks.is_empty() && ticks.len() <= 40,
                "{lo}..{hi}: {ticks:?}"
            );
            assert!(ticks.iter().all(|t| t.is_finite() && *t > 0.0), "{ticks:?}");
            let (a, b) = log_range(lo, hi);
            assert!(
                a.is_finite() && b.is_finite() && 0.0 < a && a < b,
                "{a}..{b}"
            );
        }
        assert!(linear_ticks(0.0, f64::INFINITY, 6.0).len() <= 1);
        assert!(linear_ticks(f64::NAN, 1.0, 6.0).is_empty());
    }

    #[test]
    fn linear_ticks_are_round() {
        let labels: Vec<String> = linear_ticks(0.0, 10.0, 6.0)
            .into_iter()
            .map(format_number)
            .collect();
        assert_eq!(labels, ["0", "2", "4", "6", "8", "10"]);
        assert_eq!(format_number(120_000.0), "120k");
        assert_eq!(format_number(1_000_000.0), "1M");
        assert_eq!(format_number(0.25), "0.25");
        assert_eq!(format_number(800.0), "800");
    }
}
