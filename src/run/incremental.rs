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
use crate::encode::{EncodeOptions, Encoding, encode, grid_var};
use crate::judge::{self, Verdict};
use crate::puzzle::{Kind, Puzzle};
use crate::results::{Mode, Row};
use crate::run::RunOptions;
use crate::run::corpus::{Instance, Source};
use crate::run::exec::{Counted, fill_row};
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

type Key = (usize, Kind, usize, EncodeOptions);

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
                    let (_, clauses) = crate::encode::count(&empty, enc);
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

/// What [`run_one`] did (returned, never stored: the row's size does not matter).
#[allow(clippy::large_enum_variant)]
pub enum Ran {
    /// The run was done incrementally: its row and the grids of a verified solution, or
    /// `None` when Ctrl-C stopped it.
    Done(Option<(Row, Vec<Puzzle>)>),
    /// Not an incremental run (no session, a DIMACS input, `pruned`, the mode off).
    NotHere,
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

/// Runs one (instance, encoding, solver, run) incrementally, when it can be.
#[allow(clippy::too_many_arguments)]
pub fn run_one(
    sessions: &mut Sessions,
    opts: &RunOptions,
    instance: &Instance,
    encoding: Option<EncodeOptions>,
    solver_index: usize,
    solver: &dyn Solver,
    run: u32,
    interrupt: &Arc<AtomicBool>,
) -> Ran {
    let (Source::Puzzle(puzzle), Some(enc)) = (&instance.source, encoding) else {
        return Ran::NotHere;
    };
    // With --proofs a solver that writes DRAT solves a fresh formula, so that its UNSAT
    // answers come with a proof `rate` can check against that formula.
    let wants_proof = opts.plan.proofs && solver.proof_style().is_some();
    if !opts.plan.incremental
        || enc.encoding == Encoding::Pruned
        || !solver.in_process()
        || wants_proof
    {
        return Ran::NotHere;
    }
    let key = (solver_index, puzzle.kind(), puzzle.side(), enc);
    let Some(loaded) = sessions.get(key, solver, puzzle, enc, opts.plan.seed) else {
        return Ran::NotHere;
    };
    let limits = Limits {
        timeout: Some(opts.timeout),
        mem_limit_mb: None,
        interrupt: Some(interrupt.clone()),
        proof: None,
        binary_proof: false,
        seed: opts.plan.seed,
    };
    let mut assumptions = crate::encode::given_lits(puzzle);
    let outcome = loaded.session.solve(&assumptions, &limits);
    if interrupt.load(Ordering::Relaxed) {
        sessions.remove(&key);
        return Ran::Done(None);
    }
    let first = (outcome.status == Status::Sat).then(|| solution(puzzle, &outcome));
    let verdict = match &first {
        Some(Ok(_)) => Verdict::ModelOk,
        Some(Err(why)) => Verdict::ModelWrong(why.clone()),
        None => Verdict::Unchecked(None),
    };
    let size = (
        loaded.vars as u64,
        loaded.clauses + assumptions.len() as u64,
    );
    let encoding = enc.encoding.as_str();
    let mut row = crate::run::new_row(
        opts,
        instance,
        encoding,
        (solver.name(), Mode::Session),
        run,
        size,
    );
    fill_row(&mut row, &outcome, &verdict);
    let mut keep = outcome.status.is_solved() && loaded.session.usable();
    let mut grids: Vec<Puzzle> = Vec::new();
    if opts.plan.count >= 2 {
        // The count's time starts with the first solve, whatever it answered.
        let mut counted = Counted {
            wall: outcome.wall,
            cpu: outcome.cpu,
            ..Counted::default()
        };
        if keep && let Some(Ok(found)) = &first {
            counted.grids.push(found.clone());
            match count_again(
                loaded.session.as_mut(),
                puzzle,
                &mut counted,
                &mut assumptions,
                &limits,
                opts.plan.count,
            ) {
                Ok(solved) => keep = solved && loaded.session.usable(),
                Err(why) => {
                    judge::apply(&mut row, &Verdict::ModelWrong(why), None);
                    keep = false;
                }
            }
            if interrupt.load(Ordering::Relaxed) {
                sessions.remove(&key);
                return Ran::Done(None);
            }
        }
        counted.fill(&mut row);
        grids = counted.grids;
    } else if let Some(Ok(found)) = first {
        grids.push(found);
    }
    if !keep {
        sessions.remove(&key);
    }
    if row.wrong {
        grids.clear();
    }
    judge::hold_against_records(&mut row, &instance.records, grids.first(), opts.plan.count);
    Ran::Done(Some((row, grids)))
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
    use crate::results::Check;
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

    fn opts(count: u32) -> RunOptions {
        let plan = crate::run::plan::plan_with(|p| {
            p.timeout_s = 10.0;
            p.count = count;
        });
        RunOptions::new(plan, std::path::PathBuf::from("."), Vec::new())
    }

    fn latin(cells: [u16; 9]) -> Instance {
        let grid = Grid::from_cells(3, cells.to_vec()).unwrap();
        Instance {
            corpus: "t".into(),
            id: "t:1".into(),
            hash: "t:1".into(),
            source: Source::Puzzle(Puzzle::new(Kind::Latin, vec![grid]).unwrap()),
            records: Vec::new(),
            format: None,
        }
    }

    fn row(instance: &Instance, solver: &dyn Solver, count: u32) -> Row {
        let mut sessions = Sessions::default();
        let enc = Some(EncodeOptions::default());
        let flag = Arc::new(AtomicBool::new(false));
        match run_one(
            &mut sessions,
            &opts(count),
            instance,
            enc,
            0,
            solver,
            1,
            &flag,
        ) {
            Ran::Done(Some((row, _))) => row,
            _ => panic!("not run incrementally"),
        }
    }

    #[test]
    fn sessions_beyond_the_cap_make_room_or_are_not_kept() {
        let native = crate::solver::by_name("native", &SolverConfig::default()).unwrap();
        let flag = Arc::new(AtomicBool::new(false));
        let instance = latin([1, 2, 3, 2, 0, 0, 0, 0, 0]);
        let empty = Puzzle::empty(Kind::Latin, 3).unwrap();
        let (_, one) = crate::encode::count(&empty, EncodeOptions::default());
        let enc = Some(EncodeOptions::default());
        let ok = |ran: Ran| matches!(ran, Ran::Done(Some((r, _))) if r.check == Check::ModelOk);
        // Room for one session: another solver's evicts it.
        let mut sessions = Sessions::with_cap(one);
        for solver_index in [0, 1, 0] {
            let o = opts(1);
            let ran = run_one(
                &mut sessions,
                &o,
                &instance,
                enc,
                solver_index,
                native.as_ref(),
                1,
                &flag,
            );
            assert!(ok(ran));
            assert_eq!(sessions.loaded(), 1);
        }
        // Rules bigger than the cap: one formula per puzzle.
        let mut sessions = Sessions::with_cap(one - 1);
        let ran = run_one(
            &mut sessions,
            &opts(1),
            &instance,
            enc,
            0,
            native.as_ref(),
            1,
            &flag,
        );
        assert!(matches!(ran, Ran::NotHere));
        assert_eq!(sessions.loaded(), 0);
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
            &Puzzle::new(
                Kind::Latin,
                vec![Grid::from_cells(3, vec![1, 2, 3, 2, 0, 0, 0, 0, 0]).unwrap()],
            )
            .unwrap(),
            EncodeOptions::default(),
        );
        assert_eq!((r.vars, r.clauses), (vars as u64, clauses));
    }
}
