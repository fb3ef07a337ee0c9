//! In-process minisat, glucose and cadical (`minisat-lib`, `glucose-lib`, `cadical-lib`)
//! through the RustSAT crates, which vendor each solver's C/C++ source and link it into
//! bench (cargo feature `rustsat-solvers`).
//!
//! One generic adapter serves the three: a [`Family`] says how to make an engine (with its
//! settings) and the adapter does the rest: clauses in, solve under assumptions, the model
//! read back variable by variable, statistics as deltas. The wall-clock limit and Ctrl-C
//! reach the solver through its asynchronous interrupt, fired by a [`Watchdog`] thread
//! that looks at the deadline and the interrupt flag every few milliseconds. minisat and
//! glucose never clear their interrupt flag, so a session that was interrupted (even by a
//! late tick after the answer) is dropped and built again. A crash inside the C++ code
//! takes bench down with it: these solvers share bench's process.

pub mod cadical;
pub mod glucose;
pub mod minisat;
pub mod watchdog;

use std::marker::PhantomData;

use rustsat::solvers::{
    GetInternalStats, Interrupt, InterruptSolver, Solve, SolveIncremental, SolverResult,
};
use rustsat::types::TernaryVal;

use super::config::{ConfigError, Spec};
use super::measured;
use super::session::Session;
use super::{Limits, Outcome, Solver, Status};
use crate::cnf::{Cnf, Lit, Model, Var};
use watchdog::Watchdog;

/// One solver family of the RustSAT crates.
pub trait Family: Send + Sync + 'static {
    /// The solver type.
    type Engine: SolveIncremental + Interrupt + GetInternalStats + Send + 'static;

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
    pub fn from_spec(spec: &Spec) -> Result<LibSolver<F>, ConfigError> {
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
            engine,
            num_vars: 0,
            reserved: 0,
            buf: Vec::new(),
            failed: None,
            usable: true,
        })
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
        measured(|| {
            let mut s = match self.new_session() {
                Ok(s) => s,
                Err(e) => return Outcome::error(e),
            };
            for clause in cnf.clauses() {
                s.add_clause(clause);
            }
            s.num_vars = s.num_vars.max(cnf.num_vars());
            s.run(&[], limits)
        })
    }

    fn session(&self, _seed: u64) -> Option<Box<dyn Session>> {
        match self.new_session() {
            Ok(s) => Some(Box::new(s)),
            Err(_) => None,
        }
    }
}

/// A library solver kept alive across solve calls.
pub struct LibSession<F: Family> {
    /// Declared first: dropped (and so stopped) before the engine it interrupts.
    watchdog: Watchdog,
    engine: F::Engine,
    /// Variables known: the highest in a clause, an assumption or [`Session::new_var`].
    num_vars: u32,
    /// Variables the engine was told of.
    reserved: u32,
    buf: Vec<rustsat::types::Lit>,
    /// The first error the engine returned (out of memory): every later solve is ERROR.
    failed: Option<String>,
    usable: bool,
}

fn to_rs(l: Lit) -> rustsat::types::Lit {
    rustsat::types::Lit::new(l.var().index() as u32, !l.is_positive())
}

impl<F: Family> LibSession<F> {
    fn run(&mut self, assumptions: &[Lit], limits: &Limits) -> Outcome {
        if let Some(e) = &self.failed {
            return Outcome::error(e.clone());
        }
        for &l in assumptions {
            self.num_vars = self.num_vars.max(l.var().index() as u32 + 1);
        }
        if self.num_vars > self.reserved {
            if let Err(e) = self
                .engine
                .reserve(rustsat::types::Var::new(self.num_vars - 1))
            {
                self.usable = false;
                return Outcome::error(format!("{e:#}"));
            }
            self.reserved = self.num_vars;
        }
        self.buf.clear();
        self.buf.extend(assumptions.iter().map(|&l| to_rs(l)));
        let (conflicts, decisions) = (self.engine.conflicts(), self.engine.decisions());
        self.watchdog.arm(limits);
        let started = std::time::Instant::now();
        let result = self.engine.solve_assumps(&self.buf);
        let took = started.elapsed();
        if self.watchdog.disarm() {
            self.usable = false;
        }
        let mut outcome = match result {
            Ok(SolverResult::Sat) => {
                let mut model = Model::new();
                for v in 0..self.num_vars {
                    match self.engine.lit_val(rustsat::types::Lit::new(v, false)) {
                        Ok(TernaryVal::True) => model.set(Var::new(v).pos()),
                        Ok(TernaryVal::False) => model.set(!Var::new(v).pos()),
                        // Unassigned: left out of the model, so the check relies on nothing.
                        Ok(TernaryVal::DontCare) => {}
                        Err(e) => return Outcome::error(format!("reading the model: {e:#}")),
                    }
                }
                Outcome::sat(model)
            }
            Ok(SolverResult::Unsat) => Outcome::new(Status::Unsat),
            Ok(SolverResult::Interrupted) => {
                self.usable = false;
                Outcome::stopped(limits)
            }
            Err(e) => {
                self.usable = false;
                self.failed = Some(format!("{e:#}"));
                Outcome::error(format!("{e:#}"))
            }
        };
        // An answer found after the timeout (the engine looks at its interrupt only now and
        // then) is scored as a timeout that says it answered late.
        outcome.wall = took;
        crate::solver::external::verdict::score_late(&mut outcome, limits.timeout);
        outcome.stats = vec![
            (
                "conflicts".into(),
                self.engine.conflicts().saturating_sub(conflicts) as u64,
            ),
            (
                "decisions".into(),
                self.engine.decisions().saturating_sub(decisions) as u64,
            ),
        ];
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
        if let Err(e) = self.engine.add_clause_ref(&self.buf[..]) {
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
        measured(|| self.run(assumptions, limits))
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
pub fn by_spec(spec: &Spec) -> Option<Result<Box<dyn Solver>, ConfigError>> {
    fn boxed<F: Family>(spec: &Spec) -> Result<Box<dyn Solver>, ConfigError> {
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
