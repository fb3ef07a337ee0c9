//! Comparing two runs, as a solver author compares version N with version N−1 on the same
//! instances: per instance (and encoding) what changed between OLD and NEW, regressions
//! first, the distribution of per-instance speed-ups, and the count of regressions a CI job
//! can fail on (`bench report --compare OLD NEW --fail-on-regression [FACTOR]`).
//!
//! The two sides are two results CSVs (matched on instance, encoding and solver; or on
//! instance and encoding alone when each holds one solver, under whatever names), or two
//! solvers of one CSV (matched on instance and encoding). Each side is reduced to one
//! outcome per instance as the report does (repetitions: solved only if every one was).
//!
//! What counts as a regression of NEW:
//! - a **WRONG** answer in NEW (a WRONG in either side is listed before anything else);
//! - an **answer changed** between SAT and UNSAT where neither side's model was checked
//!   (an UNSAT against a checked model of the other side is WRONG: the rows of both are
//!   held against each other as wherever rows meet);
//! - a **lost** instance: solved by OLD, not by NEW (timeout, memory-out, error). A timeout
//!   where OLD itself took at least [`FLAPPING_SHARE`] of its timeout is named
//!   **flapping** and not counted: at the limit, a timeout is noise, not a regression (as
//!   BenchExec's table-generator treats timeouts near the limit);
//! - with a factor F, a **slower** instance: solved by both, NEW's time above F × OLD's.
//!   Times below [`NOISE_FLOOR_S`] are taken as that, so that a 1 ms run taking 3 ms is no
//!   regression.
//!
//! The per-instance speed-up is OLD's time / NEW's time over the instances both solved:
//! above 1, NEW is faster. Beside it, the same ratios of the solvers' work counters
//! (`work.rs`).

pub mod chart;
pub mod render;
pub mod work;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use anyhow::bail;
use serde::Serialize;

use crate::report::outcome::{Answer, Outcome, outcomes};
use crate::report::ratios::PairedRatios;
use crate::report::rows::Row;
use crate::report::score::Scoring;

/// A timeout of NEW on an instance OLD solved in at least this share of its timeout is
/// "flapping", not a regression.
pub const FLAPPING_SHARE: f64 = 0.8;

/// Times below this many seconds count as this much when telling a slowdown.
pub const NOISE_FLOOR_S: f64 = 0.01;

/// What became of one instance from OLD to NEW, in the order the listing shows them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Change {
    /// A wrong answer on either side.
    Wrong,
    /// SAT on one side, UNSAT on the other.
    AnswerChanged,
    /// Solved by OLD, not by NEW.
    Lost,
    /// Solved by both, NEW slower than the factor allows.
    Slower,
    /// Solved by OLD near its timeout, a timeout in NEW: not counted.
    Flapping,
    /// Not solved by OLD, solved by NEW.
    Gained,
    /// Solved by both (within the factor).
    BothSolved,
    /// Solved by neither.
    NeitherSolved,
    /// Only OLD ran it.
    OnlyOld,
    /// Only NEW ran it.
    OnlyNew,
}

impl Change {
    /// The name in tables.
    pub fn as_str(self) -> &'static str {
        match self {
            Change::Wrong => "WRONG",
            Change::AnswerChanged => "answer changed",
            Change::Lost => "solved → unsolved",
            Change::Slower => "slower",
            Change::Flapping => "flapping (timeout near the limit)",
            Change::Gained => "unsolved → solved",
            Change::BothSolved => "both solved",
            Change::NeitherSolved => "neither solved",
            Change::OnlyOld => "only in OLD",
            Change::OnlyNew => "only in NEW",
        }
    }
}

/// One side's outcome on an instance.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Side {
    /// The solver.
    pub solver: String,
    /// What came of it.
    pub answer: Answer,
    /// Seconds (the timeout when unsolved).
    pub time: f64,
    /// The timeout, seconds.
    pub timeout: f64,
}

/// One instance under one encoding, OLD against NEW.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InstanceChange {
    /// The instance, as the CSV names it.
    pub instance: String,
    /// The encoding.
    pub encoding: String,
    /// OLD's outcome (none: OLD did not run it).
    pub old: Option<Side>,
    /// NEW's outcome.
    pub new: Option<Side>,
    /// What changed.
    pub change: Change,
    /// OLD's time / NEW's time, when both solved.
    pub speedup: Option<f64>,
    /// True when it counts as a regression of NEW.
    pub regression: bool,
}

/// The counts of a comparison.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Counts {
    /// Instance × encoding pairs both sides ran.
    pub compared: usize,
    /// Regressions of NEW (what `--fail-on-regression` fails on).
    pub regressions: usize,
    /// Per kind of change.
    pub by_change: BTreeMap<Change, usize>,
}

/// A comparison of OLD and NEW.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    /// What OLD is (a file, or a solver).
    pub old: String,
    /// What NEW is.
    pub new: String,
    /// Which time is compared.
    pub time: crate::results::TimeBasis,
    /// The slowdown factor that counts as a regression (none: slowdowns are listed, not
    /// counted).
    pub factor: Option<f64>,
    /// [`FLAPPING_SHARE`].
    pub flapping_share: f64,
    /// [`NOISE_FLOOR_S`].
    pub noise_floor_s: f64,
    /// The counts.
    pub counts: Counts,
    /// The speed-ups.
    pub speedups: PairedRatios,
    /// The ratios of the work counters, beside the speed-ups (only counters both sides
    /// give).
    pub counters: Vec<work::CounterRatios>,
    /// The modes OLD ran in (see `report::mode`).
    pub old_modes: String,
    /// The modes NEW ran in: when they differ from OLD's, every speed-up measures the
    /// modes too.
    pub new_modes: String,
    /// Every instance × encoding, regressions first (by kind, then worst speed-up first).
    pub instances: Vec<InstanceChange>,
    /// OLD's time limits (`wall 100 s`, `CPU 10 s, wall 30 s`; several joined by ` / `).
    pub old_limits: String,
    /// NEW's time limits: when they differ from OLD's the headline says so, each side
    /// being scored against its own.
    pub new_limits: String,
}

/// The time limits of `rows`, in words: each distinct (CPU limit, wall limit) once.
fn limits_of(rows: &[Row]) -> String {
    let mut seen: Vec<(Option<f64>, f64)> = Vec::new();
    for r in rows {
        let l = (r.cpu_limit_s(), r.timeout_s());
        if !seen.contains(&l) {
            seen.push(l);
        }
    }
    seen.iter()
        .map(|(cpu, wall)| match cpu {
            Some(c) => format!("CPU {c} s, wall {wall} s"),
            None => format!("wall {wall} s"),
        })
        .collect::<Vec<_>>()
        .join(" / ")
}

/// OLD's and NEW's outcome of one instance × encoding.
type Joined = (Option<Side>, Option<Side>);

/// Which rows make a side.
pub struct SideRows<'a> {
    /// What it is, for the report.
    pub label: String,
    /// Its rows.
    pub rows: &'a [Row],
    /// Only this solver's rows (two solvers of one CSV).
    pub solver: Option<String>,
}

/// Compares OLD with NEW. `factor`: the slowdown that counts as a regression.
pub fn compare(
    old: &SideRows,
    new: &SideRows,
    scoring: Scoring,
    factor: Option<f64>,
) -> anyhow::Result<Comparison> {
    let (old_rows, new_rows) = judged_together(picked(old)?, picked(new)?);
    let by_solver = matched_by_solver(old, new, &old_rows, &new_rows)?;
    let names: HashMap<&str, &str> = old_rows
        .iter()
        .chain(&new_rows)
        .map(|r| (r.instance_key(), r.instance().as_str()))
        .collect();
    let key = |o: &Outcome| -> (String, String, String) {
        let solver = if by_solver { o.solver().as_str() } else { "" };
        (o.key().to_string(), o.encoding().to_string(), solver.into())
    };
    let old_outcomes = outcomes(&old_rows, scoring);
    let new_outcomes = outcomes(&new_rows, scoring);
    let mut joined: BTreeMap<(String, String, String), Joined> = BTreeMap::new();
    let side = |o: &Outcome| Side {
        solver: o.solver().to_string(),
        answer: o.answer(),
        time: o.time,
        timeout: o.timeout(),
    };
    for o in &old_outcomes {
        joined.entry(key(o)).or_default().0 = Some(side(o));
    }
    for o in &new_outcomes {
        joined.entry(key(o)).or_default().1 = Some(side(o));
    }
    // The cells both solved alike: those the speed-ups are over, and the counters' ratios.
    let both: Vec<work::CellKey> = joined
        .iter()
        .filter(|(_, (o, n))| match (o, n) {
            (Some(o), Some(n)) => o.answer.solved() && o.answer == n.answer,
            _ => false,
        })
        .map(|(k, _)| k.clone())
        .collect();
    let mut instances: Vec<InstanceChange> = joined
        .into_iter()
        .map(|((instance, encoding, _), (old, new))| {
            let (change, speedup) = classify(old.as_ref(), new.as_ref(), factor);
            let regression = match change {
                Change::Wrong => new.as_ref().is_some_and(|n| n.answer == Answer::Wrong),
                Change::AnswerChanged | Change::Lost | Change::Slower => true,
                _ => false,
            };
            InstanceChange {
                instance: names
                    .get(instance.as_str())
                    .map_or(instance.clone(), |n| n.to_string()),
                encoding,
                old,
                new,
                change,
                speedup,
                regression,
            }
        })
        .collect();
    instances.sort_by(|a, b| {
        (a.change, a.speedup.unwrap_or(f64::INFINITY))
            .partial_cmp(&(b.change, b.speedup.unwrap_or(f64::INFINITY)))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let counts = Counts::of(&instances);
    let ratios: Vec<f64> = instances.iter().filter_map(|i| i.speedup).collect();
    let speedups = PairedRatios::of(&ratios);
    let counters = {
        let cell = |r: &Row| -> work::CellKey {
            let solver = if by_solver { r.solver().as_str() } else { "" };
            (
                r.instance_key().into(),
                r.encoding().to_string(),
                solver.into(),
            )
        };
        let old_counts = work::counts(&old_rows, scoring, cell);
        let new_counts = work::counts(&new_rows, scoring, cell);
        work::ratios(&both, &old_counts, &new_counts)
    };
    Ok(Comparison {
        old: old.label.clone(),
        new: new.label.clone(),
        time: scoring.time,
        factor,
        flapping_share: FLAPPING_SHARE,
        noise_floor_s: NOISE_FLOOR_S,
        counts,
        speedups,
        counters,
        old_modes: crate::report::mode::Modes::of(&old_rows).all(),
        new_modes: crate::report::mode::Modes::of(&new_rows).all(),
        instances,
        old_limits: limits_of(&old_rows),
        new_limits: limits_of(&new_rows),
    })
}

/// A side's rows (only its solver's when it names one); none is an error.
fn picked(side: &SideRows<'_>) -> anyhow::Result<Vec<Row>> {
    let rows: Vec<Row> = match &side.solver {
        Some(s) => side
            .rows
            .iter()
            .filter(|r| r.solver() == **s)
            .cloned()
            .collect(),
        None => side.rows.to_vec(),
    };
    if rows.is_empty() {
        match &side.solver {
            Some(s) => {
                let mut names: Vec<&str> = side.rows.iter().map(|r| r.solver().as_str()).collect();
                names.sort_unstable();
                names.dedup();
                bail!("no rows of solver `{s}` (solvers: {})", names.join(", "))
            }
            None => bail!("{}: no result rows", side.label),
        }
    }
    Ok(rows)
}

/// True when OLD and NEW match solver to solver (two files of the same solvers); false
/// when instance to instance whatever the names (one solver each, or two solvers of one
/// file); an error otherwise.
fn matched_by_solver(
    old: &SideRows,
    new: &SideRows,
    old_rows: &[Row],
    new_rows: &[Row],
) -> anyhow::Result<bool> {
    let solvers = |rows: &[Row]| -> BTreeSet<String> {
        rows.iter().map(|r| r.solver().to_string()).collect()
    };
    let (old_solvers, new_solvers) = (solvers(old_rows), solvers(new_rows));
    // Two files of the same solvers match solver to solver; of one solver each (or two
    // solvers of one file), instance to instance whatever the names.
    let by_solver = if old.solver.is_some() || new.solver.is_some() {
        false
    } else if old_solvers == new_solvers {
        old_solvers.len() > 1
    } else if old_solvers.len() == 1 && new_solvers.len() == 1 {
        false
    } else {
        bail!(
            "{} has solvers {{{}}}, {} has {{{}}}: compare runs of the same solvers, or of \
             one solver each",
            old.label,
            old_solvers.into_iter().collect::<Vec<_>>().join(", "),
            new.label,
            new_solvers.into_iter().collect::<Vec<_>>().join(", ")
        );
    };
    Ok(by_solver)
}

impl Counts {
    /// The changes counted, with the instances both sides ran and the regressions.
    fn of(instances: &[InstanceChange]) -> Counts {
        let mut counts = Counts::default();
        for i in instances {
            *counts.by_change.entry(i.change).or_default() += 1;
            if i.old.is_some() && i.new.is_some() {
                counts.compared += 1;
            }
            if i.regression {
                counts.regressions += 1;
            }
        }
        counts
    }
}

/// OLD's and NEW's rows held against each other's verified models, as rows are wherever
/// they meet: an UNSAT on either side of an instance with a checked model on the other is
/// WRONG, not an "answer changed".
fn judged_together(old: Vec<Row>, new: Vec<Row>) -> (Vec<Row>, Vec<Row>) {
    let split = old.len();
    let mut all = old;
    all.extend(new);
    crate::results::cross_check_unsat(&mut all);
    let new = all.split_off(split);
    (all, new)
}

/// What changed from `old` to `new`, and the speed-up when both solved.
fn classify(old: Option<&Side>, new: Option<&Side>, factor: Option<f64>) -> (Change, Option<f64>) {
    let (old, new) = match (old, new) {
        (Some(o), Some(n)) => (o, n),
        (Some(_), None) => return (Change::OnlyOld, None),
        _ => return (Change::OnlyNew, None),
    };
    if old.answer == Answer::Wrong || new.answer == Answer::Wrong {
        return (Change::Wrong, None);
    }
    match (old.answer.solved(), new.answer.solved()) {
        (true, true) if old.answer != new.answer => (Change::AnswerChanged, None),
        (true, true) => {
            let (o, n) = (old.time.max(NOISE_FLOOR_S), new.time.max(NOISE_FLOOR_S));
            let speedup = PairedRatios::ratio(old.time, new.time);
            if factor.is_some_and(|f| n > f * o) {
                (Change::Slower, Some(speedup))
            } else {
                (Change::BothSolved, Some(speedup))
            }
        }
        (true, false) => {
            if new.answer == Answer::Timeout && old.time >= FLAPPING_SHARE * old.timeout {
                (Change::Flapping, None)
            } else {
                (Change::Lost, None)
            }
        }
        (false, true) => (Change::Gained, None),
        (false, false) => (Change::NeitherSolved, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_rows::row;

    fn side<'a>(label: &str, rows: &'a [Row]) -> SideRows<'a> {
        SideRows {
            label: label.into(),
            rows,
            solver: None,
        }
    }

    /// Timeout 10 s, wall time, factor 2.
    ///
    /// | instance | OLD        | NEW          | change                    |
    /// |----------|------------|--------------|---------------------------|
    /// | a        | SAT 1      | SAT 0.5      | both solved, 2× faster    |
    /// | b        | SAT 1      | SAT 3        | slower (3 > 2·1)          |
    /// | c        | SAT 1      | TIMEOUT      | lost                      |
    /// | d        | SAT 9      | TIMEOUT      | flapping (9 ≥ 0.8·10)     |
    /// | e        | TIMEOUT    | UNSAT 2      | gained                    |
    /// | f        | SAT 1      | UNSAT 1      | WRONG (OLD's checked model refutes it) |
    /// | g        | SAT 1      | SAT 1 WRONG  | WRONG (a regression)      |
    /// | h        | SAT 0.001  | SAT 0.004    | both solved (noise floor) |
    /// | i        | SAT 1      | –            | only in OLD               |
    #[test]
    fn every_kind_of_change_by_hand() {
        let old = vec![
            row("a", "e", "s", "SAT", 1.0),
            row("b", "e", "s", "SAT", 1.0),
            row("c", "e", "s", "SAT", 1.0),
            row("d", "e", "s", "SAT", 9.0),
            row("e", "e", "s", "TIMEOUT", 10.0),
            row("f", "e", "s", "SAT", 1.0),
            row("g", "e", "s", "SAT", 1.0),
            row("h", "e", "s", "SAT", 0.001),
            row("i", "e", "s", "SAT", 1.0),
        ];
        let mut wrong = row("g", "e", "t", "SAT", 1.0);
        wrong.wrong = true;
        let new = vec![
            row("a", "e", "t", "SAT", 0.5),
            row("b", "e", "t", "SAT", 3.0),
            row("c", "e", "t", "TIMEOUT", 10.0),
            row("d", "e", "t", "TIMEOUT", 10.0),
            row("e", "e", "t", "UNSAT", 2.0),
            row("f", "e", "t", "UNSAT", 1.0),
            wrong,
            row("h", "e", "t", "SAT", 0.004),
        ];
        let scoring = Scoring {
            time: crate::results::TimeBasis::Wall,
            timeout: None,
        };
        let c = compare(&side("old", &old), &side("new", &new), scoring, Some(2.0)).unwrap();
        let got: Vec<(&str, Change, bool)> = c
            .instances
            .iter()
            .map(|i| (i.instance.as_str(), i.change, i.regression))
            .collect();
        assert_eq!(
            got,
            [
                ("f", Change::Wrong, true),
                ("g", Change::Wrong, true),
                ("c", Change::Lost, true),
                ("b", Change::Slower, true),
                ("d", Change::Flapping, false),
                ("e", Change::Gained, false),
                ("h", Change::BothSolved, false),
                ("a", Change::BothSolved, false),
                ("i", Change::OnlyOld, false),
            ]
        );
        assert_eq!((c.counts.compared, c.counts.regressions), (8, 4));
        // Speed-ups over a, b, h: 2, 1/3, 0.25.
        assert_eq!(c.speedups.both_solved, 3);
        assert_eq!((c.speedups.faster, c.speedups.slower), (1, 2));
        assert_eq!(c.speedups.estimate(), Some(1.0 / 3.0));
        let g = c.speedups.geometric_mean.unwrap();
        assert!((g - (2.0f64 / 3.0 * 0.25).cbrt()).abs() < 1e-12);
        // Without a factor, b is no regression.
        let c = compare(&side("old", &old), &side("new", &new), scoring, None).unwrap();
        assert_eq!(c.counts.regressions, 3);
        assert_eq!(c.old_limits, c.new_limits);
    }

    /// NEW ran under a 4 s CPU limit, OLD under its 10 s wall limit alone: on CPU time
    /// each side is scored against its own limit (NEW's timeout is flapping only against
    /// OLD's limit), and the headline says the limits differ.
    #[test]
    fn sides_of_different_limits_are_scored_each_against_its_own() {
        let mut old = vec![row("d", "e", "s", "SAT", 9.0)];
        old[0].set_cpu_s(Some(9.0));
        let mut new = vec![row("d", "e", "t", "TIMEOUT", 5.0)];
        new[0].set_cpu_s(Some(4.0));
        new[0].set_cpu_limit_s(Some(4.0));
        new[0].set_limit(Some(crate::solver::LimitHit::Cpu));
        let c = compare(
            &side("old", &old),
            &side("new", &new),
            Scoring::default(),
            None,
        )
        .unwrap();
        let d = &c.instances[0];
        assert_eq!(d.new.as_ref().unwrap().timeout, 4.0);
        assert_eq!(d.old.as_ref().unwrap().timeout, 10.0);
        assert_eq!(d.change, Change::Flapping);
        assert_eq!(
            (c.old_limits.as_str(), c.new_limits.as_str()),
            ("wall 10 s", "CPU 4 s, wall 10 s")
        );
        let text = render::headline(&c);
        assert!(
            text.contains("The time limits differ (OLD: wall 10 s; NEW: CPU 4 s, wall 10 s)"),
            "{text}"
        );
    }

    #[test]
    fn files_of_different_solvers_must_hold_one_each() {
        let old = vec![
            row("a", "e", "s", "SAT", 1.0),
            row("a", "e", "u", "SAT", 1.0),
        ];
        let new = vec![row("a", "e", "t", "SAT", 1.0)];
        let err = compare(
            &side("OLD.csv", &old),
            &side("NEW.csv", &new),
            Scoring::default(),
            None,
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("OLD.csv has solvers {s, u}"), "{err}");
        // Two solvers of one file.
        let both = [old.clone(), new.clone()].concat();
        let pick = |s: &str| SideRows {
            label: s.into(),
            rows: &both,
            solver: Some(s.into()),
        };
        let c = compare(&pick("s"), &pick("t"), Scoring::default(), None).unwrap();
        assert_eq!(c.counts.compared, 1);
        let err = compare(&pick("s"), &pick("x"), Scoring::default(), None)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("no rows of solver `x` (solvers: s, t, u)"),
            "{err}"
        );
    }
}
