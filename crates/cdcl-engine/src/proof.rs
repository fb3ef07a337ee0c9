//! DRAT proofs of unsatisfiability, text or binary.
//!
//! A DRAT proof lists clause additions (each must follow from the clauses present by unit
//! propagation, RUP) and deletions (`d`), ending with the empty clause. A checker such as
//! `rate` replays it against the input formula. The solver writes every learnt clause,
//! every clause it shortens, the units it derives at level 0 before deleting the clauses
//! that implied them (so a checker never loses a unit), every deleted clause, and finally
//! the empty clause. The binary format (`a`/`d` bytes, then each literal `2·(var+1)+sign`
//! as a variable-length integer, then 0) is what kissat and cadical write; with bench's
//! literal coding `2·var+sign` that is simply `code + 2`.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use cnf_core::Lit;

/// Where a proof goes: a file, a pipe, memory; anything written to in order.
pub type ProofSink = Box<dyn Write + Send>;

/// A DRAT proof being written.
pub struct DratWriter {
    /// The proof's sink, buffered (proofs can be gigabytes of tiny writes).
    out: BufWriter<ProofSink>,
    /// Binary (true) or text (false) DRAT.
    binary: bool,
    /// The first write error; later writes are skipped and the solve reports it.
    error: Option<io::Error>,
}

impl std::fmt::Debug for DratWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DratWriter")
            .field("binary", &self.binary)
            .field("error", &self.error)
            .finish_non_exhaustive()
    }
}

impl DratWriter {
    /// Creates (truncates) the proof file at `path`.
    pub fn create(path: &Path, binary: bool) -> io::Result<DratWriter> {
        Ok(DratWriter::new(Box::new(File::create(path)?), binary))
    }

    /// A proof written to `sink`.
    pub fn new(sink: ProofSink, binary: bool) -> DratWriter {
        DratWriter {
            out: BufWriter::with_capacity(1 << 16, sink),
            binary,
            error: None,
        }
    }

    /// Records the addition of a clause given as literal codes.
    pub fn add(&mut self, codes: &[u32]) {
        self.write(b'a', codes);
    }

    /// Records the deletion of a clause given as literal codes.
    pub fn delete(&mut self, codes: &[u32]) {
        self.write(b'd', codes);
    }

    /// Records the addition of a clause given as literals.
    pub fn add_lits(&mut self, lits: &[Lit]) {
        let codes: Vec<u32> = lits.iter().map(|l| l.code() as u32).collect();
        self.add(&codes);
    }

    /// Flushes what was written so far (an error is kept for [`DratWriter::finish`]).
    pub fn flush(&mut self) {
        if self.error.is_none()
            && let Err(e) = self.out.flush()
        {
            self.error = Some(e);
        }
    }

    /// Flushes the proof to disk; returns the first error met while writing.
    pub fn finish(&mut self) -> io::Result<()> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.out.flush()
    }

    fn write(&mut self, kind: u8, codes: &[u32]) {
        if self.error.is_some() {
            return;
        }
        let result = if self.binary {
            self.write_binary(kind, codes)
        } else {
            self.write_text(kind, codes)
        };
        if let Err(e) = result {
            self.error = Some(e);
        }
    }

    fn write_binary(&mut self, kind: u8, codes: &[u32]) -> io::Result<()> {
        let mut buf = Vec::with_capacity(2 + 5 * codes.len());
        buf.push(kind);
        for &c in codes {
            let mut x = c + 2;
            while x > 0x7f {
                buf.push((x & 0x7f) as u8 | 0x80);
                x >>= 7;
            }
            buf.push(x as u8);
        }
        buf.push(0);
        self.out.write_all(&buf)
    }

    fn write_text(&mut self, kind: u8, codes: &[u32]) -> io::Result<()> {
        let mut buf = itoa::Buffer::new();
        if kind == b'd' {
            self.out.write_all(b"d ")?;
        }
        for &c in codes {
            self.out
                .write_all(buf.format(Lit::from_code(c).dimacs()).as_bytes())?;
            self.out.write_all(b" ")?;
        }
        self.out.write_all(b"0\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(d: &[i32]) -> Vec<u32> {
        d.iter()
            .map(|&x| Lit::from_dimacs(x).code() as u32)
            .collect()
    }

    #[test]
    fn text_and_binary_formats() {
        let dir = tempfile::tempdir().unwrap();
        let text = dir.path().join("p.drat");
        let mut w = DratWriter::create(&text, false).unwrap();
        w.add(&codes(&[1, -2]));
        w.delete(&codes(&[3]));
        w.add(&[]);
        w.finish().unwrap();
        assert_eq!(
            std::fs::read_to_string(&text).unwrap(),
            "1 -2 0\nd 3 0\n0\n"
        );

        let bin = dir.path().join("p.bdrat");
        let mut w = DratWriter::create(&bin, true).unwrap();
        w.add(&codes(&[1, -2]));
        w.delete(&codes(&[-64]));
        w.finish().unwrap();
        // 1 -> 2, -2 -> 5, -64 -> 2*64+1 = 129 = 0x81 0x01.
        assert_eq!(
            std::fs::read(&bin).unwrap(),
            vec![b'a', 2, 5, 0, b'd', 0x81, 0x01, 0]
        );
    }
}
