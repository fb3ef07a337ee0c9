//! A deterministic bootstrap confidence interval for a median.
//!
//! Resamples the values with replacement (10,000 times in the report), takes the median of
//! each resample, and reads the interval off the percentiles of those medians. The random
//! numbers come from the project's SplitMix64 with a fixed seed, so the same results
//! always give the same report, on every machine and version.

use crate::report::score::median;
use crate::rng::SplitMix64;

/// Resamples the report uses.
pub const RESAMPLES: usize = 10_000;
/// The seed the report uses.
pub const SEED: u64 = 0x5EED_BE4C_u64;

/// A point estimate and its confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Interval {
    /// The median of the values themselves.
    pub estimate: f64,
    /// Lower end of the interval.
    pub low: f64,
    /// Upper end of the interval.
    pub high: f64,
}

/// The median of `values` with a percentile-bootstrap interval at `confidence` (0.95 for
/// 95 %), from `resamples` resamples drawn with `seed`. None for no values.
pub fn median_interval(
    values: &[f64],
    confidence: f64,
    resamples: usize,
    seed: u64,
) -> Option<Interval> {
    if values.is_empty() || resamples == 0 {
        return None;
    }
    let estimate = median(&mut values.to_vec());
    let mut rng = SplitMix64::new(seed);
    let mut sample = vec![0.0; values.len()];
    let mut medians = Vec::with_capacity(resamples);
    for _ in 0..resamples {
        for slot in sample.iter_mut() {
            *slot = values[rng.below(values.len() as u64) as usize];
        }
        medians.push(fast_median(&mut sample));
    }
    medians.sort_by(f64::total_cmp);
    let tail = (1.0 - confidence) / 2.0;
    let low_index = ((tail * resamples as f64).floor() as usize).min(resamples - 1);
    let high_index = (((1.0 - tail) * resamples as f64).ceil() as usize)
        .saturating_sub(1)
        .min(resamples - 1);
    Some(Interval {
        estimate,
        low: medians[low_index],
        high: medians[high_index],
    })
}

/// The median by selection, O(n), since it runs once per resample.
fn fast_median(values: &mut [f64]) -> f64 {
    let n = values.len();
    let m = n / 2;
    let (_, upper, _) = values.select_nth_unstable_by(m, f64::total_cmp);
    let upper = *upper;
    if n % 2 == 1 {
        upper
    } else {
        let lower = values[..m]
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        (lower + upper) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interval_holds_the_median_and_is_reproducible() {
        let values: Vec<f64> = (1..=41).map(f64::from).collect();
        let a = median_interval(&values, 0.95, RESAMPLES, SEED).unwrap();
        let b = median_interval(&values, 0.95, RESAMPLES, SEED).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.estimate, 21.0);
        assert!(
            a.low < 21.0 && a.high > 21.0 && a.low >= 14.0 && a.high <= 28.0,
            "{a:?}"
        );
    }

    #[test]
    fn identical_values_give_a_point_interval() {
        let a = median_interval(&[2.0; 5], 0.95, 100, SEED).unwrap();
        assert_eq!((a.estimate, a.low, a.high), (2.0, 2.0, 2.0));
    }

    #[test]
    fn fast_median_agrees_with_sorting() {
        for n in 1..12 {
            let values: Vec<f64> = (0..n)
                .map(|i| ((i * 7) % 5) as f64 + i as f64 / 10.0)
                .collect();
            assert_eq!(
                fast_median(&mut values.clone()),
                median(&mut values.clone())
            );
        }
    }
}
