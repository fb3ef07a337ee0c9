//! DIMACS written: [`DimacsWriter`] streams clauses to text as a [`ClauseSink`], so an
//! encoder writes a formula of any size without holding it; [`write_cnf`] writes a whole
//! in-memory formula.

use std::io::{self, Write};

use crate::{ClauseSink, Cnf, Lit};

/// Streams clauses to DIMACS text. Write the header first ([`DimacsWriter::new`]), then
/// every clause through [`ClauseSink::add_clause`], then call [`DimacsWriter::finish`],
/// which reports the first I/O error (a full disk) and a clause count that disagrees with
/// the header.
pub struct DimacsWriter<W: Write> {
    out: io::BufWriter<W>,
    expected: u64,
    written: u64,
    error: Option<io::Error>,
    line: Vec<u8>,
}

impl<W: Write> DimacsWriter<W> {
    /// Writes the comment lines (each without its `c `) and the header.
    pub fn new(out: W, comments: &[String], num_vars: u32, num_clauses: u64) -> io::Result<Self> {
        let mut out = io::BufWriter::with_capacity(1 << 16, out);
        for c in comments {
            for line in c.lines() {
                writeln!(out, "c {line}")?;
            }
        }
        writeln!(out, "p cnf {num_vars} {num_clauses}")?;
        Ok(DimacsWriter {
            out,
            expected: num_clauses,
            written: 0,
            error: None,
            line: Vec::with_capacity(256),
        })
    }

    /// Flushes, and reports the first error met while writing.
    pub fn finish(mut self) -> io::Result<W> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        if self.written != self.expected {
            return Err(io::Error::other(format!(
                "wrote {} clauses but the header says {}",
                self.written, self.expected
            )));
        }
        self.out.into_inner().map_err(|e| e.into_error())
    }
}

impl<W: Write> ClauseSink for DimacsWriter<W> {
    fn add_clause(&mut self, lits: &[Lit]) {
        if self.error.is_some() {
            return;
        }
        self.written += 1;
        let mut buf = itoa::Buffer::new();
        self.line.clear();
        for l in lits {
            self.line
                .extend_from_slice(buf.format(l.dimacs()).as_bytes());
            self.line.push(b' ');
        }
        self.line.extend_from_slice(b"0\n");
        if let Err(e) = self.out.write_all(&self.line) {
            self.error = Some(e);
        }
    }
}

/// Writes a whole in-memory formula.
pub fn write_cnf<W: Write>(out: W, cnf: &Cnf, comments: &[String]) -> io::Result<W> {
    let mut w = DimacsWriter::new(out, comments, cnf.num_vars(), cnf.num_clauses() as u64)?;
    for c in cnf.clauses() {
        w.add_clause(c);
    }
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dimacs::{ParseOptions, parse};

    #[test]
    fn write_then_read() {
        let cnf = Cnf::from_dimacs_clauses(4, &[vec![1, -2], vec![3, 4, -1], vec![]]);
        let bytes = write_cnf(Vec::new(), &cnf, &["bench kind=x".into()]).unwrap();
        let d = parse(&bytes[..], "t.cnf", ParseOptions::default()).unwrap();
        assert_eq!(d.cnf, cnf);
        assert_eq!(d.bench_header.as_deref(), Some("bench kind=x"));
    }
}
