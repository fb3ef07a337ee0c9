//! Bounded model checking of a safe property: a `bits`-bit binary counter and a
//! `bits`-bit Gray-code counter start at 0 and step together, both counting up when a free
//! enable input is set, for `steps` steps; the property is that the Gray counter always
//! shows the Gray code of the binary one (`g = x ⊕ (x >> 1)`), and the formula asks for a
//! step `1..=steps` where it does not. The two next-state functions are different
//! circuits (the Gray counter flips bit 0 when its parity is even, else the bit above its
//! lowest set bit, the top bit when that is the top), so the property holds only through
//! the invariant linking the two states: the formula is unsatisfiable at every bound, and
//! each bound unrolls the transition once more (BMC's growing instances).

use super::circuit::{Bit, Circuit};
use crate::cnf::Cnf;

/// The binary counter's next state: `x + en`.
fn binary_step(c: &mut Circuit, x: &[Bit], en: Bit) -> Vec<Bit> {
    let mut carry = en;
    x.iter()
        .map(|&b| {
            let s = c.xor(b, carry);
            carry = c.and(b, carry);
            s
        })
        .collect()
}

/// The Gray counter's next state: with `en`, bit 0 flips on even parity; on odd parity the
/// bit above the lowest set bit flips (the top bit when the lowest set bit is the top).
fn gray_step(c: &mut Circuit, g: &[Bit], en: Bit) -> Vec<Bit> {
    let n = g.len();
    let mut parity = Bit::Const(false);
    for &b in g {
        parity = c.xor(parity, b);
    }
    // lowest[i]: bit i is the lowest set bit.
    let mut below = Bit::Const(false);
    let mut lowest = Vec::with_capacity(n);
    for &b in g {
        lowest.push(c.and(b, !below));
        below = c.or(below, b);
    }
    let odd = c.and(en, parity);
    let even = c.and(en, !parity);
    (0..n)
        .map(|i| {
            let mut flip = if i == 0 { even } else { Bit::Const(false) };
            if i > 0 {
                let f = c.and(odd, lowest[i - 1]);
                flip = c.or(flip, f);
            }
            if i == n - 1 {
                let f = c.and(odd, lowest[n - 1]);
                flip = c.or(flip, f);
            }
            c.xor(g[i], flip)
        })
        .collect()
}

/// The counters of `bits` bits unrolled `steps` times, asking for a step where the Gray
/// counter is not the Gray code of the binary one (unsatisfiable).
pub fn gray_counter_bmc(bits: usize, steps: usize) -> Cnf {
    assert!(bits >= 2);
    let mut c = Circuit::new();
    let mut x = vec![Bit::Const(false); bits];
    let mut g = vec![Bit::Const(false); bits];
    let mut bad = Vec::new();
    for _ in 0..steps {
        let en = c.input();
        x = binary_step(&mut c, &x, en);
        g = gray_step(&mut c, &g, en);
        for i in 0..bits {
            let code = if i + 1 < bits {
                c.xor(x[i], x[i + 1])
            } else {
                x[i]
            };
            bad.push(c.xor(code, g[i]));
        }
    }
    c.clause(&bad);
    c.into_cnf()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::cdcl::{CdclSolver, SolveResult};

    /// The Gray step, evaluated by the solver on every 4-bit state, gives the next Gray
    /// code, wrapping at the end.
    #[test]
    fn gray_step_counts_in_gray_code() {
        for x in 0u32..16 {
            let mut c = Circuit::new();
            let g: Vec<Bit> = (0..4)
                .map(|i| Bit::Const((x ^ x >> 1) >> i & 1 == 1))
                .collect();
            let next = gray_step(&mut c, &g, Bit::Const(true));
            let mut s = CdclSolver::new();
            s.add_cnf(&c.into_cnf());
            assert_eq!(s.solve(), SolveResult::Sat);
            let y = (x + 1) % 16;
            for (i, b) in next.iter().enumerate() {
                let v = match *b {
                    Bit::Const(v) => v,
                    Bit::Lit(l) => s.value(l) == Some(true),
                };
                assert_eq!(v, (y ^ y >> 1) >> i & 1 == 1, "x={x} bit {i}");
            }
        }
    }
}
