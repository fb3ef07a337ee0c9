//! Tokens of the clause body: integers (a fast path within the buffer, a careful one across
//! refills with the error messages), a token for a message, a byte shown in one.

use std::io::Read;

use super::DimacsError;
use super::parse::Parser;
use crate::MAX_VARS;

/// Printable form of a byte for messages.
pub(super) fn show(b: u8) -> String {
    if b.is_ascii_graphic() {
        format!("'{}'", b as char)
    } else {
        format!("byte 0x{b:02x}")
    }
}

impl<R: Read> Parser<'_, '_, R> {
    /// The next whitespace-delimited token, for messages.
    pub(super) fn token(&mut self) -> String {
        let mut out = Vec::new();
        while let Some(b) = self.bytes.peek() {
            if b.is_ascii_whitespace() || out.len() > 40 {
                break;
            }
            out.push(b);
            self.bytes.bump();
        }
        String::from_utf8_lossy(&out).into_owned()
    }

    /// Parses an integer token (the next byte is `-` or a digit); it must end at
    /// whitespace or the end of input, and lie within ±[`MAX_VARS`].
    #[inline]
    pub(super) fn integer(&mut self) -> Result<i64, DimacsError> {
        // Fast path: the whole token and the byte after it are in the buffer.
        {
            let bytes = &mut self.bytes;
            let buf = &bytes.buf[..bytes.len];
            let mut p = bytes.pos;
            let negative = buf[p] == b'-';
            p += usize::from(negative);
            let start = p;
            let mut value: u64 = 0;
            while p < buf.len() && p - start < 11 {
                let d = buf[p].wrapping_sub(b'0');
                if d > 9 {
                    break;
                }
                value = value * 10 + u64::from(d);
                p += 1;
            }
            if p > start
                && p < buf.len()
                && matches!(buf[p], b' ' | b'\t' | b'\r' | b'\n')
                && value <= u64::from(MAX_VARS)
            {
                bytes.pos = p;
                return Ok(if negative {
                    -(value as i64)
                } else {
                    value as i64
                });
            }
        }
        self.integer_slow()
    }

    /// [`Parser::integer`] byte by byte, across refills, with the error messages.
    #[cold]
    fn integer_slow(&mut self) -> Result<i64, DimacsError> {
        let line = self.bytes.line;
        let negative = self.bytes.peek() == Some(b'-');
        if negative {
            self.bytes.bump();
        }
        let mut value: u64 = 0;
        let mut digits = 0;
        while let Some(b) = self.bytes.peek() {
            match b {
                b'0'..=b'9' => {
                    value = value.saturating_mul(10).saturating_add((b - b'0') as u64);
                    digits += 1;
                    self.bytes.bump();
                }
                b' ' | b'\t' | b'\r' | b'\n' => break,
                _ => {
                    let rest = self.token();
                    return Err(self.error(
                        line,
                        format!(
                            "`{}{}{rest}` is not an integer",
                            if negative { "-" } else { "" },
                            value_prefix(digits, value)
                        ),
                    ));
                }
            }
        }
        if digits == 0 {
            return Err(self.error(line, "`-` is not an integer"));
        }
        if value > MAX_VARS as u64 {
            return Err(self.error(
                line,
                format!(
                    "literal {}{value} is too large",
                    if negative { "-" } else { "" }
                ),
            ));
        }
        Ok(if negative {
            -(value as i64)
        } else {
            value as i64
        })
    }
}

fn value_prefix(digits: usize, value: u64) -> String {
    if digits == 0 {
        String::new()
    } else {
        value.to_string()
    }
}
