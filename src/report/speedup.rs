//! Speedups against a baseline solver: for each other solver × encoding, the median over
//! instances of (baseline time / solver time) on the instances both solved under that
//! encoding, with a 95 % bootstrap confidence interval. Above 1: faster than the baseline.
//!
//! Only instances solved by both count: a ratio against a timeout would measure the
//! timeout, not the solver. The number of such instances is reported beside the ratio so
//! that a speedup over three instances is not mistaken for one over three thousand.

use std::collections::HashMap;

use crate::report::bootstrap::median_interval;
use crate::report::outcome::Outcome;

/// Times below this are taken as this, seconds: a clock reading of 0 must not make an
/// infinite ratio.
const SHORTEST_TIME: f64 = 1e-6;

/// One solver × encoding against the baseline.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Speedup {
    /// Solver compared.
    pub solver: String,
    /// Encoding both ran under.
    pub encoding: String,
    /// How the solver ran under this encoding (see `report::mode`).
    pub mode: String,
    /// The baseline solver.
    pub baseline: String,
    /// How the baseline ran under this encoding: a ratio across two modes measures the
    /// modes too.
    pub baseline_mode: String,
    /// Instances both solved.
    pub both_solved: usize,
    /// Median of baseline time / solver time (None if no instance was solved by both).
    pub median: Option<f64>,
    /// Lower end of the 95 % bootstrap interval.
    pub ci_low: Option<f64>,
    /// Upper end of the 95 % bootstrap interval.
    pub ci_high: Option<f64>,
}

/// Confidence of the interval.
pub const CONFIDENCE: f64 = 0.95;

/// Speedups of every solver × encoding other than the baseline's against the baseline on
/// the same encoding, in the order of `solvers` then `encodings`.
pub fn speedups(
    outcomes: &[Outcome],
    baseline: &str,
    (solvers, encodings): (&[String], &[String]),
    modes: &crate::report::mode::Modes,
) -> Vec<Speedup> {
    let mut baseline_times: HashMap<(&str, &str), f64> = HashMap::new();
    for o in outcomes {
        if o.solver == baseline && o.answer.solved() {
            baseline_times.insert((o.key, o.encoding), o.time);
        }
    }
    let mut result = Vec::new();
    for solver in solvers.iter().filter(|s| *s != baseline) {
        for encoding in encodings {
            let ran = outcomes
                .iter()
                .any(|o| o.solver == solver && o.encoding == encoding);
            if !ran {
                continue;
            }
            let ratios: Vec<f64> = outcomes
                .iter()
                .filter(|o| o.solver == solver && o.encoding == encoding && o.answer.solved())
                .filter_map(|o| {
                    let base = baseline_times.get(&(o.key, o.encoding))?;
                    Some(base.max(SHORTEST_TIME) / o.time.max(SHORTEST_TIME))
                })
                .collect();
            let interval = median_interval(&ratios, CONFIDENCE);
            result.push(Speedup {
                solver: solver.clone(),
                encoding: encoding.clone(),
                mode: modes.label(solver, encoding).to_string(),
                baseline: baseline.to_string(),
                baseline_mode: modes.label(baseline, encoding).to_string(),
                both_solved: ratios.len(),
                median: interval.map(|i| i.estimate),
                ci_low: interval.map(|i| i.low),
                ci_high: interval.map(|i| i.high),
            });
        }
    }
    result
}

/// The note a speedup table needs when a ratio compares two modes (`None` when none
/// does): what such a ratio also measures.
pub fn across_modes(speedups: &[Speedup]) -> Option<String> {
    let crossed: Vec<&Speedup> = speedups
        .iter()
        .filter(|s| s.mode != s.baseline_mode)
        .collect();
    let first = crossed.first()?;
    Some(format!(
        "{} of {} ratios compare two modes (e.g. {} {} against {} {}): they measure the \
         modes as well as the solvers. A child process pays its start and the reading of a \
         DIMACS file on every run, an in-process solver does not, and a session keeps the \
         rules loaded and what it learnt from one puzzle to the next. To compare the \
         solvers alone, compare like with like (e.g. native-proc, native as a child \
         process, against a child-process solver).",
        crossed.len(),
        speedups.len(),
        first.solver,
        first.mode,
        first.baseline,
        first.baseline_mode
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::outcome::outcomes;
    use crate::report::test_rows::row;

    #[test]
    fn ratios_over_instances_both_solved() {
        let rows = vec![
            row("i1", "e", "base", "SAT", 2.0),
            row("i1", "e", "fast", "SAT", 1.0),
            row("i2", "e", "base", "SAT", 8.0),
            row("i2", "e", "fast", "SAT", 2.0),
            row("i3", "e", "base", "TIMEOUT", 10.0),
            row("i3", "e", "fast", "SAT", 1.0),
        ];
        let s = speedups(
            &outcomes(&rows, crate::report::score::Scoring::default()),
            "base",
            (&["base".into(), "fast".into()], &["e".into()]),
            &crate::report::mode::Modes::of(&rows),
        );
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].both_solved, 2);
        assert_eq!(
            (s[0].mode.as_str(), s[0].baseline_mode.as_str()),
            ("in-process", "in-process")
        );
        // median of 2 and 4
        assert_eq!(s[0].median, Some(3.0));
        assert!(s[0].ci_low.unwrap() >= 2.0 && s[0].ci_high.unwrap() <= 4.0);
    }
}
