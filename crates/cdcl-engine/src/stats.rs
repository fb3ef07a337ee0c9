//! The counters of the solver's work (conflicts, decisions, propagations, ...),
//! cumulative over all calls, and their names.

/// Counters of the solver's work, cumulative over all calls.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Solve calls.
    pub solves: u64,
    /// Conflicts.
    pub conflicts: u64,
    /// Decisions (assumptions not counted).
    pub decisions: u64,
    /// Literals propagated.
    pub propagations: u64,
    /// Restarts.
    pub restarts: u64,
    /// Learnt clauses (units included).
    pub learnt: u64,
    /// Learnt clauses deleted.
    pub deleted: u64,
    /// Literals removed from learnt clauses by minimisation.
    pub minimised_literals: u64,
    /// Reductions of the learnt clause database.
    pub reductions: u64,
    /// Arena compactions.
    pub compactions: u64,
    /// Simplification rounds.
    pub inprocessings: u64,
    /// Variables eliminated.
    pub eliminated: u64,
    /// Eliminated variables restored by a later clause or assumption.
    pub restored: u64,
    /// Resolvents added by elimination.
    pub resolvents: u64,
    /// Eliminations that resolved against a gate (`gates.rs`).
    pub gate_eliminations: u64,
    /// Resolvents added by hyper ternary resolution (`ternary.rs`).
    pub ternary_resolvents: u64,
    /// Irredundant clauses removed because another one subsumes them.
    pub subsumed: u64,
    /// Literals removed from irredundant clauses (self-subsumption, level-0 units).
    pub strengthened: u64,
    /// Failed literals found by probing (their negations became units).
    pub failed_literals: u64,
    /// Learnt clauses shortened by vivification.
    pub vivified: u64,
    /// Resets of the saved phases (`rephase.rs`).
    pub rephases: u64,
    /// Variables replaced by an equivalent literal (`equiv.rs`).
    pub substituted: u64,
    /// Backjumps cut short to one level (`chrono.rs`).
    pub chronological: u64,
}

impl Stats {
    /// The counters as named pairs (for `c` lines and result rows).
    pub fn pairs(&self) -> Vec<(String, u64)> {
        [
            ("conflicts", self.conflicts),
            ("decisions", self.decisions),
            ("propagations", self.propagations),
            ("restarts", self.restarts),
            ("learnt", self.learnt),
            ("deleted", self.deleted),
            ("minimised_literals", self.minimised_literals),
            ("reductions", self.reductions),
            ("inprocessings", self.inprocessings),
            ("eliminated", self.eliminated),
            ("gate_eliminations", self.gate_eliminations),
            ("ternary_resolvents", self.ternary_resolvents),
            ("subsumed", self.subsumed),
            ("strengthened", self.strengthened),
            ("failed_literals", self.failed_literals),
            ("vivified", self.vivified),
            ("rephases", self.rephases),
            ("substituted", self.substituted),
            ("chronological", self.chronological),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
    }
}
