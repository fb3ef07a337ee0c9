//! The clause body of a DIMACS file, read into the formula's flat arrays within the read's
//! budget: a fast lane over whole tokens in the buffer, and a careful path for everything
//! else (comments, errors, a full array, a token across a refill).

use std::io::Read;

use super::DimacsError;
use super::parse::Parser;
use super::token::show;
use crate::budget::Held;
use crate::{Cnf, Lit, MAX_VARS};

/// The clause arrays as they are read.
pub(super) struct Arrays {
    pub(super) lits: Vec<Lit>,
    pub(super) starts: Vec<usize>,
}

impl Arrays {
    /// The bytes the two arrays hold, by capacity.
    pub(super) fn bytes(&self) -> u64 {
        (self.lits.capacity() * size_of::<Lit>() + self.starts.capacity() * size_of::<usize>())
            as u64
    }
}

/// Room for one more element in the full `v` within `budget`, where `held` bytes are
/// already held by the other array, and within what `account` (shared with the other
/// reads in progress) has free: the growth doubles when it fits (the old and new arrays
/// counted together), else takes what is left. None when nothing is left or allocation
/// fails.
fn grow<T>(v: &mut Vec<T>, held: usize, budget: Option<u64>, account: &mut Held) -> Option<()> {
    let size = size_of::<T>();
    let cap = v.capacity();
    let mut extra = cap.max(4096 / size);
    if let Some(budget) = budget {
        let budget = usize::try_from(budget).unwrap_or(usize::MAX);
        let fits = budget.saturating_sub(held + cap * size) / size;
        let new_cap = (cap + extra).min(fits);
        if new_cap <= v.len() {
            return None;
        }
        extra = new_cap - cap;
    }
    let old = (cap * size) as u64;
    let granted = account.reserve(old, ((cap + extra) * size) as u64);
    let new_cap = (cap + extra).min(usize::try_from(granted).unwrap_or(usize::MAX) / size);
    if new_cap <= v.len() || v.try_reserve_exact(new_cap - v.len()).is_err() {
        account.not_grown(granted);
        return None;
    }
    account.grown(old, ((v.capacity() * size) as u64).min(granted), granted);
    Some(())
}

/// The body as read so far: the arrays, and what the messages and the end checks need.
struct Body<'l> {
    a: Arrays,
    /// Given back to the shared account when the read ends, however it ends.
    account: Held<'l>,
    /// A clause is begun and not yet ended by its 0.
    open: bool,
    /// The line the open clause began on.
    clause_line: usize,
    /// The highest variable used.
    max_used: u32,
    /// The line of the last literal or 0.
    last_line: usize,
}

/// What follows the whitespace after the fast lane.
enum Next {
    /// This byte, still in the buffer.
    Byte(u8),
    /// The buffer was refilled: the fast lane may go on.
    Refilled,
    /// The input ended.
    End,
}

impl<'l, R: Read> Parser<'_, 'l, R> {
    /// The clauses after the header.
    pub(super) fn clauses(&mut self) -> Result<Cnf, DimacsError> {
        let mut body = Body {
            a: Arrays {
                lits: Vec::new(),
                starts: Vec::new(),
            },
            account: Held::new(self.bytes.limits.account),
            open: false,
            clause_line: 0,
            max_used: 0,
            last_line: self.bytes.line.saturating_sub(1).max(1),
        };
        if grow(
            &mut body.a.starts,
            0,
            self.bytes.limits.budget,
            &mut body.account,
        )
        .is_none()
        {
            return Err(self.too_big(&body.a));
        }
        body.a.starts.push(0);
        loop {
            // The fast lane: literals and whitespace while the buffer holds a whole token
            // and its end. Anything unusual (a comment, an error, a full array, the end of
            // the buffer) goes to the careful path below, which reads it from the same place.
            self.fast_lane(&mut body);
            let b = match self.whitespace() {
                Next::Byte(b) => b,
                Next::Refilled => continue,
                Next::End => break,
            };
            match b {
                b'-' | b'0'..=b'9' => self.literal(&mut body)?,
                b'c' => self.bytes.skip_line(),
                b'%' => break, // SATLIB end marker: the rest of the file is not formula
                b'p' => return Err(self.error(self.bytes.line, "a second 'p' header")),
                other => {
                    let line = self.bytes.line;
                    let token = self.token();
                    return Err(self.error(
                        line,
                        format!("expected a literal, found {} (`{token}`)", show(other)),
                    ));
                }
            }
        }
        self.finish(body)
    }

    /// Reads literals and whitespace while the buffer holds a whole token and its end,
    /// into arrays with room; stops, without consuming it, at anything else.
    #[inline]
    fn fast_lane(&mut self, body: &mut Body<'l>) {
        let (num_vars, num_clauses) = self.declared;
        let strict = self.opts.strict;
        let a = &mut body.a;
        let (mut open, mut clause_line) = (body.open, body.clause_line);
        let (mut max_used, mut last_line) = (body.max_used, body.last_line);
        let bytes = &mut self.bytes;
        let len = bytes.len;
        let safe = len.saturating_sub(24);
        let buf = &bytes.buf[..len];
        let (mut p, mut line) = (bytes.pos, bytes.line);
        while p < safe {
            let c = buf[p];
            match c {
                b' ' | b'\t' | b'\r' => p += 1,
                b'\n' => {
                    line += 1;
                    p += 1;
                }
                b'0'..=b'9' | b'-' => {
                    let start = p + usize::from(c == b'-');
                    let mut q = start;
                    let mut v: u64 = 0;
                    while q < start + 11 {
                        let d = buf[q].wrapping_sub(b'0');
                        if d > 9 {
                            break;
                        }
                        v = v * 10 + u64::from(d);
                        q += 1;
                    }
                    if q == start
                        || !matches!(buf[q], b' ' | b'\t' | b'\r' | b'\n')
                        || v > u64::from(MAX_VARS)
                    {
                        break;
                    }
                    let var = v as u32;
                    if var == 0 {
                        if (strict && (a.starts.len() - 1) as u64 >= num_clauses)
                            || a.starts.len() == a.starts.capacity()
                        {
                            break;
                        }
                        a.starts.push(a.lits.len());
                        open = false;
                    } else {
                        if (strict && var > num_vars) || a.lits.len() == a.lits.capacity() {
                            break;
                        }
                        if !open {
                            clause_line = line;
                            open = true;
                        }
                        max_used = max_used.max(var);
                        a.lits
                            .push(Lit::from_code(((var - 1) << 1) | u32::from(c == b'-')));
                    }
                    last_line = line;
                    p = q;
                }
                _ => break,
            }
        }
        bytes.pos = p;
        bytes.line = line;
        (body.open, body.clause_line) = (open, clause_line);
        (body.max_used, body.last_line) = (max_used, last_line);
    }

    /// Passes whitespace in the buffer; at its end, refills.
    fn whitespace(&mut self) -> Next {
        let bytes = &mut self.bytes;
        let (mut p, len) = (bytes.pos, bytes.len);
        let mut newlines = 0;
        while p < len {
            match bytes.buf[p] {
                b' ' | b'\t' | b'\r' => p += 1,
                b'\n' => {
                    newlines += 1;
                    p += 1;
                }
                _ => break,
            }
        }
        bytes.pos = p;
        bytes.line += newlines;
        if p == len {
            return match bytes.peek() {
                Some(_) => Next::Refilled,
                None => Next::End,
            };
        }
        Next::Byte(bytes.buf[p])
    }

    /// The careful path for one literal or 0 (a digit or `-` is next): its errors, and
    /// the arrays grown within the budget.
    fn literal(&mut self, body: &mut Body<'l>) -> Result<(), DimacsError> {
        let (num_vars, num_clauses) = self.declared;
        let strict = self.opts.strict;
        let budget = self.bytes.limits.budget;
        let line = self.bytes.line;
        body.last_line = line;
        let n = self.integer()?;
        let a = &mut body.a;
        if n == 0 {
            if strict && (a.starts.len() - 1) as u64 >= num_clauses {
                return Err(self.error(
                    line,
                    format!("more clauses than the header's {num_clauses}"),
                ));
            }
            if a.starts.len() == a.starts.capacity() {
                let held = a.lits.capacity() * size_of::<Lit>();
                if grow(&mut a.starts, held, budget, &mut body.account).is_none() {
                    return Err(self.too_big(a));
                }
            }
            a.starts.push(a.lits.len());
            body.open = false;
            return Ok(());
        }
        let var = n.unsigned_abs() as u32;
        if var > num_vars && strict {
            return Err(self.error(
                line,
                format!("literal {n} exceeds the header's {num_vars} variables"),
            ));
        }
        body.max_used = body.max_used.max(var);
        if !body.open {
            body.clause_line = line;
            body.open = true;
        }
        if a.lits.len() == a.lits.capacity() {
            let held = a.starts.capacity() * size_of::<usize>();
            if grow(&mut a.lits, held, budget, &mut body.account).is_none() {
                return Err(self.too_big(a));
            }
        }
        a.lits
            .push(Lit::from_code(((var - 1) << 1) | u32::from(n < 0)));
        Ok(())
    }

    /// The checks at the end of the body (a clause left open, the clause count), and the
    /// formula.
    fn finish(&mut self, body: Body<'l>) -> Result<Cnf, DimacsError> {
        let (num_vars, num_clauses) = self.declared;
        self.io_check()?;
        if body.open {
            return Err(self.error(body.clause_line, "the last clause has no terminating 0"));
        }
        let found = body.a.starts.len() - 1;
        if self.opts.strict && found as u64 != num_clauses {
            return Err(self.error(
                body.last_line,
                format!("found {found} clauses, but the header says {num_clauses}"),
            ));
        }
        let Arrays {
            mut lits,
            mut starts,
        } = body.a;
        lits.shrink_to_fit();
        starts.shrink_to_fit();
        Ok(Cnf::from_parts(num_vars, lits, starts, body.max_used))
    }
}
