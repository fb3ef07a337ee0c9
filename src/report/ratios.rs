//! Paired time ratios: over the instances two configurations (or two runs) both solved,
//! one's time divided by the other's, summed up once for every table that shows them: how
//! many, how many above and below 1, the median with its exact bootstrap interval
//! (`report::bootstrap`), and the geometric mean. The speedups against a baseline and the
//! comparison of two runs are both this.

use serde::Serialize;
use serde::ser::SerializeStruct;

use crate::report::bootstrap::{Interval, median_interval};

/// Times below this are taken as this, seconds: a clock reading of 0 must not make an
/// infinite ratio.
pub const SHORTEST_TIME: f64 = 1e-6;

/// The confidence of the median's interval.
pub const CONFIDENCE: f64 = 0.95;

/// The ratios of paired times, summed up.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PairedRatios {
    /// Instances both solved (the number of ratios).
    pub both_solved: usize,
    /// Ratios above 1 (the second faster).
    pub faster: usize,
    /// Ratios below 1 (the second slower).
    pub slower: usize,
    /// The median ratio and its [`CONFIDENCE`] bootstrap interval (None: no ratio).
    pub median: Option<Interval>,
    /// The geometric mean ratio (None: no ratio).
    pub geometric_mean: Option<f64>,
}

impl PairedRatios {
    /// `first / second`, each time at least [`SHORTEST_TIME`]: above 1, the second is
    /// faster.
    pub fn ratio(first: f64, second: f64) -> f64 {
        first.max(SHORTEST_TIME) / second.max(SHORTEST_TIME)
    }

    /// The summary of `ratios`.
    pub fn of(ratios: &[f64]) -> PairedRatios {
        PairedRatios {
            both_solved: ratios.len(),
            faster: ratios.iter().filter(|&&r| r > 1.0).count(),
            slower: ratios.iter().filter(|&&r| r < 1.0).count(),
            median: median_interval(ratios, CONFIDENCE),
            geometric_mean: (!ratios.is_empty())
                .then(|| (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp()),
        }
    }

    /// The median ratio.
    pub fn estimate(&self) -> Option<f64> {
        self.median.map(|i| i.estimate)
    }

    /// The interval's (low, high) ends.
    pub fn interval(&self) -> Option<(f64, f64)> {
        self.median.map(|i| (i.low, i.high))
    }

    /// The count and the median with its interval alone, as the speedup table of
    /// `summary.json` has them: `both_solved`, `median`, `ci_low`, `ci_high`.
    pub fn serialize_median<S: serde::Serializer>(
        ratios: &PairedRatios,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let mut out = s.serialize_struct("PairedRatios", 4)?;
        out.serialize_field("both_solved", &ratios.both_solved)?;
        ratios.median_fields(&mut out)?;
        out.end()
    }

    fn median_fields<S: SerializeStruct>(&self, out: &mut S) -> Result<(), S::Error> {
        out.serialize_field("median", &self.estimate())?;
        out.serialize_field("ci_low", &self.median.map(|i| i.low))?;
        out.serialize_field("ci_high", &self.median.map(|i| i.high))
    }
}

/// Every figure: `both_solved`, `faster`, `slower`, `median`, `ci_low`, `ci_high`,
/// `geometric_mean`.
impl Serialize for PairedRatios {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut out = s.serialize_struct("PairedRatios", 7)?;
        out.serialize_field("both_solved", &self.both_solved)?;
        out.serialize_field("faster", &self.faster)?;
        out.serialize_field("slower", &self.slower)?;
        self.median_fields(&mut out)?;
        out.serialize_field("geometric_mean", &self.geometric_mean)?;
        out.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_by_hand() {
        let r = PairedRatios::of(&[2.0, 1.0 / 3.0, 0.25]);
        assert_eq!((r.both_solved, r.faster, r.slower), (3, 1, 2));
        assert_eq!(r.estimate(), Some(1.0 / 3.0));
        let g = r.geometric_mean.unwrap();
        assert!((g - (2.0f64 / 3.0 * 0.25).cbrt()).abs() < 1e-12);
        assert_eq!(PairedRatios::of(&[]), PairedRatios::default());
        assert_eq!(PairedRatios::ratio(0.0, 2e-6), 0.5);
        let json = serde_json::to_value(&r).unwrap();
        let keys: Vec<&String> = json.as_object().unwrap().keys().collect();
        assert_eq!(keys.len(), 7);
    }
}
