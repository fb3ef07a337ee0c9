//! Speedups against a baseline solver: for each other solver × encoding, the median over
//! instances of (baseline time / solver time) on the instances both solved under that
//! encoding, with a 95 % bootstrap confidence interval. Above 1: faster than the baseline.
//!
//! Only instances solved by both count: a ratio against a timeout would measure the
//! timeout, not the solver. The number of such instances is reported beside the ratio so
//! that a speedup over three instances is not mistaken for one over three thousand.

use crate::report::rows::{Name, NameMap};

use crate::report::config::{Config, ModeLabel};
use crate::report::mode::Modes;
use crate::report::outcome::Outcome;
pub use crate::report::ratios::CONFIDENCE;
use crate::report::ratios::PairedRatios;

/// One solver × encoding against the baseline.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Speedup {
    /// The configuration compared.
    #[serde(flatten)]
    pub config: Config,
    /// The baseline solver.
    pub baseline: String,
    /// How the baseline ran under this encoding: a ratio across two modes measures the
    /// modes too.
    pub baseline_mode: ModeLabel,
    /// Baseline time / solver time over the instances both solved under this encoding.
    #[serde(flatten, serialize_with = "PairedRatios::serialize_median")]
    pub ratios: PairedRatios,
}

/// Speedups of every solver × encoding that ran, solvers in `solvers` order (the baseline
/// left out), then encodings in `encodings` order.
pub fn speedups(
    outcomes: &[Outcome],
    baseline: &str,
    (solvers, encodings): (&[String], &[String]),
    modes: &Modes,
) -> Vec<Speedup> {
    // The outcomes' names are interned (equal texts are one name): maps keyed by names
    // hash and compare numbers.
    let base_name = Name::new(baseline);
    // The baseline's runs by instance and encoding: its time when solved.
    let mut baseline_runs: NameMap<(Name, Name), Option<f64>> = NameMap::default();
    for o in outcomes.iter().filter(|o| o.solver() == base_name) {
        baseline_runs.insert(
            (o.key(), o.encoding()),
            o.answer().solved().then_some(o.time),
        );
    }
    // Per solver × encoding with an instance in common with the baseline, its ratios in
    // the outcomes' order (a pair that shares no instance gets no row).
    let mut ratios: NameMap<(Name, Name), Vec<f64>> = NameMap::default();
    for o in outcomes.iter().filter(|o| o.solver() != base_name) {
        let Some(base) = baseline_runs.get(&(o.key(), o.encoding())) else {
            continue;
        };
        let mine = ratios.entry((o.solver(), o.encoding())).or_default();
        if o.answer().solved()
            && let Some(base) = base
        {
            mine.push(PairedRatios::ratio(*base, o.time));
        }
    }
    let mut result = Vec::new();
    for solver in solvers.iter().filter(|s| *s != baseline) {
        for encoding in encodings {
            let Some(mine) = ratios.get(&(Name::new(solver), Name::new(encoding))) else {
                continue;
            };
            result.push(Speedup {
                config: modes.config(solver, encoding),
                baseline: baseline.to_string(),
                baseline_mode: modes.label(baseline, encoding),
                ratios: PairedRatios::of(mine),
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
        .filter(|s| s.config.mode != s.baseline_mode)
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
        first.config.solver,
        first.config.mode,
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
        assert_eq!(s[0].ratios.both_solved, 2);
        assert_eq!(
            (
                s[0].config.mode.to_string().as_str(),
                s[0].baseline_mode.to_string().as_str()
            ),
            ("in-process", "in-process")
        );
        // median of 2 and 4
        assert_eq!(s[0].ratios.estimate(), Some(3.0));
        let (low, high) = s[0].ratios.interval().unwrap();
        assert!(low >= 2.0 && high <= 4.0);
    }

    #[test]
    fn a_pair_without_an_instance_in_common_gets_no_row() {
        let rows = vec![
            row("i1", "e", "base", "SAT", 2.0),
            row("i2", "e", "other", "SAT", 1.0),
            row("i1", "e", "timed-out", "TIMEOUT", 10.0),
        ];
        let s = speedups(
            &outcomes(&rows, crate::report::score::Scoring::default()),
            "base",
            (
                &["base".into(), "other".into(), "timed-out".into()],
                &["e".into()],
            ),
            &crate::report::mode::Modes::of(&rows),
        );
        let names: Vec<&str> = s.iter().map(|x| x.config.solver.as_str()).collect();
        assert_eq!(names, ["timed-out"]);
        assert_eq!(s[0].ratios.both_solved, 0);
    }
}
