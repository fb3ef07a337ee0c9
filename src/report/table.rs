//! One table model and its three renderings, in the manner of hyperfine's
//! `MarkupExporter`: a [`Table`] is columns (a heading and an alignment each), rows of typed
//! [`Cell`]s and a note; an [`Exporter`] turns it into terminal text (through
//! `comfy-table`), Markdown or HTML. The report's tables are each defined once (see
//! `report::tables`) and drawn by whichever exporter the output needs, so the numbers, the
//! headings and the emphasis of wrong answers cannot drift apart between formats.

use comfy_table::{CellAlignment, presets};
use maud::{Markup, html};

/// How a column's cells line up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// Names and text.
    Left,
    /// Numbers.
    Right,
}

/// One value of a table, typed so that each format writes it its own way.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// A name or free text.
    Text(String),
    /// A count.
    Count(usize),
    /// A count that is bad when above zero (wrong answers): emphasised then.
    Alarm(usize),
    /// Seconds.
    Seconds(f64),
    /// A speedup ratio; none when there is nothing to compare.
    Ratio(Option<f64>),
    /// An interval of ratios; none when there is nothing to compare.
    Interval(Option<(f64, f64)>),
}

impl Cell {
    /// The cell as plain text.
    pub fn text(&self) -> String {
        match self {
            Cell::Text(t) => t.clone(),
            Cell::Count(n) | Cell::Alarm(n) => n.to_string(),
            Cell::Seconds(s) => seconds(*s),
            Cell::Ratio(r) => r.map_or("–".into(), ratio),
            Cell::Interval(i) => i.map_or("–".into(), |(lo, hi)| {
                format!("{} – {}", ratio(lo), ratio(hi))
            }),
        }
    }

    /// True when the cell must stand out.
    pub fn alarming(&self) -> bool {
        matches!(self, Cell::Alarm(n) if *n > 0)
    }
}

/// A table: headings with alignments, rows, and a note under it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// Heading and alignment of each column.
    pub columns: Vec<(&'static str, Align)>,
    /// The rows, one cell per column.
    pub rows: Vec<Vec<Cell>>,
    /// What the reader needs to know to read it (none: no note).
    pub note: Option<String>,
}

/// A format tables are written in.
pub trait Exporter {
    /// The table in this format.
    fn table(&self, table: &Table) -> String;
}

/// Aligned columns for the terminal, no borders.
pub struct Terminal;

/// A GitHub-flavoured Markdown table, the note as a paragraph after it.
pub struct Markdown;

/// An HTML `<table>`, the note as a `<p class="note">` after it; text is escaped.
pub struct Html;

impl Exporter for Terminal {
    fn table(&self, table: &Table) -> String {
        let align = |a: Align| match a {
            Align::Left => CellAlignment::Left,
            Align::Right => CellAlignment::Right,
        };
        let mut out = comfy_table::Table::new();
        out.load_style(presets::NOTHING);
        out.set_header(
            table
                .columns
                .iter()
                .map(|(name, a)| comfy_table::Cell::new(name).set_alignment(align(*a))),
        );
        for row in &table.rows {
            out.add_row(row.iter().map(|c| terminal_text(&c.text())));
        }
        for (column, (_, a)) in out.column_iter_mut().zip(&table.columns) {
            column.set_cell_alignment(align(*a));
            column.set_padding((0, 2));
        }
        out.trim_fmt() + "\n"
    }
}

impl Exporter for Markdown {
    fn table(&self, table: &Table) -> String {
        let line = |cells: Vec<String>| format!("| {} |\n", cells.join(" | "));
        let mut out = line(table.columns.iter().map(|(n, _)| n.to_string()).collect());
        out += &format!(
            "|{}|\n",
            table
                .columns
                .iter()
                .map(|(_, a)| if *a == Align::Right { "---:" } else { "---" })
                .collect::<Vec<_>>()
                .join("|")
        );
        for row in &table.rows {
            out += &line(row.iter().map(markdown_cell).collect());
        }
        if let Some(note) = &table.note {
            out += &format!("\n{}\n", markdown_text(note));
        }
        out
    }
}

/// A cell made safe for a Markdown table: no `|` and no line break; alarms in bold.
fn markdown_cell(cell: &Cell) -> String {
    let text = markdown_text(&cell.text());
    if cell.alarming() {
        format!("**{text}**")
    } else {
        text
    }
}

/// Text made safe for Markdown, in a table cell or a paragraph: a line break becomes a
/// space, another control character its `\xNN` form, HTML's `<`, `>` and
/// `&` their entities, and the characters Markdown reads as markup (`|`, `*`, `` ` ``,
/// `[`, `]`, `\`) are escaped with a backslash; a name shows as itself, never as markup.
pub fn markdown_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\r' => out.push(' '),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '|' | '*' | '`' | '[' | ']' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push_str(&crate::text::escape_controls(&c.to_string())),
            c => out.push(c),
        }
    }
    out
}

/// Text made safe for the terminal: control characters (an escape sequence could move
/// the cursor, clear the screen or retitle the window) shown as `\xNN`.
pub fn terminal_text(text: &str) -> String {
    crate::text::escape_controls(text).into_owned()
}

impl Html {
    /// The table as markup, for pages built with `maud`.
    pub fn markup(&self, table: &Table) -> Markup {
        let numeric = |i: usize| table.columns.get(i).is_some_and(|c| c.1 == Align::Right);
        html! {
            div.scroll { table {
                tr { @for (name, _) in &table.columns { th { (name) } } }
                @for row in &table.rows {
                    tr {
                        @for (i, cell) in row.iter().enumerate() {
                            td class=[numeric(i).then_some("n")] {
                                @if cell.alarming() {
                                    b style="color:#c00000" { (cell.text()) }
                                } @else {
                                    (cell.text())
                                }
                            }
                        }
                    }
                }
            } }
            @if let Some(note) = &table.note { p class="note" { (note) } }
        }
    }
}

impl Exporter for Html {
    fn table(&self, table: &Table) -> String {
        self.markup(table).into_string()
    }
}

/// Seconds for tables: three significant digits, in `%.2e` form below a millisecond, so a
/// time of microseconds never reads as 0.0000.
pub fn seconds(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return if v == 0.0 { "0".into() } else { v.to_string() };
    }
    if v >= 1000.0 {
        format!("{v:.0}")
    } else if v >= 1e-3 {
        // Three significant digits: 0.00210, 0.0869, 1.78, 12.3, 456.
        let decimals = (2 - v.log10().floor() as i32).max(0) as usize;
        format!("{v:.decimals$}")
    } else {
        scientific(v)
    }
}

/// `v` with three significant digits in C's `%.2e` form: `3.70e-05`.
pub fn scientific(v: f64) -> String {
    let text = format!("{v:.2e}");
    match text.split_once('e') {
        Some((mantissa, exp)) => {
            let (sign, digits) = match exp.strip_prefix('-') {
                Some(d) => ("-", d),
                None => ("+", exp),
            };
            format!("{mantissa}e{sign}{digits:0>2}")
        }
        None => text,
    }
}

/// A speedup ratio for tables.
pub fn ratio(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}×")
    } else if v >= 10.0 {
        format!("{v:.1}×")
    } else {
        format!("{v:.2}×")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_keep_three_significant_digits() {
        let cases = [
            (0.0, "0"),
            (3.7e-5, "3.70e-05"),
            (0.00099949, "9.99e-04"),
            (0.0021, "0.00210"),
            (0.0869, "0.0869"),
            (0.25, "0.250"),
            (1.776, "1.78"),
            (12.34, "12.3"),
            (456.7, "457"),
            (12345.6, "12346"),
        ];
        for (v, text) in cases {
            assert_eq!(seconds(v), text, "{v}");
        }
    }

    fn table() -> Table {
        Table {
            columns: vec![
                ("solver", Align::Left),
                ("WRONG", Align::Right),
                ("PAR-2 (s)", Align::Right),
            ],
            rows: vec![
                vec![
                    Cell::Text("a|b".into()),
                    Cell::Alarm(1),
                    Cell::Seconds(11.0),
                ],
                vec![
                    Cell::Text("<c>".into()),
                    Cell::Alarm(0),
                    Cell::Seconds(0.25),
                ],
            ],
            note: Some("PAR-2: twice the timeout.".into()),
        }
    }

    #[test]
    fn names_are_escaped_for_markdown_and_the_terminal() {
        assert_eq!(
            markdown_text("<b>x</b> & *y* `z` [l](u) a\\b\u{0}\u{1b}\n"),
            "&lt;b&gt;x&lt;/b&gt; &amp; \\*y\\* \\`z\\` \\[l\\](u) a\\\\b\\x00\\x1b "
        );
        assert_eq!(terminal_text("a\u{1b}[2Jb\u{9b}"), "a\\x1b[2Jb\\x9b");
        assert_eq!(terminal_text("plain <ok>"), "plain <ok>");
    }

    #[test]
    fn one_table_three_formats() {
        let md = Markdown.table(&table());
        assert_eq!(
            md,
            "| solver | WRONG | PAR-2 (s) |\n|---|---:|---:|\n| a\\|b | **1** | 11.0 |\n\
             | &lt;c&gt; | 0 | 0.250 |\n\nPAR-2: twice the timeout.\n"
        );
        let html = Html.table(&table());
        assert!(
            html.contains("<td>&lt;c&gt;</td><td class=\"n\">0</td>"),
            "{html}"
        );
        assert!(html.contains("<b style=\"color:#c00000\">1</b>"), "{html}");
        assert!(
            html.ends_with("<p class=\"note\">PAR-2: twice the timeout.</p>"),
            "{html}"
        );
        let text = Terminal.table(&table());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert!(
            lines[0].starts_with("solver") && lines[0].ends_with("PAR-2 (s)"),
            "{text}"
        );
        assert!(
            lines[1].ends_with("    11.0") && lines[2].ends_with("0.250"),
            "{text}"
        );
    }
}
