//! The solver state and its incremental interface (in the spirit of IPASIR): add clauses,
//! solve under assumptions, read the model or the failed assumptions, add more clauses,
//! solve again. Learnt clauses, activities and phases carry over between calls.
//!
//! The search is MiniSat's: propagate; on a conflict, learn a clause (first UIP), backjump
//! and let the clause assert; otherwise restart if the policy says so, clean the database
//! when it is due, re-decide the assumptions (decision levels 1..=k are the k assumptions,
//! an already-true one gets an empty level), then pick the most active unassigned variable
//! and give it its saved phase. Limits (deadline, conflict budget, interrupt flag) are
//! checked every 32 steps of the loop, each step being one decision or one conflict, and
//! whenever propagation has scanned another [`TICK_CHECK`] literals of long clauses in
//! search of a new watch, so a limit stops the search within a millisecond or so even
//! where one clause holds millions of literals. Loading a formula
//! ([`CdclSolver::add_cnf_limited`]) and every simplification pass look at the same
//! limits inside their loops.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use super::clause::{CRef, ClauseArena, NO_REASON};
use super::extend::Extension;
use super::heap::VarOrder;
use super::proof::DratWriter;
use super::rephase::Phases;
use super::restart::Restarts;
use super::watch::Watcher;
use cnf_core::rng::SplitMix64;
use cnf_core::{Cnf, Lit, Model, Var};

pub(crate) use super::limits::{LOAD_CHECK, SearchBudget};
pub use super::limits::{SolveLimits, TICK_CHECK};
pub use super::options::Options;
pub use super::stats::Stats;

/// The answer of one [`CdclSolver::solve_with`] call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveResult {
    /// Satisfiable under the assumptions: read the model with [`CdclSolver::value`].
    Sat,
    /// Unsatisfiable under the assumptions: see [`CdclSolver::failed_assumptions`].
    Unsat,
    /// A limit stopped the search.
    Unknown,
}

/// A CDCL SAT solver with an incremental interface.
#[derive(Debug)]
pub struct CdclSolver {
    // The formula.
    /// Storage of every clause, original and learnt.
    pub(super) arena: ClauseArena,
    /// References of the original (problem) clauses of length ≥ 2.
    pub(super) originals: Vec<CRef>,
    /// References of the learnt clauses of length ≥ 2.
    pub(super) learnts: Vec<CRef>,
    /// `watches[l]`: long clauses watching literal code `l`, visited when `l` turns false.
    pub(super) watches: Vec<Vec<Watcher>>,
    /// `bin_watches[l]`: binary clauses containing `l`, the blocker being the other literal.
    pub(super) bin_watches: Vec<Vec<Watcher>>,
    /// Literals whose watch lists may hold watchers of deleted clauses: the first two
    /// literals (the watched ones) of every clause freed since the last purge.
    pub(super) smudged: Vec<u32>,
    /// False once the clauses alone are unsatisfiable (every later call answers UNSAT).
    pub(super) ok: bool,

    // The assignment.
    /// Value of each literal code: 1 true, -1 false, 0 unassigned.
    pub(super) vals: Vec<i8>,
    /// Decision level at which each variable was assigned.
    pub(super) level: Vec<u32>,
    /// The clause that implied each variable, or `NO_REASON` (decision, unassigned, level 0).
    pub(super) reason: Vec<CRef>,
    /// Assigned literals in order; also the propagation queue.
    pub(super) trail: Vec<Lit>,
    /// `trail_lim[d]`: trail length when decision level `d + 1` began.
    pub(super) trail_lim: Vec<usize>,
    /// First trail literal not propagated yet.
    pub(super) qhead: usize,

    // Heuristics.
    /// Variable activities (EVSIDS heap) and saved phases.
    pub(super) order: VarOrder,
    /// Bump amount of clause activities; grows by `1/clause_decay` each conflict.
    pub(super) clause_inc: f32,
    /// When to restart.
    pub(super) restarts: Restarts,
    /// Conflict count at which the learnt clauses are reduced next.
    pub(super) next_reduce: u64,
    /// Current interval between reductions.
    pub(super) reduce_interval: u64,
    /// Trail length at the last removal of satisfied clauses (level 0).
    pub(super) simplified_trail: usize,
    /// No removal of satisfied clauses before this many propagations: a removal scans
    /// every clause, so it must be paid for by as much propagation work (MiniSat's rule).
    pub(super) next_simplify: u64,
    /// Random choices (decisions, phases, initial activities).
    pub(super) rng: SplitMix64,
    /// The options the solver was built with.
    pub(super) options: Options,

    // Scratch space of conflict analysis.
    /// Per variable: met in the current analysis (1) or not (0).
    pub(super) seen: Vec<u8>,
    /// The clause being learnt.
    pub(super) learnt: Vec<Lit>,
    /// Literals whose `seen` mark must be cleared after minimisation.
    pub(super) to_clear: Vec<Lit>,
    /// Work stack of the minimisation's depth-first search: a literal being proved
    /// redundant and the index of the next literal of its reason clause to look at.
    pub(super) stack: Vec<(Lit, u32)>,
    /// Per decision level: the stamp of the last LBD computation that counted it.
    pub(super) level_stamp: Vec<u64>,
    /// The current LBD stamp.
    pub(super) lbd_stamp: u64,

    // The incremental interface.
    /// Propagation ticks over the solver's life (`propagate.rs`: watch lists visited,
    /// long clauses read, literals scanned for new watches); the search looks at its
    /// limits every [`TICK_CHECK`] of them.
    pub(super) ticks: u64,
    /// Scratch space of `add_clause`.
    pub(super) add_buf: Vec<Lit>,
    /// Assumptions of the current call.
    pub(super) assumptions: Vec<Lit>,
    /// After UNSAT under assumptions: the assumptions that together failed.
    pub(super) failed: Vec<Lit>,
    /// After SAT: the value of each variable.
    pub(super) model: Vec<bool>,
    /// Limits of each call.
    pub(super) limits: SolveLimits,
    /// The last call stopped because the clauses outgrew `limits.memory`.
    pub(super) out_of_memory: bool,

    // Output.
    /// The DRAT proof being written, if any.
    pub(super) proof: Option<DratWriter>,
    /// Level-0 trail literals already written to the proof as units.
    pub(super) proof_units: usize,
    /// Work counters.
    pub(super) stats: Stats,

    // Simplification.
    /// Per variable: eliminated (its clauses are on the extension stack).
    pub(super) eliminated: Vec<bool>,
    /// Per variable: how often frozen (frozen variables are never eliminated).
    pub(super) frozen: Vec<u32>,
    /// Per variable: what changed in its irredundant clauses since the simplifiers last
    /// looked ([`super::inprocess::DIRTY_ELIM`], [`super::inprocess::DIRTY_SUBSUME`]).
    pub(super) dirty: Vec<u8>,
    /// The clauses removed by elimination, to extend models.
    pub(super) extension: Extension,
    /// Occurrence lists of the irredundant clauses, by literal code (only during a round).
    pub(super) occs: Vec<Vec<CRef>>,
    /// Per variable: +1 / -1 when its positive / negative literal is marked (scratch).
    pub(super) marks: Vec<i8>,
    /// Conflict count at which the next simplification round is due.
    pub(super) next_inprocess: u64,
    /// Propagations at the end of the last simplification round (effort accounting).
    pub(super) inprocess_propagations: u64,
    /// During a round: the first trail literal not yet pushed through the occurrences.
    pub(super) occ_head: usize,
    /// Where probing resumes in its candidate list (a rotation offset).
    pub(super) probe_next: u32,
    /// Per literal code: the formula's epoch (see `probe.rs`) when the literal was last
    /// probed or implied by a probe that did not fail, plus one; 0 if never.
    pub(super) probed: Vec<u64>,
    /// Target and best phases, and the rephase schedule.
    pub(super) phases: Phases,
    /// A learnt-clause vivification round is due at the next restart (`vivify.rs`).
    pub(super) vivify_pending: bool,
    /// `ticks` at the end of the last vivification round.
    pub(super) vivify_ticks: u64,
}

impl Default for CdclSolver {
    fn default() -> Self {
        CdclSolver::new()
    }
}

impl CdclSolver {
    /// A solver with no variables and no clauses, default options.
    pub fn new() -> CdclSolver {
        CdclSolver::with_options(Options::plain())
    }

    /// A solver with the given options.
    pub fn with_options(options: Options) -> CdclSolver {
        let first_round = options.inprocess_first;
        let mut s = CdclSolver {
            arena: ClauseArena::default(),
            originals: Vec::new(),
            learnts: Vec::new(),
            watches: Vec::new(),
            bin_watches: Vec::new(),
            ok: true,
            vals: Vec::new(),
            level: Vec::new(),
            reason: Vec::new(),
            trail: Vec::new(),
            trail_lim: Vec::new(),
            qhead: 0,
            order: VarOrder::default(),
            clause_inc: 1.0,
            restarts: Restarts::new(options.restarts),
            next_reduce: options.first_reduce,
            reduce_interval: options.first_reduce,
            simplified_trail: 0,
            next_simplify: 0,
            rng: SplitMix64::new(options.seed),
            options,
            seen: Vec::new(),
            learnt: Vec::new(),
            to_clear: Vec::new(),
            stack: Vec::new(),
            level_stamp: vec![0],
            lbd_stamp: 0,
            add_buf: Vec::new(),
            ticks: 0,
            assumptions: Vec::new(),
            failed: Vec::new(),
            model: Vec::new(),
            limits: SolveLimits::default(),
            out_of_memory: false,
            proof: None,
            proof_units: 0,
            stats: Stats::default(),
            eliminated: Vec::new(),
            dirty: Vec::new(),
            frozen: Vec::new(),
            extension: Extension::default(),
            occs: Vec::new(),
            marks: Vec::new(),
            smudged: Vec::new(),
            next_inprocess: first_round,
            inprocess_propagations: 0,
            occ_head: 0,
            probe_next: 0,
            probed: Vec::new(),
            phases: Phases::default(),
            vivify_pending: false,
            vivify_ticks: 0,
        };
        s.order.decay = s.mode_decay(); // the search starts in its first mode
        s
    }

    /// Writes a DRAT proof (text, or binary) of the UNSAT answers to `path`.
    pub fn set_proof(&mut self, path: &Path, binary: bool) -> std::io::Result<()> {
        self.proof = Some(DratWriter::create(path, binary)?);
        Ok(())
    }

    /// Writes a DRAT proof (text, or binary) of the UNSAT answers to `sink`.
    pub fn set_proof_sink(&mut self, sink: Box<dyn Write + Send>, binary: bool) {
        self.proof = Some(DratWriter::new(sink, binary));
    }

    /// Flushes the proof; returns the first error met writing it.
    pub fn finish_proof(&mut self) -> std::io::Result<()> {
        match &mut self.proof {
            Some(p) => p.finish(),
            None => Ok(()),
        }
    }

    /// Sets the limits of the following solve calls.
    pub fn set_limits(&mut self, limits: SolveLimits) {
        self.limits = limits;
    }

    /// True when the last call stopped because its clauses outgrew the memory limit.
    pub fn out_of_memory(&self) -> bool {
        self.out_of_memory
    }

    /// Bytes the clauses take, about: the arena (live and garbage words) and two watches
    /// of 8 bytes per clause.
    pub fn clause_bytes(&self) -> u64 {
        let clauses = (self.originals.len() + self.learnts.len()) as u64;
        self.arena.size() as u64 * 4 + clauses * 16
    }

    /// The work counters so far.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Adds every clause of `cnf` (and its variables), sizing the clause storage and the
    /// binary watch lists up front. Returns false when the formula is now known UNSAT.
    pub fn add_cnf(&mut self, cnf: &Cnf) -> bool {
        self.load(cnf, &SearchBudget::default())
            .expect("no limit stops a load without limits")
    }

    /// [`CdclSolver::add_cnf`] under the limits of [`CdclSolver::set_limits`] (deadline,
    /// timeout counted from now, interrupt flag), looked at every [`LOAD_CHECK`] literals
    /// or variables: `None` when a limit stopped the load, and the solver then holds part
    /// of the formula only (drop it).
    pub fn add_cnf_limited(&mut self, cnf: &Cnf) -> Option<bool> {
        let budget = self.call_budget();
        self.load(cnf, &budget)
    }

    /// The limits of a call starting now.
    fn call_budget(&self) -> SearchBudget {
        let timeout = self.limits.timeout.map(|t| Instant::now() + t);
        let deadline = match (timeout, self.limits.deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let cpu_timeout = self
            .limits
            .cpu_time
            .and_then(|t| crate::limits::thread_cpu_time().map(|now| now + t));
        let cpu_deadline = match (cpu_timeout, self.limits.cpu_deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        SearchBudget {
            deadline,
            cpu_deadline,
            conflict_limit: self
                .limits
                .conflicts
                .map(|c| self.stats.conflicts.saturating_add(c)),
            interrupt: self.limits.interrupt.clone(),
            memory: self.limits.memory,
        }
    }

    /// Adds `cnf` (see [`CdclSolver::add_cnf`]), looking at `budget` as it goes: `None`
    /// when it ran out.
    fn load(&mut self, cnf: &Cnf, budget: &SearchBudget) -> Option<bool> {
        // Variables in chunks: ten million of them take a second.
        while self.num_vars() < cnf.num_vars() {
            if budget.exhausted() {
                return None;
            }
            let next = cnf.num_vars().min(self.num_vars() + LOAD_CHECK as u32);
            self.ensure_vars(next);
        }
        self.arena.reserve(3 * cnf.num_clauses() + cnf.num_lits());
        self.originals.reserve(cnf.num_clauses());
        let mut binary = vec![0u32; 2 * self.num_vars() as usize];
        for c in cnf.clauses().filter(|c| c.len() == 2) {
            binary[c[0].code()] += 1;
            binary[c[1].code()] += 1;
        }
        for (list, n) in self.bin_watches.iter_mut().zip(binary) {
            list.reserve(n as usize);
        }
        // Units first: the clauses they satisfy are then dropped as they come, and the
        // literals they falsify are cut off, instead of being stored, watched and removed
        // again by the first simplification round (a puzzle's givens satisfy most of its
        // clauses). The other clauses keep their order.
        let units = cnf.clauses().filter(|c| c.len() == 1);
        let mut since_check = 0;
        for clause in units.chain(cnf.clauses().filter(|c| c.len() != 1)) {
            since_check += clause.len();
            if since_check >= LOAD_CHECK {
                since_check = 0;
                if budget.exhausted() {
                    return None;
                }
            }
            if !self.add_clause(clause) {
                return Some(false);
            }
        }
        Some(true)
    }

    /// The number of variables.
    pub fn num_vars(&self) -> u32 {
        self.level.len() as u32
    }

    /// The number of original clauses of length ≥ 2 kept (units are assigned instead).
    pub fn num_clauses(&self) -> usize {
        self.originals.len()
    }

    /// The number of learnt clauses of length ≥ 2 kept.
    pub fn num_learnts(&self) -> usize {
        self.learnts.len()
    }

    /// False once the clauses are known unsatisfiable without assumptions.
    pub fn is_ok(&self) -> bool {
        self.ok
    }

    /// Adds a fresh variable.
    pub fn new_var(&mut self) -> Var {
        let v = self.num_vars();
        self.ensure_vars(v + 1);
        Var::new(v)
    }

    /// Makes variables `0..n` known.
    pub fn ensure_vars(&mut self, n: u32) {
        let randomise = self.options.random_var_freq > 0.0 || self.options.random_polarity;
        while self.num_vars() < n {
            self.vals.extend([0, 0]);
            self.level.push(0);
            self.reason.push(NO_REASON);
            self.seen.push(0);
            self.level_stamp.push(0);
            self.eliminated.push(false);
            self.dirty.push(super::inprocess::DIRTY_ADDED);
            self.frozen.push(0);
            self.marks.push(0);
            self.phases.add_var();
            self.watches.extend([Vec::new(), Vec::new()]);
            self.bin_watches.extend([Vec::new(), Vec::new()]);
            self.probed.extend([0, 0]);
            // A tiny random activity breaks the ties of the initial order at random.
            let activity = if randomise {
                self.rng.next_f64() * 1e-5
            } else {
                0.0
            };
            self.order.add_var(activity);
        }
    }

    /// Adds a clause (at level 0, between solve calls). Returns false when the formula is
    /// now known to be unsatisfiable.
    pub fn add_clause(&mut self, lits: &[Lit]) -> bool {
        if !self.ok {
            return false;
        }
        self.cancel_until(0);
        if let Some(max) = lits.iter().map(|l| l.var().index() as u32 + 1).max() {
            self.ensure_vars(max);
        }
        if !self.restore_eliminated(lits) {
            return false;
        }
        // A scratch buffer, not a fresh vector: formulas bring millions of clauses.
        let mut clause = std::mem::take(&mut self.add_buf);
        clause.clear();
        clause.extend_from_slice(lits);
        clause.sort_unstable();
        clause.dedup();
        let mut shortened = false;
        let mut kept = 0;
        for i in 0..clause.len() {
            let l = clause[i];
            if self.lit_value(l) == 1 || (i + 1 < clause.len() && clause[i + 1] == !l) {
                self.add_buf = clause;
                return true; // satisfied at level 0, or a tautology
            }
            if self.lit_value(l) == -1 {
                shortened = true;
            } else {
                clause[kept] = l;
                kept += 1;
            }
        }
        clause.truncate(kept);
        if shortened && let Some(p) = &mut self.proof {
            p.add_lits(&clause);
        }
        match clause.len() {
            0 => self.set_unsat(),
            1 => {
                self.assign(clause[0], NO_REASON);
                if self.propagate() != NO_REASON {
                    self.set_unsat();
                }
            }
            _ => {
                let c = self.arena.alloc(&clause, false);
                self.attach(c);
                self.push_original(c);
            }
        }
        self.add_buf = clause;
        self.ok
    }

    /// Solves the clauses added so far.
    pub fn solve(&mut self) -> SolveResult {
        self.solve_with(&[])
    }

    /// Solves under `assumptions` (literals taken as true for this call only).
    pub fn solve_with(&mut self, assumptions: &[Lit]) -> SolveResult {
        self.model.clear();
        self.failed.clear();
        self.out_of_memory = false;
        self.stats.solves += 1;
        if !self.ok {
            return SolveResult::Unsat;
        }
        if let Some(max) = assumptions.iter().map(|l| l.var().index() as u32 + 1).max() {
            self.ensure_vars(max);
        }
        if !self.restore_eliminated(assumptions) {
            return SolveResult::Unsat;
        }
        // Assumptions are frozen for the call: elimination must leave them alone.
        for a in assumptions {
            self.frozen[a.var().index()] += 1;
        }
        self.assumptions = assumptions.to_vec();
        let budget = self.call_budget();
        let result = loop {
            if budget.exhausted() {
                break SolveResult::Unknown;
            }
            if self.inprocess_due() && !self.inprocess(&budget) {
                break SolveResult::Unsat;
            }
            if self.vivify_due() && !self.vivify_learnts(&budget) {
                break SolveResult::Unsat;
            }
            self.maybe_rephase();
            if let Some(r) = self.search(&budget) {
                break r;
            }
        };
        for a in assumptions {
            self.frozen[a.var().index()] -= 1;
        }
        if result == SolveResult::Sat {
            self.model = (0..self.num_vars() as usize)
                .map(|v| self.vals[2 * v] == 1)
                .collect();
            self.extension.extend(&mut self.model);
        }
        self.cancel_until(0);
        if self.options.forget_between_calls {
            self.forget_earlier_learnts();
        }
        if let Some(p) = &mut self.proof {
            // Flush now: a caller may read the proof before the solver goes away.
            p.flush();
        }
        result
    }

    /// The value of `lit` in the model of the last SAT answer (`None` without a model).
    pub fn value(&self, lit: Lit) -> Option<bool> {
        self.model
            .get(lit.var().index())
            .map(|&b| b == lit.is_positive())
    }

    /// The model of the last SAT answer, every variable assigned.
    pub fn model(&self) -> Option<Model> {
        if self.model.is_empty() && self.num_vars() > 0 {
            return None;
        }
        Some(Model::from_values(self.model.iter().copied()))
    }

    /// After UNSAT under assumptions: a subset of the assumptions that cannot all hold
    /// (empty when the clauses alone are unsatisfiable).
    pub fn failed_assumptions(&self) -> &[Lit] {
        &self.failed
    }

    // ---- internals shared by the other files ----

    /// The current decision level.
    #[inline]
    pub(super) fn decision_level(&self) -> u32 {
        self.trail_lim.len() as u32
    }

    /// The value of `l`: 1 true, -1 false, 0 unassigned.
    #[inline]
    pub(super) fn lit_value(&self, l: Lit) -> i8 {
        self.vals[l.code()]
    }

    /// Makes `l` true at the current level with `reason`.
    #[inline]
    pub(super) fn assign(&mut self, l: Lit, reason: CRef) {
        let c = l.code();
        debug_assert_eq!(self.vals[c], 0);
        self.vals[c] = 1;
        self.vals[c ^ 1] = -1;
        let v = l.var().index();
        self.level[v] = self.decision_level();
        self.reason[v] = reason;
        self.trail.push(l);
    }

    /// Makes `l` true at decision level `level` (at most the current one) with `reason`:
    /// below the current level, out of the trail's level order (`chrono.rs`).
    #[inline]
    pub(super) fn assign_at(&mut self, l: Lit, reason: CRef, level: u32) {
        self.assign(l, reason);
        self.level[l.var().index()] = level;
    }

    /// Undoes every assignment above `level`, saving phases.
    pub(super) fn cancel_until(&mut self, level: u32) {
        self.backtrack(level, true);
    }

    /// Undoes every assignment above `level`; saves the phases only when `save_phases`
    /// (probing and vivification assign on purpose, not as the search would).
    pub(super) fn backtrack(&mut self, level: u32, save_phases: bool) {
        if self.decision_level() <= level {
            return;
        }
        let lim = self.trail_lim[level as usize];
        if self.options.chrono > 0 {
            self.backtrack_keeping_lower(level, save_phases);
        } else {
            for i in (lim..self.trail.len()).rev() {
                let l = self.trail[i];
                let v = l.var().index();
                self.vals[l.code()] = 0;
                self.vals[l.code() ^ 1] = 0;
                self.reason[v] = NO_REASON;
                if save_phases {
                    self.order.phase[v] = l.is_positive();
                }
                self.order.insert(v as u32);
            }
            self.trail.truncate(lim);
        }
        self.qhead = lim;
        self.trail_lim.truncate(level as usize);
    }

    /// Watches the first two literals of clause `c`.
    pub(super) fn attach(&mut self, c: CRef) {
        let (a, b) = (self.arena.lits(c)[0], self.arena.lits(c)[1]);
        let lists = if self.arena.len(c) == 2 {
            &mut self.bin_watches
        } else {
            &mut self.watches
        };
        lists[a as usize].push(Watcher {
            cref: c,
            blocker: b,
        });
        lists[b as usize].push(Watcher {
            cref: c,
            blocker: a,
        });
    }

    /// Drops the two watchers of clause `c` at once (before the clause is freed while
    /// propagation goes on: a freed clause left watched would have its watches moved to
    /// lists the purge does not look at).
    pub(super) fn detach(&mut self, c: CRef) {
        let lists = if self.arena.len(c) == 2 {
            &mut self.bin_watches
        } else {
            &mut self.watches
        };
        for &l in &self.arena.lits(c)[..2] {
            lists[l as usize].retain(|w| w.cref != c);
        }
    }

    /// Bumps the activity of learnt clause `c`.
    pub(super) fn bump_clause(&mut self, c: CRef) {
        let a = self.arena.activity(c) + self.clause_inc;
        self.arena.set_activity(c, a);
        if a > 1e20 {
            for &l in &self.learnts {
                let x = self.arena.activity(l);
                self.arena.set_activity(l, x * 1e-20);
            }
            self.clause_inc *= 1e-20;
        }
    }

    /// Records that the clauses are unsatisfiable (with the empty clause in the proof).
    pub(super) fn set_unsat(&mut self) {
        if self.ok
            && let Some(p) = &mut self.proof
        {
            p.add(&[]);
        }
        self.ok = false;
    }
}
