//! The percentile bootstrap interval of a mean, by resampling with a fixed seed: the
//! interval of a PAR-2 difference over paired instances (the mean of the per-instance
//! differences). Instances are drawn with replacement [`RESAMPLES`] times from the project's
//! own generator ([`crate::rng::SplitMix64`]), so a report gives the same interval on every
//! machine; the percentiles are read off the sorted resampled means with linear
//! interpolation (numpy's default, which `scipy.stats.bootstrap(method="percentile")`
//! uses).
//!
//! Unlike the median (see `report::bootstrap`), the mean has no closed form for its
//! bootstrap percentiles, hence the resampling; its cost is RESAMPLES × n additions per
//! pair of configurations. Beyond [`RESAMPLED_UP_TO`] values (a study of many thousand
//! instances, where resampling every pair would take minutes) the percentiles are those of
//! the bootstrap distribution itself, read off its first four moments, which follow from
//! the values exactly (mean x̄, variance σ²/n, skewness γ/√n, excess kurtosis κ/n, with σ,
//! γ and κ the values' own), by the Cornish–Fisher expansion: at such sizes its error is
//! far below the resampling noise of 9999 draws.

use crate::report::score::quantile;
use crate::rng::SplitMix64;

/// Resamples per interval (scipy's default `n_resamples`).
pub const RESAMPLES: usize = 9_999;

/// The seed of the first pair's resampling; pair i uses `SEED + i`.
pub const SEED: u64 = 0x5eed_0030;

/// How the intervals are computed, for `summary.json`.
pub const METHOD: &str = "percentile bootstrap of the mean paired difference, 9999 resamples \
                          of the instances, SplitMix64 seeded per pair; beyond 2000 \
                          instances, the bootstrap distribution's percentiles by the \
                          Cornish-Fisher expansion of its moments";

/// The most values whose interval is resampled; beyond, the Cornish–Fisher expansion of
/// the bootstrap distribution (see the module's note).
pub const RESAMPLED_UP_TO: usize = 2_000;

/// The `confidence` percentile-bootstrap interval of the mean of `values`, drawing from a
/// generator seeded with `seed` (up to [`RESAMPLED_UP_TO`] values, else by
/// [`expanded_interval`]). None for no values.
pub fn mean_interval(values: &[f64], confidence: f64, seed: u64) -> Option<(f64, f64)> {
    if values.is_empty() {
        return None;
    }
    let first = values[0];
    if values.iter().all(|&v| v == first) {
        return Some((first, first));
    }
    if values.len() > RESAMPLED_UP_TO {
        return Some(expanded_interval(values, confidence));
    }
    resampled_interval(values, confidence, seed)
}

/// The interval by resampling, whatever the number of values (at least one).
fn resampled_interval(values: &[f64], confidence: f64, seed: u64) -> Option<(f64, f64)> {
    let n = values.len();
    let mut rng = SplitMix64::new(seed);
    let mut means: Vec<f64> = (0..RESAMPLES)
        .map(|_| {
            let mut sum = 0.0;
            for _ in 0..n {
                sum += values[rng.below(n as u64) as usize];
            }
            sum / n as f64
        })
        .collect();
    means.sort_unstable_by(f64::total_cmp);
    let tail = (1.0 - confidence) / 2.0;
    Some((quantile(&means, tail), quantile(&means, 1.0 - tail)))
}

/// The percentiles of the bootstrap distribution of the mean of `values` (not all equal)
/// by the Cornish–Fisher expansion of its moments: mean x̄, standard deviation σ/√n,
/// skewness γ/√n, excess kurtosis κ/n, where σ² = Σ(x − x̄)²/n, γ = Σ(x − x̄)³/(nσ³) and
/// κ = Σ(x − x̄)⁴/(nσ⁴) − 3 are the values' own. Time linear in the values.
pub fn expanded_interval(values: &[f64], confidence: f64) -> (f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let (mut m2, mut m3, mut m4) = (0.0, 0.0, 0.0);
    for &x in values {
        let d = x - mean;
        let d2 = d * d;
        m2 += d2;
        m3 += d2 * d;
        m4 += d2 * d2;
    }
    let (m2, m3, m4) = (m2 / n, m3 / n, m4 / n);
    if m2 <= 0.0 {
        return (mean, mean);
    }
    let sd = (m2 / n).sqrt();
    let skew = m3 / m2.powf(1.5) / n.sqrt();
    let kurt = (m4 / (m2 * m2) - 3.0) / n;
    let at = |z: f64| {
        let w = z + (z * z - 1.0) * skew / 6.0 + (z.powi(3) - 3.0 * z) * kurt / 24.0
            - (2.0 * z.powi(3) - 5.0 * z) * skew * skew / 36.0;
        mean + sd * w
    };
    let z = normal_quantile(1.0 - (1.0 - confidence) / 2.0);
    (at(-z), at(z))
}

/// The standard normal quantile at `p` in (0, 1) (Acklam's rational approximation: relative
/// error below 1.2e-9).
fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969683028665376e1,
        2.209460984245205e2,
        -2.759285104469687e2,
        1.38357751867269e2,
        -3.066479806614716e1,
        2.506628277459239,
    ];
    const B: [f64; 5] = [
        -5.447609879822406e1,
        1.615858368580409e2,
        -1.556989798598866e2,
        6.680131188771972e1,
        -1.328068155288572e1,
    ];
    const C: [f64; 6] = [
        -7.784894002430293e-3,
        -3.223964580411365e-1,
        -2.400758277161838,
        -2.549732539343734,
        4.374664141464968,
        2.938163982698783,
    ];
    const D: [f64; 4] = [
        7.784695709041462e-3,
        3.224671290700398e-1,
        2.445134137142996,
        3.754408661907416,
    ];
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    if p < 0.02425 {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - 0.02425 {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interval_is_reproducible_and_holds_the_mean() {
        let values: Vec<f64> = (0..40).map(|i| f64::from(i % 7) - 2.0).collect();
        let mean = values.iter().sum::<f64>() / 40.0;
        let a = mean_interval(&values, 0.95, 1).unwrap();
        assert_eq!(a, mean_interval(&values, 0.95, 1).unwrap());
        assert!(a.0 < mean && mean < a.1, "{a:?} {mean}");
        // The standard error is about 2/√40 ≈ 0.32: the interval spans about ±0.62.
        assert!(a.1 - a.0 > 0.9 && a.1 - a.0 < 1.6, "{a:?}");
        assert_eq!(mean_interval(&[3.0; 4], 0.95, 1), Some((3.0, 3.0)));
        assert_eq!(mean_interval(&[], 0.95, 1), None);
    }

    #[test]
    fn the_normal_quantile_is_right() {
        assert!((normal_quantile(0.975) - 1.959963984540054).abs() < 1e-8);
        assert!((normal_quantile(0.5)).abs() < 1e-12);
        assert!((normal_quantile(0.005) + 2.5758293035489).abs() < 1e-8);
    }

    /// Beyond the resampled sizes the expansion gives the resampled interval: on skewed
    /// values like PAR-2 differences (most small, a few at ± twice a timeout), both ends
    /// agree within a tenth of the width (the resampling's own noise is about that).
    #[test]
    fn the_expansion_matches_resampling() {
        let mut rng = SplitMix64::new(7);
        let values: Vec<f64> = (0..RESAMPLED_UP_TO + 1000)
            .map(|_| match rng.below(50) {
                0 => 200.0,
                1 => -200.0,
                2..=4 => 150.0,
                k => k as f64 / 10.0 - 2.0,
            })
            .collect();
        let (lo, hi) = resampled_interval(&values, 0.95, 3).unwrap();
        let (elo, ehi) = mean_interval(&values, 0.95, 3).unwrap();
        let width = hi - lo;
        assert!((lo - elo).abs() < width / 10.0, "{lo} {hi} / {elo} {ehi}");
        assert!((hi - ehi).abs() < width / 10.0, "{lo} {hi} / {elo} {ehi}");
        assert_eq!(
            mean_interval(&vec![3.0; RESAMPLED_UP_TO + 1], 0.95, 1),
            Some((3.0, 3.0))
        );
    }
}
