//! `native` as bench runs it: bench's adapter over the `cdcl-engine` crate. [`NativeSolver`]
//! is the engine as a [`Solver`] (bench's limits into the engine's [`Budget`], its
//! [`Answer`] and counters into an [`Outcome`]); [`Native`] is native from `--solvers`, with
//! its options (default, or set by a configuration `native:key=value,...`, see
//! [`super::config`]), named by its spec, which also opens incremental [`Session`]s for the
//! puzzle mode of `bench run`.

use std::time::Instant;

use cdcl_engine::{Answer, Budget, CdclSolver, Options, Stop};

use super::config::{ConfigError, SolverSpec, native_options};
use super::session::{NativeSession, Session};
use super::{Clocks, DratFormat, LimitHit, Limits, Outcome, ProofStyle, Solver, Status};
use crate::cnf::Cnf;

/// `native` as a [`Solver`]: a fresh engine per formula.
#[derive(Clone, Debug)]
pub struct NativeSolver {
    /// Options of every solver built (the seed comes from [`Limits::seed`] when non-zero).
    pub options: Options,
}

impl Default for NativeSolver {
    /// native's choice of techniques ([`Options::default`]).
    fn default() -> Self {
        NativeSolver {
            options: Options::default(),
        }
    }
}

/// The outcome of a call that stopped because the solver's clauses outgrew its memory
/// budget: MEMOUT, with the size reached.
pub fn memout(s: &CdclSolver) -> Outcome {
    memout_at(s.clause_bytes())
}

/// MEMOUT for clauses that had reached `clause_bytes`.
fn memout_at(clause_bytes: u64) -> Outcome {
    Outcome {
        error: Some(format!(
            "native's clauses outgrew its memory budget ({} MiB)",
            clause_bytes >> 20
        )),
        ..Outcome::new(Status::Memout)
    }
}

impl Solver for NativeSolver {
    fn name(&self) -> &str {
        "native"
    }

    fn version(&self) -> Option<String> {
        Some(env!("CARGO_PKG_VERSION").to_string())
    }

    fn proof_style(&self) -> Option<ProofStyle> {
        Some(ProofStyle {
            format: DratFormat::Binary,
            skip_unit_deletions: false,
        })
    }

    fn in_process(&self) -> bool {
        true
    }

    fn solve(&self, cnf: &Cnf, limits: &Limits) -> Outcome {
        super::abandon::wait_for_leftovers(limits.interrupt.as_deref());
        let mut engine = None;
        // A large formula is solved apart, on a copy the thread owns (it may outlive this
        // call); without memory for the copy, here.
        let owned = super::abandon::apart(cnf)
            .then(|| cnf.try_clone())
            .flatten();
        let Some(owned) = owned else {
            let outcome = super::measured(limits, || {
                let deadline = limits.timeout.and_then(|t| Instant::now().checked_add(t));
                let (outcome, solver) = self.solve_unmeasured(cnf, limits, deadline);
                engine = solver;
                outcome
            });
            drop(engine);
            return outcome;
        };
        let outcome = super::measured(limits, || {
            let deadline = limits.timeout.and_then(|t| Instant::now().checked_add(t));
            let ends = super::abandon::Ends {
                deadline,
                interrupt: limits.interrupt.as_deref(),
            };
            let (me, theirs) = (self.clone(), limits.clone());
            let work = move || me.solve_unmeasured(&owned, &theirs, deadline);
            match super::abandon::run(work, ends, drop) {
                super::abandon::Call::Done {
                    value: (mut outcome, solver),
                    cpu,
                } => {
                    engine = solver;
                    outcome.cpu = cpu;
                    outcome
                }
                super::abandon::Call::Abandoned { cpu } => super::abandon::abandoned(limits, cpu),
            }
        });
        // Freed outside the measured span (as a child's exit is).
        drop(engine);
        outcome
    }
}

impl NativeSolver {
    /// [`Solver::solve`] without the clocks, within `deadline`; the engine is handed back
    /// to be freed outside the measured span (None when it never was made).
    fn solve_unmeasured(
        &self,
        cnf: &Cnf,
        limits: &Limits,
        deadline: Option<Instant>,
    ) -> (Outcome, Option<CdclSolver>) {
        let mut options = self.options.clone();
        if limits.seed != 0 {
            options.seed = limits.seed;
        }
        // The time limits (the wall clock's, this thread's CPU clock's) cover loading the
        // formula too.
        let clocks = Clocks::starting_now(limits.timeout, limits.cpu_limit);
        let mut budget = Budget {
            // The wall deadline was set when the call began.
            deadline,
            cpu_deadline: clocks.cpu,
            interrupt: limits.interrupt.clone(),
            memory: super::in_process_budget(limits),
            conflicts: None,
            proof: None,
        };
        if let Some(path) = &limits.proof {
            match std::fs::File::create(path) {
                Ok(file) => budget.proof = Some((Box::new(file), limits.binary_proof)),
                Err(e) => {
                    let why = format!("cannot write the proof {}: {e}", path.display());
                    return (Outcome::error(why), None);
                }
            }
        }
        let (run, engine) = cdcl_engine::solve_keeping(cnf, options, budget);
        let mut outcome = match run.answer {
            Answer::Sat(model) => Outcome::sat(model),
            Answer::Unsat => Outcome::new(Status::Unsat),
            Answer::Stopped(Stop::OutOfMemory { clause_bytes }) => memout_at(clause_bytes),
            Answer::Stopped(Stop::Interrupted | Stop::Deadline | Stop::Conflicts) => {
                Outcome::stopped_by(limits, clocks.passed().unwrap_or(LimitHit::Wall))
            }
        };
        if let Err(e) = run.proof {
            outcome = Outcome::error(format!("writing the proof failed: {e}"));
        }
        outcome.stats = run.stats.pairs();
        (outcome, Some(engine))
    }
}

/// native, possibly configured.
#[derive(Clone, Debug)]
pub struct Native {
    name: String,
    inner: NativeSolver,
}

impl Native {
    /// native from a parsed spec (`native` or `native:key=value,...`).
    pub fn from_spec(spec: &SolverSpec) -> Result<Native, ConfigError> {
        let name = spec.name();
        let options = native_options(&name, &spec.settings)?;
        Ok(Native {
            name,
            inner: NativeSolver { options },
        })
    }

    /// The options of every solver this one builds.
    pub fn options(&self) -> &Options {
        &self.inner.options
    }
}

impl Solver for Native {
    fn name(&self) -> &str {
        &self.name
    }

    fn version(&self) -> Option<String> {
        self.inner.version()
    }

    fn proof_style(&self) -> Option<ProofStyle> {
        self.inner.proof_style()
    }

    fn in_process(&self) -> bool {
        true
    }

    fn solve(&self, cnf: &Cnf, limits: &Limits) -> Outcome {
        self.inner.solve(cnf, limits)
    }

    fn session(&self, seed: u64) -> Option<Box<dyn Session>> {
        let mut options = self.inner.options.clone();
        if seed != 0 {
            options.seed = seed;
        }
        Some(Box::new(NativeSession::new(options)))
    }
}
