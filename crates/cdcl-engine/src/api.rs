//! The engine's one-shot interface: one formula, [`Options`] and a [`Budget`] in; an
//! [`Answer`], the [`Stats`] counters and how the proof went out. A caller (bench's
//! `native` adapter) maps these onto its own statuses and rows.

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use cnf_core::{Cnf, Model, Var};

use crate::proof::ProofSink;
use crate::solver::{CdclSolver, Options, SolveLimits, SolveResult, Stats};

/// What one solve may spend, and where its proof goes.
#[derive(Default)]
pub struct Budget {
    /// An instant past which loading and the search stop.
    pub deadline: Option<Instant>,
    /// A value of the calling thread's CPU clock (`limits::thread_cpu_time`) past which
    /// loading and the search stop.
    pub cpu_deadline: Option<std::time::Duration>,
    /// Stop when another thread sets this flag.
    pub interrupt: Option<Arc<AtomicBool>>,
    /// Bytes the clauses may take (arena and watches).
    pub memory: Option<u64>,
    /// Conflicts the search may have.
    pub conflicts: Option<u64>,
    /// A DRAT proof of an UNSAT answer to this sink, binary (true) or text (false).
    pub proof: Option<(ProofSink, bool)>,
}

/// Why a solve stopped without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The interrupt flag was set.
    Interrupted,
    /// The deadline (or the CPU deadline) passed.
    Deadline,
    /// The clauses outgrew [`Budget::memory`]; they had reached this many bytes.
    OutOfMemory {
        /// Bytes of the clauses when the search stopped.
        clause_bytes: u64,
    },
    /// The conflict budget ran out.
    Conflicts,
}

/// The answer of a solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Satisfiable: a value for every variable of the formula.
    Sat(Model),
    /// Unsatisfiable.
    Unsat,
    /// A limit stopped it.
    Stopped(Stop),
}

/// What a solve gives back.
#[derive(Debug)]
pub struct Run {
    /// The answer.
    pub answer: Answer,
    /// The work it took.
    pub stats: Stats,
    /// How writing the proof went (`Ok` without one).
    pub proof: io::Result<()>,
}

/// Solves `cnf` with a fresh [`CdclSolver`] within `budget`; the deadline covers loading
/// the formula too (ten million literals take a second or two).
pub fn solve(cnf: &Cnf, options: Options, budget: Budget) -> Run {
    solve_keeping(cnf, options, budget).0
}

/// [`solve`], the solver handed back too, for a caller that frees it later (freeing the
/// state of ten million variables takes a while: outside the time it measures).
pub fn solve_keeping(cnf: &Cnf, options: Options, budget: Budget) -> (Run, CdclSolver) {
    let mut s = CdclSolver::with_options(options);
    if let Some((sink, binary)) = budget.proof {
        s.set_proof_sink(sink, binary);
    }
    s.set_limits(SolveLimits {
        timeout: None,
        cpu_time: None,
        conflicts: budget.conflicts,
        interrupt: budget.interrupt.clone(),
        memory: budget.memory,
        deadline: budget.deadline,
        cpu_deadline: budget.cpu_deadline,
    });
    let result = match s.add_cnf_limited(cnf) {
        Some(_) => s.solve(),
        None => SolveResult::Unknown,
    };
    let answer = match result {
        SolveResult::Sat => {
            let values = (0..cnf.num_vars()).map(|v| s.value(Var::new(v).pos()) == Some(true));
            Answer::Sat(Model::from_values(values))
        }
        SolveResult::Unsat => Answer::Unsat,
        SolveResult::Unknown => {
            Answer::Stopped(why_stopped(&s, &budget.interrupt, budget.conflicts))
        }
    };
    let proof = s.finish_proof();
    let run = Run {
        answer,
        stats: s.stats().clone(),
        proof,
    };
    (run, s)
}

/// Which limit stopped `s`.
fn why_stopped(
    s: &CdclSolver,
    interrupt: &Option<Arc<AtomicBool>>,
    conflicts: Option<u64>,
) -> Stop {
    if s.out_of_memory() {
        Stop::OutOfMemory {
            clause_bytes: s.clause_bytes(),
        }
    } else if interrupt
        .as_ref()
        .is_some_and(|f| f.load(Ordering::Relaxed))
    {
        Stop::Interrupted
    } else if conflicts.is_some_and(|c| s.stats().conflicts >= c) {
        Stop::Conflicts
    } else {
        Stop::Deadline
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_counts_and_stops() {
        let sat = Cnf::from_dimacs_clauses(2, &[vec![1, 2], vec![-1]]);
        let run = solve(&sat, Options::plain(), Budget::default());
        assert_eq!(run.answer, Answer::Sat(Model::from_values([false, true])));
        let unsat = Cnf::from_dimacs_clauses(1, &[vec![1], vec![-1]]);
        assert_eq!(
            solve(&unsat, Options::plain(), Budget::default()).answer,
            Answer::Unsat
        );
        let stop = Arc::new(AtomicBool::new(true));
        let budget = Budget {
            interrupt: Some(stop),
            ..Budget::default()
        };
        let run = solve(&sat, Options::plain(), budget);
        assert_eq!(run.answer, Answer::Stopped(Stop::Interrupted));
        let budget = Budget {
            deadline: Some(Instant::now()),
            ..Budget::default()
        };
        let run = solve(&sat, Options::plain(), budget);
        assert_eq!(run.answer, Answer::Stopped(Stop::Deadline));
    }

    #[test]
    fn the_proof_goes_to_its_sink() {
        #[derive(Clone, Default)]
        struct Shared(Arc<std::sync::Mutex<Vec<u8>>>);
        impl io::Write for Shared {
            fn write(&mut self, b: &[u8]) -> io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let out = Shared::default();
        let unsat =
            Cnf::from_dimacs_clauses(2, &[vec![1, 2], vec![1, -2], vec![-1, 2], vec![-1, -2]]);
        let budget = Budget {
            proof: Some((Box::new(out.clone()), false)),
            ..Budget::default()
        };
        let run = solve(&unsat, Options::plain(), budget);
        assert_eq!(run.answer, Answer::Unsat);
        assert!(run.proof.is_ok());
        assert!(run.stats.conflicts > 0);
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        assert!(text.ends_with("0\n"), "{text}");
    }
}
