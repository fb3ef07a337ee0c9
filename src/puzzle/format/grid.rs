//! The grid format: a board as n lines of n cells, puzzles separated by blank lines.
//!
//! - A row is n symbols (`53..7....`, or in groups: `53. .7. ...`) or n whitespace-separated
//!   integers (`5 3 0 0 7 0 0 0 0`, 0 = blank; the only way to write sides over 61).
//! - Drawing characters `|`, `-`, `+` (and the Unicode box-drawing ones) separate cells like
//!   spaces; a line made only of them is skipped. `#` comment lines are skipped.
//! - A block of 2n rows of n cells is a pair, S1's rows then S2's (see `block.rs` for how
//!   a block's shape is read, and forced kinds).
//! - A line `Grid 01` (Project Euler's sudoku file) separates puzzles like a blank line.
//!
//! Writing: symbols for sides up to 61, integers above; plain rows, then a blank line.

use std::fmt::Write as _;

use super::block::{Row, read_block};
use super::line::symbol_byte_value;
use super::text::{self, numbered_lines, quoted_char_at};
use super::{Parsed, Puzzle};
use crate::puzzle::Kind;
use crate::puzzle::symbols::{MAX_SYMBOL_VALUE, value_symbol};

/// Reads every block of `text`.
pub(super) fn read(text: &str, kind: Option<Kind>, sink: &mut dyn FnMut(Parsed)) {
    let mut rows: Vec<GridRow<'_>> = Vec::new();
    for (no, line) in numbered_lines(text) {
        let line = line.trim();
        if line.is_empty() || is_title(line) {
            read_block(&rows, kind, "cells", sink);
            rows.clear();
        } else if !text::is_blank_or_comment(line) && !is_drawing(line) {
            rows.push(GridRow::new(no, line));
        }
    }
    read_block(&rows, kind, "cells", sink);
}

/// A character that separates cells and draws the grid.
fn is_separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, '|' | '-' | '+' | '\u{2500}'..='\u{257f}')
}

/// A character of the symbol alphabet.
fn is_symbol(c: char) -> bool {
    c.is_ascii() && symbol_byte_value(c as u8).is_some()
}

/// A line made only of drawing characters, like `------+-------+------`.
fn is_drawing(line: &str) -> bool {
    line.chars().all(is_separator)
}

/// A title line such as Project Euler's `Grid 01`.
fn is_title(line: &str) -> bool {
    line.strip_prefix("Grid")
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(char::is_whitespace))
}

/// One row of a grid block, measured both as symbols and as integers.
struct GridRow<'a> {
    line: usize,
    text: &'a str,
    /// The number of symbols, if every cell character is a symbol.
    symbols: Option<usize>,
    /// The number of tokens, if every token is a decimal integer.
    integers: Option<usize>,
}

impl<'a> GridRow<'a> {
    fn new(line: usize, text: &'a str) -> GridRow<'a> {
        let (mut symbols, mut tokens) = (0, 0);
        let (mut all_symbols, mut all_digits, mut in_token) = (true, true, false);
        for c in text.chars() {
            if is_separator(c) {
                in_token = false;
                continue;
            }
            if !in_token {
                tokens += 1;
                in_token = true;
            }
            if !is_symbol(c) {
                // Digits are symbols too: neither reading is possible.
                (all_symbols, all_digits) = (false, false);
                break;
            }
            symbols += 1;
            all_digits &= c.is_ascii_digit();
        }
        GridRow {
            line,
            text,
            symbols: all_symbols.then_some(symbols),
            integers: all_digits.then_some(tokens),
        }
    }

    fn tokens(&self) -> impl Iterator<Item = &'a str> {
        self.text.split(is_separator).filter(|t| !t.is_empty())
    }
}

impl Row for GridRow<'_> {
    fn line(&self) -> usize {
        self.line
    }

    fn widths(&self) -> [Option<usize>; 2] {
        [self.symbols, self.integers]
    }

    fn decode(&self, n: usize, cells: &mut Vec<u16>) -> Result<(), String> {
        if self.symbols == Some(n) {
            let start = cells.len();
            cells.extend(self.text.bytes().filter_map(symbol_byte_value));
            return match cells[start..].iter().position(|&v| v as usize > n) {
                None => Ok(()),
                Some(i) => {
                    let v = cells[start + i];
                    Err(format!(
                        "value {} ({v}) in column {} is larger than the side {n}",
                        value_symbol(v).unwrap_or('?'),
                        i + 1
                    ))
                }
            };
        }
        if self.integers == Some(n) {
            for (i, token) in self.tokens().enumerate() {
                // More than 5 digits cannot be a side ≤ 1000 and would overflow a u16.
                match token.parse::<u16>() {
                    Ok(v) if token.len() <= 5 && v as usize <= n => cells.push(v),
                    _ => {
                        return Err(format!(
                            "value {token} in column {} is larger than the side {n}",
                            i + 1
                        ));
                    }
                }
            }
            return Ok(());
        }
        let Some(symbols) = self.symbols else {
            let (at, _) = self
                .text
                .char_indices()
                .find(|&(_, c)| !is_separator(c) && !is_symbol(c))
                .unwrap_or((0, ' '));
            return Err(format!(
                "unexpected character {} in a grid row (cells are symbols 1-9 A-Z a-z, 0 or ., or integers)",
                quoted_char_at(self.text, at)
            ));
        };
        match self.integers {
            Some(tokens) if tokens != symbols => Err(format!(
                "the row has {symbols} symbols or {tokens} numbers, but the side is {n}"
            )),
            _ => Err(format!("the row has {symbols} cells, but the side is {n}")),
        }
    }
}

/// Writes `puzzle` as rows (2n for a pair), then a blank line.
pub(super) fn write(out: &mut String, puzzle: &Puzzle) {
    let n = puzzle.side();
    let symbolic = n <= MAX_SYMBOL_VALUE as usize;
    for board in puzzle.boards() {
        for row in board.cells().chunks(n) {
            if symbolic {
                out.extend(row.iter().map(|&v| value_symbol(v).unwrap_or('?')));
            } else {
                for (i, v) in row.iter().enumerate() {
                    let _ = write!(out, "{}{v}", if i == 0 { "" } else { " " });
                }
            }
            out.push('\n');
        }
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::format::{Format, entries_for_tests};

    const DRAWN: &str = "\
+-------+-------+-------+
| 5 3 . | . 7 . | . . . |
| 6 . . | 1 9 5 | . . . |
| . 9 8 | . . . | . 6 . |
+-------+-------+-------+
| 8 . . | . 6 . | . . 3 |
| 4 . . | 8 . 3 | . . 1 |
| 7 . . | . 2 . | . . 6 |
+-------+-------+-------+
| . 6 . | . . . | 2 8 . |
| . . . | 4 1 9 | . . 5 |
| . . . | . 8 . | . 7 9 |
+-------+-------+-------+
";

    fn parse(text: &str, kind: Option<Kind>) -> Vec<Result<(usize, Puzzle), String>> {
        entries_for_tests(text, "g.txt", Format::Grid, kind)
    }

    fn plain(drawn: &str) -> String {
        drawn
            .lines()
            .filter(|l| !l.starts_with('+'))
            .map(|l| l.replace(['|', ' '], "") + "\n")
            .collect()
    }

    #[test]
    fn reads_drawn_grouped_plain_and_integer_rows_alike() {
        let plain = plain(DRAWN);
        let grouped: String = plain
            .lines()
            .map(|l| format!("{} {} {}\n", &l[..3], &l[3..6], &l[6..]))
            .collect();
        let integers = plain
            .replace('.', "0")
            .lines()
            .map(|l| l.chars().map(String::from).collect::<Vec<_>>().join("  ") + "\n")
            .collect::<String>();
        let text = format!(
            "# drawn\n{DRAWN}\n{plain}\r\n{}\n\n\n{integers}",
            grouped.replace('\n', "\r\n")
        );
        let got = parse(&text, None);
        assert_eq!(got.len(), 4);
        let (line, first) = got[0].clone().unwrap();
        assert_eq!((line, first.kind(), first.givens()), (3, Kind::Sudoku, 30));
        for other in &got[1..] {
            assert_eq!(other.as_ref().unwrap().1, first);
        }
        assert_eq!(got[1].as_ref().unwrap().0, 16);
    }

    #[test]
    fn reads_pairs_wide_latin_squares_and_euler_titles() {
        let pair = parse("12..\n....\n....\n....\n21..\n....\n....\n....\n", None);
        assert_eq!(pair[0].as_ref().unwrap().1.kind(), Kind::Pair);
        let latin = parse(
            "1 2 3 4 5 6 7 8 9 10\n2 0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0 9\n",
            None,
        );
        let latin = &latin[0].as_ref().unwrap().1;
        assert_eq!(
            (latin.kind(), latin.side(), latin.boards()[0].get(0, 9)),
            (Kind::Latin, 10, 10)
        );
        let euler = parse(
            &format!("Grid 01\n{}Grid 02\n{}", plain(DRAWN), plain(DRAWN)),
            None,
        );
        assert_eq!(
            euler
                .iter()
                .map(|e| e.as_ref().unwrap().0)
                .collect::<Vec<_>>(),
            [2, 12]
        );
        let back_to_back = format!("{}{}", plain(DRAWN), plain(DRAWN));
        assert_eq!(parse(&back_to_back, Some(Kind::Sudoku)).len(), 2);
        // Unforced, 18 rows of 9 are a pair, whose boards here clash.
        assert!(
            parse(&back_to_back, None)[0]
                .as_ref()
                .unwrap_err()
                .contains("both boards hold")
        );
    }

    #[test]
    fn each_fault_is_located() {
        let plain = plain(DRAWN);
        let bad = |text: String| {
            parse(&format!("{plain}\n{text}\n{plain}"), None)[1]
                .clone()
                .unwrap_err()
        };
        let short = plain.replacen("53..7....", "53..7...", 1);
        assert_eq!(
            bad(short.clone()),
            "g.txt:11: the row has 8 cells, but the side is 9"
        );
        assert_eq!(
            bad(plain.replacen("53..7....", "53..7...*", 1)),
            "g.txt:11: unexpected character '*' in a grid row (cells are symbols 1-9 A-Z a-z, 0 or ., or integers)"
        );
        assert_eq!(
            bad(plain.replacen("53..7....", "53..7...A", 1)),
            "g.txt:11: value A (10) in column 9 is larger than the side 9"
        );
        assert_eq!(
            bad(plain.replacen("6..195...", "6..195..6", 1)),
            "g.txt:11: clash: value 6 appears twice in row 2 (at r2c1 and r2c9)"
        );
        let missing_row: String = plain.lines().skip(1).map(|l| format!("{l}\n")).collect();
        assert_eq!(
            bad(missing_row),
            "g.txt:11: 8 rows of 9 cells: a board of side 9 needs 9 rows (18 for a pair)"
        );
        let huge = "1 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 99999999999999999999\n".to_string();
        assert_eq!(
            bad(huge),
            "g.txt:14: value 99999999999999999999 in column 4 is larger than the side 4"
        );
    }

    #[test]
    fn writes_symbols_or_integers() {
        let mut out = String::new();
        write(&mut out, &Puzzle::empty(Kind::Latin, 2).unwrap());
        assert_eq!(out, "00\n00\n\n");
        out.clear();
        let mut wide = Puzzle::empty(Kind::Latin, 62).unwrap();
        wide.boards_mut()[0].set(0, 1, 62);
        write(&mut out, &wide);
        assert!(out.starts_with("0 62 0 0"));
        assert_eq!(out.lines().count(), 63);
    }
}
