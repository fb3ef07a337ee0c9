//! Which format a puzzle file is in, when `--format` does not say.
//!
//! Every format's reader reads a sample, the first [`SAMPLE_LINES`] lines of the file, and
//! the format that reads it best wins:
//! 1. the most sample lines that are part of a well-shaped puzzle (right count of symbols,
//!    rows and values in range), whether or not its givens obey the rules;
//! 2. on a tie, the most lines that are part of a puzzle whose givens obey the rules;
//! 3. on a tie again, the first of line, prefixed, csv, grid.
//!
//! So a kaggle line `puzzle,solution` is line format (as CSV its two fields are huge
//! numbers), `3 0004...` is prefixed, `5,3,0,...` rows are CSV, and 9 rows of 9 symbols are a
//! grid (as lines they would be 3×3 squares holding values up to 9).
//!
//! The one real ambiguity: n lines of n symbols with n = m², all values ≤ m, no blank line
//! (e.g. exactly 16 lines of 16 symbols) read both as n line-format m×m puzzles and as one
//! n×n grid. Rule 2 usually settles it, since stacked small puzzles repeat values down the
//! columns of the big grid; when it does not, rule 3 makes it line format (what `bench gen`
//! writes). `--format grid` reads such a file as a grid.
//!
//! When no format reads a single puzzle in the sample, the whole file is tried before
//! giving up: a file in which nothing looks like a puzzle is a file-level error.

use super::{Format, Kind, Parsed, read_as, text};

/// How many lines of a file detection reads: enough for a whole 1000×1000 pair block
/// (2000 rows) and thousands of line puzzles, still a blink on a million-line corpus.
pub const SAMPLE_LINES: usize = 4096;

/// The format of `text` (read with `kind` forced, if given), or `None` if no format
/// reads any puzzle in it.
pub fn detect(text: &str, kind: Option<Kind>) -> Option<Format> {
    let sample = text::first_lines(text, SAMPLE_LINES);
    best_format(sample, kind).or_else(|| {
        (sample.len() < text.len())
            .then(|| best_format(text, kind))
            .flatten()
    })
}

/// The format that reads `text` best, if any reads a puzzle.
fn best_format(text: &str, kind: Option<Kind>) -> Option<Format> {
    let mut best: Option<((usize, usize), Format)> = None;
    for format in Format::ALL {
        let score = score(format, text, kind);
        // Strictly better only: on a tie the earlier format of `Format::ALL` stays.
        if score.0 > 0 && best.is_none_or(|(top, _)| score > top) {
            best = Some((score, format));
        }
    }
    best.map(|(_, format)| format)
}

/// Why each format fails on the first puzzle of `text`, in one line: `as a line: …; as
/// prefixed: …` (the first failure of each, with its line).
pub fn explain(text: &str, kind: Option<Kind>) -> String {
    let sample = text::first_lines(text, SAMPLE_LINES);
    let mut parts = Vec::new();
    for format in Format::ALL {
        let mut first: Option<String> = None;
        read_as(format, sample, kind, &mut |parsed: Parsed| {
            if let (None, Err(f)) = (&first, &parsed.result) {
                first = Some(format!("line {}: {}", f.line, f.message));
            }
        });
        let name = match format {
            Format::Line => "as a line",
            Format::Prefixed => "as prefixed",
            Format::Grid => "as a grid",
            Format::Csv => "as csv",
        };
        let mut why = first.unwrap_or_else(|| "no puzzle line".into());
        if format == Format::Line && why.contains("is larger than the side") {
            why.push_str(" (values in other symbols, as A-P for 16×16? see --alphabet)");
        }
        parts.push(format!("{name}, {why}"));
    }
    parts.join("; ")
}

/// (lines in well-shaped puzzles, lines in puzzles whose givens obey the rules) of `text`
/// read as `format`.
fn score(format: Format, text: &str, kind: Option<Kind>) -> (usize, usize) {
    let (mut shaped, mut valid) = (0, 0);
    read_as(format, text, kind, &mut |parsed: Parsed| {
        if let Ok((puzzle, _)) = &parsed.result {
            shaped += parsed.span;
            if puzzle.check_givens().is_ok() {
                valid += parsed.span;
            }
        }
    });
    (shaped, valid)
}

#[cfg(test)]
mod tests {
    use super::*;

    const EASY: &str =
        "003020600900305001001806400008102900700000008006708200002609500800203009005010300";

    fn grid_of(line: &str, n: usize) -> String {
        line.as_bytes()
            .chunks(n)
            .map(|row| format!("{}\n", std::str::from_utf8(row).unwrap()))
            .collect()
    }

    #[test]
    fn tells_the_formats_apart() {
        assert_eq!(
            detect(&format!("{EASY}\n{EASY},{EASY}\n"), None),
            Some(Format::Line)
        );
        assert_eq!(
            detect(&format!("quizzes,solutions\n{EASY},{EASY}\n"), None),
            Some(Format::Line)
        );
        assert_eq!(detect(&format!("3 {EASY}\n"), None), Some(Format::Prefixed));
        assert_eq!(detect(&grid_of(EASY, 9), None), Some(Format::Grid));
        let csv = grid_of(EASY, 9)
            .lines()
            .map(|l| l.chars().map(String::from).collect::<Vec<_>>().join(",") + "\n")
            .collect::<String>();
        assert_eq!(detect(&csv, None), Some(Format::Csv));
        assert_eq!(detect("hello world\nthis is not a puzzle\n", None), None);
    }

    #[test]
    fn a_file_of_bad_puzzles_is_still_its_format() {
        let repeated = EASY.replacen('0', "3", 1);
        assert_eq!(
            detect(&format!("{repeated}\n{repeated}\n"), None),
            Some(Format::Line)
        );
        let too_big = grid_of(&EASY.replacen('0', "A", 1), 9);
        assert_eq!(
            detect(&format!("{too_big}\n{}", grid_of(EASY, 9)), None),
            Some(Format::Grid)
        );
    }

    #[test]
    fn sixteen_lines_of_sixteen_symbols() {
        // Sixteen 4×4 sudokus whose stacking repeats values down the columns: line format.
        let small = "1200340000000000\n".repeat(16);
        assert_eq!(detect(&small, None), Some(Format::Line));
        // A real 16×16 grid has values over 4: grid.
        let big: String = (0..16)
            .map(|r| format!("{}{}\n", if r == 0 { "G" } else { "0" }, "0".repeat(15)))
            .collect();
        assert_eq!(detect(&big, None), Some(Format::Grid));
        // Both readings valid (blank rows): the tie goes to line format.
        assert_eq!(
            detect(&"0000000000000000\n".repeat(16), None),
            Some(Format::Line)
        );
    }

    #[test]
    fn looks_past_the_sample_before_giving_up() {
        let text = format!("{}{EASY}\n", "bad line\n".repeat(SAMPLE_LINES + 10));
        assert_eq!(detect(&text, None), Some(Format::Line));
    }
}
