//! The reader's tests: the format, strictness, the budget, stops, and the fast lane
//! against the careful path.

use super::*;
use crate::budget::ReadLimits;

fn read(text: &str) -> Result<Dimacs, DimacsError> {
    parse(text.as_bytes(), "t.cnf", ParseOptions::default())
}

fn err(text: &str) -> String {
    read(text).unwrap_err().to_string()
}

#[test]
fn reads_the_usual_and_the_unusual() {
    let d = read("c hi\nc bench kind=sudoku\np cnf 3 2\n1 -2\n c mid\n 3 0 -1 0\n").unwrap();
    assert_eq!(
        d.cnf,
        Cnf::from_dimacs_clauses(3, &[vec![1, -2, 3], vec![-1]])
    );
    assert_eq!(d.bench_header.as_deref(), Some("bench kind=sudoku"));
    let d = read("p cnf 2 1\r\n1 2 0\r\n%\r\n0\r\n").unwrap();
    assert_eq!(d.cnf.num_clauses(), 1);
    let d = read("p  cnf  5  0\n").unwrap();
    assert_eq!(d.cnf.num_vars(), 5);
    let d = read("p cnf 1 1\n0\n").unwrap();
    assert_eq!(d.cnf.clause(0).len(), 0);
}

#[test]
fn strict_errors_name_the_line() {
    assert_eq!(
        err("p cnf 2 1\n1 3 0\n"),
        "t.cnf:2: literal 3 exceeds the header's 2 variables"
    );
    assert_eq!(
        err("p cnf 2 2\n1 2 0\n"),
        "t.cnf:2: found 1 clauses, but the header says 2"
    );
    assert_eq!(
        err("p cnf 2 1\n1 2 0\n-1 0\n"),
        "t.cnf:3: more clauses than the header's 1"
    );
    assert_eq!(
        err("p cnf 2 1\n\n1 2\n"),
        "t.cnf:3: the last clause has no terminating 0"
    );
    assert_eq!(
        err("p cnf 2 1\n1 x2 0\n"),
        "t.cnf:2: expected a literal, found 'x' (`x2`)"
    );
    assert_eq!(
        err("p cnf 2 1\n1 2a 0\n"),
        "t.cnf:2: `2a` is not an integer"
    );
    assert!(err("p cnf x 1\n").starts_with("t.cnf:1: invalid header"));
    assert!(err("1 2 0\n").starts_with("t.cnf:1: expected 'c' or 'p'"));
    assert_eq!(err("c only\n"), "t.cnf:2: missing 'p cnf' header");
    assert!(err("p cnf 2147483648 1\n").contains("invalid header"));
    assert!(err("p cnf 2 1\n99999999999999999999 0\n").contains("too large"));
}

#[test]
fn lenient_mode_grows() {
    let d = parse(
        "p cnf 1 5\n1 2 0\n".as_bytes(),
        "t",
        ParseOptions { strict: false },
    )
    .unwrap();
    assert_eq!(d.cnf.num_vars(), 2);
}

#[test]
fn huge_header_allocates_nothing() {
    // 2^31-2 variables, 2^63 clauses claimed: fine to read as long as the body is short.
    let d = parse(
        "p cnf 2147483646 1\n1 0\n".as_bytes(),
        "t",
        ParseOptions { strict: true },
    )
    .unwrap();
    assert_eq!(d.cnf.num_clauses(), 1);
}

#[test]
fn the_budget_bounds_the_clause_arrays() {
    let text = "p cnf 3 100000\n".to_string() + &"1 -2 3 0\n".repeat(100_000);
    let small = ReadLimits {
        budget: Some(1 << 20),
        account: None,
        interrupt: None,
        deadline: None,
    };
    let e = parse_within(text.as_bytes(), "b.cnf", ParseOptions::default(), &small).unwrap_err();
    assert!(matches!(e, DimacsError::TooBig { .. }), "{e}");
    assert!(e.to_string().starts_with("b.cnf:"), "{e}");
    assert!(e.to_string().contains("1 MiB"), "{e}");
    // 300,000 literals and 100,001 starts: 2 MB at their lengths, within 4 MiB.
    let enough = ReadLimits {
        budget: Some(4 << 20),
        account: None,
        ..small
    };
    let d = parse_within(text.as_bytes(), "b.cnf", ParseOptions::default(), &enough).unwrap();
    assert_eq!(d.cnf.num_clauses(), 100_000);
    assert!(d.cnf.heap_bytes() <= 4 << 20);
    // One clause as long as the whole budget allows, and no longer.
    let long = format!("p cnf 1 1\n{}0\n", "1 ".repeat(300_000));
    let e = parse_within(long.as_bytes(), "l.cnf", ParseOptions::default(), &small).unwrap_err();
    assert!(matches!(e, DimacsError::TooBig { .. }), "{e}");
}

/// Hands out its bytes a few at a time, so that tokens straddle every refill.
struct Dribble<'a>(&'a [u8], usize);

impl Read for Dribble<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = self.1.min(out.len()).min(self.0.len());
        out[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

#[test]
fn the_fast_lane_and_the_careful_path_read_alike() {
    let mut text = String::from("c bench kind=y\nc x\np cnf 3000 20000\n");
    for i in 0..20_000u32 {
        let a = i % 3000 + 1;
        let b = (i * 7) % 3000 + 1;
        text += &format!("{a} -{b}  {}\t0\r\n", (i * 13) % 3000 + 1);
        if i % 1000 == 0 {
            text += "c note 1 2 3\n";
        }
    }
    let whole = read(&text).unwrap().cnf;
    assert_eq!(whole.num_clauses(), 20_000);
    for size in [1, 5, 23, 4096] {
        let d = parse(
            Dribble(text.as_bytes(), size),
            "t.cnf",
            ParseOptions::default(),
        )
        .unwrap();
        assert_eq!(d.cnf, whole);
        assert_eq!(d.bench_header.as_deref(), Some("bench kind=y"), "{size}");
    }
    // Errors are found at the same line either way.
    let bad = text.replacen("c note", "x note", 1);
    let expected = "t.cnf:5: expected a literal, found 'x' (`x`)";
    assert_eq!(err(&bad), expected);
    let dribbled = parse(Dribble(bad.as_bytes(), 3), "t.cnf", ParseOptions::default());
    assert_eq!(dribbled.unwrap_err().to_string(), expected);
}

#[test]
fn reads_in_progress_share_one_account() {
    use crate::budget::{Account, Held};
    let text = "p cnf 3 100000\n".to_string() + &"1 -2 3 0\n".repeat(100_000);
    let account = Account::new(4 << 20);
    let limits = ReadLimits {
        budget: Some(account.limit()),
        account: Some(&account),
        interrupt: None,
        deadline: None,
    };
    // Alone, the read fits the account, and gives back all it held.
    let d = parse_within(text.as_bytes(), "b.cnf", ParseOptions::default(), &limits).unwrap();
    assert_eq!(d.cnf.num_clauses(), 100_000);
    assert_eq!(account.reserved(), 0);
    // Beside another read holding 3 MiB of it, the same formula does not.
    let mut other = Held::new(Some(&account));
    assert_eq!(other.reserve(0, 3 << 20), 3 << 20);
    other.grown(0, 3 << 20, 3 << 20);
    let e = parse_within(text.as_bytes(), "b.cnf", ParseOptions::default(), &limits).unwrap_err();
    assert!(matches!(e, DimacsError::TooBig { .. }), "{e}");
    assert!(
        e.to_string().contains("3 MiB of it held by the others"),
        "{e}"
    );
    assert_eq!(account.reserved(), 3 << 20);
    drop(other);
    assert_eq!(account.reserved(), 0);
}

#[test]
fn an_interrupt_or_a_deadline_stops_the_read() {
    let text = "p cnf 1 1\n1 0\n";
    let stop = std::sync::atomic::AtomicBool::new(true);
    let limits = ReadLimits {
        budget: None,
        account: None,
        interrupt: Some(&stop),
        deadline: None,
    };
    let e = parse_within(text.as_bytes(), "i.cnf", ParseOptions::default(), &limits).unwrap_err();
    assert_eq!(e.to_string(), "i.cnf:1: reading stopped: interrupted");
    let limits = ReadLimits {
        interrupt: None,
        deadline: Some(std::time::Instant::now()),
        ..limits
    };
    let e = parse_within(text.as_bytes(), "d.cnf", ParseOptions::default(), &limits).unwrap_err();
    assert!(matches!(e, DimacsError::Stopped { .. }), "{e}");
}

#[test]
fn comments_and_headers_are_not_held() {
    let mut text = b"c ".to_vec();
    text.extend(std::iter::repeat_n(b'x', 3 << 20));
    text.extend_from_slice(b"\nc bench kind=x\np cnf 1 1\n1 0\n");
    let d = parse(&text[..], "c.cnf", ParseOptions::default()).unwrap();
    assert_eq!(d.bench_header.as_deref(), Some("bench kind=x"));
    let mut text = b"p cnf 1 1".to_vec();
    text.extend(std::iter::repeat_n(b' ', 2000));
    text.extend_from_slice(b"\n1 0\n");
    assert_eq!(
        parse(&text[..], "h.cnf", ParseOptions::default())
            .unwrap_err()
            .to_string(),
        "h.cnf:1: the header line is longer than 1024 bytes"
    );
}

/// Gives `text` in one read, then stops the read (the flag) or fails it (an I/O error).
struct CutAfter<'a> {
    text: Option<&'a [u8]>,
    stop: Option<&'a std::sync::atomic::AtomicBool>,
}

impl std::io::Read for CutAfter<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self.text.take() {
            Some(t) => {
                buf[..t.len()].copy_from_slice(t);
                if let Some(stop) = self.stop {
                    stop.store(true, std::sync::atomic::Ordering::Relaxed);
                }
                Ok(t.len())
            }
            None => Err(std::io::Error::other("the disk went away")),
        }
    }
}

#[test]
fn a_read_cut_inside_a_token_is_the_cut_not_a_format_error() {
    // Cut after `-` (nothing of the literal left), inside `12` (a shorter literal that
    // parses) and inside the header.
    for text in ["p cnf 12 2\n1 -", "p cnf 12 2\n1 -12 0\n1", "p cnf 1"] {
        let stop = std::sync::atomic::AtomicBool::new(false);
        let limits = ReadLimits {
            budget: None,
            account: None,
            interrupt: Some(&stop),
            deadline: None,
        };
        let input = CutAfter {
            text: Some(text.as_bytes()),
            stop: Some(&stop),
        };
        let e = parse_within(input, "s.cnf", ParseOptions::default(), &limits).unwrap_err();
        assert!(matches!(e, DimacsError::Stopped { .. }), "{text:?}: {e}");
        let input = CutAfter {
            text: Some(text.as_bytes()),
            stop: None,
        };
        let limits = ReadLimits {
            interrupt: None,
            ..limits
        };
        let e = parse_within(input, "e.cnf", ParseOptions::default(), &limits).unwrap_err();
        assert!(matches!(e, DimacsError::Io { .. }), "{text:?}: {e}");
    }
}
