//! Lines of a puzzle file, numbered as editors number them: `\n` ends a line, a `\r` before
//! it is dropped (files written on Windows read the same), `#` starts a comment line.

/// Each line of `text` with its 1-based number, without the line ending.
pub(super) fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split('\n')
        .enumerate()
        .map(|(i, line)| (i + 1, line.strip_suffix('\r').unwrap_or(line)))
}

/// True for a line that holds no puzzle text: blank, or a `#` comment.
pub(super) fn is_blank_or_comment(trimmed: &str) -> bool {
    trimmed.is_empty() || trimmed.starts_with('#')
}

/// The lines that may hold puzzle text (not blank, not comments), trimmed, numbered.
pub(super) fn meaningful_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    numbered_lines(text)
        .map(|(no, line)| (no, line.trim()))
        .filter(|(_, line)| !is_blank_or_comment(line))
}

/// The start of `text` up to (not including) line `lines + 1`: the sample detection reads.
pub(super) fn first_lines(text: &str, lines: usize) -> &str {
    match text.match_indices('\n').nth(lines.saturating_sub(1)) {
        Some((end, _)) => &text[..end],
        None => text,
    }
}

/// The 1-based line on which byte `offset` of `bytes` lies.
pub(super) fn line_of_offset(bytes: &[u8], offset: usize) -> usize {
    1 + bytes[..offset.min(bytes.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

/// The 1-based character column of byte `offset` in `line` (for messages only).
pub(super) fn column_of_offset(line: &str, offset: usize) -> usize {
    1 + line
        .get(..offset)
        .map_or(offset, |before| before.chars().count())
}

/// The character at byte `offset` of `text`, quoted for a message (`'x'`, `'\u{a0}'`).
pub(super) fn quoted_char_at(text: &str, offset: usize) -> String {
    match text.get(offset..).and_then(|rest| rest.chars().next()) {
        Some(c) if c.is_control() || c.is_whitespace() => format!("{:?}", c),
        Some(c) => format!("'{c}'"),
        None => "end of line".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_numbered_and_crlf_is_dropped() {
        let lines: Vec<_> = numbered_lines("a\r\nb\n\r\n# c\nd").collect();
        assert_eq!(lines, [(1, "a"), (2, "b"), (3, ""), (4, "# c"), (5, "d")]);
        let meaningful: Vec<_> = meaningful_lines("a\r\n  \n# c\n d \n").collect();
        assert_eq!(meaningful, [(1, "a"), (4, "d")]);
    }

    #[test]
    fn samples_and_offsets() {
        assert_eq!(first_lines("a\nb\nc\n", 2), "a\nb");
        assert_eq!(first_lines("a\nb", 5), "a\nb");
        assert_eq!(line_of_offset(b"ab\ncd\nef", 6), 3);
        assert_eq!(column_of_offset("é1x", 3), 3);
        assert_eq!(quoted_char_at("12é", 2), "'é'");
        assert_eq!(quoted_char_at("1\t", 1), "'\\t'");
    }
}
