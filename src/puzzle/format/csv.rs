//! The CSV format of the "Sudoku pair" seed: rows of n comma-separated integers, 0 (or an
//! empty field) for a blank; 2n rows make a pair (S1's rows, then S2's), n rows one board.
//!
//! - Puzzles are separated by blank lines; `#` comment lines are skipped; spaces around a
//!   field are allowed. How a block's row count is read (and forced kinds) is in `block.rs`.
//! - A line of whitespace only (not empty) between two boards of the same side joins them
//!   into a pair, unless `--kind` asks for one-board puzzles: public pair collections
//!   separate a pair's two boards so (and its puzzles by empty lines).
//! - As found in the wild: a row may end in a comma (one collection writes every row so);
//!   a block may open with a line holding only the box size k (the seed's problem passes
//!   k first), which must then agree with the side (n = k²).
//! - Writing: integers, each board's rows, then a blank line.

use std::fmt::Write as _;

use super::block::{Row, read_block};
use super::text::numbered_lines;
use super::{Parsed, Puzzle, text};
use crate::puzzle::Kind;

/// Reads every block of `text`.
pub(super) fn read(text: &str, kind: Option<Kind>, sink: &mut dyn FnMut(Parsed)) {
    let mut rows: Vec<CsvRow<'_>> = Vec::new();
    // The box size on a line of its own before the block's rows, and its line.
    let mut box_line: Option<(usize, usize)> = None;
    for (no, raw) in numbered_lines(text) {
        let line = raw.trim();
        if line.is_empty() && !raw.is_empty() && joins_a_pair(&rows, kind) {
            continue;
        }
        if line.is_empty() {
            read_block_of_box(&rows, box_line.take(), kind, sink);
            rows.clear();
        } else if !text::is_blank_or_comment(line) {
            match box_size_line(line) {
                Some(k) if rows.is_empty() && box_line.is_none() => box_line = Some((no, k)),
                _ => rows.push(CsvRow::new(no, line)),
            }
        }
    }
    read_block_of_box(&rows, box_line, kind, sink);
}

/// True when `rows` are one whole board (as many rows as cells in a row), so that a
/// whitespace-only line after them separates the two boards of a pair.
fn joins_a_pair(rows: &[CsvRow<'_>], kind: Option<Kind>) -> bool {
    use super::block::Row as _;
    kind.is_none_or(|k| k == Kind::Pair)
        && rows
            .first()
            .and_then(|r| r.widths()[0])
            .is_some_and(|n| n == rows.len())
}

/// A line holding one number and no comma (a row has at least two cells): the box size.
fn box_size_line(line: &str) -> Option<usize> {
    let digits = line.trim_end_matches(',').trim();
    (!digits.is_empty() && digits.len() <= 4 && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse().ok())
        .flatten()
}

/// Reads a block; a box-size line before it must agree with each puzzle's side.
fn read_block_of_box(
    rows: &[CsvRow<'_>],
    box_line: Option<(usize, usize)>,
    kind: Option<Kind>,
    sink: &mut dyn FnMut(Parsed),
) {
    let Some((line, k)) = box_line else {
        return read_block(rows, kind, "fields", sink);
    };
    if rows.is_empty() {
        return sink(Parsed::puzzle(
            line,
            1,
            Err(super::Failure::shape(
                line,
                format!("a box size {k} and no rows after it"),
            )),
        ));
    }
    read_block(rows, kind, "fields", &mut |mut parsed: Parsed| {
        if let Ok((p, _)) = &parsed.result
            && p.side() != k * k
        {
            let side = p.side();
            parsed.result = Err(super::Failure::shape(
                line,
                format!(
                    "the first line gives the box size {k}, but the board has side {side} (not {k}²)"
                ),
            ));
        }
        sink(parsed)
    });
}

/// A field that holds a cell: digits, or nothing (a blank).
fn is_cell(field: &str) -> bool {
    field.bytes().all(|b| b.is_ascii_digit())
}

/// One row of a CSV block.
struct CsvRow<'a> {
    line: usize,
    text: &'a str,
    /// The number of fields, if every field is a cell.
    fields: Option<usize>,
    /// The row ends in a comma: it may be one cell shorter (the last field empty).
    trailing_comma: bool,
}

impl<'a> CsvRow<'a> {
    fn new(line: usize, text: &'a str) -> CsvRow<'a> {
        let mut count = 0;
        let all_cells = Self::fields_of(text).inspect(|_| count += 1).all(is_cell);
        CsvRow {
            line,
            text,
            fields: all_cells.then_some(count),
            trailing_comma: text.ends_with(','),
        }
    }

    fn fields_of(text: &str) -> impl Iterator<Item = &str> {
        text.split(',').map(str::trim)
    }
}

impl Row for CsvRow<'_> {
    fn line(&self) -> usize {
        self.line
    }

    fn widths(&self) -> [Option<usize>; 2] {
        [
            self.fields,
            self.fields.filter(|_| self.trailing_comma).map(|f| f - 1),
        ]
    }

    fn decode(&self, n: usize, cells: &mut Vec<u16>) -> Result<(), String> {
        match self.fields {
            Some(fields) if fields == n || (self.trailing_comma && fields == n + 1) => {
                for (i, field) in Self::fields_of(self.text).take(n).enumerate() {
                    // More than 5 digits cannot be a side ≤ 1000 and would overflow a u16.
                    match field.parse::<u16>() {
                        _ if field.is_empty() => cells.push(0),
                        Ok(v) if field.len() <= 5 && v as usize <= n => cells.push(v),
                        _ => {
                            return Err(format!(
                                "value {field} in field {} is larger than the side {n}",
                                i + 1
                            ));
                        }
                    }
                }
                Ok(())
            }
            Some(fields) => Err(format!("the row has {fields} fields, but the side is {n}")),
            None => {
                let (i, field) = Self::fields_of(self.text)
                    .enumerate()
                    .find(|(_, f)| !is_cell(f))
                    .unwrap_or((0, ""));
                let shown: String = field.chars().take(20).collect();
                Err(format!("field {} is not a number: {shown:?}", i + 1))
            }
        }
    }
}

/// Writes `puzzle` as rows of integers (2n for a pair), then a blank line.
pub(super) fn write(out: &mut String, puzzle: &Puzzle) {
    let n = puzzle.side();
    for board in puzzle.boards() {
        for row in board.cells().chunks(n) {
            for (i, v) in row.iter().enumerate() {
                let _ = write!(out, "{}{v}", if i == 0 { "" } else { "," });
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

    /// The seed's example shape: a 4×4 pair.
    const PAIR: &str = "1,0,0,0\n0,0,3,0\n0,0,0,0\n0,0,0,2\n2,0,0,0\n0,0,0,0\n0,4,0,0\n0,0,0,1\n";

    fn parse(text: &str, kind: Option<Kind>) -> Vec<Result<(usize, Puzzle), String>> {
        entries_for_tests(text, "c.csv", Format::Csv, kind)
    }

    #[test]
    fn reads_pairs_single_boards_and_blank_fields() {
        let single = "1, ,0,0\r\n0,0,3,0\r\n0,0,0,0\r\n0,0,0,2\r\n";
        let got = parse(&format!("# seed\n{PAIR}\n\n{single}"), None);
        let (line, pair) = got[0].clone().unwrap();
        assert_eq!((line, pair.kind(), pair.givens()), (2, Kind::Pair, 6));
        assert_eq!(pair.boards()[1].get(2, 1), 4);
        let (line, sudoku) = got[1].clone().unwrap();
        assert_eq!(
            (line, sudoku.kind(), sudoku.givens()),
            (12, Kind::Sudoku, 3)
        );
        let latin = parse("1,2,3\n0,0,0\n0,0,0\n", None);
        assert_eq!(latin[0].as_ref().unwrap().1.kind(), Kind::Latin);
        assert_eq!(parse(PAIR, Some(Kind::Sudoku)).len(), 2);
    }

    #[test]
    fn each_fault_is_located() {
        let bad = |text: &str| {
            parse(&format!("{PAIR}\n{text}\n{PAIR}"), None)[1]
                .clone()
                .unwrap_err()
        };
        assert_eq!(
            bad(&PAIR.replacen("0,0,3,0", "0,0,3", 1)),
            "c.csv:11: the row has 3 fields, but the side is 4"
        );
        assert_eq!(
            bad(&PAIR.replacen("0,0,3,0", "0,x,3,0", 1)),
            "c.csv:11: field 2 is not a number: \"x\""
        );
        assert_eq!(
            bad(&PAIR.replacen("0,0,3,0", "0,0,5,0", 1)),
            "c.csv:11: value 5 in field 3 is larger than the side 4"
        );
        assert_eq!(
            bad(&PAIR.replacen("0,0,3,0", "0,0,-3,0", 1)),
            "c.csv:11: field 3 is not a number: \"-3\""
        );
        assert_eq!(
            bad(&PAIR.replacen("0,4,0,0", "0,4,0,4", 1)),
            "c.csv:10: clash: board 2: value 4 appears twice in row 3 (at r3c2 and r3c4)"
        );
        assert_eq!(
            bad(&PAIR.replacen("2,0,0,0", "1,0,0,0", 1)),
            "c.csv:10: clash: both boards hold 1 at r1c1"
        );
        assert_eq!(
            bad("1,0,0\n0,0,0\n"),
            "c.csv:10: 2 rows of 3 fields: a board of side 3 needs 3 rows (6 for a pair)"
        );
    }

    #[test]
    fn writes_integers() {
        let pair = parse(PAIR, None).remove(0).unwrap().1;
        let mut out = String::new();
        write(&mut out, &pair);
        assert_eq!(out, format!("{PAIR}\n"));
    }
}
