//! Paired statistics between solver configurations (solver × encoding), the figures a
//! paper needs to say a difference is real: for every pair of configurations over the
//! instances both ran, wins, losses and ties on per-instance PAR-2 scores, the PAR-2
//! difference with its bootstrap interval, and the Wilcoxon signed-rank test of the
//! differences ([`wilcoxon`], as scipy computes it), its p-values Holm-corrected across all
//! pairs ([`holm`]); and per solver, its unique solves and its marginal contribution to the
//! virtual best solver ([`contribution`]).
//!
//! A configuration's per-instance PAR-2 score is its outcome's time when solved (the median
//! over repetitions) and twice the timeout otherwise (a wrong answer included), as in the
//! virtual best solver. Instances are joined on their content hash ([`crate::results::Row::instance_key`], the `key` of an outcome).

pub mod contribution;
pub mod holm;
pub mod render;
pub mod resample;
pub mod wilcoxon;

use rayon::prelude::*;
use serde::Serialize;

use crate::report::config::Config;
use crate::report::outcome::{Outcome, join_places, sorted_by_instance};
use crate::report::rows::{Name, NameMap};
use contribution::Contribution;
use wilcoxon::Wilcoxon;

/// The confidence of the PAR-2 difference intervals.
pub const CONFIDENCE: f64 = 0.95;

/// The significance level the page marks differences at (after Holm's correction).
pub const ALPHA: f64 = 0.05;

/// What the test is, for `summary.json` and the page.
pub const TEST: &str = "Wilcoxon signed-rank test on per-instance PAR-2 scores, two-sided, \
                        zero differences dropped, tied ranks averaged (scipy.stats.wilcoxon \
                        defaults): exact distribution for n ≤ 50 without ties or zeros, all \
                        sign flips enumerated for n ≤ 13 with them, else the normal \
                        approximation with the tie correction and no continuity correction; \
                        p-values Holm-corrected across all pairs";

/// Two configurations compared on the instances both ran. "a" is the first in the order of
/// [`Statistics::configurations`], differences are a − b: below zero, a is faster.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pair {
    /// The first configuration (an index into [`Statistics::configurations`]).
    pub a: usize,
    /// The second configuration.
    pub b: usize,
    /// Instances both ran.
    pub instances: usize,
    /// Instances where a scored lower (faster, or solved where b did not).
    pub a_wins: usize,
    /// Instances where b scored lower.
    pub b_wins: usize,
    /// Instances with equal scores (both unsolved, or the same time).
    pub ties: usize,
    /// a's PAR-2 over these instances, seconds.
    pub a_par2: f64,
    /// b's PAR-2 over these instances, seconds.
    pub b_par2: f64,
    /// a's PAR-2 minus b's, seconds.
    pub par2_difference: f64,
    /// The lower end of its bootstrap interval.
    pub difference_low: f64,
    /// The upper end.
    pub difference_high: f64,
    /// The Wilcoxon signed-rank test of the differences.
    pub wilcoxon: Wilcoxon,
    /// Its p-value Holm-corrected across all pairs.
    pub p_holm: Option<f64>,
}

/// The paired statistics of a report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Statistics {
    /// The test, in words.
    pub test: &'static str,
    /// The confidence of the PAR-2 difference intervals.
    pub confidence: f64,
    /// How the intervals are computed.
    pub interval_method: &'static str,
    /// Resamples per interval.
    pub resamples: usize,
    /// The seed of the first pair's resampling (pair i: seed + i).
    pub seed: u64,
    /// The configurations, solvers in order of first appearance, then encodings.
    pub configurations: Vec<Config>,
    /// Every pair of configurations that share an instance, in order (a < b).
    pub pairs: Vec<Pair>,
    /// Unique solves and VBS contributions per solver (all its encodings).
    pub by_solver: Vec<Contribution>,
    /// The same per solver × encoding (empty with a single encoding: it would repeat the
    /// above).
    pub by_configuration: Vec<Contribution>,
}

impl Statistics {
    /// A configuration's name in tables: the solver, with the encoding when there are
    /// several, and its mode.
    pub fn label(&self, index: usize) -> String {
        let several = self
            .configurations
            .iter()
            .any(|o| o.encoding != self.configurations[0].encoding);
        self.configurations[index].label(several)
    }

    /// True when pair `p` compares two modes.
    pub fn across_modes(&self, p: &Pair) -> bool {
        self.configurations[p.a].mode != self.configurations[p.b].mode
    }
}

/// An outcome's PAR-2 score: its time if solved, else twice its timeout.
fn par2_score(o: &Outcome) -> f64 {
    if o.answer().solved() {
        o.time
    } else {
        2.0 * o.timeout()
    }
}

/// The paired statistics of `outcomes`; `solvers` and `encodings` in order of first
/// appearance.
pub fn statistics(
    outcomes: &[Outcome],
    (solvers, encodings): (&[String], &[String]),
    modes: &crate::report::mode::Modes,
) -> Statistics {
    // Per configuration, its outcomes' places in instance order: a pair's common instances
    // are a merge of two lists (4 bytes an outcome), with no string compared or hashed.
    let sorted = sorted_by_instance(outcomes);
    let outcomes: &[Outcome] = &sorted;
    let mut lengths: NameMap<(Name, Name), usize> = NameMap::default();
    for o in outcomes {
        *lengths.entry((o.solver(), o.encoding())).or_default() += 1;
    }
    let mut places: NameMap<(Name, Name), Vec<u32>> = lengths
        .into_iter()
        .map(|(config, n)| (config, Vec::with_capacity(n)))
        .collect();
    for (i, o) in outcomes.iter().enumerate() {
        if let Some(list) = places.get_mut(&(o.solver(), o.encoding())) {
            list.push(i as u32);
        }
    }
    let config = |s: &str, e: &str| (Name::new(s), Name::new(e));
    let mut configurations = Vec::new();
    for s in solvers {
        for e in encodings {
            if places.contains_key(&config(s, e)) {
                configurations.push(modes.config(s, e));
            }
        }
    }
    let tables: Vec<&[u32]> = configurations
        .iter()
        .map(|c| places[&config(&c.solver, &c.encoding)].as_slice())
        .collect();
    let mut candidates = Vec::new();
    for a in 0..configurations.len() {
        for b in a + 1..configurations.len() {
            candidates.push((a, b));
        }
    }
    let mut pairs: Vec<Pair> = candidates
        .par_iter()
        .enumerate()
        .filter_map(|(index, &(a, b))| {
            let common = common(outcomes, tables[a], tables[b]);
            pair(a, b, &common, resample::SEED + index as u64)
        })
        .collect();
    let adjusted = holm::holm(&pairs.iter().map(|p| p.wilcoxon.p).collect::<Vec<_>>());
    for (p, adjusted) in pairs.iter_mut().zip(adjusted) {
        p.p_holm = adjusted;
    }
    let by_configuration = if encodings.len() > 1 {
        let names: Vec<(String, String)> = configurations
            .iter()
            .map(|c| (c.solver.clone(), c.encoding.clone()))
            .collect();
        contribution::by_configuration(outcomes, &names)
    } else {
        Vec::new()
    };
    let mut by_configuration = by_configuration;
    for c in &mut by_configuration {
        c.mode = modes
            .label(&c.solver, c.encoding.as_deref().unwrap_or(""))
            .to_string();
    }
    let mut by_solver = contribution::by_solver(outcomes, solvers);
    for c in &mut by_solver {
        c.mode = modes.of_solver(&c.solver);
    }
    Statistics {
        test: TEST,
        confidence: CONFIDENCE,
        interval_method: resample::METHOD,
        resamples: resample::RESAMPLES,
        seed: resample::SEED,
        by_solver,
        by_configuration,
        configurations,
        pairs,
    }
}

/// The instances two configurations share, as (a's score, b's score) in instance order,
/// from their outcomes' places in `outcomes` (ordered by instance).
fn common(outcomes: &[Outcome], left: &[u32], right: &[u32]) -> Vec<(f64, f64)> {
    let mut out = Vec::with_capacity(left.len().min(right.len()));
    let same_instance = |a: &Outcome, b: &Outcome| a.key() == b.key();
    join_places(outcomes, (left, right), same_instance, |a, b| {
        out.push((par2_score(a), par2_score(b)))
    });
    out
}

/// The comparison of configurations a and b over `common` (a's score, b's score), in
/// instance order; none when they share no instance.
fn pair(a: usize, b: usize, common: &[(f64, f64)], seed: u64) -> Option<Pair> {
    let differences: Vec<f64> = common.iter().map(|(x, y)| x - y).collect();
    let wilcoxon = wilcoxon::wilcoxon(&differences)?;
    let n = common.len() as f64;
    let (low, high) = resample::mean_interval(&differences, CONFIDENCE, seed)?;
    let a_par2 = common.iter().map(|c| c.0).sum::<f64>() / n;
    let b_par2 = common.iter().map(|c| c.1).sum::<f64>() / n;
    Some(Pair {
        a,
        b,
        instances: common.len(),
        a_wins: differences.iter().filter(|&&d| d < 0.0).count(),
        b_wins: differences.iter().filter(|&&d| d > 0.0).count(),
        ties: differences.iter().filter(|&&d| d == 0.0).count(),
        a_par2,
        b_par2,
        par2_difference: differences.iter().sum::<f64>() / n,
        difference_low: low,
        difference_high: high,
        wilcoxon,
        p_holm: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::outcome::outcomes;
    use crate::report::score::Scoring;
    use crate::report::test_rows::row;

    #[test]
    fn pairs_by_hand() {
        // a against b on three instances (timeout 10): 1 vs 2, TIMEOUT vs 3, 4 vs 4;
        // c ran only i1, against a: 0.5 vs 1.
        let rows = vec![
            row("i1", "e", "a", "SAT", 1.0),
            row("i2", "e", "a", "TIMEOUT", 10.0),
            row("i3", "e", "a", "SAT", 4.0),
            row("i1", "e", "b", "SAT", 2.0),
            row("i2", "e", "b", "SAT", 3.0),
            row("i3", "e", "b", "SAT", 4.0),
            row("i1", "e", "c", "SAT", 0.5),
        ];
        let outcomes = outcomes(&rows, Scoring::default());
        let s = statistics(
            &outcomes,
            (&["a".into(), "b".into(), "c".into()], &["e".into()]),
            &crate::report::mode::Modes::of(&rows),
        );
        assert_eq!(s.configurations.len(), 3);
        assert_eq!(s.pairs.len(), 3);
        let ab = &s.pairs[0];
        assert_eq!((ab.a, ab.b, ab.instances), (0, 1, 3));
        assert_eq!((ab.a_wins, ab.b_wins, ab.ties), (1, 1, 1));
        // Scores: a 1, 20, 4 (25/3); b 2, 3, 4 (3); differences −1, 17, 0.
        assert!((ab.a_par2 - 25.0 / 3.0).abs() < 1e-12);
        assert!((ab.b_par2 - 3.0).abs() < 1e-12);
        assert!((ab.par2_difference - 16.0 / 3.0).abs() < 1e-12);
        assert!(
            ab.difference_low <= ab.par2_difference && ab.par2_difference <= ab.difference_high
        );
        assert_eq!(ab.wilcoxon.method, wilcoxon::Method::Permutation);
        let ac = &s.pairs[1];
        assert_eq!((ac.instances, ac.a_wins, ac.b_wins), (1, 0, 1));
        // Holm over three p-values: each at least its own.
        for p in &s.pairs {
            assert!(p.p_holm.unwrap() >= p.wilcoxon.p.unwrap());
        }
        assert_eq!(s.label(2), "c · in-process");
        assert!(s.by_configuration.is_empty());
        assert_eq!(s.by_solver.len(), 3);
    }
}
