//! The solvers' own work, from the work columns of the rows (`conflicts`, `decisions`,
//! `propagations`, `guesses`): figures that do not depend on the machine. Per solver ×
//! encoding × mode, over its solved runs, each counter it gives: the median per run, the
//! total, and the total per CPU-second (the work the solver gets through in a second of
//! its own CPU time; wall time where a row has no CPU time); and for a dedicated puzzle
//! solver guesses per puzzle and the share of puzzles solved without a guess (as tdoku
//! reports them). A configuration whose rows carry no counter has no line; a counter it
//! does not give has none either.
//!
//! [`ranking`] ranks the configurations by one counter instead of time
//! (`bench report --score COUNTER`).

use serde::Serialize;

use crate::report::config::Config;
use crate::report::mode::Modes;
use crate::report::rows::{Name, Row};
use crate::report::score::median_unordered;
use crate::report::table::{Align, Cell, Table};
use crate::results::TimeBasis;
use crate::solver::work::Counter;

/// One counter of one configuration, over its solved runs that give it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CounterFigures {
    /// Which counter.
    pub counter: Counter,
    /// Solved runs that give it.
    pub runs: usize,
    /// The median per run.
    pub median: f64,
    /// The total over those runs.
    pub total: u64,
    /// The total per CPU-second of those runs (None: no time to divide by).
    pub per_cpu_s: Option<f64>,
}

/// The work figures of one configuration, over its solved runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WorkFigures {
    /// The solver, encoding and mode.
    pub config: Config,
    /// Solved runs with any work counter.
    pub solved: usize,
    /// Mean guesses per solved puzzle.
    pub guesses_per_puzzle: Option<f64>,
    /// The share of solved puzzles solved without a guess (0 to 1).
    pub without_guess: Option<f64>,
    /// Each counter the configuration gives, in [`Counter::ALL`]'s order.
    pub counters: Vec<CounterFigures>,
}

impl WorkFigures {
    /// The figures of `counter`, if the configuration gives it.
    pub fn counter(&self, counter: Counter) -> Option<&CounterFigures> {
        self.counters.iter().find(|c| c.counter == counter)
    }
}

/// The figures of `counter` over `runs` (None when no run gives it).
fn counter_figures(runs: &[&Row], counter: Counter) -> Option<CounterFigures> {
    let given: Vec<(u64, f64)> = runs
        .iter()
        .filter_map(|r| Some((r.counter(counter)?, r.time(TimeBasis::Cpu))))
        .collect();
    if given.is_empty() {
        return None;
    }
    let total: u64 = given.iter().map(|&(v, _)| v).sum();
    let seconds: f64 = given.iter().map(|&(_, t)| t).sum();
    let mut values: Vec<f64> = given.iter().map(|&(v, _)| v as f64).collect();
    Some(CounterFigures {
        counter,
        runs: given.len(),
        median: median_unordered(&mut values),
        total,
        per_cpu_s: (seconds > 0.0).then(|| total as f64 / seconds),
    })
}

/// The work figures of every configuration of `rows` that has counters, in the order
/// configurations first appear.
pub fn figures(rows: &[Row], modes: &Modes) -> Vec<WorkFigures> {
    // Names are interned: compared by address.
    let mut order: Vec<(Name, Name)> = Vec::new();
    let mut solved: Vec<Vec<&Row>> = Vec::new();
    for r in rows {
        let key = (r.solver(), r.encoding());
        let i = match order.iter().position(|k| *k == key) {
            Some(i) => i,
            None => {
                order.push(key);
                solved.push(Vec::new());
                order.len() - 1
            }
        };
        if r.solved() && r.has_work() {
            solved[i].push(r);
        }
    }
    order
        .into_iter()
        .zip(solved)
        .filter(|(_, runs)| !runs.is_empty())
        .map(|((solver, encoding), runs)| {
            let guesses: Vec<u64> = runs
                .iter()
                .filter_map(|r| r.counter(Counter::Guesses))
                .collect();
            WorkFigures {
                config: modes.config(&solver, &encoding),
                solved: runs.len(),
                guesses_per_puzzle: (!guesses.is_empty())
                    .then(|| guesses.iter().sum::<u64>() as f64 / guesses.len() as f64),
                without_guess: (!guesses.is_empty()).then(|| {
                    guesses.iter().filter(|&&g| g == 0).count() as f64 / guesses.len() as f64
                }),
                counters: Counter::ALL
                    .iter()
                    .filter_map(|&c| counter_figures(&runs, c))
                    .collect(),
            }
        })
        .collect()
}

/// A count in a table: whole, with thin groups (`1 234 567`).
pub fn count_text(x: f64) -> String {
    let whole = format!("{:.0}", x.round());
    let (sign, digits) = whole.split_at(usize::from(whole.starts_with('-')));
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push('\u{202f}');
        }
        out.push(d);
    }
    format!("{sign}{out}")
}

/// The work table: a line per configuration and counter.
pub fn table(figures: &[WorkFigures], several_encodings: bool) -> Table {
    let rate = |x: Option<f64>| Cell::Text(x.map_or("–".into(), count_text));
    let rows = figures
        .iter()
        .flat_map(|f| {
            f.counters.iter().map(move |c| {
                vec![
                    Cell::Text(f.config.label(several_encodings)),
                    Cell::Text(c.counter.to_string()),
                    Cell::Count(c.runs),
                    Cell::Text(count_text(c.median)),
                    Cell::Text(count_text(c.total as f64)),
                    rate(c.per_cpu_s),
                ]
            })
        })
        .collect();
    Table {
        columns: vec![
            ("configuration", Align::Left),
            ("counter", Align::Left),
            ("solved runs", Align::Right),
            ("median", Align::Right),
            ("total", Align::Right),
            ("per CPU-second", Align::Right),
        ],
        rows,
        note: Some(
            "The solvers' own work over their solved runs, as they count it (not the \
             machine's): conflicts, decisions and propagations of a CDCL solver, guesses of a \
             dedicated puzzle solver (tentative placements at branch points). Per \
             CPU-second: the total over the runs' total CPU time (wall time where a run has \
             none). A solver that gives no counter has no line (cryptominisat prints \
             propagations above 20,000 in thousands: read as printed, up to 5 % low)."
                .into(),
        ),
    }
}

/// The guesses of the dedicated puzzle solvers (None: no configuration gives them).
pub fn guesses_table(figures: &[WorkFigures], several_encodings: bool) -> Option<Table> {
    let rows: Vec<Vec<Cell>> = figures
        .iter()
        .filter_map(|f| {
            let (per, without) = (f.guesses_per_puzzle?, f.without_guess?);
            Some(vec![
                Cell::Text(f.config.label(several_encodings)),
                Cell::Count(f.counter(Counter::Guesses).map_or(0, |c| c.runs)),
                Cell::Text(format!("{per:.2}")),
                Cell::Text(format!("{:.1} %", without * 100.0)),
            ])
        })
        .collect();
    (!rows.is_empty()).then(|| Table {
        columns: vec![
            ("configuration", Align::Left),
            ("solved", Align::Right),
            ("guesses / puzzle", Align::Right),
            ("solved without a guess", Align::Right),
        ],
        rows,
        note: Some(
            "A dedicated puzzle solver's guesses (0: solved by propagation alone), as tdoku \
             counts them."
                .into(),
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_rows::row;

    #[test]
    fn guesses_per_puzzle_and_the_share_without_a_guess() {
        let mut rows = Vec::new();
        for (i, g) in [0u64, 0, 3, 5].into_iter().enumerate() {
            let mut r = row(&format!("p{i}"), "none", "gridsolve", "SAT", 0.001);
            r.set_work(crate::solver::work::Work {
                guesses: Some(g),
                ..crate::solver::work::Work::default()
            });
            rows.push(r);
        }
        let mut unsolved = row("p9", "none", "gridsolve", "TIMEOUT", 1.0);
        unsolved.set_work(crate::solver::work::Work {
            guesses: Some(1000),
            ..crate::solver::work::Work::default()
        });
        rows.push(unsolved);
        for (i, c) in [10u64, 20, 40].into_iter().enumerate() {
            let mut r = row(&format!("p{i}"), "extended", "native", "SAT", 0.01);
            r.set_cpu_s(Some(0.5));
            r.set_work(crate::solver::work::Work {
                conflicts: Some(c),
                decisions: Some(c * 2),
                ..crate::solver::work::Work::default()
            });
            rows.push(r);
        }
        rows.push(row("p0", "extended", "minisat", "SAT", 0.01));
        let figures = figures(&rows, &Modes::of(&rows));
        assert_eq!(figures.len(), 2, "minisat gives no counter: no line");
        let gs = &figures[0];
        assert_eq!(gs.solved, 4);
        assert_eq!(gs.guesses_per_puzzle, Some(2.0));
        assert_eq!(gs.without_guess, Some(0.5));
        assert!(gs.counter(Counter::Conflicts).is_none());
        let native = &figures[1];
        let conflicts = native.counter(Counter::Conflicts).unwrap();
        // 10, 20, 40 over 3 × 0.5 CPU-seconds.
        assert_eq!(
            (conflicts.runs, conflicts.median, conflicts.total),
            (3, 20.0, 70)
        );
        assert!((conflicts.per_cpu_s.unwrap() - 70.0 / 1.5).abs() < 1e-9);
        assert_eq!(native.counter(Counter::Decisions).unwrap().median, 40.0);
        assert!(native.counter(Counter::Propagations).is_none());
        assert_eq!(native.guesses_per_puzzle, None);
        let t = table(&figures, true);
        // gridsolve's guesses, native's conflicts and decisions.
        assert_eq!(t.rows.len(), 3);
        assert_eq!(t.rows[1][1].text(), "conflicts");
        assert_eq!(t.rows[1][4].text(), "70");
        assert_eq!(t.rows[1][5].text(), "47");
        let g = guesses_table(&figures, true).unwrap();
        assert_eq!(g.rows.len(), 1);
        assert_eq!(g.rows[0][3].text(), "50.0 %");
        assert_eq!(count_text(1_234_567.4), "1\u{202f}234\u{202f}567");
        assert_eq!(count_text(999.0), "999");
    }
}
