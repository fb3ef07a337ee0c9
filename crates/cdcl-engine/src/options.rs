//! The solver's tunable choices: the plain engine's defaults, and [`Options::simplifying`]
//! (what `native` runs), every technique with its switch.

use crate::restart::RestartPolicy;

/// Tunable choices of the solver.
#[derive(Clone, Debug)]
pub struct Options {
    /// The restart policy.
    pub restarts: RestartPolicy,
    /// Seed of the solver's random choices.
    pub seed: u64,
    /// Probability of deciding a random variable instead of the most active one.
    pub random_var_freq: f64,
    /// Decide a random value instead of the saved phase.
    pub random_polarity: bool,
    /// Variable activity decay (EVSIDS), 0 < decay < 1.
    pub var_decay: f64,
    /// Learnt clause activity decay, 0 < decay < 1.
    pub clause_decay: f64,
    /// Conflicts before the first reduction of the learnt clauses.
    pub first_reduce: u64,
    /// Growth of the interval between reductions, in conflicts.
    pub reduce_increment: u64,
    /// Simplify the formula before the search (first round) and between restarts, at
    /// level 0; false switches every technique below off at once. Off in
    /// `Options::default()` (the plain engine, whose search the puzzle generator's
    /// reproducibility rests on), on in [`Options::simplifying`] (what `native` uses).
    pub inprocess: bool,
    /// Bounded variable elimination (`elim.rs`).
    pub elim: bool,
    /// Equivalent-literal substitution (`equiv.rs`); it removes variables as elimination
    /// does, so it runs only when `elim` is on too (sessions switch both off that way).
    pub equiv: bool,
    /// Subsumption and self-subsuming strengthening of the irredundant clauses (`subsume.rs`).
    pub subsume: bool,
    /// Clauses an elimination may add beyond those it removes (SatELite's bound: 0).
    pub elim_bound: usize,
    /// Elimination may not add more literals than it removes (beyond `elim_lit_slack`
    /// and `elim_bound` clauses of 3 literals), see `elim.rs`.
    pub elim_lit_bound: bool,
    /// Literals an elimination may add beyond those it removes, under `elim_lit_bound`
    /// (see `elim.rs`): 1 in [`Options::simplifying`], 0 in the plain engine.
    pub elim_lit_slack: usize,
    /// Elimination may not add more non-binary clauses than it removes (beyond
    /// `elim_bound`), see `elim.rs`; off in [`Options::simplifying`].
    pub elim_long_bound: bool,
    /// Longest resolvent an elimination may add.
    pub elim_clause_limit: usize,
    /// Occurrences (both signs together) beyond which a variable is not tried.
    pub elim_occ_limit: usize,
    /// Elimination resolves only gate clauses against the others where a gate defines
    /// the variable (`gates.rs`); off by default (see docs/native-performance.md).
    pub elim_gates: bool,
    /// Clauses an elimination against a gate may add (where more than `elim_bound`).
    pub elim_gate_bound: usize,
    /// Hyper ternary resolution in simplification rounds, with `elim` (`ternary.rs`).
    pub ternary: bool,
    /// Conflicts before the first simplification round (0, the default: before the search
    /// begins, as a preprocessing). Later, easy formulas never pay for it (CaDiCaL's first
    /// elimination comes after 2,000 conflicts); measured, 2,000 here cost more on the
    /// colouring and factoring families than it saved on 25×25 sudokus.
    pub inprocess_first: u64,
    /// Conflicts before the second simplification round; the interval
    /// grows by as much after every round.
    pub inprocess_interval: u64,
    /// Effort of a simplification round, in per mille of the search's propagations since
    /// the previous round (each round also gets a fixed base, see `inprocess.rs`).
    pub inprocess_effort: u64,
    /// Failed-literal probing on the roots of the binary implication graph (`probe.rs`).
    pub probe: bool,
    /// Vivification of the learnt clauses of tiers 1 and 2 (`vivify.rs`), a round at the
    /// first restart after each reduction.
    pub vivify: bool,
    /// Effort of a learnt-clause vivification round, in per mille of the search's
    /// propagation ticks since the previous round.
    pub vivify_effort: u64,
    /// Vivification of irredundant clauses (`vivify.rs`).
    pub vivify_irred: bool,
    /// Three tiers of learnt clauses by LBD, each reduced by its own rule (`tiers.rs`);
    /// off: glucose's halving of every clause of LBD > 2. Off in [`Options::simplifying`]
    /// too: it cost time on random 3-SAT and most structured families we measured (see
    /// the README's performance section).
    pub tiers: bool,
    /// Target and best phases with rephasing (`rephase.rs`); off: saved phases only.
    pub rephase: bool,
    /// Target phases in stable search without the resets of rephasing (`rephase.rs`).
    pub target_phase: bool,
    /// Under mode switching, focused and stable search rank the variables apart
    /// (`heap.rs`, [`super::heap::VarOrder::swap_scores`]).
    pub mode_scores: bool,
    /// After each conflict, bump the variables of the reasons of the learnt clause's
    /// literals too (`analyze.rs`; CaDiCaL's and Kissat's reason-side bumping).
    pub bump_reasons: bool,
    /// The activity decay of focused search under mode switching (`var_decay` rules
    /// the stable phases, and every phase when modes do not switch).
    pub focused_decay: Option<f64>,
    /// At the end of each solve call, delete the learnt clauses of the calls before it
    /// (`forget.rs`): for sessions solving unrelated problems one after another.
    pub forget_between_calls: bool,
    /// Chronological backtracking (`chrono.rs`): a backjump over more than this many
    /// levels goes back one level only; 0: always the full backjump.
    pub chrono: u32,
    /// A reduction ranks the learnt clauses by activity alone (MiniSat's rule) instead of
    /// by LBD and then activity (glucose's); clauses of LBD ≤ 2 are kept either way
    /// (`reduce.rs`, `tiers.rs`).
    pub reduce_activity: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            restarts: RestartPolicy::default(),
            seed: 0,
            random_var_freq: 0.0,
            random_polarity: false,
            var_decay: 0.95,
            clause_decay: 0.999,
            first_reduce: 2000,
            reduce_increment: 300,
            inprocess: false,
            elim: true,
            equiv: true,
            subsume: true,
            elim_bound: 0,
            elim_lit_bound: true,
            elim_lit_slack: 0,
            elim_long_bound: true,
            elim_clause_limit: 100,
            elim_occ_limit: 1000,
            elim_gates: false,
            elim_gate_bound: 0,
            ternary: false,
            inprocess_first: 0,
            inprocess_interval: 10_000,
            inprocess_effort: 100,
            probe: true,
            vivify: true,
            vivify_effort: 100,
            vivify_irred: false,
            tiers: false,
            rephase: false,
            target_phase: false,
            mode_scores: false,
            bump_reasons: false,
            focused_decay: None,
            forget_between_calls: false,
            reduce_activity: false,
            chrono: 0,
        }
    }
}

impl Options {
    /// The default options with elimination, subsumption and probing on, and learnt
    /// clauses reduced by activity (vivification, clause tiers and rephasing stay off:
    /// measured, each cost time on most of the README's families): what `native` runs.
    /// The search alternates focused and stable phases (`restart.rs`), steers its stable
    /// phases by target phases (`rephase.rs`), reduces the learnt clauses first after
    /// 1,000 conflicts, and elimination is bounded by clauses and literals but may turn
    /// binary clauses into longer ones: together they took 3-colouring from 2.3× minisat
    /// to about 1× and random 3-SAT from 8.4 to 6.5 s (the README's performance section);
    /// each alone did not pay (Luby restarts cost random 3-SAT, full elimination under
    /// glucose's restarts cost colouring). Each conflict also bumps the variables of the
    /// learnt clause's reasons (factoring 0.75×, pigeonhole 0.21×, Tseitin 0.74× the
    /// time; ordering 1.7×).
    pub fn simplifying() -> Options {
        Options {
            inprocess: true,
            restarts: RestartPolicy::Modes { unit: 100 },
            target_phase: true,
            bump_reasons: true,
            elim_long_bound: false,
            elim_lit_slack: 1,
            first_reduce: 1000,
            rephase: false,
            vivify: false,
            reduce_activity: true,
            forget_between_calls: true,
            ..Options::default()
        }
    }
}
