//! One outcome per (instance, encoding, solver): what the per-instance charts and
//! comparisons (cactus, scatter, virtual best solver, speedups) work on.
//!
//! With repetitions (`--repeat`) a cell has several rows. It counts as solved only if every
//! repetition solved it, with the median time; a single wrong answer makes it wrong;
//! otherwise it takes the outcome of its first unsolved run. Conservative on purpose: a
//! solver that is right only sometimes should not look right.

use crate::report::aside::Aside;
use crate::report::rows::{Name, Row};
use crate::report::score::{Scoring, median_unordered};
use crate::solver::Status;

/// What a solver's answer on one instance amounts to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub enum Answer {
    /// Satisfiable, and the model checked.
    Sat,
    /// Unsatisfiable, not contradicted.
    Unsat,
    /// Out of time or memory.
    Timeout,
    /// A crash, no usable output, or the solver gave up (UNKNOWN).
    Error,
    /// A wrong answer.
    Wrong,
}

impl Answer {
    /// Every answer, in the order of its discriminant (its code in [`Outcome::judged`]).
    const ALL: [Answer; 5] = [
        Answer::Sat,
        Answer::Unsat,
        Answer::Timeout,
        Answer::Error,
        Answer::Wrong,
    ];

    /// SAT or UNSAT (and right).
    pub fn solved(self) -> bool {
        matches!(self, Answer::Sat | Answer::Unsat)
    }
}

/// One solver on one instance under one encoding: what came of it, by number (its
/// instance's in [`crate::report::rows`], its key, which every figure joins on, its
/// configuration's, and the rest of its first repetition's in [`JUDGED`]). 24 bytes, and
/// no reference to the rows: the rows can go once the outcomes are made.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The instance, by number ([`Outcome::instance`]).
    who: u32,
    /// What the instance is ([`Outcome::key`]).
    key: Name,
    /// The encoding and the solver, as the first row's configuration number.
    config: u32,
    /// What came of it ([`Outcome::answer`], the top three bits), and the timeout it was
    /// judged against with its first repetition's `--count` figures, by number in
    /// [`JUDGED`] (the rest).
    judged: u32,
    /// Seconds (CPU or wall, by the scoring): the median over the repetitions when
    /// solved, else the timeout.
    pub time: f64,
}

/// The bits of [`Outcome::judged`] below the answer.
const JUDGED_BITS: u32 = 29;

/// What an outcome was judged against and what its first repetition counted: the timeout
/// as the bits of its seconds, the solutions found plus one (0: none), and the count's
/// time on the scoring's basis plus a flag (0: none). A study has a few (one a count).
static JUDGED: Aside<3> = Aside::new([0, 0, 0]);

/// The words of [`JUDGED`].
fn judged_words(timeout: f64, solutions: Option<u32>, count_time: Option<f64>) -> [u64; 3] {
    [
        timeout.to_bits(),
        solutions.map_or(0, |s| u64::from(s) + 1),
        // The time's bits with the flag in place of the sign, which a time never has.
        count_time.map_or(0, |t| t.abs().to_bits() | 1 << 63),
    ]
}

/// The last words stored and their number: consecutive outcomes mostly share them.
#[derive(Default)]
struct LastJudged(Option<([u64; 3], u32)>);

impl LastJudged {
    fn number(&mut self, words: [u64; 3]) -> u32 {
        match self.0 {
            Some((last, number)) if last == words => number,
            _ => {
                let number = JUDGED.number(words);
                self.0 = Some((words, number));
                number
            }
        }
    }
}

/// The outcomes of `rows` scored by `scoring`, ordered by (instance, encoding, solver).
pub fn outcomes(rows: &[Row], scoring: Scoring) -> Vec<Outcome> {
    let cells = CellOrder::of(rows);
    let row = |i: &u32| &rows[*i as usize];
    // Made at its largest (one outcome a row, without repetitions) and cut to its length:
    // a list grown by doubling could hold two thirds more.
    let mut out = Vec::with_capacity(rows.len());
    let mut judged = LastJudged::default();
    out.extend(
        cells
            .order
            .chunk_by(|a, b| cells.same_cell(row(a), row(b)))
            .map(|runs| judge(runs.iter().map(row), scoring, &mut judged)),
    );
    out.shrink_to_fit();
    out
}

/// The outcomes of `rows`, as [`outcomes`] makes them, taking the rows: they are put in
/// the order of their cells (`cells`, of these rows) in place, and each cell, from the
/// last, is judged and cut off, the rows' memory given back as the outcomes take theirs,
/// so that the two are never held whole together.
pub fn outcomes_taking(mut rows: Vec<Row>, cells: CellOrder, scoring: Scoring) -> Vec<Outcome> {
    /// Rows cut off between two hand-backs of their memory.
    const GIVE_BACK: usize = 1 << 16;
    let CellOrder { order, ranks } = cells;
    arrange(&mut rows, order);
    let mut out = Vec::with_capacity(rows.len());
    let mut judged = LastJudged::default();
    let mut given_back_at = rows.len();
    while let Some(last) = rows.last() {
        let start = rows
            .iter()
            .rposition(|r| !ranks.same_cell(r, last))
            .map_or(0, |i| i + 1);
        out.push(judge(rows[start..].iter(), scoring, &mut judged));
        rows.truncate(start);
        if given_back_at - start >= GIVE_BACK {
            rows.shrink_to_fit();
            given_back_at = start;
        }
    }
    out.reverse();
    out.shrink_to_fit();
    out
}

/// Puts `rows` in the order `order` gives (row `k` becomes the row at place `order[k]`),
/// in place: each cycle of the permutation followed once.
fn arrange(rows: &mut [Row], mut order: Vec<u32>) {
    for start in 0..rows.len() {
        if order[start] as usize == start {
            continue; // in place, or placed already
        }
        let held = std::mem::take(&mut rows[start]);
        let mut at = start;
        loop {
            let from = order[at] as usize;
            order[at] = at as u32;
            if from == start {
                rows[at] = held;
                break;
            }
            rows[at] = std::mem::take(&mut rows[from]);
            at = from;
        }
    }
}

/// The outcome of one cell's rows (its repetitions, in order; at least one).
fn judge<'r>(
    runs: impl Iterator<Item = &'r Row> + Clone,
    scoring: Scoring,
    judged: &mut LastJudged,
) -> Outcome {
    let mut all = runs.clone();
    let first = all.next().expect("a cell has a row");
    let single = all.next().is_none();
    let limit = runs
        .clone()
        .map(|r| scoring.timeout_of(r))
        .fold(0.0, f64::max);
    let (answer, time) = if runs.clone().any(|r| r.wrong) {
        (Answer::Wrong, limit)
    } else if runs.clone().all(|r| scoring.solved(r)) {
        let answer = match scoring.status_of(first) {
            Status::Sat => Answer::Sat,
            _ => Answer::Unsat,
        };
        let time = if single {
            scoring.time_of(first) // no list for a single run
        } else {
            let mut times: Vec<f64> = runs.map(|r| scoring.time_of(r)).collect();
            median_unordered(&mut times)
        };
        (answer, time)
    } else {
        let first_failure = runs
            .clone()
            .find(|r| !scoring.solved(r))
            .map(|r| scoring.status_of(r));
        let answer = match first_failure {
            Some(Status::Timeout | Status::Memout) => Answer::Timeout,
            _ => Answer::Error,
        };
        (answer, limit)
    };
    let number = judged.number(judged_words(
        limit,
        first.solutions(),
        first.count_time(scoring.time),
    ));
    assert!(
        number < 1 << JUDGED_BITS,
        "fewer than 2^29 timeouts and counts"
    );
    Outcome {
        who: first.who,
        key: first.instance_name(),
        config: first.config,
        judged: (answer as u32) << JUDGED_BITS | number,
        time,
    }
}

/// The rows' places in the order of their cells: by instance, encoding, solver (each by
/// its text), then repetition and place. The instances are ranked once and the rows
/// put in their instance's bucket (a counting sort, 4 bytes a row); only each
/// instance's few rows are sorted.
pub struct CellOrder {
    /// The rows' places, in order.
    pub order: Vec<u32>,
    /// The ranks the order is made of.
    ranks: CellRanks,
}

/// Each instance number's rank among the instances' keys, and each configuration
/// number's (encoding, solver) ranks, in text order: two rows are of one cell when their
/// ranks are equal, told by two lookups in these lists.
struct CellRanks {
    of_who: Vec<u32>,
    of_config: Vec<(u32, u32)>,
    /// How many instances (distinct keys) there are: the ranks are below it.
    instances: usize,
}

impl CellRanks {
    fn of(rows: &[Row]) -> CellRanks {
        let whos = rows
            .iter()
            .map(|r| r.who as usize)
            .max()
            .map_or(0, |m| m + 1);
        let mut of_who = vec![u32::MAX; whos];
        let mut keys: Vec<Name> = Vec::new();
        for r in rows {
            if of_who[r.who as usize] == u32::MAX {
                of_who[r.who as usize] = 0;
                keys.push(r.instance_name());
            }
        }
        keys.sort_unstable_by(|a, b| a.as_str().cmp(b.as_str()));
        keys.dedup();
        let rank: crate::report::rows::NameMap<Name, u32> = keys
            .iter()
            .enumerate()
            .map(|(i, &k)| (k, i as u32))
            .collect();
        for r in rows {
            of_who[r.who as usize] = rank[&r.instance_name()];
        }
        drop(rank);
        let configs = rows
            .iter()
            .map(|r| r.config as usize)
            .max()
            .map_or(0, |m| m + 1);
        let mut config_names: Vec<Option<(Name, Name)>> = vec![None; configs];
        for r in rows {
            config_names[r.config as usize].get_or_insert_with(|| (r.encoding(), r.solver()));
        }
        let texts = crate::report::rows::Ranks::of(
            config_names.iter().flatten().flat_map(|&(e, s)| [e, s]),
        );
        let of_config = config_names
            .iter()
            .map(|c| c.map_or((0, 0), |(e, s)| (texts.of_name(e), texts.of_name(s))))
            .collect();
        CellRanks {
            of_who,
            of_config,
            instances: keys.len(),
        }
    }

    /// The rank of `r`'s instance.
    fn instance(&self, r: &Row) -> u32 {
        self.of_who[r.who as usize]
    }

    /// The ranks of `r`'s encoding and solver.
    fn config(&self, r: &Row) -> (u32, u32) {
        self.of_config[r.config as usize]
    }

    /// True when two rows are of one cell: one instance, encoding and solver.
    fn same_cell(&self, a: &Row, b: &Row) -> bool {
        self.instance(a) == self.instance(b) && self.config(a) == self.config(b)
    }
}

impl CellOrder {
    /// The order of `rows`' cells.
    pub fn of(rows: &[Row]) -> CellOrder {
        let ranks = CellRanks::of(rows);
        // Counting sort by instance rank.
        let mut start = vec![0u32; ranks.instances + 1];
        for r in rows {
            start[ranks.instance(r) as usize + 1] += 1;
        }
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        let bounds = start.clone();
        let mut order = vec![0u32; rows.len()];
        for (i, r) in rows.iter().enumerate() {
            let slot = &mut start[ranks.instance(r) as usize];
            order[*slot as usize] = i as u32;
            *slot += 1;
        }
        // Each bucket's keys are worked out once, then sorted.
        let mut keys: Vec<(u32, u32, u32, u32)> = Vec::new();
        for w in bounds.windows(2) {
            let bucket = &mut order[w[0] as usize..w[1] as usize];
            if bucket.len() > 1 {
                keys.clear();
                keys.extend(bucket.iter().map(|&i| {
                    let r = &rows[i as usize];
                    let (e, s) = ranks.config(r);
                    (e, s, r.run(), i)
                }));
                keys.sort_unstable();
                for (place, key) in bucket.iter_mut().zip(&keys) {
                    *place = key.3;
                }
            }
        }
        CellOrder { order, ranks }
    }

    /// True when two rows (of the rows ordered) are of one cell: one instance, encoding
    /// and solver.
    pub fn same_cell(&self, a: &Row, b: &Row) -> bool {
        self.ranks.same_cell(a, b)
    }

    /// True when some cell of `rows` (the rows ordered) has more than one row: an
    /// instance repeated.
    pub fn repeats(&self, rows: &[Row]) -> bool {
        self.order
            .windows(2)
            .any(|w| self.same_cell(&rows[w[0] as usize], &rows[w[1] as usize]))
    }
}

impl Outcome {
    /// What the instance is ([`Row::instance_key`]): outcomes of one instance join on it.
    pub fn key(&self) -> Name {
        self.key
    }

    /// What came of it.
    pub fn answer(&self) -> Answer {
        Answer::ALL[(self.judged >> JUDGED_BITS) as usize]
    }

    /// Its timeout and count figures, from [`JUDGED`].
    fn judged(&self) -> [u64; 3] {
        JUDGED.get(self.judged & ((1 << JUDGED_BITS) - 1))
    }

    /// The instance id, to show.
    pub fn instance(&self) -> Name {
        crate::report::rows::instance_of(self.who)
    }

    /// The encoding.
    pub fn encoding(&self) -> Name {
        crate::report::rows::config_names(self.config).0
    }

    /// The solver.
    pub fn solver(&self) -> Name {
        crate::report::rows::config_names(self.config).1
    }

    /// The timeout it was judged against, seconds.
    pub fn timeout(&self) -> f64 {
        f64::from_bits(self.judged()[0])
    }

    /// With `--count`: the solutions its first repetition found (None: no count, or one
    /// that did not finish).
    pub fn solutions(&self) -> Option<u32> {
        let plus_one = self.judged()[1];
        (plus_one > 0).then(|| (plus_one - 1) as u32)
    }

    /// With `--count`: the first repetition's time of the whole count, seconds, on the
    /// scoring's basis.
    pub fn count_time(&self) -> Option<f64> {
        let words = self.judged()[2];
        (words >> 63 == 1).then(|| f64::from_bits(words & !(1 << 63)))
    }
}

/// Outcomes grouped by instance, the instances in the order of their keys and each one's
/// outcomes in the order given. Outcomes come sorted by key (from [`outcomes`], or a part
/// of them), so grouping them is one pass; others are sorted first.
pub struct ByInstance<'o>(Vec<&'o Outcome>);

impl<'o> ByInstance<'o> {
    /// Groups `outcomes` by instance.
    pub fn of(outcomes: impl IntoIterator<Item = &'o Outcome>) -> ByInstance<'o> {
        let mut order: Vec<&Outcome> = outcomes.into_iter().collect();
        // Keys are interned: the same key is one address, met many times in a row.
        let in_order = |a: &Outcome, b: &Outcome| a.key() <= b.key();
        if !order.windows(2).all(|w| in_order(w[0], w[1])) {
            order.sort_by_key(|a| a.key());
        }
        ByInstance(order)
    }

    /// Each instance's outcomes.
    pub fn groups(&self) -> impl Iterator<Item = &[&'o Outcome]> {
        self.0.chunk_by(|a, b| a.key() == b.key())
    }
}

/// `outcomes` sorted by instance key: as they are when they come so (from [`outcomes`]),
/// else a sorted copy. Each instance's outcomes are then one run of the slice
/// (`chunk_by` on the key), with no list of references made.
pub fn sorted_by_instance<'o>(outcomes: &'o [Outcome]) -> std::borrow::Cow<'o, [Outcome]> {
    if outcomes.windows(2).all(|w| w[0].key() <= w[1].key()) {
        return std::borrow::Cow::Borrowed(outcomes);
    }
    let mut sorted = outcomes.to_vec();
    sorted.sort_by_key(|o| o.key());
    std::borrow::Cow::Owned(sorted)
}

/// Calls `each` with every pair of outcomes, one at a place of `left` and one at a place
/// of `right` (both ascending), that `same` matches, in order. The outcomes must come in
/// runs that `same` groups (as [`outcomes`] orders them by instance, then encoding): of
/// two places that do not match, the earlier one meets nothing further on in the other
/// list, so the pairs are one merge of the two lists.
pub fn join_places<'o>(
    outcomes: &'o [Outcome],
    (left, right): (&[u32], &[u32]),
    same: impl Fn(&Outcome, &Outcome) -> bool,
    mut each: impl FnMut(&'o Outcome, &'o Outcome),
) {
    let (mut i, mut j) = (0, 0);
    while i < left.len() && j < right.len() {
        let (a, b) = (&outcomes[left[i] as usize], &outcomes[right[j] as usize]);
        if same(a, b) {
            each(a, b);
            i += 1;
            j += 1;
        } else if left[i] < right[j] {
            i += 1;
        } else {
            j += 1;
        }
    }
}

/// Names in the order they first appear, each once.
pub fn first_appearance<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    for name in names {
        if !seen.iter().any(|s| s == name) {
            seen.push(name.to_string());
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_rows::row;
    use crate::results::TimeBasis;

    #[test]
    fn an_outcome_holds_names_not_texts() {
        let size = std::mem::size_of::<Outcome>();
        assert!(size <= 24, "{size} bytes");
        let rows = vec![row("i1", "minimal", "a", "SAT", 1.0)];
        let o = &outcomes(&rows, Scoring::default())[0];
        assert!(o.instance() == "i1" && o.encoding() == "minimal" && o.solver() == "a");
        assert_eq!((o.count_time(), o.solutions()), (None, None));
        let mut counted = crate::report::test_rows::full_row("i2", "minimal", "a", "SAT", 1.0);
        (counted.solutions, counted.count_wall_s) = (Some(0), Some(2.5));
        let rows = vec![crate::report::rows::Row::from(&counted)];
        let wall = Scoring {
            time: TimeBasis::Wall,
            timeout: None,
        };
        let o = &outcomes(&rows, wall)[0];
        assert_eq!((o.count_time(), o.solutions()), (Some(2.5), Some(0)));
        assert_eq!(o.key(), rows[0].instance_name());
    }

    #[test]
    fn repetitions_are_solved_only_if_all_are() {
        let mut again = row("i1", "minimal", "a", "TIMEOUT", 10.0);
        again.set_run(2);
        let rows = vec![
            row("i1", "minimal", "a", "SAT", 1.0),
            again,
            row("i2", "minimal", "a", "SAT", 1.0),
            row("i3", "minimal", "a", "UNSAT", 2.0),
            row("i4", "minimal", "a", "ERROR", 0.1),
        ];
        let answers: Vec<(Answer, f64)> = outcomes(&rows, Scoring::default())
            .iter()
            .map(|o| (o.answer(), o.time))
            .collect();
        assert_eq!(
            answers,
            [
                (Answer::Timeout, 10.0),
                (Answer::Sat, 1.0),
                (Answer::Unsat, 2.0),
                (Answer::Error, 10.0)
            ]
        );
    }

    #[test]
    fn outcomes_made_taking_the_rows_are_those_made_lending_them() {
        // Instances, encodings and solvers out of order, repetitions apart, a wrong answer,
        // and more rows than one hand-back of memory.
        let mut rows = Vec::new();
        for i in 0..70_000u32 {
            let instance = format!("i{}", (i * 7919) % 997);
            let encoding = ["minimal", "extended"][(i % 2) as usize];
            let solver = ["b", "a", "c"][(i % 3) as usize];
            let status = ["SAT", "TIMEOUT", "UNSAT", "ERROR"][(i % 4) as usize];
            let mut r = row(&instance, encoding, solver, status, f64::from(i % 13) + 0.5);
            r.set_run(1 + i / 5_000);
            r.wrong = i % 1_001 == 0;
            rows.push(r);
        }
        let lent = outcomes(&rows, Scoring::default());
        let cells = CellOrder::of(&rows);
        assert!(cells.repeats(&rows));
        let taken = outcomes_taking(rows, cells, Scoring::default());
        assert_eq!(taken, lent);
        assert!(lent.windows(2).all(|w| w[0].key() <= w[1].key()));
    }
}
