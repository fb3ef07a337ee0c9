//! `bench shrink`'s engine: what failure a solver shows on a formula, as bench's own
//! judgement sees it ([`Failure`]: a model that breaks a clause, an UNSAT that a model of
//! the same formula refutes, a proof of UNSAT a checker rejects, a crash), and the shrinking of the formula ([`reduce`]) while
//! that failure stays. Every candidate is solved through the [`Solver`] bench runs (an
//! external solver as a contained child process, under the run's limits), and a SAT
//! answer is judged by [`crate::run::exec::verdict`], the check of `bench run`. An UNSAT
//! answer is refuted by a model of the candidate that bench's own solver finds (`native`;
//! `dpll` when the solver under test is native) and that the check accepts.

pub mod reduce;

use std::path::Path;
use std::time::Duration;

use crate::cnf::Cnf;
use crate::judge::Verdict;
use crate::run::exec::{Built, verdict};
use crate::run::proof::ChainLimits;
use crate::solver::{DratFormat, Limits, Outcome, ProofStyle, Solver, SolverConfig, Status};
use reduce::Formula;

/// The proof chain's limits where no proof is checked (shrinking judges models only).
const NO_CHAIN: ChainLimits<'static> = ChainLimits {
    timeout: Duration::ZERO,
    mem_limit_mb: None,
    interrupt: None,
};

/// A failure of a solver on a formula.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// SAT with a model that does not satisfy the formula.
    WrongModel,
    /// UNSAT, where bench's own solver finds a model that satisfies every clause.
    WrongUnsat,
    /// UNSAT with a DRAT proof that a checker (`rate`, then cake_lpr) rejects.
    RejectedProof,
    /// An ERROR (a crash, a signal, unreadable output), with the exit code it had.
    Crash(Option<i32>),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::WrongModel => f.write_str("a wrong model"),
            Failure::WrongUnsat => f.write_str("a wrong UNSAT"),
            Failure::RejectedProof => f.write_str("a rejected proof"),
            Failure::Crash(Some(code)) => write!(f, "an ERROR (exit code {code})"),
            Failure::Crash(None) => f.write_str("an ERROR"),
        }
    }
}

/// What one solve of a candidate showed.
#[derive(Clone, Debug, PartialEq)]
pub enum Observed {
    /// A failure, and why bench judges it so.
    Failed(Failure, String),
    /// No failure: what the solver answered, in words.
    Fine(String),
}

/// Runs the solver under test on candidates and judges its answers.
pub struct Judge<'a> {
    /// The solver under test.
    pub solver: &'a dyn Solver,
    /// The solver whose checked model refutes an UNSAT.
    pub witness: Box<dyn Solver>,
    /// The run's limits (time and memory), for both.
    pub limits: Limits,
    /// Where solvers are found (the check of a proof would need it).
    pub config: SolverConfig,
    /// Solves run so far.
    pub solves: usize,
    /// With limits for the proof chain: each UNSAT's DRAT proof is asked for and checked,
    /// and a rejected one is a failure ([`Failure::RejectedProof`]).
    pub proofs: Option<ChainLimits<'static>>,
}

impl<'a> Judge<'a> {
    /// A judge of `solver` under `limits`; the witness is `native` (`dpll` when `solver`
    /// is native itself).
    pub fn new(
        solver: &'a dyn Solver,
        limits: Limits,
        config: SolverConfig,
    ) -> anyhow::Result<Judge<'a>> {
        let witness = if solver.name().starts_with("native") {
            "dpll"
        } else {
            "native"
        };
        Ok(Judge {
            solver,
            witness: crate::solver::by_name(witness, &config)?,
            limits,
            config,
            solves: 0,
            proofs: None,
        })
    }

    /// Solves `formula` and judges the answer.
    pub fn observe(&mut self, formula: &Formula) -> Observed {
        let cnf = Cnf::from_dimacs_clauses(formula.num_vars, &formula.clauses);
        let built = Built { cnf, header: None };
        self.solves += 1;
        // With proofs, the solver writes one into a folder of this solve's own.
        let style = self.proofs.as_ref().and(self.solver.proof_style());
        let folder = style.and_then(|_| crate::solver::external::run::temp_dir().ok());
        let proof = folder.as_ref().map(|d| d.path().join("proof.drat"));
        let limits = Limits {
            proof: proof.clone(),
            binary_proof: style.is_some_and(|s| s.format == DratFormat::Binary),
            ..self.limits.clone()
        };
        let outcome = self.solver.solve(&built.cnf, &limits);
        match outcome.status {
            Status::Sat => self.judge_sat(&built, &outcome),
            Status::Unsat => match self.refute_unsat(&built) {
                Observed::Fine(answer) => {
                    self.check_proof(&built, &outcome, proof.as_deref().zip(style), answer)
                }
                failed => failed,
            },
            Status::Error => Observed::Failed(
                Failure::Crash(outcome.exit_code),
                outcome.error.unwrap_or_else(|| "ERROR".into()),
            ),
            other => Observed::Fine(match (outcome.limit, outcome.error) {
                (Some(hit), _) => format!("{other} at its {} limit", limit_words(hit)),
                (None, Some(why)) => format!("{other} ({why})"),
                (None, None) => other.to_string(),
            }),
        }
    }

    /// True when `formula` shows `failure` again (a crash with the same exit code).
    pub fn fails(&mut self, formula: &Formula, failure: Failure) -> bool {
        matches!(self.observe(formula), Observed::Failed(f, _) if f == failure)
    }

    fn judge_sat(&self, built: &Built, outcome: &Outcome) -> Observed {
        let checked = verdict(built, outcome, None, &NO_CHAIN, &self.config);
        match checked.verdict {
            Verdict::ModelWrong(why) => Observed::Failed(Failure::WrongModel, why),
            _ => Observed::Fine("SAT, the model checked".into()),
        }
    }

    /// An UNSAT no model refutes: its proof through the chain, when proofs are checked.
    fn check_proof(
        &self,
        built: &Built,
        outcome: &Outcome,
        proof: Option<(&Path, ProofStyle)>,
        answer: String,
    ) -> Observed {
        let (Some(chain), Some(proof)) = (&self.proofs, proof) else {
            return Observed::Fine(answer);
        };
        match verdict(built, outcome, Some(proof), chain, &self.config).verdict {
            Verdict::ProofFailed(why) => Observed::Failed(Failure::RejectedProof, why),
            _ => Observed::Fine(format!("{answer}, its proof accepted")),
        }
    }

    fn refute_unsat(&mut self, built: &Built) -> Observed {
        self.solves += 1;
        let witness = self.witness.solve(&built.cnf, &self.limits);
        let name = self.witness.name().to_string();
        match witness.status {
            Status::Sat => {
                let checked = verdict(built, &witness, None, &NO_CHAIN, &self.config);
                if checked.verdict == Verdict::ModelOk {
                    Observed::Failed(
                        Failure::WrongUnsat,
                        format!("UNSAT, yet {name}'s model satisfies every clause"),
                    )
                } else {
                    Observed::Fine(format!("UNSAT ({name}'s model did not check)"))
                }
            }
            Status::Unsat => Observed::Fine(format!("UNSAT, as {name} finds too")),
            other => Observed::Fine(format!("UNSAT ({name} found no model: {other})")),
        }
    }
}

/// The limit that ended a solve, as the shrinker says it.
fn limit_words(hit: crate::solver::LimitHit) -> &'static str {
    match hit {
        crate::solver::LimitHit::Wall => "wall-clock",
        crate::solver::LimitHit::Cpu => "CPU-time",
        crate::solver::LimitHit::Memory => "memory",
    }
}

/// The formula of `cnf`, for the shrinker (a variable is at most
/// [`crate::cnf::MAX_VARS`], so every literal fits an `i32`).
pub fn formula_of(cnf: &Cnf) -> Formula {
    Formula {
        num_vars: cnf.num_vars(),
        clauses: cnf
            .clauses()
            .map(|c| c.iter().map(|l| l.dimacs() as i32).collect())
            .collect(),
    }
}

/// What [`shrink`] found.
#[derive(Clone, Debug)]
pub struct Shrunk {
    /// The failure kept.
    pub failure: Failure,
    /// Why bench judges the small formula's answer a failure.
    pub why: String,
    /// The small formula.
    pub formula: Formula,
    /// Solves run (the solver's and the witness's).
    pub solves: usize,
}

/// Observes the failure on `formula` (it must be `expected`, when given), then shrinks the
/// formula while it stays; `progress` hears a line per pass.
pub fn shrink(
    judge: &mut Judge<'_>,
    formula: Formula,
    expected: Option<Failure>,
    progress: &mut dyn FnMut(&str),
) -> anyhow::Result<Shrunk> {
    let name = judge.solver.name().to_string();
    let failure = match judge.observe(&formula) {
        Observed::Failed(f, _) if expected.is_none_or(|e| e == f) => f,
        Observed::Failed(f, why) => anyhow::bail!(
            "{name} shows {f} here ({why}), not the {} recorded: nothing to shrink",
            expected.map_or(String::new(), |e| e.to_string())
        ),
        Observed::Fine(answer) => anyhow::bail!(
            "{name} answers the formula without a failure here ({answer}): the failure does \
             not reproduce, nothing to shrink"
        ),
    };
    progress(&format!(
        "{name} shows {failure} on {} clauses over {} variables",
        formula.clauses.len(),
        formula.num_vars
    ));
    let small = reduce::shrink(formula, &mut |f| judge.fails(f, failure), progress);
    let why = match judge.observe(&small) {
        Observed::Failed(f, why) if f == failure => why,
        other => anyhow::bail!(
            "the shrunk formula no longer fails when solved again ({other:?}): {name} is not \
             deterministic on it"
        ),
    };
    Ok(Shrunk {
        failure,
        why,
        formula: small,
        solves: judge.solves,
    })
}
