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

/// One work counter, by name: what `bench report --score` ranks by and the report's tables
/// show.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Counter {
    /// [`Work::conflicts`].
    Conflicts,
    /// [`Work::decisions`].
    Decisions,
    /// [`Work::propagations`].
    Propagations,
    /// [`Work::guesses`].
    Guesses,
}

impl Counter {
    /// Every counter, in the order tables list them.
    pub const ALL: [Counter; 4] = [
        Counter::Conflicts,
        Counter::Decisions,
        Counter::Propagations,
        Counter::Guesses,
    ];

    /// Its name (the CSV column's).
    pub fn as_str(self) -> &'static str {
        match self {
            Counter::Conflicts => "conflicts",
            Counter::Decisions => "decisions",
            Counter::Propagations => "propagations",
            Counter::Guesses => "guesses",
        }
    }

    /// Its value in `work`, if the solver gave it.
    pub fn of(self, work: &Work) -> Option<u64> {
        match self {
            Counter::Conflicts => work.conflicts,
            Counter::Decisions => work.decisions,
            Counter::Propagations => work.propagations,
            Counter::Guesses => work.guesses,
        }
    }
}

impl std::fmt::Display for Counter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
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
