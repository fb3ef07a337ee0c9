//! Miters of arithmetic circuits: two circuits that compute the same function, fed the
//! same inputs, and a clause asking for an output bit where they differ. Each formula is
//! unsatisfiable exactly because the circuits are equal, which is what an equivalence
//! checker proves in hardware verification; multipliers are the classic hard case for
//! CDCL (the SAT competitions' `mult`/`assoc_mult` and `eq.atree.braun` instances).
//!
//! - [`mul_commutativity`]: `a·b = b·a` for `bits`-bit `a`, `b`, both array multipliers
//!   with the factors swapped, the whole `2·bits`-bit product compared.
//! - [`mul_associativity`]: `(a·b)·c = a·(b·c)` modulo `2^bits`, four array multipliers.
//! - [`mul_architectures`]: an array multiplier and a Wallace-tree multiplier of the same
//!   `bits`-bit factors, the whole product compared (two architectures proved equal).

use super::circuit::Circuit;
use crate::cnf::Cnf;

/// `a·b ≠ b·a` over `bits`-bit factors (unsatisfiable).
pub fn mul_commutativity(bits: usize) -> Cnf {
    let mut c = Circuit::new();
    let a = c.word(bits);
    let b = c.word(bits);
    let ab = c.mul_array(&a, &b, 2 * bits);
    let ba = c.mul_array(&b, &a, 2 * bits);
    c.assert_differ(&ab, &ba);
    c.into_cnf()
}

/// `(a·b)·c ≠ a·(b·c)` modulo `2^bits` (unsatisfiable).
pub fn mul_associativity(bits: usize) -> Cnf {
    let mut c = Circuit::new();
    let a = c.word(bits);
    let b = c.word(bits);
    let d = c.word(bits);
    let ab = c.mul_array(&a, &b, bits);
    let ab_d = c.mul_array(&ab, &d, bits);
    let bd = c.mul_array(&b, &d, bits);
    let a_bd = c.mul_array(&a, &bd, bits);
    c.assert_differ(&ab_d, &a_bd);
    c.into_cnf()
}

/// An array multiplier and a Wallace-tree multiplier of the same `bits`-bit factors
/// differ somewhere in the `2·bits`-bit product (unsatisfiable).
pub fn mul_architectures(bits: usize) -> Cnf {
    let mut c = Circuit::new();
    let a = c.word(bits);
    let b = c.word(bits);
    let array = c.mul_array(&a, &b, 2 * bits);
    let wallace = c.mul_wallace(&a, &b, 2 * bits);
    c.assert_differ(&array, &wallace);
    c.into_cnf()
}
