//! A solver's own work counters (conflicts, decisions, propagations), read from the
//! statistics it prints, as its output streams by: every line is looked at once, only the
//! current line is held (up to [`MAX_LINE`] bytes; a longer line, a model line say, is
//! skipped unread), and the last value of each counter stands (cryptominisat prints its
//! totals twice, and a solver may print partial figures before its final ones).
//!
//! Two shapes cover the solvers bench knows ([`StatsSyntax`]): `name : value` (minisat and
//! glucose `conflicts : 5809 (156408 /sec)`, kissat and cadical `c conflicts: 8979 …`,
//! cryptominisat `c propagations : 132K …`, `bench solve` `c conflicts: 12`), and
//! `value name` (picosat `c 3863 conflicts`). cryptominisat prints a count above 20,000
//! in thousands (`132K`) and above 20 million in millions (`21M`), cut, not rounded: such
//! a count is read as printed (132,000), at most 5 % below the solver's own.

use sandbox::run::StdoutConsumer;

/// The longest line read for a counter (statistics lines are short).
pub const MAX_LINE: usize = 256;

/// The counters read, by the names bench's rows use.
pub const COUNTERS: [&str; 3] = ["conflicts", "decisions", "propagations"];

/// How a solver prints a counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatsSyntax {
    /// `[c ]name : value [anything]`, the value perhaps with a `K` or `M` suffix.
    NameColonValue,
    /// `c value name` (picosat).
    ValueName,
}

/// The counters of one output, read line by line.
#[derive(Clone, Debug)]
pub struct StatsScanner {
    syntax: StatsSyntax,
    line: Vec<u8>,
    /// The current line is longer than [`MAX_LINE`] (or a model line): skipped.
    skipping: bool,
    found: [Option<u64>; 3],
}

impl StatsScanner {
    /// A scanner for `syntax`.
    pub fn new(syntax: StatsSyntax) -> StatsScanner {
        StatsScanner {
            syntax,
            line: Vec::with_capacity(MAX_LINE),
            skipping: false,
            found: [None; 3],
        }
    }

    /// Reads the next chunk (of any size).
    pub fn feed(&mut self, chunk: &[u8]) {
        let mut rest = chunk;
        while !rest.is_empty() {
            let end = rest.iter().position(|&b| b == b'\n');
            let piece = &rest[..end.unwrap_or(rest.len())];
            if !self.skipping {
                // A model line (`v …`, or minisat's digits) never holds a counter.
                if self.line.is_empty() && matches!(piece.first(), Some(b'v')) {
                    self.skipping = true;
                } else if self.line.len() + piece.len() > MAX_LINE {
                    self.skipping = true;
                    self.line.clear();
                } else {
                    self.line.extend_from_slice(piece);
                }
            }
            match end {
                Some(i) => {
                    self.end_line();
                    rest = &rest[i + 1..];
                }
                None => break,
            }
        }
    }

    /// The end of a line: its counter, if it holds one.
    fn end_line(&mut self) {
        if !self.skipping
            && let Ok(text) = std::str::from_utf8(&self.line)
            && let Some((name, value)) = read_line(self.syntax, text)
            && let Some(i) = COUNTERS.iter().position(|c| *c == name)
        {
            self.found[i] = Some(value);
        }
        self.line.clear();
        self.skipping = false;
    }

    /// The counters found, by name (a last line without its newline is not read: it
    /// may have been cut).
    pub fn counters(&self) -> Vec<(String, u64)> {
        COUNTERS
            .iter()
            .zip(self.found)
            .filter_map(|(name, v)| Some((name.to_string(), v?)))
            .collect()
    }
}

/// The (name, value) of one statistics line, if it is one.
pub fn read_line(syntax: StatsSyntax, line: &str) -> Option<(&str, u64)> {
    let line = line.trim_end_matches('\r');
    let body = line.strip_prefix("c ").unwrap_or(line).trim();
    match syntax {
        StatsSyntax::NameColonValue => {
            let (name, rest) = body.split_once(':')?;
            let value = count(rest.split_whitespace().next()?)?;
            Some((name.trim(), value))
        }
        StatsSyntax::ValueName => {
            let mut words = body.split_whitespace();
            let value = words.next()?.parse().ok()?;
            let name = words.next()?;
            words.next().is_none().then_some((name, value))
        }
    }
}

/// A count as printed: digits, perhaps with a `K` (thousands) or `M` (millions) suffix.
fn count(word: &str) -> Option<u64> {
    let (digits, scale) = match word.as_bytes().last()? {
        b'K' => (&word[..word.len() - 1], 1_000),
        b'M' => (&word[..word.len() - 1], 1_000_000),
        _ => (word, 1),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse::<u64>().ok()?.checked_mul(scale)
}

/// A stdout consumer with a [`StatsScanner`] beside it: every chunk goes to both.
pub struct Scanned<C: StdoutConsumer> {
    /// The consumer that reads the answer (or keeps the text).
    pub inner: C,
    /// The counters read so far.
    pub stats: StatsScanner,
}

impl<C: StdoutConsumer> Scanned<C> {
    /// `inner`, with the counters of `syntax` read beside it.
    pub fn new(inner: C, syntax: StatsSyntax) -> Scanned<C> {
        Scanned {
            inner,
            stats: StatsScanner::new(syntax),
        }
    }
}

impl<C: StdoutConsumer> StdoutConsumer for Scanned<C> {
    fn feed(&mut self, chunk: &[u8]) {
        self.stats.feed(chunk);
        self.inner.feed(chunk);
    }

    fn finish(&mut self) -> (Vec<u8>, u64) {
        self.inner.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::StatsSyntax::{NameColonValue, ValueName};
    use super::*;

    fn scan(syntax: StatsSyntax, text: &str, size: usize) -> Vec<(String, u64)> {
        let mut s = StatsScanner::new(syntax);
        for chunk in text.as_bytes().chunks(size) {
            s.feed(chunk);
        }
        s.counters()
    }

    fn pairs(c: u64, d: u64, p: u64) -> Vec<(String, u64)> {
        vec![
            ("conflicts".into(), c),
            ("decisions".into(), d),
            ("propagations".into(), p),
        ]
    }

    /// Lines as each solver printed them on corpora/cnf/rand3-150-639-s1.cnf.
    #[test]
    fn captured_lines_of_each_solver() {
        let minisat = "restarts              : 30\n\
            conflicts             : 5809           (156408 /sec)\n\
            decisions             : 6977           (0.00 % random) (187857 /sec)\n\
            propagations          : 187656         (5052666 /sec)\n\
            conflict literals     : 49976          (24.12 % deleted)\n\
            CPU time              : 0.03714 s\n\nUNSATISFIABLE\n";
        let glucose = "c restarts              : 3 (2356 conflicts in avg)\n\
            c conflicts             : 7068           (84328 /sec)\n\
            c decisions             : 8285           (0.00 % random) (98847 /sec)\n\
            c propagations          : 210982         (2517204 /sec)\n\
            c LCM                   : 571 / 1284 \ns UNSATISFIABLE\n";
        let kissat = "c conflicts:                             8979            53385.73 per second\n\
            c decisions:                            11040                1.23 per conflict\n\
            c propagations:                        296132          1760689    per second\n\
            c process-time:                                              0.17 seconds\n";
        let cadical = "c chronological:               631        12.45 %  of conflicts\n\
            c conflicts:                  5069     75683.83    per second\n\
            c decisions:                  5417     80879.72    per second\n\
            c propagations:             158360         2.36 M  per second\n";
        let cms = "c decisions                : 4976        (0.00      % random)\n\
            c propagations             : 132K        (2936K     props/s)\n\
            c decisions/conflicts      : 1.19        \n\
            c conflicts                : 4190        \n\
            c props/conflict           : 0.00        \n";
        let picosat = "s UNSATISFIABLE\nc\nc 10 iterations\nc 2 restarts\n\
            c 3863 conflicts\nc 4457 decisions\nc 30840 learned literals\n\
            c 160705 propagations\nc 4.3 megaprops/second\n";
        let native = "c conflicts: 12\nc decisions: 40\nc propagations: 310\nc restarts: 0\n\
            s SATISFIABLE\nv 1 -2 0\n";
        for (syntax, text, want) in [
            (NameColonValue, minisat, pairs(5809, 6977, 187656)),
            (NameColonValue, glucose, pairs(7068, 8285, 210982)),
            (NameColonValue, kissat, pairs(8979, 11040, 296132)),
            (NameColonValue, cadical, pairs(5069, 5417, 158360)),
            (NameColonValue, cms, pairs(4190, 4976, 132_000)),
            (ValueName, picosat, pairs(3863, 4457, 160705)),
            (NameColonValue, native, pairs(12, 40, 310)),
        ] {
            for size in [1, 3, 17, 4096] {
                assert_eq!(
                    scan(syntax, text, size),
                    want,
                    "{text:?} in chunks of {size}"
                );
            }
        }
    }

    #[test]
    fn what_is_no_counter_is_not_read() {
        // Progress tables, model lines, cut lines, suffixes on other words, a line too long.
        let text = format!(
            "|       100 |     147      631     1902 |\nv 1 -2 conflicts: 3 0\n\
             c conflicts: 12x\nc decisions: -3\nc conflicts: {}\nc propagations: 1K2\n\
             c conflicts 5\nc decisions: 7",
            "9".repeat(400)
        );
        assert_eq!(scan(NameColonValue, &text, 5), vec![]);
        assert_eq!(
            scan(ValueName, "c 4.3 megaprops/second\nc 3 conflicts x\n", 2),
            vec![]
        );
        // A count past u64 is no count.
        assert_eq!(count("99999999999999999999M"), None);
        assert_eq!(count("21M"), Some(21_000_000));
        // The last value stands (cryptominisat prints its totals twice).
        assert_eq!(
            scan(NameColonValue, "c conflicts : 1\nc conflicts : 2\n", 4),
            vec![("conflicts".to_string(), 2)]
        );
    }
}
