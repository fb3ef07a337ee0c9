//! What an instance is, whatever its file is called: a content hash. A CNF is known by
//! its GBD hash (gbd-tools' Hash-Version 3, the identifier of the Global Benchmark
//! Database: MD5 over the clauses, with comment and header lines dropped and whitespace
//! normalised to single spaces), so a formula renamed, moved, recompressed or re-commented
//! is the same instance, and bench's hashes join GBD's attribute tables. A puzzle is known
//! by the MD5 of its kind, side and givens, whatever file format it came in.
//!
//! Two files with one name are two instances, and [`distinct_ids`] gives each the
//! shortest path suffix that tells them apart; the same content under two names is one
//! instance. Resume, merge, the cross-check of answers and every table key on the hash.

use std::io::{self, BufRead};
use std::path::Path;

use md5::{Digest, Md5};

use crate::puzzle::Puzzle;

/// The GBD hash of the DIMACS text read from `input` (any size: the text is streamed).
///
/// The rule, as gbd-tools computes it (its C++ `gbdhash`): a line that starts with `c` or
/// `p` where a clause could start is skipped (comments, the header); every clause is
/// hashed as its literals, each followed by one space, then `0`, and clauses are joined
/// by one space (`1 -2 0 2 3 0`), whatever whitespace and line breaks stood between them.
/// A `+` sign is dropped, leading zeros are kept; a clause left open at the end of the
/// file is closed, and a number that the end of the file cuts off (no whitespace after
/// it) is dropped, as gbd-tools drops it. Text gbd-tools refuses (another character where
/// a literal should be) has its line skipped here: such a file fails to parse anyway.
///
/// SATLIB's end marker `%` (uf50-218 and the other SATLIB archives end with lines `%` and
/// `0`) ends the formula here as it does for bench's reader: the hash is the formula's
/// that bench solves, which is gbd-tools' hash of the file with that trailer removed
/// (gbd-tools refuses the file as it is).
pub fn gbd_hash(mut input: impl BufRead) -> io::Result<String> {
    /// C's `isspace`.
    fn space(b: u8) -> bool {
        matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
    }
    let mut md5 = Md5::new();
    let mut out: Vec<u8> = Vec::with_capacity(1 << 16);
    let mut number: Vec<u8> = Vec::with_capacity(16);
    let (mut in_number, mut skip_line, mut in_clause, mut joined) = (false, false, false, false);
    let mut ended = false;
    while !ended {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        for &b in buf {
            if skip_line {
                skip_line = b != b'\n' && b != b'\r';
                continue;
            }
            if in_number {
                if b.is_ascii_digit() {
                    number.push(b);
                    continue;
                }
                in_number = false;
                out.extend_from_slice(&number);
                if number == b"0" {
                    in_clause = false;
                    joined = true;
                } else {
                    out.push(b' ');
                }
                number.clear();
            }
            if space(b) {
                continue;
            }
            if b == b'%' {
                ended = true;
                break;
            }
            if b == b'-' || b == b'+' || b.is_ascii_digit() {
                if !in_clause {
                    if joined {
                        out.push(b' ');
                    }
                    in_clause = true;
                }
                in_number = true;
                if b != b'+' {
                    number.push(b);
                }
            } else {
                skip_line = true;
            }
        }
        let n = buf.len();
        input.consume(n);
        md5.update(&out);
        out.clear();
    }
    if in_clause {
        md5.update(b"0");
    }
    Ok(hex(&md5.finalize()))
}

/// The GBD hash of a DIMACS file (plain, gzip or xz).
pub fn gbd_hash_file(path: &Path) -> io::Result<String> {
    gbd_hash(crate::cnf::dimacs::open_maybe_compressed(path)?)
}

/// The hash of a puzzle: MD5 of `bench-puzzle KIND SIDE`, then each board's cells (0 for
/// an empty one) separated by spaces, a line a board.
pub fn puzzle_hash(puzzle: &Puzzle) -> String {
    let mut md5 = Md5::new();
    md5.update(format!("bench-puzzle {} {}\n", puzzle.kind(), puzzle.side()).as_bytes());
    for board in puzzle.boards() {
        let mut line = String::with_capacity(board.cells().len() * 3);
        for (i, v) in board.cells().iter().enumerate() {
            if i > 0 {
                line.push(' ');
            }
            line.push_str(itoa::Buffer::new().format(*v));
        }
        line.push('\n');
        md5.update(line.as_bytes());
    }
    hex(&md5.finalize())
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::with_capacity(32), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// Readable ids that tell instances apart: each instance's `base` id (a file name, a
/// path below a folder, `file:line`) stands as it is where it is unique; where several
/// share one, each gets the shortest suffix of its `path` (folders joined by `/`, then the
/// base) that no other of them has. `names[i]` is `(path components of the file's
/// folder, base id)`.
pub fn distinct_ids(names: &[(&[String], &str)]) -> Vec<String> {
    use std::collections::HashMap;
    let mut ids: Vec<String> = names.iter().map(|(_, base)| base.to_string()).collect();
    let mut depth = vec![0usize; names.len()];
    loop {
        let mut groups: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, id) in ids.iter().enumerate() {
            groups.entry(id.as_str()).or_default().push(i);
        }
        let clashes: Vec<Vec<usize>> = groups.into_values().filter(|g| g.len() > 1).collect();
        if clashes.is_empty() {
            return ids;
        }
        let mut grew = false;
        for group in clashes {
            for i in group {
                let folders = &names[i].0;
                if depth[i] < folders.len() {
                    depth[i] += 1;
                    grew = true;
                }
                let prefix = folders[folders.len() - depth[i]..].join("/");
                ids[i] = if prefix.is_empty() {
                    names[i].1.to_string()
                } else {
                    format!("{prefix}/{}", names[i].1)
                };
            }
        }
        if !grew {
            // The same path twice (the same file named twice): number the later ones.
            let mut seen: HashMap<String, usize> = HashMap::new();
            for id in &mut ids {
                let n = seen.entry(id.clone()).or_insert(0);
                *n += 1;
                if *n > 1 {
                    *id = format!("{id}#{n}");
                }
            }
            return ids;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(text: &str) -> String {
        gbd_hash(text.as_bytes()).unwrap()
    }

    #[test]
    fn satlibs_trailer_is_not_formula() {
        let clean = h("p cnf 3 2\n1 -2 0\n2 3 0\n");
        assert_eq!(h("p cnf 3 2\n1 -2 0\n2 3 0\n%\n0\n\n"), clean);
        assert_eq!(h("p cnf 3 2\n1 -2 0\n2 3 0\n%\n0\n"), clean);
        assert_ne!(h("p cnf 3 2\n1 -2 0\n2 3 0\n0\n"), clean);
    }

    #[test]
    fn whitespace_comments_and_header_do_not_count() {
        let a = h("p cnf 2 2\n1 2 0\n-1 0\n");
        assert_eq!(a, h("c a comment\np  cnf 2   2\n 1   2 0\n\n-1\t0\n"));
        assert_eq!(
            a,
            h("p cnf 2 2\r\n1 2 0\r\n-1 0"),
            "the last 0 touches the end"
        );
        assert_eq!(a, h("p cnf 2 2\n+1 2\n 0 -1 0\n"), "a clause spans lines");
        assert_ne!(a, h("p cnf 2 2\n1 2 0\n1 0\n"));
        // The hashed text is `1 2 0 -1 0`.
        let mut md5 = Md5::new();
        md5.update(b"1 2 0 -1 0");
        assert_eq!(a, hex(&md5.finalize()));
    }

    #[test]
    fn clashing_names_grow_to_distinct_paths() {
        let folders: Vec<Vec<String>> = vec![
            vec!["e1".into()],
            vec!["e2".into()],
            vec!["e2".into()],
            vec!["x".into(), "p".into()],
            vec!["y".into(), "p".into()],
        ];
        let bases = ["a.cnf", "a.cnf", "b.cnf", "hard.txt:3", "hard.txt:3"];
        let names: Vec<(&[String], &str)> = folders
            .iter()
            .zip(bases)
            .map(|(f, b)| (f.as_slice(), b))
            .collect();
        assert_eq!(
            distinct_ids(&names),
            vec![
                "e1/a.cnf",
                "e2/a.cnf",
                "b.cnf",
                "x/p/hard.txt:3",
                "y/p/hard.txt:3"
            ]
        );
        let twice: Vec<(&[String], &str)> = vec![(&[], "a.cnf"), (&[], "a.cnf")];
        assert_eq!(distinct_ids(&twice), vec!["a.cnf", "a.cnf#2"]);
    }
}
