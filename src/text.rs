//! Text from outside (file names, solver names and specs, a solver's output) made safe to
//! show: every control character written as `\xNN`, so a NUL byte, an escape sequence
//! (which could move the cursor, clear the screen or retitle a terminal window) or a line
//! break in a name cannot break a CSV field, a table cell or a terminal line. The one
//! helper for the CSV, the report's tables and every line bench prints; Markdown and HTML
//! add their own markup escaping on top.

use std::borrow::Cow;

/// `text` on one line, every control character (line breaks included) as `\xNN`.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    escape(text, false)
}

/// A message for the terminal, possibly of several lines: every control character but the
/// line break as `\xNN` (a message quoting a solver's stderr keeps its lines).
pub fn terminal(text: &str) -> Cow<'_, str> {
    escape(text, true)
}

/// A whole document bench writes (an HTML page): every control character but the line
/// break and the tab, which lay it out, as `\xNN`, so a name holding ESC or BEL shows as
/// text in the browser and does nothing to a terminal that prints the file.
pub fn document(text: &str) -> Cow<'_, str> {
    if !text
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() && c != '\n' && c != '\t' {
            out.push_str(&format!("\\x{:02x}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

fn escape(text: &str, keep_lines: bool) -> Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && !(keep_lines && c == '\n');
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
            // `char::is_control` is Unicode's Cc: U+0000–U+001F and U+007F–U+009F.
            out.push_str(&format!("\\x{:02x}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A CSV cell that a spreadsheet shows as text, never runs as a formula (OWASP's rule for
/// CSV export): a cell that starts with `=`, `+`, `-`, `@`, a control character or the
/// quote itself gets a leading `'`, which [`from_spreadsheet_cell`] removes again, so the
/// file still reads back exactly.
pub fn spreadsheet_cell(text: &str) -> Cow<'_, str> {
    match text.chars().next() {
        Some(c) if "=+-@'".contains(c) || c.is_control() => Cow::Owned(format!("'{text}")),
        _ => Cow::Borrowed(text),
    }
}

/// The text [`spreadsheet_cell`] wrote.
pub fn from_spreadsheet_cell(cell: &str) -> &str {
    cell.strip_prefix('\'').unwrap_or(cell)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_are_written_as_text_and_read_back_exactly() {
        for text in [
            "=HYPERLINK(\"http:x\",\"y\").cnf",
            "+1",
            "-x.cnf",
            "@SUM(A1)",
            "'quoted",
            "\u{7}bell",
            "plain.cnf",
            "",
        ] {
            let cell = spreadsheet_cell(text);
            if !text.is_empty() && text != "plain.cnf" {
                assert!(cell.starts_with('\''), "{cell}");
            }
            assert_eq!(from_spreadsheet_cell(&cell), text);
        }
    }

    #[test]
    fn controls_are_shown_not_obeyed() {
        assert_eq!(
            escape_controls("a\u{1b}[2Jb\u{9b}\0"),
            "a\\x1b[2Jb\\x9b\\x00"
        );
        assert_eq!(escape_controls("two\nlines\r"), "two\\x0alines\\x0d");
        assert_eq!(terminal("two\nlines\r\u{7}"), "two\nlines\\x0d\\x07");
        assert!(matches!(escape_controls("plain <ok> é"), Cow::Borrowed(_)));
    }
}
