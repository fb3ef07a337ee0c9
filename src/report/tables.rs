//! The report's tables, each defined once as a [`Table`]: the scores per solver ×
//! encoding, the wrong answers, the virtual best solver and the speedups. The terminal,
//! `summary.md` and `index.html` all draw these same tables through an exporter.

use crate::report::TimeBasis;
use crate::report::score::Score;
use crate::report::score::WrongAnswer;
use crate::report::speedup::Speedup;
use crate::report::table::{Align, Cell, Exporter, Table, Terminal};
use crate::report::vbs::VirtualBest;

use Align::{Left, Right};

/// The scores table: one row per solver × encoding, ranked by solved (most first), then
/// PAR-2 (least first); WRONG answers emphasised.
pub fn scores(scores: &[Score], time: TimeBasis) -> Table {
    let mut ranked: Vec<&Score> = scores.iter().collect();
    ranked.sort_by(|a, b| {
        b.solved
            .cmp(&a.solved)
            .then(a.par2.total_cmp(&b.par2))
            .then_with(|| {
                (&a.config.solver, &a.config.encoding).cmp(&(&b.config.solver, &b.config.encoding))
            })
    });
    let counting = scores.iter().any(|s| s.count_total_s.is_some());
    let mut columns = vec![
        ("solver", Left),
        ("encoding", Left),
        ("mode", Left),
        ("WRONG", Right),
        ("runs", Right),
        ("solved", Right),
        ("SAT", Right),
        ("UNSAT", Right),
        ("timeouts", Right),
        ("memouts", Right),
        ("errors", Right),
        ("PAR-2 (s)", Right),
        ("certified", Right),
        ("certified PAR-2 (s)", Right),
        ("mean (s)", Right),
        ("median (s)", Right),
        ("total (s)", Right),
    ];
    if counting {
        columns.push(("solutions (runs)", Right));
        columns.push(("count total (s)", Right));
    }
    let count_note = if counting {
        " Solutions: the solutions --count found, summed over the runs whose count finished \
         (in brackets: how many); a count that reached its limit N counts N. Count total: the \
         time of every count, all its solves included; the other times are of the first \
         solve alone."
    } else {
        ""
    };
    Table {
        columns,
        rows: ranked
            .into_iter()
            .map(|s| {
                let mut row = vec![
                    Cell::Text(s.config.solver.clone()),
                    Cell::Text(s.config.encoding.clone()),
                    Cell::Text(s.config.mode.to_string()),
                    Cell::Alarm(s.wrong),
                ];
                let counts = [
                    s.runs, s.solved, s.sat, s.unsat, s.timeouts, s.memouts, s.errors,
                ];
                row.extend(counts.map(Cell::Count));
                row.push(Cell::Seconds(s.par2));
                row.push(Cell::Count(s.certified));
                row.push(Cell::Seconds(s.certified_par2));
                row.extend([s.mean_s, s.median_s, s.total_s].map(Cell::Seconds));
                if counting {
                    row.push(Cell::Text(
                        s.solutions
                            .map_or("–".into(), |n| format!("{n} ({})", s.counted)),
                    ));
                    row.push(
                        s.count_total_s
                            .map_or(Cell::Text("–".into()), Cell::Seconds),
                    );
                }
                row
            })
            .collect(),
        note: Some(format!(
            "Ranked by solved, then PAR-2. Times are {} in seconds. PAR-2: the mean over runs \
             of the time if solved, else twice the timeout. Solved and PAR-2 count every right \
             answer; certified and certified PAR-2 only the certified ones, the SAT \
             Competition's rule: SAT with a checked model, UNSAT with a proof a verified \
             checker (cake_lpr) accepted (the trust column: model-checked, proof-verified). \
             Mean and median: over solved runs. Total: all runs. WRONG \
             answers never count as solved. Mode: session (in bench, the encoding's rules \
             loaded once, the givens assumed), fresh (in bench, a formula per instance), \
             process (a child process: its time includes the process start), dedicated (a \
             puzzle solver given the puzzle itself, no formula: encoding none).{count_note}",
            time.words()
        )),
    }
}

/// The wrong answers, one row each.
pub fn wrong_answers(wrong: &[WrongAnswer]) -> Table {
    let columns = [
        "solver", "encoding", "mode", "instance", "run", "said", "check", "why",
    ];
    Table {
        columns: columns
            .into_iter()
            .map(|c| (c, if c == "run" { Right } else { Left }))
            .collect(),
        rows: wrong
            .iter()
            .map(|w| {
                let text = |t: &str| Cell::Text(t.to_string());
                vec![
                    text(&w.config.solver),
                    text(&w.config.encoding),
                    text(&w.config.mode.to_string()),
                    text(&w.instance),
                    Cell::Count(w.run as usize),
                    text(w.status.as_str()),
                    text(w.check.as_str()),
                    text(&w.error),
                ]
            })
            .collect(),
        note: None,
    }
}

/// The virtual best solver's one row.
pub fn virtual_best(v: &VirtualBest) -> Table {
    let columns = ["instances", "solved", "SAT", "UNSAT"];
    let times = ["PAR-2 (s)", "mean (s)", "median (s)", "total (s)"];
    let mut row: Vec<Cell> = [v.instances, v.solved, v.sat, v.unsat]
        .map(Cell::Count)
        .to_vec();
    row.extend([v.par2, v.mean_s, v.median_s, v.total_s].map(Cell::Seconds));
    Table {
        columns: columns
            .into_iter()
            .chain(times)
            .map(|c| (c, Right))
            .collect(),
        rows: vec![row],
        note: Some(
            "Solved: every right answer, certified or not (the scores table gives the \
             certified counts)."
                .into(),
        ),
    }
}

/// The speedups against the baseline, one row per solver × encoding.
pub fn speedups(speedups: &[Speedup]) -> Table {
    Table {
        columns: vec![
            ("solver", Left),
            ("encoding", Left),
            ("mode vs baseline's", Left),
            ("both solved", Right),
            ("median speedup", Right),
            ("95 % interval", Left),
        ],
        rows: speedups
            .iter()
            .map(|s| {
                let c = &s.config;
                vec![
                    Cell::Text(c.solver.clone()),
                    Cell::Text(c.encoding.clone()),
                    Cell::Text(if c.mode == s.baseline_mode {
                        c.mode.to_string()
                    } else {
                        format!("{} vs {} (across modes)", c.mode, s.baseline_mode)
                    }),
                    Cell::Count(s.ratios.both_solved),
                    Cell::Ratio(s.ratios.estimate()),
                    Cell::Interval(s.ratios.interval()),
                ]
            })
            .collect(),
        note: crate::report::speedup::across_modes(speedups),
    }
}

/// The scores table for the terminal, the times being `time`.
pub fn text_table(scores: &[Score], time: TimeBasis) -> String {
    Terminal.table(&self::scores(scores, time))
}
