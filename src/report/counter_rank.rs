//! The configurations ranked by a work counter instead of time (`bench report --score
//! COUNTER`): a measure of the solvers' work that does not depend on the machine or its
//! load. Ranked as PAR-2 ranks, most solved first; then, among configurations that solved
//! as many, by the median of the counter over the instances every ranked configuration
//! solved (the common set, so that no configuration is flattered by leaving the hard
//! instances out), then by its total over that set. Configurations that do not give the
//! counter come last, unranked.
//!
//! An instance counts as solved by a configuration when every repetition solved it (as
//! everywhere in the report), with the median of the counter over the repetitions.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::report::config::Config;
use crate::report::mode::Modes;
use crate::report::outcome::first_appearance;
use crate::report::rows::Row;
use crate::report::score::{Scoring, median};
use crate::report::table::{Align, Cell, Table};
use crate::report::work::count_text;
use crate::solver::work::Counter;

/// One configuration's place.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ranked {
    /// Its place from 1 (None: it does not give the counter).
    pub rank: Option<usize>,
    /// The solver, encoding and mode.
    pub config: Config,
    /// Instances solved (every repetition).
    pub solved: usize,
    /// The median of the counter over the common set (None: no counter, or an empty set).
    pub median: Option<f64>,
    /// The total of the counter over the common set.
    pub total: Option<u64>,
}

/// The ranking by one counter.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CounterRanking {
    /// The counter.
    pub counter: Counter,
    /// Instances every configuration that gives the counter solved.
    pub common: usize,
    /// The configurations, best first.
    pub ranked: Vec<Ranked>,
}

/// The counter per solved instance of one configuration (None: a run gave none).
type Solved<'a> = BTreeMap<&'a str, Option<f64>>;

/// Ranks the configurations of `rows` by `counter`.
pub fn ranking(rows: &[Row], counter: Counter, scoring: Scoring, modes: &Modes) -> CounterRanking {
    let configs = first_appearance(rows.iter().map(|r| r.solver().as_str()));
    let encodings = first_appearance(rows.iter().map(|r| r.encoding().as_str()));
    let cells = super::cells(rows);
    // Per configuration, its solved instances and the counter's median on each.
    let mut solved: Vec<(Config, Solved, bool)> = Vec::new();
    for solver in &configs {
        for encoding in &encodings {
            let Some(instances) = cells.get(&(solver.as_str(), encoding.as_str())) else {
                continue;
            };
            let mut done = Solved::new();
            let mut gives = false;
            for (key, runs) in instances.iter() {
                if !runs.iter().all(|r| scoring.solved(r)) {
                    continue;
                }
                let values: Option<Vec<f64>> = runs
                    .iter()
                    .map(|r| counter.of(&r.work()).map(|v| v as f64))
                    .collect();
                gives |= values.is_some();
                done.insert(key, values.map(|mut v| median(&mut v)));
            }
            gives |= instances
                .values()
                .flatten()
                .any(|r| counter.of(&r.work()).is_some());
            solved.push((modes.config(solver, encoding), done, gives));
        }
    }
    let common: BTreeSet<&str> = {
        let mut giving = solved.iter().filter(|(_, _, gives)| *gives);
        let first = giving.next().map(|(_, s, _)| {
            s.iter()
                .filter(|(_, v)| v.is_some())
                .map(|(k, _)| *k)
                .collect::<BTreeSet<_>>()
        });
        giving.fold(first.unwrap_or_default(), |set, (_, s, _)| {
            set.into_iter()
                .filter(|k| s.get(k).is_some_and(Option::is_some))
                .collect()
        })
    };
    let mut ranked: Vec<Ranked> = solved
        .iter()
        .map(|(config, s, gives)| {
            let mut on_common: Vec<f64> =
                common.iter().filter_map(|k| s.get(k)?.to_owned()).collect();
            let total = on_common.iter().sum::<f64>().round() as u64;
            Ranked {
                rank: None,
                config: config.clone(),
                solved: s.len(),
                median: (*gives && !on_common.is_empty()).then(|| median(&mut on_common)),
                total: gives.then_some(total),
            }
        })
        .collect();
    ranked.sort_by(|a, b| {
        let key = |r: &Ranked| {
            (
                r.total.is_none(),
                std::cmp::Reverse(r.solved),
                r.median.unwrap_or(f64::INFINITY),
                r.total.unwrap_or(u64::MAX),
            )
        };
        let (ka, kb) = (key(a), key(b));
        (ka.0, ka.1)
            .cmp(&(kb.0, kb.1))
            .then(ka.2.total_cmp(&kb.2))
            .then(ka.3.cmp(&kb.3))
    });
    for (i, r) in ranked.iter_mut().enumerate() {
        if r.total.is_some() {
            r.rank = Some(i + 1);
        }
    }
    CounterRanking {
        counter,
        common: common.len(),
        ranked,
    }
}

/// The ranking as a table.
pub fn table(r: &CounterRanking, several_encodings: bool) -> Table {
    let counted = |x: Option<f64>| Cell::Text(x.map_or("–".into(), count_text));
    Table {
        columns: vec![
            ("rank", Align::Right),
            ("configuration", Align::Left),
            ("solved", Align::Right),
            ("median (common)", Align::Right),
            ("total (common)", Align::Right),
        ],
        rows: r
            .ranked
            .iter()
            .map(|x| {
                vec![
                    Cell::Text(x.rank.map_or("–".into(), |n| n.to_string())),
                    Cell::Text(x.config.label(several_encodings)),
                    Cell::Count(x.solved),
                    counted(x.median),
                    counted(x.total.map(|t| t as f64)),
                ]
            })
            .collect(),
        note: Some(format!(
            "Ranked by {c}, the solvers' own count (the same on any machine): most solved \
             first, then the smallest median {c} over the {n} instance(s) every ranked \
             configuration solved. – : the solver gives no {c}.",
            c = r.counter,
            n = r.common
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_rows::row;

    /// a solves i1 (10 conflicts) and i2 (100); b solves i1 (5) and i2 (300); c solves i1
    /// (1) only; d gives no counter. Common set over a, b, c: {i1}.
    #[test]
    fn most_solved_first_then_the_median_over_the_common_set() {
        let mut rows = Vec::new();
        for (solver, inst, conflicts) in [
            ("a", "i1", 10),
            ("a", "i2", 100),
            ("b", "i1", 5),
            ("b", "i2", 300),
            ("c", "i1", 1),
        ] {
            let mut r = row(inst, "e", solver, "SAT", 1.0);
            r.set_work(crate::solver::work::Work {
                conflicts: Some(conflicts),
                ..crate::solver::work::Work::default()
            });
            rows.push(r);
        }
        rows.push(row("i2", "e", "c", "TIMEOUT", 10.0));
        rows.push(row("i1", "e", "d", "SAT", 0.1));
        rows.push(row("i2", "e", "d", "SAT", 0.1));
        let modes = Modes::of(&rows);
        let r = ranking(&rows, Counter::Conflicts, Scoring::default(), &modes);
        assert_eq!(r.common, 1);
        let order: Vec<(&str, Option<usize>, Option<f64>)> = r
            .ranked
            .iter()
            .map(|x| (x.config.solver.as_str(), x.rank, x.median))
            .collect();
        assert_eq!(
            order,
            [
                ("b", Some(1), Some(5.0)),
                ("a", Some(2), Some(10.0)),
                ("c", Some(3), Some(1.0)),
                ("d", None, None),
            ]
        );
        let t = table(&r, false);
        assert_eq!(t.rows[3][0].text(), "–");
        // Ranked by decisions, nobody gives it: nobody ranked.
        let r = ranking(&rows, Counter::Decisions, Scoring::default(), &modes);
        assert!(r.ranked.iter().all(|x| x.rank.is_none()));
    }
}
