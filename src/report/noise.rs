//! Noise made visible: with `--repeat N`, how much the time of one configuration on one
//! instance varies across its repetitions. Per instance solved by every repetition (at
//! least two), the spread of its times: min – max, the median absolute deviation (MAD)
//! and the coefficient of variation (CV: the sample standard deviation over the mean).
//! Per configuration: the median CV, the median relative range ((max − min) / median) and
//! relative MAD (MAD / median) over its instances, and the instance that varied most with
//! its min – max. A median CV above [`CV_WARN`] is warned about (on stderr and in the
//! summary's notes): the machine's noise is then as large as many differences the report
//! would otherwise show.

use serde::Serialize;

use crate::report::config::Config;
use crate::report::mode::Modes;
use crate::report::outcome::first_appearance;
use crate::report::rows::Row;
use crate::report::score::{Scoring, mean, median};
use crate::report::table::{Align, Cell, Table, seconds};

/// The median CV above which bench warns.
pub const CV_WARN: f64 = 0.10;

/// The spread of one instance's times across its repetitions.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InstanceSpread {
    /// The instance, as the CSV names it.
    pub instance: String,
    /// Repetitions.
    pub repetitions: usize,
    /// The shortest time, seconds.
    pub min: f64,
    /// The longest time, seconds.
    pub max: f64,
    /// The median time, seconds.
    pub median: f64,
    /// The median absolute deviation from the median, seconds.
    pub mad: f64,
    /// The coefficient of variation (sample standard deviation / mean; 0 when the mean is).
    pub cv: f64,
}

impl InstanceSpread {
    /// The spread of `times` (at least two) of `instance`.
    pub fn of(instance: &str, times: &[f64]) -> InstanceSpread {
        let mut sorted = times.to_vec();
        let med = median(&mut sorted);
        let mut deviations: Vec<f64> = times.iter().map(|t| (t - med).abs()).collect();
        let m = mean(times);
        let n = times.len() as f64;
        let sd = (times.iter().map(|t| (t - m).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
        InstanceSpread {
            instance: instance.to_string(),
            repetitions: times.len(),
            min: sorted[0],
            max: sorted[sorted.len() - 1],
            median: med,
            mad: median(&mut deviations),
            cv: if m > 0.0 { sd / m } else { 0.0 },
        }
    }
}

/// The spread of one configuration across its repetitions.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Spread {
    /// The solver, encoding and mode.
    pub config: Config,
    /// Instances solved by every repetition, at least two of them.
    pub instances: usize,
    /// The most repetitions of an instance.
    pub repetitions: usize,
    /// The median over the instances of the CV.
    pub median_cv: f64,
    /// The median over the instances of (max − min) / median.
    pub median_range: f64,
    /// The median over the instances of MAD / median.
    pub median_mad: f64,
    /// The instance with the largest CV.
    pub worst: InstanceSpread,
}

impl Spread {
    /// True when the median CV is above [`CV_WARN`].
    pub fn noisy(&self) -> bool {
        self.median_cv > CV_WARN
    }
}

/// The spread of every configuration of `rows` that repeated an instance, in the order
/// configurations first appear.
pub fn spreads(rows: &[Row], scoring: Scoring, modes: &Modes) -> Vec<Spread> {
    let configs = first_appearance(rows.iter().map(|r| r.solver().as_str()));
    let encodings = first_appearance(rows.iter().map(|r| r.encoding().as_str()));
    let cells = super::cells(rows);
    let mut out = Vec::new();
    for solver in &configs {
        for encoding in &encodings {
            let Some(instances) = cells.get(&(solver.as_str(), encoding.as_str())) else {
                continue;
            };
            let each: Vec<InstanceSpread> = instances
                .values()
                .filter(|runs| runs.len() >= 2 && runs.iter().all(|r| scoring.solved(r)))
                .map(|runs| {
                    let times: Vec<f64> = runs.iter().map(|r| scoring.time_of(r)).collect();
                    InstanceSpread::of(&runs[0].instance(), &times)
                })
                .collect();
            let Some(worst) = each.iter().max_by(|a, b| a.cv.total_cmp(&b.cv)) else {
                continue;
            };
            let relative = |f: fn(&InstanceSpread) -> f64| {
                let mut v: Vec<f64> = each
                    .iter()
                    .map(|s| if s.median > 0.0 { f(s) / s.median } else { 0.0 })
                    .collect();
                median(&mut v)
            };
            out.push(Spread {
                config: modes.config(solver, encoding),
                instances: each.len(),
                repetitions: each.iter().map(|s| s.repetitions).max().unwrap_or(0),
                median_cv: median(&mut each.iter().map(|s| s.cv).collect::<Vec<_>>()),
                median_range: relative(|s| s.max - s.min),
                median_mad: relative(|s| s.mad),
                worst: worst.clone(),
            });
        }
    }
    out
}

/// The warnings of `spreads`: one per configuration whose median CV is above [`CV_WARN`].
pub fn warnings(spreads: &[Spread], several_encodings: bool) -> Vec<String> {
    spreads
        .iter()
        .filter(|s| s.noisy())
        .map(|s| {
            format!(
                "noisy times: {} varies by a median CV of {:.1} % across its {} repetitions \
                 (over {:.0} %): differences smaller than that are the machine's, not the \
                 solver's (run on an idle machine, pin --cores, or repeat more)",
                s.config.label(several_encodings),
                s.median_cv * 100.0,
                s.repetitions,
                CV_WARN * 100.0
            )
        })
        .collect()
}

/// The spread table.
pub fn table(spreads: &[Spread], several_encodings: bool, time: &str) -> Table {
    let pct = |x: f64| Cell::Text(format!("{:.1} %", x * 100.0));
    Table {
        columns: vec![
            ("configuration", Align::Left),
            ("instances", Align::Right),
            ("repetitions", Align::Right),
            ("median CV", Align::Right),
            ("median (max − min) / median", Align::Right),
            ("median MAD / median", Align::Right),
            ("most varied instance", Align::Left),
            ("its min – max", Align::Right),
        ],
        rows: spreads
            .iter()
            .map(|s| {
                vec![
                    Cell::Text(s.config.label(several_encodings)),
                    Cell::Count(s.instances),
                    Cell::Count(s.repetitions),
                    Cell::Text(format!(
                        "{:.1} %{}",
                        s.median_cv * 100.0,
                        if s.noisy() { " (noisy)" } else { "" }
                    )),
                    pct(s.median_range),
                    pct(s.median_mad),
                    Cell::Text(s.worst.instance.clone()),
                    Cell::Text(format!(
                        "{} – {} s (CV {:.1} %)",
                        seconds(s.worst.min),
                        seconds(s.worst.max),
                        s.worst.cv * 100.0
                    )),
                ]
            })
            .collect(),
        note: Some(format!(
            "The spread of the {time} across repetitions, per instance solved by every \
             repetition: CV is the standard deviation over the mean, MAD the median absolute \
             deviation from the median. A median CV above {:.0} % is marked noisy.",
            CV_WARN * 100.0
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::TimeBasis;

    fn rows(solver: &str, instance: &str, times: &[f64]) -> Vec<Row> {
        times
            .iter()
            .enumerate()
            .map(|(i, &t)| {
                let mut row = crate::report::test_rows::row(instance, "e", solver, "SAT", t);
                row.set_run(i as u32 + 1);
                row
            })
            .collect()
    }

    #[test]
    fn spread_by_hand() {
        // 1, 2, 3: median 2, MAD 1, mean 2, sd 1, CV 0.5.
        let s = InstanceSpread::of("i", &[3.0, 1.0, 2.0]);
        assert_eq!((s.min, s.max, s.median, s.mad), (1.0, 3.0, 2.0, 1.0));
        assert!((s.cv - 0.5).abs() < 1e-12);
        assert_eq!(InstanceSpread::of("i", &[0.0, 0.0]).cv, 0.0);
    }

    #[test]
    fn a_noisy_configuration_is_warned_about_and_a_steady_one_is_not() {
        let mut all = Vec::new();
        // steady: CVs 0.01-ish; noisy: 1 vs 2 (CV 0.47) and 1 vs 1.5 (CV 0.28).
        all.extend(rows("steady", "a", &[1.0, 1.01, 0.99]));
        all.extend(rows("steady", "b", &[2.0, 2.02, 1.98]));
        all.extend(rows("noisy", "a", &[1.0, 2.0]));
        all.extend(rows("noisy", "b", &[1.0, 1.5]));
        // One unsolved repetition leaves the instance out; one run alone is no spread.
        all.extend(rows("noisy", "c", &[1.0, 9.0]));
        all.last_mut().unwrap().status = crate::solver::Status::Timeout;
        all.extend(rows("once", "a", &[1.0]));
        let scoring = Scoring {
            time: TimeBasis::Wall,
            timeout: None,
        };
        let s = spreads(&all, scoring, &Modes::of(&all));
        assert_eq!(
            s.len(),
            2,
            "a solver with one run per instance has no spread"
        );
        assert_eq!((s[0].config.solver.as_str(), s[0].instances), ("steady", 2));
        assert!(!s[0].noisy() && s[0].median_cv < 0.011);
        let noisy = &s[1];
        assert_eq!((noisy.instances, noisy.repetitions), (2, 2));
        assert!(noisy.noisy());
        assert_eq!(noisy.worst.instance, "a");
        assert_eq!((noisy.worst.min, noisy.worst.max), (1.0, 2.0));
        // (max − min) / median: 1/1.5 and 0.5/1.25, median of the two.
        assert!((noisy.median_range - (1.0 / 1.5 + 0.5 / 1.25) / 2.0).abs() < 1e-12);
        let w = warnings(&s, false);
        assert_eq!(w.len(), 1);
        assert!(w[0].starts_with("noisy times: noisy"), "{}", w[0]);
        let t = table(&s, false, "CPU time");
        assert!(t.rows[1][3].text().ends_with("(noisy)"));
    }
}
