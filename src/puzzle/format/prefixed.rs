//! The prefixed line format of the "SATurday Night Solver" seed: `3 000400009020980030...`,
//! the box size k, whitespace, then the n² symbols (n = k²) of a line-format puzzle.
//!
//! - The box size fixes the side, so the symbol count must be n² (a sudoku) or 2·n² (a
//!   pair, S1 then S2); a forced kind `latin` reads the n² symbols as a Latin square.
//! - Blank lines and `#` comments are skipped; fields after the symbols are ignored, as in
//!   the line format.
//! - Writing needs a side k² ≤ 61: a Latin square of another side, or a wider one, is
//!   refused.

use std::fmt::Write as _;
use std::io;

use super::line::{decode_symbols, first_field, symbols_to_puzzle, write_symbols};
use super::text::numbered_lines;
use super::{Failure, Parsed, text};
use crate::puzzle::{Kind, MAX_SIDE, Puzzle, exact_sqrt};

/// Reads every puzzle line of `text`.
pub(super) fn read(text: &str, kind: Option<Kind>, sink: &mut dyn FnMut(Parsed)) {
    for (no, line) in numbered_lines(text) {
        let line = line.trim();
        if text::is_blank_or_comment(line) {
            continue;
        }
        sink(Parsed::puzzle(no, 1, parse_prefixed(line, kind, no)));
    }
}

/// The puzzle of one trimmed prefixed line.
fn parse_prefixed(line: &str, kind: Option<Kind>, no: usize) -> Result<Puzzle, Failure> {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &line[digits..];
    let symbols = rest.trim_start_matches([' ', '\t']);
    if digits == 0 || symbols.len() == rest.len() {
        return Err(Failure::shape(
            no,
            "expected the box size, a space, then the symbols (as in `3 0004000...`)",
        ));
    }
    // Up to 4 digits parse in a usize anywhere; longer is out of range whatever it says.
    let box_size = if digits <= 4 {
        line[..digits].parse::<usize>().unwrap_or(0)
    } else {
        usize::MAX
    };
    let max_box = exact_sqrt(MAX_SIDE).unwrap_or(31);
    if !(2..=max_box).contains(&box_size) {
        return Err(Failure::shape(
            no,
            format!(
                "box size {} is out of range (2 to {max_box})",
                &line[..digits]
            ),
        ));
    }
    let side = box_size * box_size;
    let values = decode_symbols(first_field(symbols), no)?;
    let boards = match values.len() {
        len if len == side * side => 1,
        len if len == 2 * side * side => 2,
        len => {
            return Err(Failure::shape(
                no,
                format!(
                    "box size {box_size} needs {} symbols ({} for a pair), found {len}",
                    side * side,
                    2 * side * side
                ),
            ));
        }
    };
    symbols_to_puzzle(values, side, boards, kind, no)
}

/// Writes `puzzle` as `k symbols`.
pub(super) fn write(out: &mut String, puzzle: &Puzzle) -> io::Result<()> {
    let Some(box_size) = exact_sqrt(puzzle.side()).filter(|&k| k >= 2) else {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "side {} is not a square k²: the prefixed format cannot write it",
                puzzle.side()
            ),
        ));
    };
    let _ = write!(out, "{box_size} ");
    write_symbols(out, puzzle, "prefixed")?;
    let _ = writeln!(out);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::format::{Format, entries_for_tests};

    const SEED: &str =
        "3 000400009020980030800003400002000000000001008070020016000100007001000002096000300";

    fn parse(text: &str, kind: Option<Kind>) -> Vec<Result<Puzzle, String>> {
        entries_for_tests(text, "p.txt", Format::Prefixed, kind)
            .into_iter()
            .map(|e| e.map(|(_, puzzle)| puzzle))
            .collect()
    }

    #[test]
    fn reads_the_seed_format() {
        let got = parse(
            &format!(
                "{SEED}\r\n\t2  1..2..3.4.......,extra\n2 {}\n",
                "0".repeat(32)
            ),
            None,
        );
        let sudoku = got[0].as_ref().unwrap();
        assert_eq!(
            (sudoku.kind(), sudoku.side(), sudoku.givens()),
            (Kind::Sudoku, 9, 23)
        );
        assert_eq!(got[1].as_ref().unwrap().givens(), 4);
        assert_eq!(got[2].as_ref().unwrap().kind(), Kind::Pair);
        let latin = parse(&format!("{SEED}\n"), Some(Kind::Latin));
        assert_eq!(latin[0].as_ref().unwrap().kind(), Kind::Latin);
    }

    #[test]
    fn each_fault_is_located() {
        let bad = |line: &str| {
            parse(&format!("{SEED}\n{line}\n"), None)[1]
                .clone()
                .unwrap_err()
        };
        assert!(bad(&SEED[2..]).starts_with("p.txt:2: expected the box size"));
        assert_eq!(bad("1 0"), "p.txt:2: box size 1 is out of range (2 to 31)");
        assert_eq!(
            bad("99999999999999999999 0"),
            "p.txt:2: box size 99999999999999999999 is out of range (2 to 31)"
        );
        assert_eq!(
            bad("2 000"),
            "p.txt:2: box size 2 needs 16 symbols (32 for a pair), found 3"
        );
        assert!(bad("2 00000000000000-0").contains("unexpected character '-' at position 15"));
        assert!(bad("2 1100000000000000").contains("value 1 appears twice in row 1"));
    }

    #[test]
    fn writes_the_box_size_first() {
        let puzzle = parse(&format!("{SEED}\n"), None).remove(0).unwrap();
        let mut out = String::new();
        write(&mut out, &puzzle).unwrap();
        assert_eq!(out, format!("{SEED}\n"));
        let latin = Puzzle::empty(Kind::Latin, 5).unwrap();
        assert_eq!(
            write(&mut String::new(), &latin).unwrap_err().kind(),
            io::ErrorKind::InvalidInput
        );
    }
}
