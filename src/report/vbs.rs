//! The virtual best solver (VBS): per instance, the fastest right answer given by any
//! solver under any encoding, as if an oracle had picked the best of them beforehand.
//!
//! Its score is per instance, not per run: solved, SAT and UNSAT counts, PAR-2 (the best
//! time, or twice the timeout when nothing solved the instance), and the mean, median and
//! total of the best times of the solved instances. Which solver × encoding supplied each
//! best time is counted too: it tells which configurations the VBS actually needs.

use std::collections::BTreeMap;

use crate::report::config::{Config, ModeLabel};
use crate::report::outcome::{Answer, ByInstance, Outcome};
use crate::report::score::{mean, median};

/// The virtual best solver's scores.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct VirtualBest {
    /// Distinct instances in the results.
    pub instances: usize,
    /// Instances some solver answered right.
    pub solved: usize,
    /// Of those, satisfiable.
    pub sat: usize,
    /// Of those, unsatisfiable.
    pub unsat: usize,
    /// PAR-2 over instances, seconds.
    pub par2: f64,
    /// Mean best time of the solved instances, seconds.
    pub mean_s: f64,
    /// Median best time of the solved instances, seconds.
    pub median_s: f64,
    /// Total best time of the solved instances, seconds.
    pub total_s: f64,
    /// Which solver × encoding gave the best time, how often (most first).
    pub contributions: Vec<Contribution>,
    /// The best time of each solved instance, ascending: the VBS line of the cactus plot.
    #[serde(skip)]
    pub solved_times: Vec<f64>,
}

/// How many instances one solver × encoding was the fastest on.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Contribution {
    /// The solver and encoding, and how it ran (see `report::mode`; the mode set by the
    /// report, which knows the rows).
    #[serde(flatten)]
    pub config: Config,
    /// Instances it was the fastest on (ties go to the first in name order).
    pub instances: usize,
}

/// The virtual best solver over `outcomes`.
pub fn virtual_best<'o>(outcomes: impl IntoIterator<Item = &'o Outcome>) -> VirtualBest {
    let per_instance = ByInstance::of(outcomes);
    let mut vbs = VirtualBest {
        instances: per_instance.groups().count(),
        ..VirtualBest::default()
    };
    let mut wins: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    let mut penalised = 0.0;
    for candidates in per_instance.groups() {
        let best = candidates
            .iter()
            .filter(|o| o.answer().solved())
            .min_by(|a, b| a.time.total_cmp(&b.time));
        match best {
            Some(best) => {
                vbs.solved += 1;
                if best.answer() == Answer::Sat {
                    vbs.sat += 1;
                } else {
                    vbs.unsat += 1;
                }
                penalised += best.time;
                vbs.solved_times.push(best.time);
                *wins
                    .entry((best.solver().as_str(), best.encoding().as_str()))
                    .or_default() += 1;
            }
            None => {
                let timeout = candidates.iter().map(|o| o.timeout()).fold(0.0, f64::max);
                penalised += 2.0 * timeout;
            }
        }
    }
    if vbs.instances > 0 {
        vbs.par2 = penalised / vbs.instances as f64;
    }
    vbs.total_s = vbs.solved_times.iter().sum();
    vbs.mean_s = mean(&vbs.solved_times);
    vbs.median_s = median(&mut vbs.solved_times);
    vbs.contributions = wins
        .into_iter()
        .map(|((solver, encoding), instances)| Contribution {
            config: Config::new(solver, encoding, ModeLabel::default()),
            instances,
        })
        .collect();
    // Stable: equal counts stay in name order.
    vbs.contributions
        .sort_by_key(|c| std::cmp::Reverse(c.instances));
    vbs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::outcome::outcomes;
    use crate::report::test_rows::row;

    #[test]
    fn the_fastest_right_answer_per_instance() {
        let mut wrong = row("i2", "e", "b", "UNSAT", 0.1);
        wrong.wrong = true;
        let rows = vec![
            row("i1", "e", "a", "SAT", 2.0),
            row("i1", "e", "b", "SAT", 1.0),
            row("i1", "f", "a", "SAT", 0.5),
            wrong,
            row("i2", "e", "a", "UNSAT", 4.0),
            row("i3", "e", "a", "TIMEOUT", 10.0),
            row("i3", "e", "b", "ERROR", 0.2),
        ];
        let vbs = virtual_best(&outcomes(&rows, crate::report::score::Scoring::default()));
        assert_eq!(
            (vbs.instances, vbs.solved, vbs.sat, vbs.unsat),
            (3, 2, 1, 1)
        );
        // (0.5 + 4 + 2·10) / 3
        assert!((vbs.par2 - 24.5 / 3.0).abs() < 1e-9);
        assert_eq!(vbs.solved_times, [0.5, 4.0]);
        assert_eq!(vbs.contributions.len(), 2);
    }
}
