//! Who matters to the virtual best solver (VBS), the figures of portfolio papers: per
//! solver (every encoding it ran under together) and per solver × encoding, its unique
//! solves (instances it solved and nothing else did) and its marginal contribution (the
//! VBS without it against the VBS with everything: how many fewer instances it solves, and
//! how much its PAR-2 grows).
//!
//! The VBS here is the one of `report::vbs`: per instance, the fastest right answer of any
//! solver under any encoding, twice the instance's timeout when none; the VBS without a
//! solver is scored over the same instances, so an instance only it ran counts as unsolved.

use serde::Serialize;

use crate::report::outcome::{Outcome, sorted_by_instance};
use crate::report::rows::Name;

/// One solver's (or solver × encoding's) part in the VBS.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Contribution {
    /// The solver.
    pub solver: String,
    /// The encoding; none when the figures are over all of the solver's encodings.
    pub encoding: Option<String>,
    /// How it ran (see `report::mode`): over all its encodings, each mode it ran in.
    pub mode: String,
    /// Instances it solved.
    pub solved: usize,
    /// Instances it solved and nothing else did.
    pub unique: usize,
    /// Instances the VBS without it solves.
    pub vbs_solved_without: usize,
    /// Instances the VBS loses without it (the VBS's solved count minus the above).
    pub vbs_solved_lost: usize,
    /// The PAR-2 of the VBS without it, seconds.
    pub vbs_par2_without: f64,
    /// The PAR-2 of the VBS without it minus with it, seconds (0 when it never helps).
    pub vbs_par2_gain: f64,
}

/// A VBS's score as it is summed up: instances solved and the sum of per-instance PAR-2.
#[derive(Clone, Copy, Default)]
struct Tally {
    solved: usize,
    total: f64,
}

impl Tally {
    /// Adds one instance whose best right time is `best` (infinite: none) and whose
    /// timeout is `timeout`.
    fn add(&mut self, best: f64, timeout: f64) {
        if best.is_finite() {
            self.solved += 1;
            self.total += best;
        } else {
            self.total += 2.0 * timeout;
        }
    }
}

/// The contributions of the members of a partition of `outcomes`: `member(o)` names the
/// member index of an outcome, `names[i]` the (solver, encoding) of member i. One pass over
/// the instances, keeping per instance only its members' best times: the VBS with every
/// member and without each one are summed side by side, in instance order.
fn contributions(
    outcomes: &[Outcome],
    member: impl Fn(&Outcome) -> usize,
    names: &[(String, Option<String>)],
) -> Vec<Contribution> {
    let members = names.len();
    let mut instances = 0usize;
    let mut all = Tally::default();
    let mut without = vec![Tally::default(); members];
    let (mut solved, mut unique) = (vec![0usize; members], vec![0usize; members]);
    // This instance's members that solved it, with their best time.
    let mut best: Vec<(usize, f64)> = Vec::new();
    let sorted = sorted_by_instance(outcomes);
    for group in sorted.chunk_by(|a, b| a.key() == b.key()) {
        instances += 1;
        best.clear();
        let mut timeout: f64 = 0.0;
        for o in group {
            timeout = timeout.max(o.timeout());
            let m = member(o);
            if o.answer().solved() && m < members {
                match best.iter_mut().find(|(n, _)| *n == m) {
                    Some((_, t)) => *t = t.min(o.time),
                    None => best.push((m, o.time)),
                }
            }
        }
        let fastest = |skip: Option<usize>| {
            best.iter()
                .filter(|(m, _)| Some(*m) != skip)
                .map(|(_, t)| *t)
                .fold(f64::INFINITY, f64::min)
        };
        all.add(fastest(None), timeout);
        for (m, tally) in without.iter_mut().enumerate() {
            tally.add(fastest(Some(m)), timeout);
        }
        for &(m, _) in &best {
            solved[m] += 1;
            if best.len() == 1 {
                unique[m] += 1;
            }
        }
    }
    let count = instances.max(1) as f64;
    let all_par2 = all.total / count;
    names
        .iter()
        .enumerate()
        .map(|(m, (solver, encoding))| {
            let par2_without = without[m].total / count;
            Contribution {
                solver: solver.clone(),
                encoding: encoding.clone(),
                mode: String::new(),
                solved: solved[m],
                unique: unique[m],
                vbs_solved_without: without[m].solved,
                vbs_solved_lost: all.solved - without[m].solved,
                vbs_par2_without: par2_without,
                vbs_par2_gain: par2_without - all_par2,
            }
        })
        .collect()
}

/// Per solver, all its encodings together, in the order of `solvers`.
pub fn by_solver(outcomes: &[Outcome], solvers: &[String]) -> Vec<Contribution> {
    let names: Vec<(String, Option<String>)> = solvers.iter().map(|s| (s.clone(), None)).collect();
    // The outcomes' names are interned: equal texts are one name.
    let interned: Vec<Name> = solvers.iter().map(|s| Name::new(s)).collect();
    let index = |o: &Outcome| interned.iter().position(|s| *s == o.solver()).unwrap_or(0);
    contributions(outcomes, index, &names)
}

/// Per solver × encoding, in the order of `configurations`.
pub fn by_configuration(
    outcomes: &[Outcome],
    configurations: &[(String, String)],
) -> Vec<Contribution> {
    let names: Vec<(String, Option<String>)> = configurations
        .iter()
        .map(|(s, e)| (s.clone(), Some(e.clone())))
        .collect();
    // The outcomes' names are interned: equal texts are one name.
    let interned: Vec<(Name, Name)> = configurations
        .iter()
        .map(|(s, e)| (Name::new(s), Name::new(e)))
        .collect();
    let index = |o: &Outcome| {
        interned
            .iter()
            .position(|(s, e)| *s == o.solver() && *e == o.encoding())
            .unwrap_or(0)
    };
    contributions(outcomes, index, &names)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::outcome::outcomes;
    use crate::report::score::Scoring;
    use crate::report::test_rows::row;
    use crate::report::vbs::virtual_best;

    /// Timeout 10 s.
    ///
    /// | instance | a        | b        | c        |
    /// |----------|----------|----------|----------|
    /// | i1       | SAT 1    | SAT 2    | SAT 3    |
    /// | i2       | SAT 5    | TIMEOUT  | UNSAT 4 WRONG |
    /// | i3       | TIMEOUT  | UNSAT 6  | ERROR    |
    /// | i4       | TIMEOUT  | TIMEOUT  | TIMEOUT  |
    #[test]
    fn unique_solves_and_marginal_contributions_by_hand() {
        let mut wrong = row("i2", "e", "c", "UNSAT", 4.0);
        wrong.wrong = true;
        let rows = vec![
            row("i1", "e", "a", "SAT", 1.0),
            row("i1", "e", "b", "SAT", 2.0),
            row("i1", "e", "c", "SAT", 3.0),
            row("i2", "e", "a", "SAT", 5.0),
            row("i2", "e", "b", "TIMEOUT", 10.0),
            wrong,
            row("i3", "e", "a", "TIMEOUT", 10.0),
            row("i3", "e", "b", "UNSAT", 6.0),
            row("i3", "e", "c", "ERROR", 0.1),
            row("i4", "e", "a", "TIMEOUT", 10.0),
            row("i4", "e", "b", "TIMEOUT", 10.0),
            row("i4", "e", "c", "TIMEOUT", 10.0),
        ];
        let outcomes = outcomes(&rows, Scoring::default());
        let solvers = ["a".to_string(), "b".into(), "c".into()];
        let c = by_solver(&outcomes, &solvers);
        // VBS: 1 + 5 + 6 + 20 = 32 over 4 instances, 3 solved.
        let vbs = virtual_best(&outcomes);
        assert_eq!(vbs.solved, 3);
        assert!((vbs.par2 - 8.0).abs() < 1e-12);
        // Without a: 2 + 20 + 6 + 20 = 48 → 12; 2 solved; unique: i2.
        // Without b: 1 + 5 + 20 + 20 = 46 → 11.5; 2 solved; unique: i3.
        // Without c: 1 + 5 + 6 + 20 = 32 → 8; 3 solved; unique: none (its i2 is wrong).
        let got: Vec<(usize, usize, usize, usize)> = c
            .iter()
            .map(|c| (c.solved, c.unique, c.vbs_solved_without, c.vbs_solved_lost))
            .collect();
        assert_eq!(got, [(2, 1, 2, 1), (2, 1, 2, 1), (1, 0, 3, 0)]);
        let gains: Vec<f64> = c.iter().map(|c| c.vbs_par2_gain).collect();
        for (g, e) in gains.iter().zip([4.0, 3.5, 0.0]) {
            assert!((g - e).abs() < 1e-12, "{gains:?}");
        }
        assert!((c[0].vbs_par2_without - 12.0).abs() < 1e-12);
        // Per configuration, one encoding: the same figures.
        let configs: Vec<(String, String)> =
            solvers.iter().map(|s| (s.clone(), "e".into())).collect();
        let per = by_configuration(&outcomes, &configs);
        assert_eq!(per[1].unique, 1);
        assert_eq!(per[1].encoding.as_deref(), Some("e"));
    }
}
