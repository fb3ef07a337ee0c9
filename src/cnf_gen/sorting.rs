//! Sorting networks proved to sort: Batcher's odd-even merge sort on `n` words of `width`
//! bits (n a power of two), each comparator an unsigned comparison and two word
//! multiplexers (minimum up, maximum down), and a clause asking for two neighbouring
//! outputs out of order. The network sorts every input, so the formula is unsatisfiable;
//! with `width = 1` it is the 0-1 principle's check of the network, wider words add the
//! comparators' arithmetic.

use super::circuit::{Bit, Circuit};
use crate::cnf::Cnf;

/// Batcher's odd-even merge sort's comparators on `n` wires (a power of two), in order.
pub fn batcher_comparators(n: usize) -> Vec<(usize, usize)> {
    assert!(
        n.is_power_of_two(),
        "the network's size must be a power of two"
    );
    let mut out = Vec::new();
    let mut p = 1;
    while p < n {
        let mut k = p;
        while k >= 1 {
            for j in (k % p..n - k).step_by(2 * k) {
                for i in 0..k.min(n - j - k) {
                    if (i + j) / (2 * p) == (i + j + k) / (2 * p) {
                        out.push((i + j, i + j + k));
                    }
                }
            }
            k /= 2;
        }
        p *= 2;
    }
    out
}

/// Batcher's network on `n` words of `width` bits leaves two neighbours out of order
/// (unsatisfiable).
pub fn sorting_network(n: usize, width: usize) -> Cnf {
    let mut c = Circuit::new();
    let mut wires: Vec<Vec<Bit>> = (0..n).map(|_| c.word(width)).collect();
    for (i, j) in batcher_comparators(n) {
        let swap = c.less(&wires[j], &wires[i]);
        let lo = c.mux_word(swap, &wires[j], &wires[i]);
        let hi = c.mux_word(swap, &wires[i], &wires[j]);
        wires[i] = lo;
        wires[j] = hi;
    }
    let unsorted: Vec<Bit> = (0..n - 1)
        .map(|i| c.less(&wires[i + 1], &wires[i]))
        .collect();
    c.clause(&unsorted);
    c.into_cnf()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The comparators sort every 0-1 input of 8 and 16 wires (so every input).
    #[test]
    fn batchers_network_sorts() {
        for n in [2usize, 4, 8, 16] {
            let net = batcher_comparators(n);
            for x in 0u32..1 << n {
                let mut w: Vec<u32> = (0..n).map(|i| x >> i & 1).collect();
                for &(i, j) in &net {
                    if w[j] < w[i] {
                        w.swap(i, j);
                    }
                }
                assert!(w.windows(2).all(|p| p[0] <= p[1]), "n={n} x={x:b}");
            }
        }
    }
}
