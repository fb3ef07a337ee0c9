//! The work counters of a comparison, beside its time ratios: per counter (conflicts,
//! decisions, propagations, guesses), over the instances both sides solved and both gave
//! the counter for, OLD's count / NEW's count (above 1, NEW did less work), summed up as
//! the time ratios are ([`PairedRatios`]). Unlike times, counts do not depend on the
//! machine or its load: a speed-up with the same conflicts is the machine's or the
//! implementation's, one with fewer conflicts the search's. A count of 0 is taken as 1.

use std::collections::HashMap;

use serde::Serialize;

use crate::report::ratios::PairedRatios;
use crate::report::rows::Row;
use crate::report::score::{Scoring, median};
use crate::report::table::{Align, Cell, Table};
use crate::solver::work::Counter;

/// The ratios of one counter.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CounterRatios {
    /// The counter.
    pub counter: Counter,
    /// OLD's count / NEW's count over the instances both solved and counted.
    pub ratios: PairedRatios,
}

/// Where a side's counts are looked up: (instance key, encoding, solver or "").
pub type CellKey = (String, String, String);

/// Per cell of `rows` solved by every repetition, the median of each counter over them.
pub fn counts(
    rows: &[Row],
    scoring: Scoring,
    key: impl Fn(&Row) -> CellKey,
) -> HashMap<CellKey, [Option<f64>; 4]> {
    let mut cells: HashMap<CellKey, Vec<&Row>> = HashMap::new();
    for r in rows {
        cells.entry(key(r)).or_default().push(r);
    }
    cells
        .into_iter()
        .filter(|(_, runs)| runs.iter().all(|r| scoring.solved(r)))
        .map(|(k, runs)| {
            let per = Counter::ALL.map(|c| {
                let values: Option<Vec<f64>> = runs
                    .iter()
                    .map(|r| c.of(&r.work()).map(|v| v as f64))
                    .collect();
                values.map(|mut v| median(&mut v))
            });
            (k, per)
        })
        .collect()
}

/// The ratios of every counter some instance has on both sides, over `both` (the cells
/// both sides solved).
pub fn ratios(
    both: &[CellKey],
    old: &HashMap<CellKey, [Option<f64>; 4]>,
    new: &HashMap<CellKey, [Option<f64>; 4]>,
) -> Vec<CounterRatios> {
    Counter::ALL
        .iter()
        .enumerate()
        .filter_map(|(i, &counter)| {
            let r: Vec<f64> = both
                .iter()
                .filter_map(|k| {
                    let (o, n) = (old.get(k)?[i]?, new.get(k)?[i]?);
                    Some(o.max(1.0) / n.max(1.0))
                })
                .collect();
            (!r.is_empty()).then(|| CounterRatios {
                counter,
                ratios: PairedRatios::of(&r),
            })
        })
        .collect()
}

/// Time and work side by side: a line for the time ratios, one per counter.
pub fn table(time: &PairedRatios, time_words: &str, counters: &[CounterRatios]) -> Table {
    let line = |what: String, r: &PairedRatios| {
        vec![
            Cell::Text(what),
            Cell::Count(r.both_solved),
            Cell::Count(r.faster),
            Cell::Count(r.slower),
            Cell::Ratio(r.estimate()),
            Cell::Interval(r.interval()),
            Cell::Ratio(r.geometric_mean),
        ]
    };
    let mut rows = vec![line(time_words.to_string(), time)];
    rows.extend(
        counters
            .iter()
            .map(|c| line(c.counter.to_string(), &c.ratios)),
    );
    Table {
        columns: vec![
            ("OLD / NEW", Align::Left),
            ("instances", Align::Right),
            ("NEW less", Align::Right),
            ("NEW more", Align::Right),
            ("median", Align::Right),
            ("95 % interval", Align::Right),
            ("geometric mean", Align::Right),
        ],
        rows,
        note: Some(format!(
            "OLD's {time_words} or count over NEW's, per instance both solved (and both \
             counted): above 1, NEW took less. Counts are the solvers' own and do not \
             depend on the machine. A count of 0 is taken as 1."
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_rows::row;

    #[test]
    fn counter_ratios_over_the_instances_both_solved_and_counted() {
        let key = |r: &Row| {
            (
                r.instance().to_string(),
                r.encoding().to_string(),
                String::new(),
            )
        };
        let with = |inst: &str, status: &str, conflicts: Option<u64>| {
            let mut r = row(inst, "e", "s", status, 1.0);
            r.set_work(crate::solver::work::Work {
                conflicts,
                ..crate::solver::work::Work::default()
            });
            r
        };
        let old = vec![
            with("a", "SAT", Some(100)),
            with("b", "SAT", Some(10)),
            with("c", "SAT", Some(0)),
            with("d", "SAT", None),
        ];
        let new = vec![
            with("a", "SAT", Some(50)),
            with("b", "SAT", Some(40)),
            with("c", "SAT", Some(4)),
            with("d", "SAT", Some(7)),
        ];
        let (o, n) = (
            counts(&old, Scoring::default(), key),
            counts(&new, Scoring::default(), key),
        );
        let both: Vec<CellKey> = ["a", "b", "c", "d"]
            .iter()
            .map(|i| (i.to_string(), "e".to_string(), String::new()))
            .collect();
        let r = ratios(&both, &o, &n);
        assert_eq!(r.len(), 1, "only conflicts is counted");
        // a: 2, b: 0.25, c: 1/4 (0 taken as 1); d: OLD has no count.
        let c = &r[0].ratios;
        assert_eq!((c.both_solved, c.faster, c.slower), (3, 1, 2));
        assert_eq!(c.estimate(), Some(0.25));
        let t = table(&PairedRatios::of(&[1.0]), "CPU time", &r);
        assert_eq!(t.rows.len(), 2);
        assert_eq!(t.rows[1][0].text(), "conflicts");
    }
}
