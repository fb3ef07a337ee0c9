//! The byte reader under the DIMACS parser: a 64 KiB buffer, line counting, I/O errors
//! kept for the caller, and the read's interrupt and deadline looked at on every refill.

use std::io::{self, Read};

use crate::budget::ReadLimits;

/// A byte reader that counts lines, keeps I/O errors for the caller, and looks at the
/// read's interrupt and deadline at every refill.
pub(super) struct Bytes<'l, R> {
    pub(super) input: R,
    pub(super) buf: Box<[u8]>,
    pub(super) pos: usize,
    pub(super) len: usize,
    pub(super) line: usize,
    pub(super) error: Option<io::Error>,
    pub(super) limits: ReadLimits<'l>,
    pub(super) stopped: Option<&'static str>,
}

impl<'l, R: Read> Bytes<'l, R> {
    pub(super) fn new(input: R, limits: ReadLimits<'l>) -> Self {
        Bytes {
            input,
            buf: vec![0; 1 << 16].into_boxed_slice(),
            pos: 0,
            len: 0,
            line: 1,
            error: None,
            limits,
            stopped: None,
        }
    }

    #[inline]
    pub(super) fn peek(&mut self) -> Option<u8> {
        if self.pos == self.len {
            self.refill();
            if self.pos == self.len {
                return None;
            }
        }
        Some(self.buf[self.pos])
    }

    #[inline]
    pub(super) fn bump(&mut self) {
        if self.buf[self.pos] == b'\n' {
            self.line += 1;
        }
        self.pos += 1;
    }

    #[cold]
    pub(super) fn refill(&mut self) {
        self.pos = 0;
        self.len = 0;
        if self.error.is_some() || self.stopped.is_some() {
            return;
        }
        if let Some(why) = self.limits.stop() {
            self.stopped = Some(why);
            return;
        }
        loop {
            match self.input.read(&mut self.buf) {
                Ok(n) => {
                    self.len = n;
                    return;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.error = Some(e);
                    return;
                }
            }
        }
    }

    /// Passes the rest of the line (not its newline), handing each piece to `keep`.
    pub(super) fn pass_line(&mut self, mut keep: impl FnMut(&[u8])) {
        loop {
            if self.pos == self.len {
                self.refill();
                if self.len == 0 {
                    return;
                }
            }
            let chunk = &self.buf[self.pos..self.len];
            let end = chunk.iter().position(|&b| b == b'\n');
            let piece = &chunk[..end.unwrap_or(chunk.len())];
            keep(piece);
            self.pos += piece.len();
            if end.is_some() {
                return;
            }
        }
    }

    /// Skips to just past the end of the current line.
    pub(super) fn skip_line(&mut self) {
        self.pass_line(|_| {});
        if self.peek() == Some(b'\n') {
            self.bump();
        }
    }

    /// The rest of the line (without the newline) as text, if it is at most `cap` bytes;
    /// a longer line is passed without being held, and gives None.
    pub(super) fn line_within(&mut self, cap: usize) -> Option<String> {
        let mut out = Vec::new();
        let mut over = false;
        self.pass_line(|piece| {
            if !over && out.len() + piece.len() <= cap {
                out.extend_from_slice(piece);
            } else {
                over = true;
                out = Vec::new();
            }
        });
        (!over).then(|| {
            String::from_utf8_lossy(&out)
                .trim_end_matches('\r')
                .to_string()
        })
    }
}
