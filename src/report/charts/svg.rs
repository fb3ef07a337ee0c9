//! A small SVG writer for the report's charts: shapes, text, marks, and plot frames with
//! linear or logarithmic axes, ticks, grid, labels and a legend.
//!
//! Hand-written rather than drawn through a plotting library so that every chart is plain,
//! well-formed SVG that inlines into `index.html` as it is: no ids that could clash between
//! charts, no embedded fonts, no scripts. Everything is clipped to the plot area by
//! computation (see [`clip_segment`]), not by `clipPath`, for the same reason.

use std::fmt::Write;

/// Text size of tick labels and legend entries, px.
pub const FONT: f64 = 13.0;
/// Text size of axis labels, px.
pub const LABEL_FONT: f64 = 14.0;
/// Text size of chart titles, px.
pub const TITLE_FONT: f64 = 17.0;
/// Roughly how wide one character of [`FONT`] text is, px: used to leave room for labels.
pub const CHAR_WIDTH: f64 = 7.4;

/// Escapes text for XML content and attribute values.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters are not allowed in XML 1.0.
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Horizontal text alignment.
#[derive(Clone, Copy, Debug)]
pub enum Anchor {
    /// Text starts at x.
    Start,
    /// Text is centred on x.
    Middle,
    /// Text ends at x.
    End,
}

impl Anchor {
    fn as_str(self) -> &'static str {
        match self {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        }
    }
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
}

/// How a line is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stroke<'a> {
    /// CSS colour.
    pub color: &'a str,
    /// Width, px.
    pub width: f64,
    /// `stroke-dasharray`, if dashed.
    pub dash: Option<&'a str>,
}

/// An SVG document being written.
pub struct Svg {
    out: String,
}

impl Svg {
    /// Starts a `width` × `height` document with a white background; `title` becomes the
    /// document's `<title>` (what a browser shows on hover, and what screen readers read).
    pub fn new(width: f64, height: f64, title: &str) -> Svg {
        let mut out = String::new();
        let _ = write!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
             viewBox=\"0 0 {width} {height}\" font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\" \
             font-size=\"{FONT}\">\n<title>{}</title>\n\
             <rect x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" fill=\"white\"/>\n",
            esc(title)
        );
        Svg { out }
    }

    /// A straight line.
    pub fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, stroke: Stroke) {
        let _ = writeln!(
            self.out,
            "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" {}/>",
            x1,
            y1,
            x2,
            y2,
            stroke_attrs(stroke)
        );
    }

    /// A line through `points`.
    pub fn polyline(&mut self, points: &[(f64, f64)], stroke: Stroke) {
        if points.len() < 2 {
            return;
        }
        let mut coords = String::new();
        for (x, y) in points {
            let _ = write!(coords, "{x:.1},{y:.1} ");
        }
        let _ = writeln!(
            self.out,
            "<polyline points=\"{}\" fill=\"none\" stroke-linejoin=\"round\" {}/>",
            coords.trim_end(),
            stroke_attrs(stroke)
        );
    }

    /// A rectangle; `fill` and `stroke` are CSS colours or `none`.
    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str, stroke: &str) {
        let _ = writeln!(
            self.out,
            "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{fill}\" stroke=\"{stroke}\"/>",
            w.max(0.0),
            h.max(0.0)
        );
    }

    /// Text at (x, y) (the baseline), `size` px, with extra attributes such as
    /// `font-weight="bold"` or `transform="rotate(-90 x y)"`.
    pub fn text(&mut self, x: f64, y: f64, text: &str, size: f64, anchor: Anchor, extra: &str) {
        // A colour in `extra` replaces the default: an attribute given twice is not XML.
        let fill = if extra.contains("fill=") {
            ""
        } else {
            "fill=\"#222\" "
        };
        let _ = writeln!(
            self.out,
            "<text x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"{size}\" text-anchor=\"{}\" {fill}{extra}>{}</text>",
            anchor.as_str(),
            esc(text)
        );
    }

    /// A data mark of `size` px centred on (x, y); hollow marks have a white fill so that
    /// they stay visible over lines.
    pub fn mark(&mut self, shape: Shape, x: f64, y: f64, size: f64, color: &str, filled: bool) {
        let r = size / 2.0;
        let fill = if filled { color } else { "white" };
        let style = format!("fill=\"{fill}\" stroke=\"{color}\" stroke-width=\"1.5\"");
        let _ = match shape {
            Shape::Circle => writeln!(
                self.out,
                "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{r:.1}\" {style}/>"
            ),
            Shape::Square => writeln!(
                self.out,
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{size:.1}\" height=\"{size:.1}\" {style}/>",
                x - r,
                y - r
            ),
            Shape::Triangle => {
                self.polygon(&[(x, y - r * 1.15), (x + r, y + r), (x - r, y + r)], &style)
            }
            Shape::TriangleDown => {
                self.polygon(&[(x, y + r * 1.15), (x + r, y - r), (x - r, y - r)], &style)
            }
            Shape::Diamond => self.polygon(
                &[(x, y - r * 1.25), (x + r, y), (x, y + r * 1.25), (x - r, y)],
                &style,
            ),
            Shape::Cross => writeln!(
                self.out,
                "<path d=\"M{:.1},{:.1}L{:.1},{:.1}M{:.1},{:.1}L{:.1},{:.1}\" stroke=\"{color}\" stroke-width=\"2.2\" fill=\"none\"/>",
                x - r,
                y - r,
                x + r,
                y + r,
                x - r,
                y + r,
                x + r,
                y - r
            ),
            Shape::Plus => writeln!(
                self.out,
                "<path d=\"M{:.1},{y:.1}L{:.1},{y:.1}M{x:.1},{:.1}L{x:.1},{:.1}\" stroke=\"{color}\" stroke-width=\"2.2\" fill=\"none\"/>",
                x - r * 1.2,
                x + r * 1.2,
                y - r * 1.2,
                y + r * 1.2
            ),
            Shape::Star => {
                let mut d = String::new();
                for k in 0..3 {
                    let a = std::f64::consts::PI * (0.5 + k as f64 / 3.0);
                    let (dx, dy) = (a.cos() * r * 1.2, a.sin() * r * 1.2);
                    let _ = write!(
                        d,
                        "M{:.1},{:.1}L{:.1},{:.1}",
                        x - dx,
                        y - dy,
                        x + dx,
                        y + dy
                    );
                }
                writeln!(
                    self.out,
                    "<path d=\"{d}\" stroke=\"{color}\" stroke-width=\"2.4\" fill=\"none\"/>"
                )
            }
        };
    }

    fn polygon(&mut self, points: &[(f64, f64)], style: &str) -> std::fmt::Result {
        let mut coords = String::new();
        for (x, y) in points {
            let _ = write!(coords, "{x:.1},{y:.1} ");
        }
        writeln!(
            self.out,
            "<polygon points=\"{}\" {style}/>",
            coords.trim_end()
        )
    }

    /// Raw markup, for the rare element the helpers do not cover.
    pub fn raw(&mut self, markup: &str) {
        self.out.push_str(markup);
        self.out.push('\n');
    }

    /// The finished document.
    pub fn finish(mut self) -> String {
        self.out.push_str("</svg>\n");
        self.out
    }
}

fn stroke_attrs(stroke: Stroke) -> String {
    let mut attrs = format!(
        "stroke=\"{}\" stroke-width=\"{}\"",
        stroke.color, stroke.width
    );
    if let Some(dash) = stroke.dash {
        let _ = write!(attrs, " stroke-dasharray=\"{dash}\"");
    }
    attrs
}

/// One axis: a data range mapped onto a pixel range, linearly or logarithmically.
#[derive(Clone, Copy, Debug)]
pub struct Axis {
    /// Smallest data value shown.
    pub lo: f64,
    /// Largest data value shown.
    pub hi: f64,
    /// Logarithmic (base 10) rather than linear.
    pub log: bool,
    /// Pixel position of `lo`.
    pub px_lo: f64,
    /// Pixel position of `hi` (smaller than `px_lo` for a y axis, which grows upwards).
    pub px_hi: f64,
}

impl Axis {
    /// An axis over `lo..hi`, widened if empty (and kept positive when logarithmic).
    pub fn new(lo: f64, hi: f64, log: bool, px_lo: f64, px_hi: f64) -> Axis {
        let (mut lo, mut hi) = (lo, hi);
        if log {
            lo = if lo.is_finite() && lo > 0.0 { lo } else { 1e-3 };
            hi = if hi.is_finite() && hi > lo {
                hi
            } else {
                lo * 10.0
            };
        } else {
            lo = if lo.is_finite() { lo } else { 0.0 };
            hi = if hi.is_finite() && hi > lo {
                hi
            } else {
                lo + 1.0
            };
        }
        Axis {
            lo,
            hi,
            log,
            px_lo,
            px_hi,
        }
    }

    /// The pixel position of `value` (values outside the range land outside the pixels).
    pub fn map(&self, value: f64) -> f64 {
        let t = if self.log {
            (value.max(f64::MIN_POSITIVE).log10() - self.lo.log10())
                / (self.hi.log10() - self.lo.log10())
        } else {
            (value - self.lo) / (self.hi - self.lo)
        };
        self.px_lo + t * (self.px_hi - self.px_lo)
    }

    /// `value` pulled into the axis range.
    pub fn clamp(&self, value: f64) -> f64 {
        value.clamp(self.lo, self.hi)
    }

    /// Tick positions and labels: decades on a log axis (with 2 and 5 in between when the
    /// range spans few decades), steps of 1, 2 or 5 × 10ᵏ on a linear one.
    pub fn ticks(&self) -> Vec<(f64, String)> {
        let mut ticks = Vec::new();
        if self.log {
            let first = self.lo.log10().floor() as i32;
            let last = self.hi.log10().ceil() as i32;
            let decades = last - first;
            // Decide on the span actually shown: 0.005..0.15 covers 1.5 decades even
            // though it touches four powers of ten.
            let span = (self.hi / self.lo).log10();
            let multiples: &[f64] = if span <= 2.5 {
                &[1.0, 2.0, 5.0]
            } else {
                &[1.0]
            };
            // Many decades: label every other one so that labels never touch.
            let every = if decades > 9 { 2 } else { 1 };
            for e in first..=last {
                if (e - first) % every != 0 {
                    continue;
                }
                for m in multiples {
                    let v = m * 10f64.powi(e);
                    if v >= self.lo * (1.0 - 1e-9) && v <= self.hi * (1.0 + 1e-9) {
                        ticks.push((v, format_number(v)));
                    }
                }
            }
            // A range inside one decade may hold a single power of 1, 2 or 5: round linear
            // steps read better there than one lonely tick.
            if ticks.len() < 3 {
                ticks = self.linear_ticks(4.0);
            }
        } else {
            ticks = self.linear_ticks(6.0);
        }
        ticks
    }

    fn linear_ticks(&self, how_many: f64) -> Vec<(f64, String)> {
        let step = nice_step((self.hi - self.lo) / how_many);
        let mut ticks = Vec::new();
        let mut k = (self.lo / step).ceil();
        while k * step <= self.hi + step * 1e-9 {
            let v = k * step;
            if v > 0.0 || !self.log {
                ticks.push((v, format_number(v)));
            }
            k += 1.0;
        }
        ticks
    }
}

/// 1, 2 or 5 × 10ᵏ, the smallest such not below `raw`.
fn nice_step(raw: f64) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let magnitude = 10f64.powf(raw.log10().floor());
    for m in [1.0, 2.0, 5.0, 10.0] {
        if m * magnitude >= raw * (1.0 - 1e-9) {
            return m * magnitude;
        }
    }
    10.0 * magnitude
}

/// A number as a tick label: no trailing zeros, 10k and 1M for large ones, `1e-4` for tiny
/// ones, so that labels stay short.
pub fn format_number(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    if v.abs() >= 1e6 {
        return format!("{}M", trim_zeros(&format!("{:.2}", v / 1e6)));
    }
    if v.abs() >= 1e4 {
        return format!("{}k", trim_zeros(&format!("{:.2}", v / 1e3)));
    }
    if v.abs() < 1e-3 {
        return format!("{v:e}");
    }
    trim_zeros(&format!("{v:.3}"))
}

/// `12.500` → `12.5`, `3.000` → `3`.
fn trim_zeros(fixed: &str) -> String {
    if fixed.contains('.') {
        fixed
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    } else {
        fixed.to_string()
    }
}

/// A number of seconds for labels and tables: three significant figures or so.
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

/// Where a chart draws: the plot area in pixels, inside the document.
#[derive(Clone, Copy, Debug)]
pub struct Area {
    /// Left edge, px.
    pub left: f64,
    /// Top edge, px.
    pub top: f64,
    /// Width, px.
    pub width: f64,
    /// Height, px.
    pub height: f64,
}

impl Area {
    /// Right edge, px.
    pub fn right(&self) -> f64 {
        self.left + self.width
    }

    /// Bottom edge, px.
    pub fn bottom(&self) -> f64 {
        self.top + self.height
    }

    /// A horizontal axis across this area.
    pub fn x_axis(&self, lo: f64, hi: f64, log: bool) -> Axis {
        Axis::new(lo, hi, log, self.left, self.right())
    }

    /// A vertical axis up this area.
    pub fn y_axis(&self, lo: f64, hi: f64, log: bool) -> Axis {
        Axis::new(lo, hi, log, self.bottom(), self.top)
    }
}

/// Draws the frame of a plot: grid lines and tick labels of both axes, the border, and the
/// axis labels (the y label turned upright along the left side).
pub fn draw_frame(svg: &mut Svg, area: Area, x: &Axis, y: &Axis, x_label: &str, y_label: &str) {
    draw_frame_with_ticks(
        svg,
        area,
        (x, &x.ticks()),
        (y, &y.ticks()),
        x_label,
        y_label,
    );
}

/// [`draw_frame`] with the ticks given, for axes whose positions stand for categories
/// (or that have none).
pub fn draw_frame_with_ticks(
    svg: &mut Svg,
    area: Area,
    (x, x_ticks): (&Axis, &[(f64, String)]),
    (y, y_ticks): (&Axis, &[(f64, String)]),
    x_label: &str,
    y_label: &str,
) {
    svg.rect(
        area.left,
        area.top,
        area.width,
        area.height,
        "#fbfbfb",
        "none",
    );
    let grid = Stroke {
        color: "#e2e2e2",
        width: 1.0,
        dash: None,
    };
    let mut widest_y_tick: f64 = 0.0;
    for (v, label) in x_ticks {
        let px = x.map(*v);
        svg.line(px, area.top, px, area.bottom(), grid);
        svg.line(px, area.bottom(), px, area.bottom() + 5.0, AXIS);
        svg.text(px, area.bottom() + 19.0, label, FONT, Anchor::Middle, "");
    }
    for (v, label) in y_ticks {
        let py = y.map(*v);
        svg.line(area.left, py, area.right(), py, grid);
        svg.line(area.left - 5.0, py, area.left, py, AXIS);
        svg.text(area.left - 8.0, py + 4.5, label, FONT, Anchor::End, "");
        widest_y_tick = widest_y_tick.max(label.chars().count() as f64 * CHAR_WIDTH);
    }
    svg.rect(area.left, area.top, area.width, area.height, "none", "#555");
    svg.text(
        area.left + area.width / 2.0,
        area.bottom() + 42.0,
        x_label,
        LABEL_FONT,
        Anchor::Middle,
        "",
    );
    if y_label.is_empty() {
        return;
    }
    let label_x = area.left - widest_y_tick - 20.0;
    let label_y = area.top + area.height / 2.0;
    svg.text(
        label_x,
        label_y,
        y_label,
        LABEL_FONT,
        Anchor::Middle,
        &format!("transform=\"rotate(-90 {label_x:.1} {label_y:.1})\""),
    );
}

/// The stroke of axes and tick marks.
pub const AXIS: Stroke<'static> = Stroke {
    color: "#555",
    width: 1.0,
    dash: None,
};

/// A title centred over the document.
pub fn draw_title(svg: &mut Svg, width: f64, title: &str, subtitle: &str) {
    svg.text(
        width / 2.0,
        28.0,
        title,
        TITLE_FONT,
        Anchor::Middle,
        "font-weight=\"bold\"",
    );
    if !subtitle.is_empty() {
        svg.text(
            width / 2.0,
            48.0,
            subtitle,
            FONT,
            Anchor::Middle,
            "fill-opacity=\"0.8\"",
        );
    }
}

/// One entry of a legend: a line sample and/or a mark, and the text.
#[derive(Clone, Debug)]
pub struct LegendEntry {
    /// What the entry stands for.
    pub label: String,
    /// CSS colour.
    pub color: String,
    /// The mark, if the series has marks.
    pub shape: Option<Shape>,
    /// Whether the mark is filled.
    pub filled: bool,
    /// The line sample, if the series is a line: width and dash.
    pub line: Option<(f64, Option<String>)>,
}

/// Height of one legend row, px.
pub const LEGEND_ROW: f64 = 22.0;

/// The width a legend of `entries` needs, px.
pub fn legend_width(entries: &[LegendEntry], heading: &str) -> f64 {
    let longest = entries
        .iter()
        .map(|e| e.label.chars().count())
        .chain(std::iter::once(heading.chars().count()))
        .max()
        .unwrap_or(0);
    44.0 + longest as f64 * CHAR_WIDTH + 16.0
}

/// Draws a legend box with its top-left corner at (x, y).
pub fn draw_legend(svg: &mut Svg, x: f64, y: f64, heading: &str, entries: &[LegendEntry]) {
    let width = legend_width(entries, heading);
    let heading_rows = if heading.is_empty() { 0.0 } else { 1.0 };
    let height = (entries.len() as f64 + heading_rows) * LEGEND_ROW + 12.0;
    svg.rect(x, y, width, height, "white", "#bbb");
    let mut row_y = y + 6.0 + LEGEND_ROW / 2.0;
    if !heading.is_empty() {
        svg.text(
            x + 10.0,
            row_y + 4.5,
            heading,
            FONT,
            Anchor::Start,
            "font-weight=\"bold\"",
        );
        row_y += LEGEND_ROW;
    }
    for entry in entries {
        if let Some((width, dash)) = &entry.line {
            svg.line(
                x + 8.0,
                row_y,
                x + 36.0,
                row_y,
                Stroke {
                    color: &entry.color,
                    width: *width,
                    dash: dash.as_deref(),
                },
            );
        }
        if let Some(shape) = entry.shape {
            svg.mark(shape, x + 22.0, row_y, 8.0, &entry.color, entry.filled);
        }
        svg.text(x + 44.0, row_y + 4.5, &entry.label, FONT, Anchor::Start, "");
        row_y += LEGEND_ROW;
    }
}

/// The part of the data segment (x1, y1)–(x2, y2) that lies inside the plot, as pixel
/// end points (clipped where the axes map it, so y = 2x stays straight on log axes), or
/// None if it misses the plot.
pub fn clip_segment(
    (x1, y1): (f64, f64),
    (x2, y2): (f64, f64),
    x: &Axis,
    y: &Axis,
) -> Option<((f64, f64), (f64, f64))> {
    // Liang–Barsky in pixel space, where the lines are straight.
    let (px1, py1, px2, py2) = (x.map(x1), y.map(y1), x.map(x2), y.map(y2));
    let (xmin, xmax) = (x.px_lo.min(x.px_hi), x.px_lo.max(x.px_hi));
    let (ymin, ymax) = (y.px_lo.min(y.px_hi), y.px_lo.max(y.px_hi));
    let (dx, dy) = (px2 - px1, py2 - py1);
    let mut t0: f64 = 0.0;
    let mut t1: f64 = 1.0;
    for (p, q) in [
        (-dx, px1 - xmin),
        (dx, xmax - px1),
        (-dy, py1 - ymin),
        (dy, ymax - py1),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    (t0 < t1).then_some((
        (px1 + t0 * dx, py1 + t0 * dy),
        (px1 + t1 * dx, py1 + t1 * dy),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_ticks_cover_the_decades() {
        let axis = Axis::new(0.001, 100.0, true, 0.0, 500.0);
        let labels: Vec<String> = axis.ticks().into_iter().map(|t| t.1).collect();
        assert_eq!(labels, ["0.001", "0.01", "0.1", "1", "10", "100"]);
        assert!((axis.map(1.0) - 300.0).abs() < 1e-9);
        let narrow = Axis::new(0.005, 0.15, true, 0.0, 500.0);
        let labels: Vec<String> = narrow.ticks().into_iter().map(|t| t.1).collect();
        assert_eq!(labels, ["0.005", "0.01", "0.02", "0.05", "0.1"]);
    }

    #[test]
    fn linear_ticks_are_round() {
        let axis = Axis::new(0.0, 10.0, false, 0.0, 100.0);
        let labels: Vec<String> = axis.ticks().into_iter().map(|t| t.1).collect();
        assert_eq!(labels, ["0", "2", "4", "6", "8", "10"]);
        assert_eq!(format_number(120_000.0), "120k");
        assert_eq!(format_number(1_000_000.0), "1M");
        assert_eq!(format_number(0.25), "0.25");
        assert_eq!(format_number(800.0), "800");
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(esc("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }

    #[test]
    fn segments_are_clipped_to_the_box() {
        let x = Axis::new(1.0, 100.0, true, 0.0, 200.0);
        let y = Axis::new(1.0, 100.0, true, 200.0, 0.0);
        // y = 10x from x = 0.1 to x = 1000: inside from x = 1 (y = 10) to x = 10 (y = 100).
        let ((ax, ay), (bx, by)) = clip_segment((0.1, 1.0), (1000.0, 10_000.0), &x, &y).unwrap();
        assert!((ax - 0.0).abs() < 1e-6 && (ay - 100.0).abs() < 1e-6);
        assert!((bx - 100.0).abs() < 1e-6 && (by - 0.0).abs() < 1e-6);
    }
}
