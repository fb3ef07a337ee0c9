//! A solver's own work on one run, counted by the solver rather than the clock, so that it
//! does not depend on the machine: conflicts, decisions and propagations of a CDCL solver,
//! guesses of a dedicated puzzle solver. One struct for every solver; a counter a solver
//! does not give is `None` (an empty CSV cell). Read from the named counters a solver
//! leaves in [`super::Outcome::stats`].

use serde::Serialize;

/// The work counters of one run (each `None` when the solver gives none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Work {
    /// Conflicts (CDCL).
    pub conflicts: Option<u64>,
    /// Decisions (branching literals).
    pub decisions: Option<u64>,
    /// Propagated literals.
    pub propagations: Option<u64>,
    /// Guesses of a dedicated puzzle solver (tentative placements at branch points, the
    /// count tdoku reports): 0 when propagation alone solved the puzzle.
    pub guesses: Option<u64>,
}

impl Work {
    /// The counters found among a solver's named statistics.
    pub fn of(stats: &[(String, u64)]) -> Work {
        let get = |name: &str| stats.iter().find(|(k, _)| k == name).map(|&(_, v)| v);
        Work {
            conflicts: get("conflicts"),
            decisions: get("decisions"),
            propagations: get("propagations"),
            guesses: get("guesses"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_are_read_by_name_and_missing_ones_stay_empty() {
        let stats = vec![("conflicts".to_string(), 7), ("restarts".to_string(), 2)];
        assert_eq!(
            Work::of(&stats),
            Work {
                conflicts: Some(7),
                ..Work::default()
            }
        );
    }
}
