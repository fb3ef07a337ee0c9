//! The report's charts, each a function from result data to SVG text (no I/O), drawn with
//! `plotters` through [`draw`]: the cactus plot, the pairwise scatter plots, the run-time
//! distributions and the encoding sizes. This file holds what they share about the data:
//! which colour, mark and dash each solver and encoding gets (so that a series looks the
//! same in every chart), the series, and the time range every time axis spans.

pub mod cactus;
pub mod draw;
pub mod encodings;
pub mod scatter;
pub mod times;

use plotters::prelude::*;

use crate::report::config::Config;

use crate::report::outcome::Outcome;
use crate::report::rows::Name;
use draw::{LegendEntry, LogAxis, Shape, format_seconds, log_axis, rgb};

/// Each solver's outcomes as their places in `outcomes`, if the outcomes come ordered by
/// instance and encoding.
fn places(outcomes: &[Outcome]) -> Option<Vec<(Name, Vec<u32>)>> {
    let in_order = |a: &Outcome, b: &Outcome| {
        if a.key() == b.key() {
            a.encoding() <= b.encoding()
        } else {
            a.key() < b.key()
        }
    };
    if !outcomes.windows(2).all(|w| in_order(&w[0], &w[1])) {
        return None;
    }
    let mut places: Vec<(Name, Vec<u32>)> = Vec::new();
    for (i, o) in outcomes.iter().enumerate() {
        let solver = o.solver();
        match places.iter_mut().find(|(s, _)| *s == solver) {
            Some((_, list)) => list.push(i as u32),
            None => places.push((solver, vec![i as u32])),
        }
    }
    Some(places)
}

/// Okabe and Ito's colour-blind-safe palette (its yellow left out: unreadable on white),
/// then a few darker extras for long solver lists.
const SOLVER_COLORS: [u32; 10] = [
    0x0072B2, 0xE69F00, 0x009E73, 0xCC79A7, 0xD55E00, 0x56B4E9, 0x7F3C8D, 0x8C6D31, 0x3A3A3A,
    0xB22222,
];

/// Colours of encodings where colour stands for the encoding (Paul Tol's muted scheme,
/// chosen apart from the solver colours, so that no encoding looks like a solver).
const ENCODING_COLORS: [u32; 6] = [0x332288, 0xCC6677, 0x117733, 0xAA4499, 0x999933, 0x44AA99];

/// Dashes per encoding (dash, gap in px), so solver × encoding lines differ by colour and
/// dash.
const ENCODING_DASHES: [Option<(u32, u32)>; 5] = [
    None,
    Some((7, 4)),
    Some((2, 3)),
    Some((14, 4)),
    Some((4, 2)),
];

/// The colour of wrong answers wherever they are drawn.
pub const WRONG_COLOR: RGBColor = rgb(0xC00000);
/// The colour and dash of the timeout line.
pub const TIMEOUT_COLOR: RGBColor = rgb(0xC0392B);
/// The dash of the timeout line.
pub const TIMEOUT_DASH: Option<(u32, u32)> = Some((6, 4));
/// What every chart needs: the outcomes, the rows, the names in a fixed order, the timeout.
pub struct ChartData<'a> {
    /// The formulas' sizes per encoding, from the rows.
    pub sizes: &'a encodings::EncodingSizes,
    /// One outcome per (instance, encoding, solver).
    pub outcomes: &'a [Outcome],
    /// Solvers, in the order they first appear in the results.
    pub solvers: Vec<String>,
    /// Encodings, in the order they first appear in the results.
    pub encodings: Vec<String>,
    /// The timeout the charts mark, seconds.
    pub timeout: f64,
    /// Which time the outcomes hold (CPU or wall), named on every chart.
    pub time: super::TimeBasis,
    /// The mode of each solver × encoding, named in every legend.
    pub modes: crate::report::mode::Modes,
    /// The time axes' range (see [`ChartData::time_range`]), worked out once.
    range: (f64, f64),
    /// Each solver's outcomes, as their places in `outcomes`, when the outcomes come
    /// ordered by instance and encoding (none otherwise).
    places: Option<Vec<(Name, Vec<u32>)>>,
}

impl<'a> ChartData<'a> {
    /// The charts' data; the time axes' range is worked out here, once.
    pub fn new(
        sizes: &'a encodings::EncodingSizes,
        outcomes: &'a [Outcome],
        (solvers, encodings): (Vec<String>, Vec<String>),
        timeout: f64,
        time: super::TimeBasis,
        modes: &crate::report::mode::Modes,
    ) -> ChartData<'a> {
        ChartData {
            sizes,
            outcomes,
            solvers,
            encodings,
            timeout,
            time,
            modes: modes.clone(),
            range: range_of(outcomes, timeout),
            places: places(outcomes),
        }
    }

    /// The places of `solver`'s outcomes in [`ChartData::outcomes`], in order, when the
    /// outcomes come ordered by instance and encoding (an empty list when it has none).
    pub fn places_of(&self, solver: Name) -> Option<&[u32]> {
        let places = self.places.as_ref()?;
        Some(
            places
                .iter()
                .find(|(s, _)| *s == solver)
                .map_or(&[][..], |(_, p)| p.as_slice()),
        )
    }

    /// The colour of `solver`.
    pub fn solver_color(&self, solver: &str) -> RGBColor {
        let i = self.solvers.iter().position(|s| s == solver).unwrap_or(0);
        rgb(SOLVER_COLORS[i % SOLVER_COLORS.len()])
    }

    /// The mark of `encoding`.
    pub fn encoding_shape(&self, encoding: &str) -> Shape {
        Shape::CYCLE[self.encoding_index(encoding) % Shape::CYCLE.len()]
    }

    /// The dash of `encoding` (None: solid).
    pub fn encoding_dash(&self, encoding: &str) -> Option<(u32, u32)> {
        ENCODING_DASHES[self.encoding_index(encoding) % ENCODING_DASHES.len()]
    }

    /// The colour of `encoding`, for charts whose series are encodings.
    pub fn encoding_color(&self, encoding: &str) -> RGBColor {
        rgb(ENCODING_COLORS[self.encoding_index(encoding) % ENCODING_COLORS.len()])
    }

    fn encoding_index(&self, encoding: &str) -> usize {
        self.encodings
            .iter()
            .position(|e| e == encoding)
            .unwrap_or(0)
    }

    /// The name of a series: the solver, the encoding when there are several, and the
    /// mode it ran in.
    pub fn series_label(&self, series: &Config) -> String {
        series.label(self.encodings.len() > 1)
    }

    /// Every solver × encoding that has outcomes, solvers first, each with its mode.
    pub fn series(&self) -> Vec<Config> {
        // Inserted one by one (collecting would reserve a slot an outcome, not a pair),
        // keyed by interned names, hashed as numbers.
        let mut ran: crate::report::rows::NameMap<(Name, Name), ()> = Default::default();
        for o in self.outcomes {
            ran.insert((o.solver(), o.encoding()), ());
        }
        let mut series = Vec::new();
        for solver in &self.solvers {
            for encoding in &self.encodings {
                if ran.contains_key(&(Name::new(solver), Name::new(encoding))) {
                    series.push(self.modes.config(solver, encoding));
                }
            }
        }
        series
    }

    /// The times of the solved outcomes of one series, ascending, and how many outcomes
    /// it has.
    pub fn solved_times(&self, series: &Config) -> (Vec<f64>, usize) {
        // The outcomes' names are interned: equal texts are one name.
        let solver = crate::report::rows::Name::new(&series.solver);
        let encoding = crate::report::rows::Name::new(&series.encoding);
        let mine = || {
            self.outcomes
                .iter()
                .filter(move |o| o.solver() == solver && o.encoding() == encoding)
        };
        let mut times: Vec<f64> = mine()
            .filter(|o| o.answer().solved())
            .map(|o| o.time)
            .collect();
        times.sort_unstable_by(f64::total_cmp);
        (times, mine().count())
    }

    /// How many outcomes of one series are solved ([`ChartData::solved_times`]'s count).
    pub fn solved_count(&self, series: &Config) -> usize {
        let solver = crate::report::rows::Name::new(&series.solver);
        let encoding = crate::report::rows::Name::new(&series.encoding);
        self.outcomes
            .iter()
            .filter(|o| o.solver() == solver && o.encoding() == encoding && o.answer().solved())
            .count()
    }

    /// The range of time axes: from a little below the fastest solved time to a little
    /// above the timeout, so that the timeout line and the border marks are inside. When
    /// every run answered, nothing sits on the border: the axes then end a little above
    /// the slowest answer instead, so that fast results are not squeezed into a corner.
    pub fn time_range(&self) -> (f64, f64) {
        self.range
    }

    /// True when the timeout lies on the time axes (see [`ChartData::time_range`]).
    pub fn timeout_on_scale(&self) -> bool {
        self.timeout_within(self.time_range())
    }

    /// True when the timeout lies on a time axis over `range`.
    pub fn timeout_within(&self, range: (f64, f64)) -> bool {
        range.1 >= self.timeout
    }

    /// The legend entry of the timeout line.
    pub fn timeout_entry(&self) -> LegendEntry {
        self.timeout_entry_within(self.time_range())
    }

    /// The legend entry of the timeout line on a time axis over `range`.
    pub fn timeout_entry_within(&self, range: (f64, f64)) -> LegendEntry {
        let label = if self.timeout_within(range) {
            format!("timeout ({} s)", format_seconds(self.timeout))
        } else {
            format!("timeout {} s: not reached", format_seconds(self.timeout))
        };
        LegendEntry::line(label, TIMEOUT_COLOR, 2, TIMEOUT_DASH)
    }

    /// A time axis (log scale) over [`ChartData::time_range`], with readable ticks.
    pub fn time_axis(&self) -> LogAxis {
        let (lo, hi) = self.time_range();
        log_axis(lo, hi)
    }
}

/// [`ChartData::time_range`] of `outcomes` under `timeout`.
fn range_of(outcomes: &[Outcome], timeout: f64) -> (f64, f64) {
    time_range_of(outcomes.iter(), timeout)
}

/// [`ChartData::time_range`] of the outcomes `outcomes` yields (a part of a chart's), under
/// `timeout`.
pub fn time_range_of<'o>(
    outcomes: impl Iterator<Item = &'o Outcome> + Clone,
    timeout: f64,
) -> (f64, f64) {
    let solved = || outcomes.clone().filter(|o| o.answer().solved());
    let fastest = solved().map(|o| o.time).fold(f64::INFINITY, f64::min);
    let slowest = solved().map(|o| o.time).fold(0.0, f64::max);
    let timeout = if timeout > 0.0 { timeout } else { 1.0 };
    let all_answered = outcomes.clone().all(|o| o.answer().solved());
    let top = if all_answered && slowest > 0.0 {
        (slowest * 2.5).min(timeout * 1.6)
    } else {
        timeout * 1.6
    };
    let bottom = if fastest.is_finite() {
        (fastest / 1.6).max(1e-5)
    } else {
        top / 1000.0
    };
    (bottom.min(top / 10.0), top)
}

/// The names of a report's files, unique by construction: a name is kept as made
/// (file-safe, see [`file_safe`]) unless it is taken or too long; then it is cut to
/// [`FileNames::LONGEST`] bytes and numbered (`-2`, `-3`, …) until it is free. Two
/// families `a/b` and `a_b` get two files, a family of 300 characters one a file system
/// takes.
pub struct FileNames {
    taken: std::collections::HashSet<String>,
}

impl FileNames {
    /// The longest stem kept, bytes (file systems take 255 for the whole name).
    pub const LONGEST: usize = 120;

    /// No name taken but `reserved` (the report's fixed files).
    pub fn new(reserved: &[&str]) -> FileNames {
        FileNames {
            taken: reserved.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// A free name for `stem` with extension `ext`, taken from now on.
    pub fn unique(&mut self, stem: &str, ext: &str) -> String {
        let mut cut = stem.len().min(Self::LONGEST);
        while !stem.is_char_boundary(cut) {
            cut -= 1;
        }
        let stem = &stem[..cut];
        let mut name = format!("{stem}.{ext}");
        let mut k = 2;
        while self.taken.contains(&name) {
            name = format!("{stem}-{k}.{ext}");
            k += 1;
        }
        self.taken.insert(name.clone());
        name
    }
}

/// A name made safe for a file name: letters, digits, `-`, `_` and `.` kept, the rest `_`.
pub fn file_safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::report::test_rows::row;
    use crate::report::{ReportOptions, render_report};

    /// Every chart is well-formed SVG that inlines into `index.html` as it is: no ids or
    /// clip paths that could clash between charts, names with markup and control
    /// characters escaped, and a `<title>`.
    #[test]
    fn every_chart_is_plain_well_formed_svg() {
        let mut rows = Vec::new();
        for (i, status) in ["SAT", "UNSAT", "TIMEOUT", "ERROR", "SAT"]
            .iter()
            .enumerate()
        {
            for (s, solver) in ["a", "b<&\u{7}>"].into_iter().enumerate() {
                for encoding in ["e1", "e2"] {
                    let wall = 0.01 * (i + 1) as f64 * (s + 1) as f64;
                    let mut r = row(&format!("i{i}"), encoding, solver, status, wall);
                    r.wrong = i == 4 && s == 1;
                    rows.push(r);
                }
            }
        }
        let files = render_report(&rows, &ReportOptions::default()).unwrap();
        let svgs: Vec<_> = files.iter().filter(|f| f.name.ends_with(".svg")).collect();
        assert_eq!(svgs.len(), 4, "cactus, one scatter, times, encodings");
        for file in svgs {
            let svg = String::from_utf8(file.bytes.clone()).unwrap();
            let doc =
                roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{}: {e}", file.name));
            assert!(
                doc.descendants().all(|n| n.attribute("id").is_none()),
                "{}",
                file.name
            );
            assert!(
                !svg.contains("clipPath") && !svg.contains("<script"),
                "{}",
                file.name
            );
            assert!(
                doc.descendants().any(|n| n.has_tag_name("title")),
                "{}",
                file.name
            );
            if file.name != "encodings.svg" {
                let named = svg.contains("b&lt;&amp; &gt;");
                assert!(named, "{} names the solver", file.name);
            }
        }
    }
}
