//! The line format: one puzzle per line, its n² cells as symbols (`1`–`9`, `A`–`Z`, `a`–`z`
//! for 1..61; `0` or `.` blank), row by row.
//!
//! - A pair is one field of 2·n² symbols, all of S1 then all of S2. As 2·n² is never a
//!   perfect square, the length alone says whether a line holds one board or a pair.
//! - The puzzle is the first field of the line; whatever follows a `,`, `:` or whitespace
//!   is ignored, so kaggle-style `puzzle,solution` and `puzzle:count:solution` corpora read
//!   as they are.
//! - Blank lines and `#` comment lines are skipped. The first other line is skipped too when
//!   it is a column header (its first field is made of letters only and is not a puzzle, as
//!   kaggle's `quizzes,solutions`).
//! - Writing refuses sides over 61, which have no symbols.
//!
//! This is the hot path for million-puzzle corpora: bytes are decoded through a table, and
//! the only allocations per line are the puzzle's own.

use std::fmt::Write as _;
use std::io;

use super::text::{column_of_offset, numbered_lines, quoted_char_at};
use super::{Expected, Failure, Parsed, assemble, text};
use crate::puzzle::symbols::{MAX_SYMBOL_VALUE, value_symbol};
use crate::puzzle::{Grid, Kind, MAX_SIDE, Puzzle, exact_sqrt};

/// Marks a byte that is not a symbol in [`SYMBOL_VALUES`].
const NOT_A_SYMBOL: u8 = u8::MAX;

/// The value of each byte as a symbol (the alphabet of `symbols.rs`), or [`NOT_A_SYMBOL`].
pub(super) static SYMBOL_VALUES: [u8; 256] = symbol_table();

const fn symbol_table() -> [u8; 256] {
    let mut table = [NOT_A_SYMBOL; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        table[b] = match byte {
            b'0' | b'.' => 0,
            b'1'..=b'9' => byte - b'0',
            b'A'..=b'Z' => byte - b'A' + 10,
            b'a'..=b'z' => byte - b'a' + 36,
            _ => NOT_A_SYMBOL,
        };
        b += 1;
    }
    table
}

/// The value of byte `b` as a symbol, if it is one.
pub(super) fn symbol_byte_value(b: u8) -> Option<u16> {
    let v = SYMBOL_VALUES[b as usize];
    (v != NOT_A_SYMBOL).then_some(v as u16)
}

/// Reads every puzzle line of `text`.
pub(super) fn read(text: &str, kind: Option<Kind>, sink: &mut dyn FnMut(Parsed)) {
    let mut first = true;
    for (no, line) in numbered_lines(text) {
        let line = line.trim();
        if text::is_blank_or_comment(line) {
            continue;
        }
        let field = first_field(line);
        let result = parse_line_puzzle(field, kind, no);
        if std::mem::replace(&mut first, false) && result.is_err() && is_column_header(field) {
            continue;
        }
        let result = result.and_then(|p| {
            let expected = expected_answer(&p, field, &line[field.len()..], no)?;
            Ok((p, expected))
        });
        sink(Parsed {
            line: no,
            span: 1,
            result,
        });
    }
}

/// What the fields after the puzzle record of its answer: a field as long as the puzzle's
/// with no blank is a solution (it must solve the puzzle), a short number the solution
/// count (tdoku's
/// `puzzle:count:solution`, Kaggle's `puzzle,solution`). Other fields (`rating=…`) are
/// ignored.
fn expected_answer(
    puzzle: &Puzzle,
    field: &str,
    rest: &str,
    line: usize,
) -> Result<Expected, Failure> {
    let mut expected = Expected::default();
    let is_separator = |c: char| c == ',' || c == ':' || c.is_whitespace();
    for token in rest.split(is_separator).filter(|t| !t.is_empty()) {
        // A field with blanks is no solution (some corpora repeat the puzzle, or add one).
        let complete = !token.bytes().any(|b| b == b'0' || b == b'.');
        if token.len() == field.len() && complete && expected.solution.is_none() {
            let values = decode_symbols(token, line)?;
            let mut solution = puzzle.clone();
            let n = puzzle.side();
            for (board, cells) in solution.boards_mut().iter_mut().zip(values.chunks(n * n)) {
                for (i, &v) in cells.iter().enumerate() {
                    if v as usize > n {
                        return Err(Failure::shape(
                            line,
                            format!("the recorded solution holds {v}, larger than the side {n}"),
                        ));
                    }
                    board.set(i / n, i % n, v);
                }
            }
            puzzle.check_solution(&solution).map_err(|e| {
                Failure::shape(line, format!("the recorded solution is not one: {e}"))
            })?;
            expected.solution = Some(solution);
        } else if token.len() <= 12
            && token.bytes().all(|b| b.is_ascii_digit())
            && expected.count.is_none()
        {
            expected.count = token.parse().ok();
        }
    }
    if expected.count == Some(0) && expected.solution.is_some() {
        return Err(Failure::shape(
            line,
            "the line records 0 solutions and a solution",
        ));
    }
    Ok(expected)
}

/// The text before the first `,`, `:` or whitespace.
pub(super) fn first_field(line: &str) -> &str {
    let is_separator = |c: char| c == ',' || c == ':' || c.is_whitespace();
    let ascii_end = line
        .bytes()
        .position(|b| !b.is_ascii() || is_separator(b as char))
        .unwrap_or(line.len());
    if line.as_bytes().get(ascii_end).is_none_or(u8::is_ascii) {
        return &line[..ascii_end];
    }
    // Rare: a non-ASCII character, where Unicode whitespace (a no-break space) separates too.
    // (A byte found first that is not ASCII starts a character: slicing there is sound.)
    let end = line[ascii_end..]
        .char_indices()
        .find(|&(_, c)| is_separator(c))
        .map_or(line.len(), |(i, _)| ascii_end + i);
    &line[..end]
}

/// A first line like `quizzes,solutions`: letters only (a puzzle has digits or blanks).
fn is_column_header(field: &str) -> bool {
    !field.is_empty() && field.bytes().all(|b| b.is_ascii_alphabetic() || b == b'_')
}

/// The puzzle of a line-format field: its length gives the side and the number of boards.
fn parse_line_puzzle(field: &str, kind: Option<Kind>, line: usize) -> Result<Puzzle, Failure> {
    let values = decode_symbols(field, line)?;
    let len = values.len();
    let (side, boards) = match (exact_sqrt(len), len % 2 == 0 && len > 0) {
        (Some(n), _) => (n, 1),
        (None, true) if exact_sqrt(len / 2).is_some() => (exact_sqrt(len / 2).unwrap_or(0), 2),
        _ => {
            return Err(Failure::shape(
                line,
                format!(
                    "{len} symbols: a puzzle line has n² symbols (81 for 9×9), or 2·n² for a pair"
                ),
            ));
        }
    };
    symbols_to_puzzle(values, side, boards, kind, line)
}

/// Decodes a field of symbols into values, or says which character is not a symbol.
pub(super) fn decode_symbols(field: &str, line: usize) -> Result<Vec<u16>, Failure> {
    if field.is_empty() {
        return Err(Failure::shape(
            line,
            "no puzzle symbols at the start of the line",
        ));
    }
    // Two boards of the largest side: anything longer cannot be a puzzle, so do not
    // allocate for it.
    if field.len() > 2 * MAX_SIDE * MAX_SIDE {
        return Err(Failure::shape(
            line,
            format!("{} characters is too long for a puzzle line", field.len()),
        ));
    }
    let mut values = Vec::with_capacity(field.len());
    for (i, b) in field.bytes().enumerate() {
        match symbol_byte_value(b) {
            Some(v) => values.push(v),
            None => {
                return Err(Failure::shape(
                    line,
                    format!(
                        "unexpected character {} at position {} (symbols are 1-9, A-Z, a-z; a blank is 0 or .)",
                        quoted_char_at(field, i),
                        column_of_offset(field, i)
                    ),
                ));
            }
        }
    }
    Ok(values)
}

/// Splits `values` (`boards` boards of side `side`, row by row) into a checked puzzle.
pub(super) fn symbols_to_puzzle(
    mut values: Vec<u16>,
    side: usize,
    boards: usize,
    kind: Option<Kind>,
    line: usize,
) -> Result<Puzzle, Failure> {
    if !(2..=MAX_SIDE).contains(&side) {
        return Err(Failure::shape(
            line,
            format!("side {side} is out of range (2 to {MAX_SIDE})"),
        ));
    }
    if let Some(i) = values.iter().position(|&v| v as usize > side) {
        let symbol = value_symbol(values[i]).unwrap_or('?');
        return Err(Failure::shape(
            line,
            format!(
                "value {symbol} ({}) at position {} is larger than the side {side}",
                values[i],
                i + 1
            ),
        ));
    }
    let second = (boards == 2).then(|| values.split_off(side * side));
    let mut grids = Vec::with_capacity(boards);
    grids.extend(Grid::from_cells(side, values));
    grids.extend(second.and_then(|cells| Grid::from_cells(side, cells)));
    assemble(grids, kind, line)
}

/// Writes the symbols of every board of `puzzle` (S1 then S2 for a pair), no newline.
pub(super) fn write_symbols(out: &mut String, puzzle: &Puzzle, format: &str) -> io::Result<()> {
    if puzzle.side() > MAX_SYMBOL_VALUE as usize {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "side {} has no symbols in the {format} format (at most 61): use grid or csv",
                puzzle.side()
            ),
        ));
    }
    out.reserve(puzzle.boards().len() * puzzle.side() * puzzle.side() + 1);
    for board in puzzle.boards() {
        out.extend(
            board
                .cells()
                .iter()
                .map(|&v| value_symbol(v).unwrap_or('?')),
        );
    }
    Ok(())
}

/// Writes `puzzle` as one line.
pub(super) fn write(out: &mut String, puzzle: &Puzzle) -> io::Result<()> {
    write_symbols(out, puzzle, "line")?;
    let _ = writeln!(out);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::format::{Format, ReadOptions, read_str};
    use crate::puzzle::symbols::symbol_value;

    const EASY: &str =
        "003020600900305001001806400008102900700000008006708200002609500800203009005010300";

    fn parse(text: &str, kind: Option<Kind>) -> crate::puzzle::format::PuzzleFile {
        read_str(
            text,
            "t.txt",
            &ReadOptions {
                format: Some(Format::Line),
                kind,
                alphabet: None,
            },
        )
        .unwrap()
    }

    #[test]
    fn table_agrees_with_the_alphabet() {
        for b in 0..=255u8 {
            assert_eq!(
                symbol_byte_value(b),
                symbol_value(b as char).filter(|_| b.is_ascii()),
                "byte {b}"
            );
        }
    }

    #[test]
    fn reads_sudokus_latin_squares_and_pairs() {
        let dotted = EASY.replace('0', ".");
        let text =
            format!("# a comment\r\n\r\n{EASY}\r\n{dotted},solution\n{EASY}:1:sol\r\n1221\r\n");
        let file = parse(&text, None);
        let entries: Vec<_> = file.entries.into_iter().map(Result::unwrap).collect();
        assert_eq!(
            entries.iter().map(|e| e.line).collect::<Vec<_>>(),
            [3, 4, 5, 6]
        );
        assert_eq!(entries[0].puzzle, entries[1].puzzle);
        assert_eq!(entries[0].puzzle.kind(), Kind::Sudoku);
        assert_eq!(entries[0].puzzle.givens(), 32);
        assert_eq!(entries[3].puzzle.kind(), Kind::Latin);
        let pair = parse("1...........2...2...........1...\n", None);
        let pair = &pair.entries[0].as_ref().unwrap().puzzle;
        assert_eq!((pair.kind(), pair.side()), (Kind::Pair, 4));
        assert_eq!(pair.boards()[1].get(0, 0), 2);
        let latin = parse(&format!("{EASY}\n"), Some(Kind::Latin));
        assert_eq!(
            latin.entries[0].as_ref().unwrap().puzzle.kind(),
            Kind::Latin
        );
    }

    #[test]
    fn fields_end_at_any_whitespace() {
        assert_eq!(first_field("12\u{a0}34"), "12");
        assert_eq!(first_field("1é2 34"), "1é2");
        assert_eq!(first_field("12\t34:5"), "12");
        assert_eq!(first_field("12:34"), "12");
    }

    #[test]
    fn skips_a_column_header() {
        let file = parse(&format!("quizzes,solutions\n{EASY},{EASY}\n"), None);
        assert_eq!(file.entries.len(), 1);
        assert_eq!(file.entries[0].as_ref().unwrap().line, 2);
    }

    #[test]
    fn each_fault_is_located() {
        let bad = |line: &str, kind: Option<Kind>| -> String {
            let file = parse(&format!("{EASY}\n{line}\n{EASY}\n"), kind);
            assert!(kind.is_some() || (file.entries[0].is_ok() && file.entries[2].is_ok()));
            match &file.entries[1] {
                Ok(e) => format!("t.txt:{}: clash: {}", e.line, e.clash.as_ref().unwrap()),
                Err(e) => e.to_string(),
            }
        };
        assert_eq!(
            bad(
                "00302060090030500100180640000810290070000000800670820000260950080020300900501030",
                None
            ),
            "t.txt:2: 80 symbols: a puzzle line has n² symbols (81 for 9×9), or 2·n² for a pair"
        );
        assert!(
            bad(&EASY.replacen('3', "*", 1), None)
                .starts_with("t.txt:2: unexpected character '*' at position 3")
        );
        assert!(bad(&EASY.replacen('3', "é", 1), None).contains("'é' at position 3"));
        assert_eq!(
            bad(&EASY.replacen('3', "A", 1), None),
            "t.txt:2: value A (10) at position 3 is larger than the side 9"
        );
        assert_eq!(
            bad(&EASY.replacen('0', "3", 1), None),
            "t.txt:2: clash: value 3 appears twice in row 1 (at r1c1 and r1c3)"
        );
        assert_eq!(
            bad(EASY, Some(Kind::Pair)),
            "t.txt:2: one board, but the kind is pair"
        );
        assert_eq!(
            bad("7", None),
            "t.txt:2: side 1 is out of range (2 to 1000)"
        );
        assert!(bad(",x", None).contains("no puzzle symbols"));
        let clash = format!("1{}1{}", "0".repeat(15), "0".repeat(15));
        assert_eq!(
            bad(&clash, None),
            "t.txt:2: clash: both boards hold 1 at r1c1"
        );
    }

    #[test]
    fn writes_one_line_and_refuses_wide_sides() {
        let file = parse(&format!("{EASY}\n"), None);
        let mut out = String::new();
        write(&mut out, &file.entries[0].as_ref().unwrap().puzzle).unwrap();
        assert_eq!(out, format!("{EASY}\n"));
        let wide = Puzzle::empty(Kind::Sudoku, 64).unwrap();
        assert_eq!(
            write(&mut String::new(), &wide).unwrap_err().kind(),
            io::ErrorKind::InvalidInput
        );
    }
}
