//! The incremental puzzle mode of `bench run` (tdoku's method): for in-process solvers
//! that have a [`Session`], each worker keeps, per (solver, kind, side, encoding), one
//! solver loaded with the puzzle-independent rules, built once; each puzzle's givens go in
//! as assumptions. The formula a puzzle is solved under is the same as in the one-formula
//! mode (the rules plus one unit clause a given), so the row reports the same variable
//! and clause counts. `pruned` folds the givens into the clauses and has no rules to
//! share: it always takes the one-formula path, as do DIMACS inputs, child processes, and
//! with `--proofs` the solvers that write DRAT (a proof is checked against one formula).
//! Learnt clauses carry over from puzzle to puzzle (they follow from the rules alone), so
//! with `--repeat` a repetition finds the solver warm, as every later puzzle does.
//!
//! Every answer is checked: the grids are decoded from the model's grid variables (every
//! one of which the rules use) and held against the rules and the givens with
//! [`Puzzle::check_solution`]; anything else is a wrong answer. With `--count 2` the found
//! solution is blocked by a clause under a fresh activation literal, the puzzle solved
//! again with the literal assumed, and the clause then retired for good by the unit
//! `¬activation`. A session that stopped without an answer, or that its solver marks
//! unusable, is dropped and built again for the next puzzle.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::cnf::{ClauseSink, Lit};
use crate::encode::decode::decode_full;
use crate::encode::{EncodeOptions, encode, grid_var};
use crate::judge::{self, Verdict};
use crate::puzzle::{Kind, Puzzle};
use crate::results::Mode;
use crate::run::finished::{Counted, Finished};
use crate::run::plan::Plan;
use crate::solver::session::Session;
use crate::solver::{Limits, Outcome, Solver, Status};

/// A loaded session and the size of the rules in it.
pub struct Loaded {
    /// The solver, the rules in it.
    pub session: Box<dyn Session>,
    /// Variables of the rules (grid and auxiliary).
    pub vars: u32,
    /// Clauses of the rules.
    pub clauses: u64,
}

/// The most rule clauses one worker keeps loaded over all its sessions (a 36×36 extended
/// pairwise formula has 3.4 million): the least recently used sessions make room, and
/// rules bigger than this are solved one formula per puzzle, where loading them once
/// would save little against solving anyway.
pub const MAX_LOADED_CLAUSES: u64 = 4_000_000;

/// A session's key: (solver index, kind, side, encoding).
pub type Key = (usize, Kind, usize, EncodeOptions);

/// One worker's sessions, by (solver index, kind, side, encoding); `None` remembers a
/// solver that has no session or rules too big to keep.
pub struct Sessions {
    map: HashMap<Key, Option<Loaded>>,
    /// When each loaded session was last used.
    used: HashMap<Key, u64>,
    clock: u64,
    /// At most this many rule clauses loaded.
    cap: u64,
}

impl Default for Sessions {
    fn default() -> Sessions {
        Sessions::with_cap(MAX_LOADED_CLAUSES)
    }
}

impl Sessions {
    /// No sessions yet; at most `cap` rule clauses loaded at a time.
    pub fn with_cap(cap: u64) -> Sessions {
        Sessions {
            map: HashMap::new(),
            used: HashMap::new(),
            clock: 0,
            cap,
        }
    }

    /// How many sessions are loaded.
    pub fn loaded(&self) -> usize {
        self.map.values().flatten().count()
    }

    /// The session of `key`, loading it (after making room) on first use.
    fn get(
        &mut self,
        key: Key,
        solver: &dyn Solver,
        puzzle: &Puzzle,
        enc: EncodeOptions,
        seed: u64,
    ) -> Option<&mut Loaded> {
        self.clock += 1;
        if !self.map.contains_key(&key) {
            let loaded = match Puzzle::empty(puzzle.kind(), puzzle.side()) {
                Ok(empty) if solver.in_process() => {
                    let (clauses, _) = crate::encode::size_bound(&empty, enc);
                    if clauses > self.cap {
                        None
                    } else {
                        self.make_room(clauses);
                        load(solver, puzzle, enc, seed)
                    }
                }
                _ => None,
            };
            self.map.insert(key, loaded);
        }
        let loaded = self.map.get_mut(&key)?.as_mut()?;
        self.used.insert(key, self.clock);
        Some(loaded)
    }

    /// Drops the least recently used sessions until `clauses` more fit.
    fn make_room(&mut self, clauses: u64) {
        loop {
            let held: u64 = self.map.values().flatten().map(|l| l.clauses).sum();
            if held + clauses <= self.cap {
                return;
            }
            let Some(oldest) = self
                .used
                .iter()
                .filter(|(k, _)| self.map.get(k).is_some_and(Option::is_some))
                .min_by_key(|&(_, t)| *t)
                .map(|(k, _)| *k)
            else {
                return;
            };
            self.remove(&oldest);
        }
    }

    /// Drops a session (a new one is loaded on next use).
    fn remove(&mut self, key: &Key) {
        self.map.remove(key);
        self.used.remove(key);
    }
}

/// Counts the clauses on their way into a session.
struct Loader<'a> {
    session: &'a mut dyn Session,
    clauses: u64,
}

impl ClauseSink for Loader<'_> {
    fn add_clause(&mut self, lits: &[Lit]) {
        self.clauses += 1;
        self.session.add_clause(lits);
    }
}

/// A session of `solver` loaded with the rules of `puzzle`'s shape under `enc` (`None`
/// for a solver without sessions).
pub fn load(solver: &dyn Solver, puzzle: &Puzzle, enc: EncodeOptions, seed: u64) -> Option<Loaded> {
    let mut session = solver.session(seed)?;
    let empty = Puzzle::empty(puzzle.kind(), puzzle.side()).ok()?;
    let mut loader = Loader {
        session: session.as_mut(),
        clauses: 0,
    };
    let vars = encode(&empty, enc, &mut loader);
    let clauses = loader.clauses;
    session.ensure_vars(vars);
    Some(Loaded {
        session,
        vars,
        clauses,
    })
}

/// The solution a model describes, or why it is none (a wrong answer: every grid variable
/// occurs in the rules, so a model that satisfies them decodes to a solution).
pub fn solution(puzzle: &Puzzle, outcome: &Outcome) -> Result<Puzzle, String> {
    let model = outcome.model.as_ref().ok_or("SAT without a model")?;
    let grids = decode_full(puzzle, model).map_err(|e| format!("the model is no grid: {e}"))?;
    puzzle
        .check_solution(&grids)
        .map_err(|e| format!("the model's grid is no solution: {e}"))?;
    Ok(grids)
}

/// Runs one puzzle in the worker's session of `key` (loaded on first use): the givens as
/// assumptions, the answer decoded and checked, and with `--count` the further solutions
/// found under a fresh activation literal. None when Ctrl-C stopped it. A session that
/// stopped without an answer, or that its solver marks unusable, is dropped.
pub fn run_session(
    sessions: &mut Sessions,
    key: Key,
    plan: &Plan,
    puzzle: &Puzzle,
    solver: &dyn Solver,
    interrupt: &Arc<AtomicBool>,
) -> Option<Finished> {
    let enc = key.3;
    let Some(loaded) = sessions.get(key, solver, puzzle, enc, plan.seed) else {
        // The task's mode promised a session (see `task::mode_of`): an internal error.
        return Some(Finished {
            mode: Mode::Session,
            size: (0, 0),
            outcome: Outcome::error(format!(
                "internal: no session of {} for this puzzle",
                solver.name()
            )),
            checked: Verdict::Unchecked(None),
            checker: None,
            grids: None,
            count: None,
        });
    };
    let limits = Limits {
        timeout: Some(plan.timeout()),
        cpu_limit: plan.limits.cpu(),
        mem_limit_mb: None,
        interrupt: Some(interrupt.clone()),
        proof: None,
        binary_proof: false,
        seed: plan.seed,
    };
    let mut assumptions = crate::encode::given_lits(puzzle);
    let mut outcome = loaded.session.solve(&assumptions, &limits);
    if interrupt.load(Ordering::Relaxed) {
        sessions.remove(&key);
        return None;
    }
    let first = (outcome.status == Status::Sat).then(|| solution(puzzle, &outcome));
    let checked = match &first {
        Some(Ok(_)) => Verdict::ModelOk,
        Some(Err(why)) => Verdict::ModelWrong(why.clone()),
        None => Verdict::Unchecked(None),
    };
    let size = (
        loaded.vars as u64,
        loaded.clauses + assumptions.len() as u64,
    );
    let mut keep = outcome.status.is_solved() && loaded.session.usable();
    let grids = first.and_then(Result::ok);
    let mut count = None;
    if plan.count >= 2 {
        // The count's time starts with the first solve, whatever it answered.
        let mut counted = Counted::after(&outcome);
        if keep && let Some(found) = &grids {
            counted.grids.push(found.clone());
            match count_again(
                loaded.session.as_mut(),
                puzzle,
                &mut counted,
                &mut assumptions,
                &limits,
                plan.count,
            ) {
                Ok(solved) => keep = solved && loaded.session.usable(),
                Err(why) => {
                    counted.wrong = Some(why);
                    keep = false;
                }
            }
            if interrupt.load(Ordering::Relaxed) {
                sessions.remove(&key);
                return None;
            }
        }
        count = Some(counted);
    }
    if !keep {
        sessions.remove(&key);
    }
    outcome.model = None;
    Some(Finished {
        mode: Mode::Session,
        size,
        outcome,
        checked,
        checker: None,
        grids,
        count,
    })
}

/// `--count N` in a session: blocks each found solution by a clause under one fresh
/// activation literal `a` and solves again under the givens and `a`, until the puzzle has
/// no other solution or `limit` are found; then retires the blocks for good with the unit
/// `¬a`. Every solution is checked and must differ from the earlier ones (a repeat breaks
/// its block clause: a wrong answer). `counted` holds the first solution and gathers the
/// rest, their times, and the count (`Some(k)`, `limit` meaning at least that many; None
/// when a solve gave no answer). Returns whether the last call decided; `Err` for a wrong
/// answer.
fn count_again(
    session: &mut dyn Session,
    puzzle: &Puzzle,
    counted: &mut Counted,
    assumptions: &mut Vec<Lit>,
    limits: &Limits,
    limit: u32,
) -> Result<bool, String> {
    let n = puzzle.side();
    let a = session.new_var().pos();
    assumptions.push(a);
    let result = loop {
        let found = counted.grids.len() as u32;
        if found >= limit {
            counted.count = Some(found);
            break Ok(true);
        }
        let last = &counted.grids[counted.grids.len() - 1];
        let mut block = vec![!a];
        for (b, (given, board)) in puzzle.boards().iter().zip(last.boards()).enumerate() {
            for r in 0..n {
                for c in 0..n {
                    if given.get(r, c) == 0 {
                        let v = board.get(r, c) as usize;
                        block.push(!grid_var(n, b, r, c, v - 1).pos());
                    }
                }
            }
        }
        if block.len() == 1 {
            // The givens fill every cell: this is the one solution.
            counted.count = Some(1);
            break Ok(true);
        }
        session.add_clause(&block);
        let again = session.solve(assumptions, limits);
        counted.add(&again);
        match again.status {
            Status::Unsat => {
                counted.count = Some(found);
                break Ok(true);
            }
            Status::Sat => {
                let k = found as usize + 1;
                let next = match solution(puzzle, &again) {
                    Ok(g) => g,
                    Err(e) => break Err(format!("solution {k}: {e}")),
                };
                if let Err(why) = judge::count_step(&counted.grids, &next, k) {
                    break Err(why);
                }
                counted.grids.push(next);
            }
            _ => {
                counted.stop(&again);
                break Ok(false);
            }
        }
    };
    session.add_clause(&[!a]);
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::{Cnf, Model, Var};
    use crate::puzzle::Grid;
    use crate::results::{Check, Row};
    use crate::solver::SolverConfig;

    /// A solver that lies, which real solvers do not on demand: its session answers SAT
    /// with a fixed grid (the full pattern Latin square of side 3), whatever it is asked.
    struct Liar;

    struct LiarSession {
        vars: u32,
    }

    const GRID: [u16; 9] = [1, 2, 3, 2, 3, 1, 3, 1, 2];

    impl Session for LiarSession {
        fn add_clause(&mut self, _: &[Lit]) {}
        fn new_var(&mut self) -> Var {
            self.vars += 1;
            Var::new(self.vars - 1)
        }
        fn ensure_vars(&mut self, n: u32) {
            self.vars = self.vars.max(n);
        }
        fn solve(&mut self, _: &[Lit], _: &Limits) -> Outcome {
            let mut model = Model::from_values((0..self.vars).map(|_| false));
            for (i, &v) in GRID.iter().enumerate() {
                model.set(grid_var(3, 0, i / 3, i % 3, v as usize - 1).pos());
            }
            Outcome::sat(model)
        }
    }

    impl Solver for Liar {
        fn name(&self) -> &str {
            "liar"
        }
        fn in_process(&self) -> bool {
            true
        }
        fn solve(&self, _: &Cnf, _: &Limits) -> Outcome {
            Outcome::error("not used")
        }
        fn session(&self, _: u64) -> Option<Box<dyn Session>> {
            Some(Box::new(LiarSession { vars: 0 }))
        }
    }

    fn plan(count: u32) -> Plan {
        crate::run::plan::plan_with(|p| {
            p.limits.timeout_s = 10.0;
            p.count = count;
        })
    }

    fn latin(cells: [u16; 9]) -> Puzzle {
        let grid = Grid::from_cells(3, cells.to_vec()).unwrap();
        Puzzle::new(Kind::Latin, vec![grid]).unwrap()
    }

    fn key(solver: usize, puzzle: &Puzzle) -> Key {
        (
            solver,
            puzzle.kind(),
            puzzle.side(),
            EncodeOptions::default(),
        )
    }

    /// The run of `puzzle` in a session of `solver`, as judged.
    fn row(puzzle: &Puzzle, solver: &dyn Solver, count: u32) -> Row {
        let mut sessions = Sessions::default();
        let flag = Arc::new(AtomicBool::new(false));
        let plan = plan(count);
        let finished = run_session(&mut sessions, key(0, puzzle), &plan, puzzle, solver, &flag)
            .expect("not interrupted");
        let judged = judge::judge(&finished.answer(), &[], true, count);
        Row {
            status: finished.outcome.status,
            check: judged.check,
            wrong: judged.wrong,
            error: judged.error,
            solutions: judged.solutions,
            vars: finished.size.0,
            clauses: finished.size.1,
            ..Row::default()
        }
    }

    #[test]
    fn sessions_beyond_the_cap_make_room() {
        let native = crate::solver::by_name("native", &SolverConfig::default()).unwrap();
        let flag = Arc::new(AtomicBool::new(false));
        let puzzle = latin([1, 2, 3, 2, 0, 0, 0, 0, 0]);
        let empty = Puzzle::empty(Kind::Latin, 3).unwrap();
        let (_, one) = crate::encode::count(&empty, EncodeOptions::default());
        // Room for one session: another solver's evicts it. (Rules bigger than the cap
        // are solved one formula per puzzle: the task's mode, `task::tests`.)
        let mut sessions = Sessions::with_cap(one);
        for solver_index in [0, 1, 0] {
            let finished = run_session(
                &mut sessions,
                key(solver_index, &puzzle),
                &plan(1),
                &puzzle,
                native.as_ref(),
                &flag,
            )
            .unwrap();
            assert_eq!(finished.checked, Verdict::ModelOk);
            assert_eq!(sessions.loaded(), 1);
        }
    }

    #[test]
    fn a_grid_that_loses_a_given_is_wrong() {
        // The liar's grid has 1 in r1c1; the puzzle gives 2 there.
        let r = row(&latin([2, 0, 0, 0, 0, 0, 0, 0, 0]), &Liar, 1);
        assert!(r.wrong);
        assert_eq!(r.check, Check::ModelWrong);
        assert!(r.error.contains("no solution"), "{}", r.error);
    }

    #[test]
    fn a_second_solution_that_repeats_the_first_is_wrong() {
        let r = row(&latin([1, 0, 0, 0, 0, 0, 0, 0, 0]), &Liar, 2);
        assert_eq!(r.status, Status::Sat);
        assert!(r.wrong, "{r:?}");
        assert!(r.error.contains("repeats a blocked one"), "{}", r.error);
    }

    #[test]
    fn native_counts_by_assumptions() {
        let native = crate::solver::by_name("native", &SolverConfig::default()).unwrap();
        // Side 3 with r1 = 1 2 3 given: two completions.
        let r = row(&latin([1, 2, 3, 0, 0, 0, 0, 0, 0]), native.as_ref(), 2);
        assert_eq!((r.check, r.solutions), (Check::ModelOk, Some(2)));
        let r = row(&latin([1, 2, 3, 2, 0, 0, 0, 0, 0]), native.as_ref(), 2);
        assert_eq!((r.check, r.solutions), (Check::ModelOk, Some(1)));
        // The formula's counts are those of the rules plus one unit a given.
        let (vars, clauses) = crate::encode::count(
            &latin([1, 2, 3, 2, 0, 0, 0, 0, 0]),
            EncodeOptions::default(),
        );
        assert_eq!((r.vars, r.clauses), (vars as u64, clauses));
    }
}
