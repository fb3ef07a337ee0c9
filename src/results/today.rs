//! Reading a row of today's columns, in today's order, without serde: each field parsed
//! straight into its column, as serde's derive and the `csv` crate's deserializer would
//! (the same `FromStr` for numbers, the same names for enums, the same spreadsheet-cell
//! rule for texts). Anything it does not take exactly (a hexadecimal number, an unknown
//! name, a missing field) makes it give up, and the row is read through serde, which
//! reads it or names what is wrong with it. A study's report reads millions of rows;
//! this is where most of its reading time went.

use std::str::FromStr;

use compact_str::CompactString;

use super::{Check, InstanceKind, Mode, Row, Trust};
use crate::solver::{LimitHit, Status};

/// Today's columns, in order: the header [`super::header_line`] writes (a test holds the
/// two together).
pub(super) const COLUMNS: [&str; 35] = [
    "corpus",
    "instance",
    "hash",
    "kind",
    "side",
    "encoding",
    "vars",
    "clauses",
    "solver",
    "mode",
    "run",
    "status",
    "check",
    "wall_s",
    "cpu_s",
    "max_rss_kb",
    "exit_code",
    "timeout_s",
    "jobs",
    "error",
    "wrong",
    "solutions",
    "count_wall_s",
    "count_cpu_s",
    "givens",
    "family",
    "trust",
    "check_s",
    "check_rss_kb",
    "conflicts",
    "decisions",
    "propagations",
    "guesses",
    "cpu_limit_s",
    "limit",
];

/// The row of `record`, a record of today's columns; none when a field is not in the
/// plain form this reads (serde then reads the row).
pub(super) fn row(record: &csv::StringRecord) -> Option<Row> {
    if record.len() != COLUMNS.len() {
        return None;
    }
    let f = |i: usize| &record[i];
    Some(Row {
        corpus: text(f(0)),
        instance: text(f(1)),
        hash: f(2).into(),
        kind: InstanceKind::parse(f(3))?,
        side: number(f(4))?,
        encoding: f(5).into(),
        vars: number(f(6))?,
        clauses: number(f(7))?,
        solver: text(f(8)),
        mode: optional(f(9), mode)?,
        run: number(f(10))?,
        status: status(f(11))?,
        check: check(f(12))?,
        wall_s: f(13).parse().ok()?,
        cpu_s: optional(f(14), |s| s.parse().ok())?,
        max_rss_kb: optional(f(15), number)?,
        exit_code: optional(f(16), number)?,
        timeout_s: f(17).parse().ok()?,
        jobs: number(f(18))?,
        error: f(19).to_string(),
        wrong: f(20).parse().ok()?,
        solutions: optional(f(21), number)?,
        count_wall_s: optional(f(22), |s| s.parse().ok())?,
        count_cpu_s: optional(f(23), |s| s.parse().ok())?,
        givens: optional(f(24), number)?,
        family: text(f(25)),
        trust: optional(f(26), trust)?,
        check_s: optional(f(27), |s| s.parse().ok())?,
        check_rss_kb: optional(f(28), number)?,
        conflicts: optional(f(29), number)?,
        decisions: optional(f(30), number)?,
        propagations: optional(f(31), number)?,
        guesses: optional(f(32), number)?,
        cpu_limit_s: optional(f(33), |s| s.parse().ok())?,
        limit: optional(f(34), limit)?,
    })
}

/// A text column written as a spreadsheet cell.
fn text(field: &str) -> CompactString {
    crate::text::from_spreadsheet_cell(field).into()
}

/// An integer as `csv` reads it, except its `0x` form (left to serde).
fn number<T: FromStr>(field: &str) -> Option<T> {
    if field.starts_with("0x") {
        return None;
    }
    field.parse().ok()
}

/// An optional column: empty is none (as `csv` reads an `Option`); else `parse`'s value,
/// if it takes the field. The outer none: not taken.
fn optional<T>(field: &str, parse: impl Fn(&str) -> Option<T>) -> Option<Option<T>> {
    if field.is_empty() {
        Some(None)
    } else {
        parse(field).map(Some)
    }
}

/// The first of `names` that is `field`, as its value.
fn named<T: Copy, const N: usize>(field: &str, names: [(&str, T); N]) -> Option<T> {
    names
        .iter()
        .find(|(name, _)| *name == field)
        .map(|&(_, v)| v)
}

fn mode(field: &str) -> Option<Mode> {
    named(
        field,
        [
            ("session", Mode::Session),
            ("fresh", Mode::Fresh),
            ("process", Mode::Process),
            ("dedicated", Mode::Dedicated),
        ],
    )
}

fn status(field: &str) -> Option<Status> {
    named(
        field,
        [
            ("SAT", Status::Sat),
            ("UNSAT", Status::Unsat),
            ("UNKNOWN", Status::Unknown),
            ("TIMEOUT", Status::Timeout),
            ("MEMOUT", Status::Memout),
            ("ERROR", Status::Error),
        ],
    )
}

fn check(field: &str) -> Option<Check> {
    named(
        field,
        [
            ("model-ok", Check::ModelOk),
            ("encoding-open", Check::EncodingOpen),
            ("model-wrong", Check::ModelWrong),
            ("proof-ok", Check::ProofOk),
            ("proof-failed", Check::ProofFailed),
            ("unchecked", Check::Unchecked),
        ],
    )
}

fn trust(field: &str) -> Option<Trust> {
    named(
        field,
        [
            ("model-checked", Trust::ModelChecked),
            ("proof-verified", Trust::ProofVerified),
            ("proof-checked", Trust::ProofChecked),
            ("proof-timeout", Trust::ProofTimeout),
            ("cross-checked", Trust::CrossChecked),
            ("unchecked", Trust::Unchecked),
        ],
    )
}

fn limit(field: &str) -> Option<LimitHit> {
    named(
        field,
        [
            ("wall", LimitHit::Wall),
            ("cpu", LimitHit::Cpu),
            ("memory", LimitHit::Memory),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The columns this reads are the ones bench writes, in its order.
    #[test]
    fn the_columns_are_todays() {
        let header = super::super::header_line();
        let header = String::from_utf8(header).unwrap();
        assert_eq!(header.trim_end().split(',').collect::<Vec<_>>(), COLUMNS);
    }

    /// Every name of every enum column, as serde writes it, is read back to the same
    /// value; and a row read here equals the row serde reads, over rows with every field
    /// filled, emptied, escaped, or in a form left to serde.
    #[test]
    fn rows_read_here_equal_rows_read_by_serde() {
        let mut rows = Vec::new();
        let base = crate::report::test_rows::full_row("p.txt:1", "minimal", "s", "SAT", 0.5);
        let statuses = [
            Status::Sat,
            Status::Unsat,
            Status::Unknown,
            Status::Timeout,
            Status::Memout,
            Status::Error,
        ];
        let checks = [
            Check::ModelOk,
            Check::EncodingOpen,
            Check::ModelWrong,
            Check::ProofOk,
            Check::ProofFailed,
            Check::Unchecked,
        ];
        let limits = [LimitHit::Wall, LimitHit::Cpu, LimitHit::Memory];
        for (i, status) in statuses.iter().enumerate() {
            let mut r = base.clone();
            r.status = *status;
            r.check = checks[i % checks.len()];
            r.trust = Some(Trust::ALL[i % Trust::ALL.len()]);
            r.mode = Some(Mode::ALL[i % Mode::ALL.len()]);
            r.limit = Some(limits[i % limits.len()]);
            r.kind = if i % 2 == 0 {
                InstanceKind::Cnf
            } else {
                InstanceKind::Puzzle(crate::puzzle::Kind::ALL[i % 3])
            };
            r.cpu_s = Some(0.25 * i as f64);
            r.exit_code = Some(-(i as i32));
            r.conflicts = Some(u64::MAX - i as u64);
            r.solutions = Some(i as u32);
            r.count_wall_s = Some(1e-7);
            r.givens = Some(17);
            r.error = format!("line {i}, \"quoted\"");
            r.corpus = "=SUM(A1)".into();
            r.family = "+family".into();
            r.wrong = i % 2 == 1;
            rows.push(r);
        }
        let mut empty = base.clone();
        empty.mode = None;
        empty.trust = None;
        empty.limit = None;
        empty.cpu_s = None;
        rows.push(empty);
        let mut text = Vec::new();
        for r in &rows {
            text.extend(line(r));
        }
        let header = super::super::header_line();
        let mut all = header.clone();
        all.extend(&text);
        // Fields in forms left to serde: a hexadecimal number, a name no enum has.
        all.extend(text_row(&header, "side", "0x9"));
        all.extend(text_row(&header, "status", "sat"));
        let mut reader = csv::Reader::from_reader(&all[..]);
        let mut taken = 0;
        for record in reader.records() {
            let record = record.unwrap();
            let by_serde: Result<Row, _> = record.deserialize(None);
            match row(&record) {
                Some(fast) => {
                    assert_eq!(Some(&fast), by_serde.as_ref().ok(), "{record:?}");
                    taken += 1;
                }
                None => assert!(
                    record.iter().any(|f| f == "0x9" || f == "sat"),
                    "{record:?}"
                ),
            }
        }
        assert_eq!(taken, rows.len());
    }

    /// `r` as bench writes it, without the header.
    fn line(r: &Row) -> Vec<u8> {
        let mut w = super::super::formatter(false);
        w.serialize(r).unwrap();
        w.into_inner().unwrap()
    }

    /// A row of `header`'s columns (a full row's values) with `column` set to `value`.
    fn text_row(header: &[u8], column: &str, value: &str) -> Vec<u8> {
        let base = crate::report::test_rows::full_row("p.txt:2", "minimal", "s", "SAT", 0.5);
        let line = String::from_utf8(line(&base)).unwrap();
        let names: Vec<&str> = std::str::from_utf8(header)
            .unwrap()
            .trim_end()
            .split(',')
            .collect();
        let mut fields: Vec<String> = line.trim_end().split(',').map(String::from).collect();
        let at = names.iter().position(|n| *n == column).unwrap();
        fields[at] = value.into();
        format!("{}\n", fields.join(",")).into_bytes()
    }
}
