//! Scores in the SAT-competition conventions, computed from result rows alone.
//!
//! Per solver × encoding: runs, solved (SAT + UNSAT, wrong answers excluded), timeouts,
//! memouts, errors, WRONG, PAR-2 (the mean over runs of the time for a solved run and
//! twice the timeout otherwise), the mean and median time of solved runs, and the total
//! time of all runs, the time being CPU or wall time ([`Scoring`]). Beside them, the
//! certified solved count and PAR-2, the SAT Competition's rule: only answers whose model
//! was checked or whose proof a verified checker accepted count as solved (the `trust`
//! column, [`crate::trust::Trust`]). Wrong answers are
//! listed before anything else.
//!
//! The timeout is each row's own limit on the time scored: on CPU time (the default) its
//! CPU limit (`cpu_limit_s`) when the run had one, else its wall limit (`timeout_s`); on
//! wall time its wall limit. A report given one (`bench report --timeout`) uses that
//! instead: then a run that answered after that timeout counts as a timeout, as it would
//! have in a benchmark run with the shorter limit.

use crate::report::TimeBasis;
use crate::report::config::{Config, ModeLabel};
use crate::report::rows::{Name, NameMap, Row};
use crate::results::Check;
use crate::solver::Status;

/// The scores of one solver on one encoding.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Score {
    /// The solver, the encoding, and how it ran (see `report::mode`).
    #[serde(flatten)]
    pub config: Config,
    /// Runs.
    pub runs: usize,
    /// Right answers (SAT + UNSAT, not wrong).
    pub solved: usize,
    /// Right SAT answers.
    pub sat: usize,
    /// Right UNSAT answers.
    pub unsat: usize,
    /// Timeouts.
    pub timeouts: usize,
    /// Memory-outs.
    pub memouts: usize,
    /// Errors and UNKNOWNs.
    pub errors: usize,
    /// Wrong answers.
    pub wrong: usize,
    /// Penalised average runtime, seconds.
    pub par2: f64,
    /// Certified answers, the SAT Competition's rule: right SAT answers whose model was
    /// checked and right UNSAT answers whose proof a verified checker accepted.
    pub certified: usize,
    /// PAR-2 with only the certified answers counted as solved, seconds.
    pub certified_par2: f64,
    /// Mean time of the solved runs, seconds (0 if none).
    pub mean_s: f64,
    /// Median time of the solved runs, seconds (0 if none).
    pub median_s: f64,
    /// Total time of all runs, seconds.
    pub total_s: f64,
    /// With `--count`: the solutions found over all runs that counted (None: no run
    /// counted).
    pub solutions: Option<u64>,
    /// With `--count`: the runs whose count finished (a solve without an answer leaves a
    /// count unfinished).
    pub counted: usize,
    /// With `--count`: the total time of the counts, every solve included, seconds.
    pub count_total_s: Option<f64>,
}

/// The median of `values` (0 for none), leaving them sorted.
pub fn median(values: &mut [f64]) -> f64 {
    values.sort_unstable_by(f64::total_cmp);
    middle(values)
}

/// The middle of ascending `sorted` (0 for none).
fn middle(sorted: &[f64]) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let m = sorted.len() / 2;
    if sorted.len() % 2 == 1 {
        sorted[m]
    } else {
        (sorted[m - 1] + sorted[m]) / 2.0
    }
}

/// The median of `values` (0 for none), as [`median`] gives it, found by selecting the
/// middle rather than sorting them all: `values` are left in no order. (Values equal under
/// `total_cmp` are the same bits, so which one lands where does not matter.)
pub fn median_unordered(values: &mut [f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let (m, odd) = (values.len() / 2, values.len() % 2 == 1);
    let (below, middle, _) = values.select_nth_unstable_by(m, f64::total_cmp);
    let middle = *middle;
    if odd {
        middle
    } else {
        let next = below
            .iter()
            .copied()
            .max_by(f64::total_cmp)
            .unwrap_or(middle);
        (next + middle) / 2.0
    }
}

/// The q-quantile of ascending `sorted`, linearly interpolated between the closest order
/// statistics (numpy's default; 0 for none): the box plots' quartiles and the resampled
/// intervals' percentiles.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let pos = q * (sorted.len() - 1) as f64;
    let below = pos.floor() as usize;
    let above = pos.ceil() as usize;
    sorted[below] + (sorted[above] - sorted[below]) * (pos - below as f64)
}

/// The mean of `values` (0 for none).
pub fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        0.0
    } else {
        values.iter().sum::<f64>() / values.len() as f64
    }
}

/// How runs are scored: on which time, and against which timeout (each row's own unless
/// the report is given one).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Scoring {
    /// The time every score and chart reads.
    pub time: TimeBasis,
    /// The report's own timeout, if given: it replaces each row's.
    pub timeout: Option<f64>,
}

impl Scoring {
    /// The timeout that scores `row`: the report's, else the row's limit on this time
    /// basis (its CPU limit on CPU time when it had one, else its wall limit).
    pub fn timeout_of(&self, row: &Row) -> f64 {
        self.timeout
            .unwrap_or_else(|| self.time.pick(row.cpu_limit_s(), row.timeout_s()))
    }

    /// The time of `row` on this basis.
    pub fn time_of(&self, row: &Row) -> f64 {
        row.time(self.time)
    }

    /// The status `row` counts as: an answer that came after the report's timeout is a
    /// timeout.
    pub fn status_of(&self, row: &Row) -> Status {
        match self.timeout {
            Some(t) if row.status.is_solved() && self.time_of(row) > t => Status::Timeout,
            _ => row.status,
        }
    }

    /// Solved, right, and within the timeout: counts towards the solved total and PAR-2.
    pub fn solved(&self, row: &Row) -> bool {
        !row.wrong && self.status_of(row).is_solved()
    }

    /// Solved and certified (a checked model, a verified proof): counts towards the
    /// certified total and PAR-2.
    pub fn certified(&self, row: &Row) -> bool {
        self.solved(row) && row.trust().certified()
    }
}

/// One configuration's score as its rows are met.
struct Tally {
    solver: Name,
    encoding: Name,
    score: Score,
    solved_times: Vec<f64>,
    penalised: f64,
    certified_penalised: f64,
}

impl Tally {
    fn new(solver: Name, encoding: Name) -> Tally {
        Tally {
            solver,
            encoding,
            score: Score::default(),
            solved_times: Vec::new(),
            penalised: 0.0,
            certified_penalised: 0.0,
        }
    }

    /// Counts `r` in.
    fn add(&mut self, r: &Row, scoring: Scoring) {
        let s = &mut self.score;
        s.runs += 1;
        if let Some(n) = r.solutions() {
            *s.solutions.get_or_insert(0) += u64::from(n);
            s.counted += 1;
        }
        if let Some(t) = r.count_time(scoring.time) {
            *s.count_total_s.get_or_insert(0.0) += t;
        }
        let time = scoring.time_of(r);
        s.total_s += time;
        if r.wrong {
            s.wrong += 1;
        } else {
            match scoring.status_of(r) {
                Status::Sat => s.sat += 1,
                Status::Unsat => s.unsat += 1,
                Status::Timeout => s.timeouts += 1,
                Status::Memout => s.memouts += 1,
                Status::Unknown | Status::Error => s.errors += 1,
            }
        }
        let unsolved = 2.0 * scoring.timeout_of(r);
        if scoring.solved(r) {
            self.solved_times.push(time);
            self.penalised += time;
        } else {
            self.penalised += unsolved;
        }
        if scoring.certified(r) {
            s.certified += 1;
            self.certified_penalised += time;
        } else {
            self.certified_penalised += unsolved;
        }
    }

    /// The score, labelled with its mode.
    fn finish(mut self, modes: &crate::report::mode::Modes) -> Score {
        let mut s = self.score;
        s.config = modes.config(&self.solver, &self.encoding);
        s.solved = s.sat + s.unsat;
        s.par2 = self.penalised / s.runs as f64;
        s.certified_par2 = self.certified_penalised / s.runs as f64;
        s.mean_s = mean(&self.solved_times);
        s.median_s = median_unordered(&mut self.solved_times);
        s
    }
}

/// Scores per (solver, encoding), in name order.
pub fn scores(rows: &[Row], scoring: Scoring) -> Vec<Score> {
    scores_in(rows, scoring, &crate::report::mode::Modes::of(rows))
}

/// Scores per (solver, encoding), in name order, labelled with `modes` (the rows'), in one
/// pass over the rows (each configuration's rows summed in row order).
pub fn scores_in(rows: &[Row], scoring: Scoring, modes: &crate::report::mode::Modes) -> Vec<Score> {
    // A row's configuration number (its encoding, solver and mode) → its tally + 1, so
    // that names are looked up once a configuration.
    let mut by_config: Vec<usize> = Vec::new();
    let mut index: NameMap<(Name, Name), usize> = NameMap::default();
    let mut tallies: Vec<Tally> = Vec::new();
    for r in rows {
        let config = r.config as usize;
        if config >= by_config.len() {
            by_config.resize(config + 1, 0);
        }
        if by_config[config] == 0 {
            let (solver, encoding) = (r.solver(), r.encoding());
            let tally = *index.entry((solver, encoding)).or_insert_with(|| {
                tallies.push(Tally::new(solver, encoding));
                tallies.len() - 1
            });
            by_config[config] = tally + 1;
        }
        tallies[by_config[config] - 1].add(r, scoring);
    }
    let name = |t: &Tally| (t.solver.as_str(), t.encoding.as_str());
    tallies.sort_by(|a, b| name(a).cmp(&name(b)));
    tallies.into_iter().map(|t| t.finish(modes)).collect()
}

/// The wrong answers, one line each, control characters escaped for the terminal.
pub fn wrong_lines(rows: &[Row]) -> Vec<String> {
    rows.iter()
        .filter(|r| r.wrong)
        .map(|r| {
            crate::report::table::terminal_text(&format!(
                "WRONG {} on {} ({}{}, run {}): {} — {}",
                r.solver(),
                r.instance(),
                r.encoding(),
                r.mode().map_or(String::new(), |m| format!(", {m}")),
                r.run(),
                r.status,
                r.error()
            ))
        })
        .collect()
}

/// One wrong answer.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct WrongAnswer {
    /// The solver, the encoding, and how the run ran (empty in a CSV that did not record
    /// it).
    #[serde(flatten)]
    pub config: Config,
    /// Instance id.
    pub instance: String,
    /// Repetition.
    pub run: u32,
    /// What the solver said.
    pub status: Status,
    /// What the check found.
    pub check: Check,
    /// Why it is wrong.
    pub error: String,
}

impl WrongAnswer {
    /// The wrong answers among `rows`, in their order.
    pub fn all(rows: &[Row]) -> Vec<WrongAnswer> {
        rows.iter()
            .filter(|r| r.wrong)
            .map(WrongAnswer::of)
            .collect()
    }

    /// The wrong answer of `row`.
    pub fn of(row: &Row) -> WrongAnswer {
        WrongAnswer {
            config: Config::new(
                &row.solver(),
                &row.encoding(),
                ModeLabel::of_row(row.mode()),
            ),
            instance: row.instance().to_string(),
            run: row.run(),
            status: row.status,
            check: row.check,
            error: row.error().to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(solver: &str, status: &str, wall: f64, wrong: bool) -> Row {
        Row {
            wrong,
            ..crate::report::test_rows::row("i", "extended", solver, status, wall)
        }
    }

    #[test]
    fn quantiles_interpolate() {
        let v = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(quantile(&v, 0.0), 1.0);
        assert_eq!(quantile(&v, 0.5), 3.0);
        assert_eq!(quantile(&v, 0.125), 1.5);
        assert_eq!(quantile(&v, 1.0), 5.0);
        assert_eq!(quantile(&[], 0.5), 0.0);
    }

    #[test]
    fn par2_by_hand() {
        let rows = vec![
            row("a", "SAT", 1.0, false),
            row("a", "UNSAT", 3.0, false),
            row("a", "TIMEOUT", 10.0, false),
            row("a", "UNSAT", 0.5, true),
        ];
        let s = &scores(&rows, Scoring::default())[0];
        assert_eq!(
            (s.runs, s.solved, s.sat, s.unsat, s.timeouts, s.wrong),
            (4, 2, 1, 1, 1, 1)
        );
        // (1 + 3 + 20 + 20) / 4
        assert!((s.par2 - 11.0).abs() < 1e-9);
        assert!((s.median_s - 2.0).abs() < 1e-9);
        assert!((s.mean_s - 2.0).abs() < 1e-9);
        assert!((s.total_s - 14.5).abs() < 1e-9);
        assert_eq!(wrong_lines(&rows).len(), 1);
    }

    #[test]
    fn certified_counts_only_checked_models_and_verified_proofs() {
        use crate::results::{Check, Trust};
        let mut rows = vec![
            row("a", "SAT", 1.0, false),
            row("a", "UNSAT", 2.0, false),
            row("a", "UNSAT", 3.0, false),
            row("a", "UNSAT", 4.0, false),
        ];
        rows[0].check = Check::ModelOk;
        rows[1].set_written_trust(Some(Trust::ProofVerified));
        rows[2].set_written_trust(Some(Trust::ProofChecked));
        // The fourth has no trust column: unchecked UNSAT derives to cross-checked.
        let s = &scores(&rows, Scoring::default())[0];
        assert_eq!((s.solved, s.certified), (4, 2));
        assert!((s.par2 - 2.5).abs() < 1e-9);
        // (1 + 2 + 20 + 20) / 4
        assert!((s.certified_par2 - 10.75).abs() < 1e-9);
    }

    #[test]
    fn a_cpu_limit_scores_cpu_time_against_it() {
        let mut rows = vec![
            row("a", "SAT", 5.0, false),
            row("a", "TIMEOUT", 30.0, false),
        ];
        for r in &mut rows {
            r.set_cpu_limit_s(Some(4.0));
            r.set_timeout_s(18.0);
        }
        rows[0].set_cpu_s(Some(2.0));
        rows[1].set_cpu_s(Some(4.1));
        rows[1].set_limit(Some(crate::solver::LimitHit::Cpu));
        // CPU time (the default) against the CPU limit: (2 + 2·4) / 2.
        let s = &scores(&rows, Scoring::default())[0];
        assert!((s.par2 - 5.0).abs() < 1e-9, "{}", s.par2);
        // Wall time against the wall limit: (5 + 2·18) / 2.
        let wall = Scoring {
            time: TimeBasis::Wall,
            ..Scoring::default()
        };
        assert!((scores(&rows, wall)[0].par2 - 20.5).abs() < 1e-9);
        // A row without a CPU limit keeps its wall limit on CPU time too.
        rows[1].set_cpu_limit_s(None);
        rows[1].set_limit(Some(crate::solver::LimitHit::Wall));
        let s = &scores(&rows, Scoring::default())[0];
        assert!((s.par2 - 19.0).abs() < 1e-9, "{}", s.par2);
    }

    #[test]
    fn a_shorter_report_timeout_turns_late_answers_into_timeouts() {
        let rows = vec![row("a", "SAT", 1.0, false), row("a", "UNSAT", 3.0, false)];
        let scoring = Scoring {
            timeout: Some(2.0),
            ..Scoring::default()
        };
        let s = &scores(&rows, scoring)[0];
        assert_eq!((s.solved, s.sat, s.unsat, s.timeouts), (1, 1, 0, 1));
        // (1 + 2·2) / 2
        assert!((s.par2 - 2.5).abs() < 1e-9);
    }

    /// Selecting the middle gives the median sorting gives, with ties and both parities.
    #[test]
    fn the_unordered_median_is_the_median() {
        let mut seed = 7u64;
        for n in 0..60 {
            let values: Vec<f64> = (0..n)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((seed >> 33) % 9) as f64 * 0.25
                })
                .collect();
            let (mut a, mut b) = (values.clone(), values);
            assert_eq!(
                median(&mut a).to_bits(),
                median_unordered(&mut b).to_bits(),
                "{a:?}"
            );
        }
    }
}
