//! The solvers' own work, from the work columns of the rows (`conflicts`, `decisions`,
//! `propagations`, `guesses`): figures that do not depend on the machine. Per solver ×
//! encoding × mode, over its solved runs: guesses per puzzle and the share of puzzles
//! solved without a guess (a dedicated puzzle solver's counters, as tdoku reports them),
//! and the median conflicts and decisions (a CDCL solver's). A configuration whose rows
//! carry no counter has no line; a counter it does not give is `–`.

use serde::Serialize;

use crate::report::config::Config;
use crate::report::mode::Modes;
use crate::report::score::median;
use crate::report::table::{Align, Cell, Table};
use crate::results::Row;

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
    /// Median conflicts per solved run.
    pub median_conflicts: Option<f64>,
    /// Median decisions per solved run.
    pub median_decisions: Option<f64>,
}

/// The work figures of every configuration of `rows` that has counters, in the order
/// configurations first appear.
pub fn figures(rows: &[Row], modes: &Modes) -> Vec<WorkFigures> {
    let mut order: Vec<(&str, &str)> = Vec::new();
    for r in rows {
        let key = (r.solver.as_str(), r.encoding.as_str());
        if !order.contains(&key) {
            order.push(key);
        }
    }
    order
        .into_iter()
        .filter_map(|(solver, encoding)| {
            let solved: Vec<&Row> = rows
                .iter()
                .filter(|r| r.solver == solver && r.encoding == encoding && r.solved())
                .filter(|r| r.work() != Default::default())
                .collect();
            if solved.is_empty() {
                return None;
            }
            let guesses: Vec<u64> = solved.iter().filter_map(|r| r.guesses).collect();
            let values = |get: fn(&Row) -> Option<u64>| -> Option<f64> {
                let mut v: Vec<f64> = solved
                    .iter()
                    .filter_map(|r| get(r))
                    .map(|x| x as f64)
                    .collect();
                (!v.is_empty()).then(|| median(&mut v))
            };
            Some(WorkFigures {
                config: modes.config(solver, encoding),
                solved: solved.len(),
                guesses_per_puzzle: (!guesses.is_empty())
                    .then(|| guesses.iter().sum::<u64>() as f64 / guesses.len() as f64),
                without_guess: (!guesses.is_empty()).then(|| {
                    guesses.iter().filter(|&&g| g == 0).count() as f64 / guesses.len() as f64
                }),
                median_conflicts: values(|r| r.conflicts),
                median_decisions: values(|r| r.decisions),
            })
        })
        .collect()
}

/// The work table.
pub fn table(figures: &[WorkFigures], several_encodings: bool) -> Table {
    let number = |x: Option<f64>, digits: usize| {
        Cell::Text(x.map_or("–".into(), |x| format!("{x:.digits$}")))
    };
    Table {
        columns: vec![
            ("configuration", Align::Left),
            ("solved", Align::Right),
            ("guesses / puzzle", Align::Right),
            ("solved without a guess", Align::Right),
            ("median conflicts", Align::Right),
            ("median decisions", Align::Right),
        ],
        rows: figures
            .iter()
            .map(|f| {
                vec![
                    Cell::Text(f.config.label(several_encodings)),
                    Cell::Count(f.solved),
                    number(f.guesses_per_puzzle, 2),
                    Cell::Text(
                        f.without_guess
                            .map_or("–".into(), |s| format!("{:.1} %", s * 100.0)),
                    ),
                    number(f.median_conflicts, 0),
                    number(f.median_decisions, 0),
                ]
            })
            .collect(),
        note: Some(
            "The solvers' own work over their solved runs, as they count it (not the \
             machine's): guesses are a dedicated puzzle solver's tentative placements at \
             branch points (0: solved by propagation alone); conflicts and decisions a CDCL \
             solver's. – : the solver gives no such counter."
                .into(),
        ),
    }
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
            r.guesses = Some(g);
            rows.push(r);
        }
        let mut unsolved = row("p9", "none", "gridsolve", "TIMEOUT", 1.0);
        unsolved.guesses = Some(1000);
        rows.push(unsolved);
        for (i, c) in [10u64, 20, 40].into_iter().enumerate() {
            let mut r = row(&format!("p{i}"), "extended", "native", "SAT", 0.01);
            r.conflicts = Some(c);
            r.decisions = Some(c * 2);
            rows.push(r);
        }
        rows.push(row("p0", "extended", "minisat", "SAT", 0.01));
        let figures = figures(&rows, &Modes::of(&rows));
        assert_eq!(figures.len(), 2, "minisat gives no counter: no line");
        let gs = &figures[0];
        assert_eq!(gs.solved, 4);
        assert_eq!(gs.guesses_per_puzzle, Some(2.0));
        assert_eq!(gs.without_guess, Some(0.5));
        assert_eq!(gs.median_conflicts, None);
        let native = &figures[1];
        assert_eq!(native.median_conflicts, Some(20.0));
        assert_eq!(native.median_decisions, Some(40.0));
        assert_eq!(native.guesses_per_puzzle, None);
        let t = table(&figures, true);
        assert_eq!(t.rows[0][3].text(), "50.0 %");
        assert_eq!(t.rows[1][2].text(), "–");
    }
}
