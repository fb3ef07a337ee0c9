//! In-process minisat, glucose and cadical (`minisat-lib`, `glucose-lib`, `cadical-lib`)
//! through the RustSAT crates, which vendor each solver's C/C++ source and link it into
//! bench (cargo feature `rustsat-solvers`).
//!
//! One generic adapter serves the three: a [`Family`] says how to make an engine (with its
//! settings) and the adapter does the rest: clauses in, solve under assumptions, the model
//! read back variable by variable, the work counters (conflicts, decisions, propagations:
//! RustSAT's `GetInternalStats`) as deltas over the call. The wall-clock limit and Ctrl-C
//! reach the solver through its asynchronous interrupt, fired by a [`Watchdog`] thread
//! that looks at the deadline and the interrupt flag every few milliseconds. minisat and
//! glucose never clear their interrupt flag, so a session that was interrupted (even by a
//! late tick after the answer) is dropped and built again. A crash inside the C++ code
//! takes bench down with it: these solvers share bench's process.
//!
//! The timeout covers the whole call: a fresh solve's deadline starts before its clauses
//! go in, and loading looks at it every [`LOAD_LOOK`] clauses (loading millions takes
//! seconds). A fresh call on a large formula ([`abandon::apart`]) runs whole, loading
//! included, on a thread of its own and is abandoned [`abandon::GRACE`] past its
//! deadline; so does a session call of glucose (which looks at its interrupt too rarely)
//! on a formula of [`FROM_CLAUSES`] clauses or more. Freeing the engine (a second or so
//! for millions of clauses) comes after the measured span, as a child process's exit
//! does: the row's wall time ends with the answer.

pub mod cadical;
pub mod glucose;
pub mod minisat;
pub mod watchdog;

use std::marker::PhantomData;
use std::time::Instant;

use rustsat::solvers::{
    GetInternalStats, Interrupt, InterruptSolver, Solve, SolveIncremental, SolverResult,
};
use rustsat::types::TernaryVal;

use super::abandon;
use super::config::{ConfigError, SolverSpec};
use super::measured;
use super::session::{Session, counters, measured_call};
use super::{Limits, Outcome, Solver, Status};
use crate::cnf::{Cnf, Lit, Model, Var};
use watchdog::Watchdog;

/// One solver family of the RustSAT crates.
pub trait Family: Send + Sync + 'static {
    /// The solver type.
    type Engine: SolveIncremental + Interrupt + GetInternalStats + Send + 'static;

    /// The engine looks at its interrupt too rarely to stop near a deadline on large
    /// formulas: each call runs on a thread of its own and is abandoned past the grace
    /// ([`abandon`]).
    const LOOKS_RARELY: bool = false;

    /// A solver with `settings` applied (from `NAME:key=value,...`).
    fn engine(spec: &str, settings: &[(String, String)]) -> Result<Self::Engine, ConfigError>;
}

/// A library solver as a bench [`Solver`].
pub struct LibSolver<F: Family> {
    name: String,
    settings: Vec<(String, String)>,
    version: String,
    family: PhantomData<F>,
}

impl<F: Family> LibSolver<F> {
    /// The solver of a spec, its settings checked by building one engine.
    pub fn from_spec(spec: &SolverSpec) -> Result<LibSolver<F>, ConfigError> {
        let name = spec.name();
        let engine = F::engine(&name, &spec.settings)?;
        Ok(LibSolver {
            version: engine.signature().to_string(),
            name,
            settings: spec.settings.clone(),
            family: PhantomData,
        })
    }

    fn new_session(&self) -> Result<LibSession<F>, String> {
        let mut engine = F::engine(&self.name, &self.settings).map_err(|e| e.to_string())?;
        let interrupter = engine.interrupter();
        Ok(LibSession {
            watchdog: Watchdog::new(Box::new(move || interrupter.interrupt())),
            engine: Some(engine),
            num_vars: 0,
            reserved: 0,
            buf: Vec::new(),
            clauses: 0,
            failed: None,
            usable: true,
            apart: false,
        })
    }
}

impl<F: Family> Clone for LibSolver<F> {
    fn clone(&self) -> Self {
        LibSolver {
            name: self.name.clone(),
            settings: self.settings.clone(),
            version: self.version.clone(),
            family: PhantomData,
        }
    }
}

impl<F: Family> LibSolver<F> {
    /// A fresh call on `cnf` within `deadline`, in a new session kept in `session` (to be
    /// freed after the measured span): loading looks at the deadline every [`LOAD_LOOK`]
    /// clauses. `apart`: the call runs on a thread of its own, abandoned as a whole.
    fn fresh(
        &self,
        cnf: &Cnf,
        limits: &Limits,
        deadline: Option<Instant>,
        (session, apart): (&mut Option<LibSession<F>>, bool),
    ) -> Outcome {
        let started = Instant::now();
        let s = match self.new_session() {
            Ok(s) => session.insert(s),
            Err(e) => return Outcome::error(e),
        };
        // Called apart, the whole call is abandoned as one: no thread of its own inside.
        s.apart = apart;
        // The deadline covers loading too.
        s.watchdog.arm(deadline, limits);
        for (i, clause) in cnf.clauses().enumerate() {
            if i % LOAD_LOOK == 0 && s.watchdog.fired_at().is_some() {
                s.usable = false;
                let mut stopped = Outcome::stopped_by(limits, s.watchdog.limit_hit());
                stopped.error = Some(match stopped.error.take() {
                    Some(e) => format!("{e} while loading clause {i} of {}", cnf.num_clauses()),
                    None => {
                        format!("stopped while loading clause {i} of {}", cnf.num_clauses())
                    }
                });
                return stopped;
            }
            s.add_clause(clause);
        }
        if s.watchdog.disarm() {
            // Past the deadline (or interrupted) as the last clause went in.
            s.usable = false;
            return Outcome::stopped_by(limits, s.watchdog.limit_hit());
        }
        s.num_vars = s.num_vars.max(cnf.num_vars());
        s.run(&[], limits, started, deadline)
    }
}

impl<F: Family> Solver for LibSolver<F> {
    fn name(&self) -> &str {
        &self.name
    }

    fn version(&self) -> Option<String> {
        Some(self.version.clone())
    }

    fn in_process(&self) -> bool {
        true
    }

    fn solve(&self, cnf: &Cnf, limits: &Limits) -> Outcome {
        abandon::wait_for_leftovers(limits.interrupt.as_deref());
        let mut session = None;
        // A large formula is solved apart, on a copy the thread owns (it may outlive this
        // call); without memory for the copy, here.
        let owned = abandon::apart(cnf).then(|| cnf.try_clone()).flatten();
        let outcome = measured(limits, || {
            let started = Instant::now();
            let deadline = limits.timeout.map(|t| started + t);
            let Some(owned) = owned else {
                return self.fresh(cnf, limits, deadline, (&mut session, false));
            };
            // A large formula: the whole call, loading included, on a thread of its own,
            // abandoned past the grace (one clause of ten million literals goes in as one
            // step, and a library's preprocessing looks at its interrupt rarely).
            let ends = abandon::Ends {
                deadline,
                interrupt: limits.interrupt.as_deref(),
            };
            let (me, theirs) = (self.clone(), limits.clone());
            let work = move || {
                let mut session = None;
                let outcome = me.fresh(&owned, &theirs, deadline, (&mut session, true));
                (outcome, session)
            };
            // The session stops its watchdog before its engine goes.
            match abandon::run(work, ends, drop) {
                abandon::Call::Done {
                    value: (mut outcome, s),
                    cpu,
                } => {
                    session = s;
                    outcome.cpu = cpu;
                    outcome
                }
                abandon::Call::Abandoned { cpu } => abandon::abandoned(limits, cpu),
            }
        });
        // Freed outside the measured span (as a child's exit is).
        drop(session);
        outcome
    }

    fn session(&self, _seed: u64) -> Option<Box<dyn Session>> {
        match self.new_session() {
            Ok(s) => Some(Box::new(s)),
            Err(_) => None,
        }
    }
}

/// Clauses loaded between two looks at the deadline.
pub const LOAD_LOOK: usize = 4096;

/// A library solver kept alive across solve calls.
pub struct LibSession<F: Family> {
    /// Declared first: dropped (and so stopped) before the engine it interrupts.
    watchdog: Watchdog,
    /// None once an abandoned call took it (the session is then unusable).
    engine: Option<F::Engine>,
    /// Variables known: the highest in a clause, an assumption or [`Session::new_var`].
    num_vars: u32,
    /// Variables the engine was told of.
    reserved: u32,
    buf: Vec<rustsat::types::Lit>,
    /// Clauses added.
    clauses: u64,
    /// The first error the engine returned (out of memory): every later solve is ERROR.
    failed: Option<String>,
    usable: bool,
    /// The session is a fresh call's that runs apart ([`abandon::apart`]): it is
    /// abandoned as a whole, so its solve needs no thread of its own.
    apart: bool,
}

/// glucose-lib's calls on formulas of this many clauses or more run on a thread of their
/// own and are abandoned past the grace ([`abandon`]): glucose looks at its interrupt
/// only between restarts, and on a formula of millions of clauses (pigeonhole 201 into
/// 200: four million) one search between restarts ran two minutes past a 5 s timeout.
/// On smaller formulas restarts come often, and a thread per call (about 75 µs) would
/// cost more than a 9×9 sudoku's whole solve (about 100 µs).
pub const FROM_CLAUSES: u64 = 500_000;

fn to_rs(l: Lit) -> rustsat::types::Lit {
    rustsat::types::Lit::new(l.var().index() as u32, !l.is_positive())
}

/// The engine's running totals of conflicts, decisions and propagations (RustSAT's
/// `GetInternalStats`).
fn counted(engine: &impl GetInternalStats) -> [u64; 3] {
    [
        engine.conflicts() as u64,
        engine.decisions() as u64,
        engine.propagations() as u64,
    ]
}

/// The model of a SAT answer over variables `0..num_vars`, read in one pass into one
/// allocation. A variable the engine leaves unassigned is left out of the model, so the
/// check relies on nothing it did not say.
fn read_model(engine: &impl Solve, num_vars: u32) -> anyhow::Result<Model> {
    let mut unassigned = false;
    let mut failed = None;
    let model = Model::from_values((0..num_vars).map(|v| {
        match engine.lit_val(rustsat::types::Lit::new(v, false)) {
            Ok(TernaryVal::True) => true,
            Ok(TernaryVal::False) => false,
            Ok(TernaryVal::DontCare) => {
                unassigned = true;
                false
            }
            Err(e) => {
                failed.get_or_insert(e);
                false
            }
        }
    }));
    if let Some(e) = failed {
        return Err(e);
    }
    if !unassigned {
        return Ok(model);
    }
    // Some variable unassigned (rare): read again, leaving those out.
    let mut model = Model::new();
    for v in (0..num_vars).rev() {
        match engine.lit_val(rustsat::types::Lit::new(v, false))? {
            TernaryVal::True => model.set(Var::new(v).pos()),
            TernaryVal::False => model.set(!Var::new(v).pos()),
            TernaryVal::DontCare => {}
        }
    }
    Ok(model)
}

impl<F: Family> LibSession<F> {
    /// Solves under `assumptions` until `deadline` (armed already or not), for a call that
    /// began at `started`.
    fn run(
        &mut self,
        assumptions: &[Lit],
        limits: &Limits,
        started: Instant,
        deadline: Option<Instant>,
    ) -> Outcome {
        if let Some(e) = &self.failed {
            return Outcome::error(e.clone());
        }
        let Some(engine) = self.engine.as_mut() else {
            return Outcome::error("the session's solver was abandoned");
        };
        for &l in assumptions {
            self.num_vars = self.num_vars.max(l.var().index() as u32 + 1);
        }
        if self.num_vars > self.reserved {
            if let Err(e) = engine.reserve(rustsat::types::Var::new(self.num_vars - 1)) {
                self.usable = false;
                return Outcome::error(format!("{e:#}"));
            }
            self.reserved = self.num_vars;
        }
        self.buf.clear();
        self.buf.extend(assumptions.iter().map(|&l| to_rs(l)));
        let before = counted(engine);
        self.watchdog.arm(deadline, limits);
        let mut helper_cpu = None;
        let result = if F::LOOKS_RARELY && !self.apart && self.clauses >= FROM_CLAUSES {
            let mut engine = self.engine.take().expect("checked above");
            let assumps = self.buf.clone();
            let here = self.watchdog.stopper();
            let work = move || {
                // The call's CPU limit is this thread's to spend.
                here.cpu_clock_here();
                let result = engine.solve_assumps(&assumps);
                (engine, result)
            };
            let ends = abandon::Ends {
                deadline,
                interrupt: limits.interrupt.as_deref(),
            };
            let stopper = self.watchdog.stopper();
            // Nobody waits for a leftover: the watchdog must never interrupt its freed engine.
            let leftover = move |(engine, _): (F::Engine, _)| {
                stopper.stop();
                drop(engine);
            };
            match abandon::run(work, ends, leftover) {
                abandon::Call::Done {
                    value: (engine, result),
                    cpu,
                } => {
                    self.engine = Some(engine);
                    helper_cpu = cpu;
                    result
                }
                abandon::Call::Abandoned { cpu } => {
                    self.usable = false;
                    self.failed = Some("the session's solver was abandoned".into());
                    self.watchdog.disarm();
                    return abandon::abandoned(limits, cpu);
                }
            }
        } else {
            engine.solve_assumps(&self.buf)
        };
        let took = started.elapsed();
        if self.watchdog.disarm() {
            self.usable = false;
        }
        let engine = self.engine.as_mut().expect("back from the call");
        let mut outcome = match result {
            Ok(SolverResult::Sat) => match read_model(engine, self.num_vars) {
                Ok(model) => Outcome::sat(model),
                Err(e) => return Outcome::error(format!("reading the model: {e:#}")),
            },
            Ok(SolverResult::Unsat) => Outcome::new(Status::Unsat),
            Ok(SolverResult::Interrupted) => {
                self.usable = false;
                Outcome::stopped_by(limits, self.watchdog.limit_hit())
            }
            Err(e) => {
                self.usable = false;
                self.failed = Some(format!("{e:#}"));
                Outcome::error(format!("{e:#}"))
            }
        };
        // An answer found after a limit (the engine looks at its interrupt only now and
        // then) is scored as a timeout by the caller, once the call's wall and CPU time,
        // this thread's and a helper's, are known.
        outcome.wall = took;
        // The counters through RustSAT's `GetInternalStats`, as deltas over this call.
        outcome.stats = counters(before, counted(engine));
        // The helper thread's CPU time; `measured` adds the caller's.
        outcome.cpu = helper_cpu;
        outcome
    }
}

impl<F: Family> Session for LibSession<F> {
    fn add_clause(&mut self, lits: &[Lit]) {
        if self.failed.is_some() {
            return;
        }
        self.buf.clear();
        for &l in lits {
            self.num_vars = self.num_vars.max(l.var().index() as u32 + 1);
            self.buf.push(to_rs(l));
        }
        let Some(engine) = self.engine.as_mut() else {
            return;
        };
        self.clauses += 1;
        if let Err(e) = engine.add_clause_ref(&self.buf[..]) {
            self.failed = Some(format!("adding a clause: {e:#}"));
            self.usable = false;
        }
    }

    fn new_var(&mut self) -> Var {
        self.num_vars += 1;
        Var::new(self.num_vars - 1)
    }

    fn ensure_vars(&mut self, n: u32) {
        self.num_vars = self.num_vars.max(n);
    }

    fn solve(&mut self, assumptions: &[Lit], limits: &Limits) -> Outcome {
        abandon::wait_for_leftovers(limits.interrupt.as_deref());
        measured_call(limits, |start| {
            let deadline = limits.timeout.map(|t| start.wall + t);
            self.run(assumptions, limits, start.wall, deadline)
        })
    }

    fn usable(&self) -> bool {
        self.usable
    }
}

impl<F: Family> Drop for LibSession<F> {
    fn drop(&mut self) {
        // Before the engine goes: the watchdog must never interrupt a freed solver.
        self.watchdog.stop();
    }
}

/// The library solver named by `spec`, if it is one (`minisat-lib`, ...).
pub fn by_spec(spec: &SolverSpec) -> Option<Result<Box<dyn Solver>, ConfigError>> {
    fn boxed<F: Family>(spec: &SolverSpec) -> Result<Box<dyn Solver>, ConfigError> {
        // Sized by the variables used and held against the memory budget, as native is.
        LibSolver::<F>::from_spec(spec).map(|s| Box::new(super::InProcess(s)) as Box<dyn Solver>)
    }
    Some(match spec.base.as_str() {
        "minisat-lib" => boxed::<minisat::MinisatLib>(spec),
        "glucose-lib" => boxed::<glucose::GlucoseLib>(spec),
        "cadical-lib" => boxed::<cadical::CadicalLib>(spec),
        _ => return None,
    })
}
