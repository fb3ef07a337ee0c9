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
//! pair of configurations.

use crate::report::score::quantile;
use crate::rng::SplitMix64;

/// Resamples per interval (scipy's default `n_resamples`).
pub const RESAMPLES: usize = 9_999;

/// The seed of the first pair's resampling; pair i uses `SEED + i`.
pub const SEED: u64 = 0x5eed_0030;

/// How the intervals are computed, for `summary.json`.
pub const METHOD: &str = "percentile bootstrap of the mean paired difference, 9999 resamples \
                          of the instances, SplitMix64 seeded per pair";

/// The `confidence` percentile-bootstrap interval of the mean of `values`, drawing from a
/// generator seeded with `seed`. None for no values.
pub fn mean_interval(values: &[f64], confidence: f64, seed: u64) -> Option<(f64, f64)> {
    if values.is_empty() {
        return None;
    }
    let first = values[0];
    if values.iter().all(|&v| v == first) {
        return Some((first, first));
    }
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
    means.sort_by(f64::total_cmp);
    let tail = (1.0 - confidence) / 2.0;
    Some((quantile(&means, tail), quantile(&means, 1.0 - tail)))
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
}
