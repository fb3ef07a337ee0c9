//! The Wilcoxon signed-rank test on paired differences, two-sided, computed as
//! `scipy.stats.wilcoxon(x, y)` does with its defaults (scipy 1.13 and later:
//! `zero_method="wilcox"`, `correction=False`, `method="auto"`), so that a figure of the
//! report can be checked against scipy digit for digit.
//!
//! Zero differences are dropped (Wilcoxon's own rule); the absolute values of the rest are
//! ranked, ties getting the mean of their ranks; R⁺ is the sum of the ranks of the positive
//! differences, R⁻ of the negative ones, and the statistic is min(R⁺, R⁻). The p-value
//! comes from one of three null distributions, picked as scipy's `method="auto"` picks:
//! - **exact**: at most 50 pairs, no zero difference and no tie. The distribution of R⁺
//!   over the 2ⁿ sign assignments, counted exactly; p = 2·min(P(R⁺ ≤ r), P(R⁺ ≥ r)).
//! - **permutation**: at most 13 pairs, with zeros or ties. All 2ⁿ sign flips enumerated
//!   (scipy's `permutation_test` does so when 2ⁿ is below its 9999 resamples), the tied
//!   ranks kept; p = 2·min(P(R⁺ ≤ r), P(R⁺ ≥ r)), capped at 1.
//! - **normal**: more than 50 pairs, or 14 to 50 with zeros or ties. z = (R⁺ − n(n+1)/4)
//!   / σ, σ² = (n(n+1)(2n+1) − Σ(t³ − t)/2) / 24 over the tie groups of sizes t, n the
//!   non-zero differences; no continuity correction; p = 2·P(Z ≥ |z|). No p-value when
//!   every difference is zero (σ = 0), where scipy gives NaN.

use serde::Serialize;

/// How the p-value was computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// The exact null distribution of R⁺ (no zeros, no ties, n ≤ 50).
    Exact,
    /// Every sign flip enumerated, tied ranks kept (n ≤ 13 with zeros or ties).
    Permutation,
    /// The normal approximation with the tie correction, no continuity correction.
    Normal,
}

impl Method {
    /// The name in tables.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Exact => "exact",
            Method::Permutation => "permutation",
            Method::Normal => "normal",
        }
    }
}

/// The pairs count up to which the exact distribution is used (scipy's `method="auto"`).
pub const EXACT_UP_TO: usize = 50;
/// The pairs count up to which ties or zeros are handled by enumerating sign flips.
pub const PERMUTATION_UP_TO: usize = 13;

/// The outcome of one test.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Wilcoxon {
    /// Pairs (zero differences included).
    pub pairs: usize,
    /// Non-zero differences: the n of the test.
    pub nonzero: usize,
    /// min(R⁺, R⁻), scipy's `statistic`.
    pub statistic: f64,
    /// R⁺: the rank sum of the positive differences (first minus second).
    pub r_plus: f64,
    /// How the p-value was computed.
    pub method: Method,
    /// z = (R⁺ − n(n+1)/4) / σ, for the normal approximation.
    pub z: Option<f64>,
    /// The two-sided p-value; none when every difference is zero and scipy's answer is NaN.
    pub p: Option<f64>,
}

/// Ranks (from 1) of `values`, ties getting the mean of their ranks, and the sizes of the
/// tie groups.
fn average_ranks(values: &[f64]) -> (Vec<f64>, Vec<usize>) {
    // (value, place) sorted by value: the order within a tie does not matter, as the tie
    // shares one rank.
    let mut order: Vec<(f64, u32)> = values
        .iter()
        .enumerate()
        .map(|(i, &v)| (v, i as u32))
        .collect();
    order.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    let mut ranks = vec![0.0; values.len()];
    let mut groups = Vec::new();
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && order[end].0 == order[start].0 {
            end += 1;
        }
        // Ranks start+1 ..= end: their mean.
        let rank = (start + 1 + end) as f64 / 2.0;
        for &(_, i) in &order[start..end] {
            ranks[i as usize] = rank;
        }
        groups.push(end - start);
        start = end;
    }
    (ranks, groups)
}

/// The two-sided Wilcoxon signed-rank test of the differences `d` (first minus second).
/// None for no pairs at all. Differences must be finite.
pub fn wilcoxon(d: &[f64]) -> Option<Wilcoxon> {
    if d.is_empty() {
        return None;
    }
    let nonzero: Vec<f64> = d.iter().copied().filter(|&x| x != 0.0).collect();
    let n = nonzero.len();
    let magnitudes: Vec<f64> = nonzero.iter().map(|x| x.abs()).collect();
    let (ranks, groups) = average_ranks(&magnitudes);
    let r_plus: f64 = nonzero
        .iter()
        .zip(&ranks)
        .filter(|(x, _)| **x > 0.0)
        .map(|(_, r)| r)
        .sum::<f64>()
        + 0.0; // an empty sum is −0
    let r_minus: f64 = nonzero
        .iter()
        .zip(&ranks)
        .filter(|(x, _)| **x < 0.0)
        .map(|(_, r)| r)
        .sum::<f64>()
        + 0.0;
    let ties = groups.iter().any(|&t| t > 1);
    let zeros = n < d.len();
    let method = if d.len() > EXACT_UP_TO {
        Method::Normal
    } else if !ties && !zeros {
        Method::Exact
    } else if d.len() <= PERMUTATION_UP_TO {
        Method::Permutation
    } else {
        Method::Normal
    };
    let (z, p) = match method {
        Method::Exact | Method::Permutation => (None, Some(enumerated_p(&ranks, r_plus))),
        Method::Normal => {
            let nf = n as f64;
            let tie_correction: f64 = groups
                .iter()
                .map(|&t| {
                    let t = t as f64;
                    t * t * t - t
                })
                .sum();
            let variance = (nf * (nf + 1.0) * (2.0 * nf + 1.0) - tie_correction / 2.0) / 24.0;
            if variance > 0.0 {
                let z = (r_plus - nf * (nf + 1.0) / 4.0) / variance.sqrt();
                (Some(z), Some(two_sided_normal(z)))
            } else {
                (None, None)
            }
        }
    };
    Some(Wilcoxon {
        pairs: d.len(),
        nonzero: n,
        statistic: r_plus.min(r_minus),
        r_plus,
        method,
        z,
        p,
    })
}

/// 2·min(P(R⁺ ≤ r), P(R⁺ ≥ r)) capped at 1, R⁺ the sum of a uniformly random subset of
/// `ranks` (each sign equally likely): the subset sums counted exactly on doubled ranks,
/// which are whole numbers even when ties average them to halves.
///
/// Without ties this is the exact distribution scipy uses (whose cdf and sf at a whole
/// number agree with these counts); with them it is the enumeration scipy's permutation
/// test makes.
fn enumerated_p(ranks: &[f64], r_plus: f64) -> f64 {
    let doubled: Vec<usize> = ranks.iter().map(|r| (2.0 * r).round() as usize).collect();
    let total: usize = doubled.iter().sum();
    // ways[s]: the sign assignments whose doubled R⁺ is s. At most 2⁵⁰ of them: u64 holds
    // every count, and f64 their ratios to 2ⁿ.
    let mut ways = vec![0u64; total + 1];
    ways[0] = 1;
    let mut reach = 0;
    for &r in &doubled {
        for s in (0..=reach).rev() {
            if ways[s] > 0 {
                ways[s + r] += ways[s];
            }
        }
        reach += r;
    }
    let observed = (2.0 * r_plus).round() as usize;
    let all = 2f64.powi(ranks.len() as i32);
    let at_most: u64 = ways[..=observed.min(total)].iter().sum();
    let at_least: u64 = ways[observed.min(total + 1)..].iter().sum();
    let p = 2.0 * (at_most.min(at_least) as f64 / all);
    p.min(1.0)
}

/// 2·P(Z ≥ |z|) for a standard normal Z.
pub fn two_sided_normal(z: f64) -> f64 {
    libm::erfc(z.abs() / std::f64::consts::SQRT_2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() <= 1e-12 * b.abs().max(1e-300), "{a} != {b}");
    }

    #[test]
    fn ranks_average_ties() {
        let (r, g) = average_ranks(&[3.0, 1.0, 3.0, 2.0]);
        assert_eq!(r, [3.5, 1.0, 3.5, 2.0]);
        assert_eq!(g, [1, 1, 2]);
    }

    /// Values scipy 1.17.1 gives: `scipy.stats.wilcoxon(d)`.
    #[test]
    fn the_three_methods_as_scipy_gives_them() {
        // Exact: n = 6, no ties, R⁺ = 1+2+4+5+6 = 18, R⁻ = 3: P(R⁺ ≥ 18) = 5/64.
        let w = wilcoxon(&[1.0, 2.0, -3.0, 4.0, 5.0, 6.0]).unwrap();
        assert_eq!(
            (w.method, w.statistic, w.r_plus),
            (Method::Exact, 3.0, 18.0)
        );
        close(w.p.unwrap(), 0.15625);
        // Permutation: a zero and a tie. Non-zero |d|: 1, 2, 2, 3 → ranks 1, 2.5, 2.5, 4;
        // R⁺ = 1 + 2.5 + 4 = 7.5, of a total 10. Of the 16 subsets, 4 sum to 7.5 or more
        // ({1,2.5,4} twice, {2.5,2.5,4}, all): p = 2 · 4/16.
        let w = wilcoxon(&[1.0, 2.0, -2.0, 3.0, 0.0]).unwrap();
        assert_eq!(w.method, Method::Permutation);
        assert_eq!((w.statistic, w.r_plus, w.nonzero), (2.5, 7.5, 4));
        close(w.p.unwrap(), 0.5);
        // Every difference zero: p = 1 by enumeration, none (NaN) for the normal.
        assert_eq!(wilcoxon(&[0.0; 5]).unwrap().p, Some(1.0));
        assert_eq!(wilcoxon(&[0.0; 60]).unwrap().p, None);
        assert!(wilcoxon(&[]).is_none());
    }

    #[test]
    fn the_normal_approximation_with_the_tie_correction() {
        // 60 differences: 1..=60 with signs alternating every third, two zeros and ties.
        let mut d: Vec<f64> = (1..=60)
            .map(|i| f64::from(i / 2) * if i % 3 == 0 { -1.0 } else { 1.0 })
            .collect();
        d[10] = 0.0;
        let w = wilcoxon(&d).unwrap();
        assert_eq!(w.method, Method::Normal);
        // Recomputed from the definition.
        let nz: Vec<f64> = d.iter().copied().filter(|x| *x != 0.0).collect();
        let n = nz.len() as f64;
        let (ranks, groups) = average_ranks(&nz.iter().map(|x| x.abs()).collect::<Vec<_>>());
        let rp: f64 = nz
            .iter()
            .zip(&ranks)
            .filter(|(x, _)| **x > 0.0)
            .map(|(_, r)| r)
            .sum();
        let tc: f64 = groups.iter().map(|&t| (t * t * t - t) as f64).sum();
        let z = (rp - n * (n + 1.0) / 4.0)
            / ((n * (n + 1.0) * (2.0 * n + 1.0) - tc / 2.0) / 24.0).sqrt();
        close(w.z.unwrap(), z);
        close(w.p.unwrap(), libm::erfc(z.abs() / 2f64.sqrt()));
    }

    #[test]
    fn the_normal_tail() {
        close(two_sided_normal(1.959963984540054), 0.05);
        close(two_sided_normal(0.0), 1.0);
        assert!(two_sided_normal(30.0) > 0.0 && two_sided_normal(30.0) < 1e-190);
    }
}
