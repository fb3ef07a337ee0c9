//! Variables and literals.
//!
//! A variable is a 0-based index; its DIMACS name is index + 1. A literal packs a variable
//! and a sign as `2·var + sign` (sign 1 = negated), MiniSat's layout: a literal's negation
//! is one bit flip, and literals index arrays directly (watch lists, assignments).
//! Both print as DIMACS (`Var(0)` prints `1`, its negative literal prints `-1`).

use std::fmt;

/// The largest variable count bench accepts: literal codes must fit a `u32`.
pub const MAX_VARS: u32 = (u32::MAX >> 1) - 1;

/// A propositional variable, 0-based.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Var(u32);

impl Var {
    /// The variable with 0-based index `index`.
    #[inline]
    pub const fn new(index: u32) -> Var {
        Var(index)
    }

    /// The variable named `n` (1-based) in DIMACS.
    #[inline]
    pub const fn from_dimacs(n: u32) -> Var {
        Var(n - 1)
    }

    /// 0-based index, for indexing arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The DIMACS name (1-based).
    #[inline]
    pub const fn dimacs(self) -> u32 {
        self.0 + 1
    }

    /// The positive literal of this variable.
    #[inline]
    pub const fn pos(self) -> Lit {
        Lit(self.0 << 1)
    }

    /// The negative literal of this variable.
    #[inline]
    pub const fn neg(self) -> Lit {
        Lit((self.0 << 1) | 1)
    }

    /// The literal of this variable that is true when the variable has `value`.
    #[inline]
    pub const fn lit(self, value: bool) -> Lit {
        Lit((self.0 << 1) | (!value as u32))
    }
}

impl fmt::Display for Var {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.dimacs())
    }
}

/// A literal: a variable or its negation, coded `2·var + sign`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Lit(u32);

impl Lit {
    /// The literal with code `code` (`2·var + sign`).
    #[inline]
    pub const fn from_code(code: u32) -> Lit {
        Lit(code)
    }

    /// The literal for a non-zero DIMACS integer (`-3` is the negation of variable 3).
    #[inline]
    pub fn from_dimacs(n: i32) -> Lit {
        debug_assert!(n != 0, "0 is not a literal");
        let var = Var::from_dimacs(n.unsigned_abs());
        if n < 0 { var.neg() } else { var.pos() }
    }

    /// The code `2·var + sign`, for indexing arrays by literal.
    #[inline]
    pub const fn code(self) -> usize {
        self.0 as usize
    }

    /// The variable of this literal.
    #[inline]
    pub const fn var(self) -> Var {
        Var(self.0 >> 1)
    }

    /// True for a negated variable.
    #[inline]
    pub const fn is_negative(self) -> bool {
        self.0 & 1 == 1
    }

    /// True for a plain (positive) variable.
    #[inline]
    pub const fn is_positive(self) -> bool {
        self.0 & 1 == 0
    }

    /// The DIMACS integer of this literal.
    #[inline]
    pub const fn dimacs(self) -> i64 {
        let v = (self.0 >> 1) as i64 + 1;
        if self.is_negative() { -v } else { v }
    }
}

impl std::ops::Not for Lit {
    type Output = Lit;
    #[inline]
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.dimacs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimacs_round_trip() {
        for n in [1, -1, 2, -2, 729, -729, 1 << 30, -(1 << 30)] {
            assert_eq!(Lit::from_dimacs(n).dimacs(), n as i64);
        }
        assert_eq!(Var::new(0).to_string(), "1");
        assert_eq!(Var::new(0).neg().to_string(), "-1");
        assert_eq!(!Var::new(4).pos(), Var::new(4).neg());
        assert_eq!(Var::new(4).lit(true), Var::new(4).pos());
        assert_eq!(Var::new(4).lit(false), Var::new(4).neg());
    }
}
