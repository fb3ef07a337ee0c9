//! The harness's cost per in-process call: bench's session path against the same solver
//! library driven directly in a plain loop, on the same puzzles, the same encoding
//! (extended, pairwise) and the same order, one solver each with the rules loaded once
//! and each puzzle's givens as assumptions (tdoku's method).
//!
//! ```text
//! cargo bench --bench harness --features rustsat-solvers -- [--count N] [--rounds R] [--solvers A,B] FILE
//! ```
//! bench's path is what `bench run` does per puzzle in a session: the givens as
//! assumptions (`given_lits`), `Session::solve` under a timeout and an interrupt flag (so
//! the library solvers' watchdog is armed), the model decoded and checked against the
//! rules and the givens (`incremental::solution`). The direct loop uses no bench code
//! between calls: RustSAT's API (`solve_assumps`, `lit_val` of the 729 grid variables) for
//! minisat-lib, glucose-lib and cadical-lib, and `cdcl_engine::CdclSolver`
//! (`solve_with`, `value`) with the options of bench's native session for native; it
//! decodes the grid and checks rows, columns, boxes and givens itself. The assumptions of
//! the direct loop are built before timing; the clauses come from bench's encoder (setup).
//!
//! Both sides solve the same puzzles in the same order, taking turns on chunks of
//! [`CHUNK`] puzzles (who goes first alternating), so the machine's load falls on both
//! alike. The time is the process's CPU time (the watchdog thread included). Both sides
//! must report the same conflicts (the same search, so the same work) or the benchmark
//! fails. Prints a Markdown table: puzzles per CPU-second of each and bench's CPU per call
//! over the direct loop's (the ratio of totals, and the median of the chunk pairs'
//! ratios), one row per round; with `--rounds R` (a fresh session and direct solver each
//! round, the same search again) also the medians over the rounds, as the machine's load
//! moves a single round's ratio by a few per cent.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use bench::cnf::{Cnf, Lit};
use bench::encode::given_lits;
use bench::encode::{Amo, EncodeOptions, Encoding, encode, grid_var};
use bench::puzzle::Puzzle;
use bench::puzzle::format::{ReadOptions, read_path};
use bench::run::incremental::{load, solution};
use bench::solver::{Limits, SolverConfig, Status, by_spec};

/// Puzzles per turn.
const CHUNK: usize = 50;

/// The process's CPU time (every thread: the watchdog's ticks are harness cost too).
fn cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec on our stack.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// One puzzle as the direct loop sees it: its 81 digits (0 blank).
type Digits = [u8; 81];

fn digits(p: &Puzzle) -> Digits {
    let mut d = [0u8; 81];
    let board = &p.boards()[0];
    for r in 0..9 {
        for c in 0..9 {
            d[r * 9 + c] = board.get(r, c) as u8;
        }
    }
    d
}

/// The direct loop's check: every row, column and box a permutation of 1..=9, the givens
/// kept.
fn check(given: &Digits, grid: &Digits) -> bool {
    let unit_ok = |cells: &mut dyn Iterator<Item = usize>| {
        let mut seen = 0u16;
        for i in cells {
            seen |= 1 << grid[i];
        }
        seen == 0b11_1111_1110
    };
    (0..9).all(|k| {
        unit_ok(&mut (0..9).map(|c| k * 9 + c))
            && unit_ok(&mut (0..9).map(|r| r * 9 + k))
            && unit_ok(&mut (0..9).map(|i| (k / 3 * 3 + i / 3) * 9 + k % 3 * 3 + i % 3))
    }) && given.iter().zip(grid).all(|(&g, &v)| g == 0 || g == v)
}

/// A solver driven directly: rules in, then one call per puzzle.
trait Direct {
    /// Solves under the puzzle's givens; the decoded grid (None: not SAT) and the
    /// conflicts so far.
    fn solve(&mut self, index: usize) -> (Option<Digits>, u64);
}

#[cfg(feature = "rustsat-solvers")]
mod lib_direct {
    use super::{Digits, Direct};
    use rustsat::solvers::{GetInternalStats, Solve, SolveIncremental, SolverResult};
    use rustsat::types::{Lit as RsLit, TernaryVal};

    pub struct Library<S> {
        pub solver: S,
        pub assumptions: Vec<Vec<RsLit>>,
    }

    impl<S: SolveIncremental + Solve + GetInternalStats> Library<S> {
        pub fn new(mut solver: S, clauses: &[Vec<RsLit>], assumptions: Vec<Vec<RsLit>>) -> Self {
            for c in clauses {
                solver.add_clause_ref(&c[..]).expect("clause");
            }
            Library {
                solver,
                assumptions,
            }
        }
    }

    impl<S: SolveIncremental + Solve + GetInternalStats> Direct for Library<S> {
        fn solve(&mut self, index: usize) -> (Option<Digits>, u64) {
            let res = self.solver.solve_assumps(&self.assumptions[index]);
            let grid = match res {
                Ok(SolverResult::Sat) => {
                    let mut g = [0u8; 81];
                    for (cell, slot) in g.iter_mut().enumerate() {
                        for d in 0..9u32 {
                            let lit = RsLit::new(cell as u32 * 9 + d, false);
                            if matches!(self.solver.lit_val(lit), Ok(TernaryVal::True)) {
                                *slot = d as u8 + 1;
                            }
                        }
                    }
                    Some(g)
                }
                _ => None,
            };
            (grid, self.solver.conflicts() as u64)
        }
    }
}

/// native through cdcl-engine's own API.
struct Native {
    solver: cdcl_engine::CdclSolver,
    assumptions: Vec<Vec<Lit>>,
}

impl Direct for Native {
    fn solve(&mut self, index: usize) -> (Option<Digits>, u64) {
        let res = self.solver.solve_with(&self.assumptions[index]);
        let grid = (res == cdcl_engine::SolveResult::Sat).then(|| {
            let mut g = [0u8; 81];
            for (cell, slot) in g.iter_mut().enumerate() {
                for d in 0..9u32 {
                    let lit = bench::cnf::Var::new(cell as u32 * 9 + d).pos();
                    if self.solver.value(lit) == Some(true) {
                        *slot = d as u8 + 1;
                    }
                }
            }
            g
        });
        (grid, self.solver.stats().conflicts)
    }
}

/// The direct solver for `name`, loaded with `rules`.
fn direct(name: &str, rules: &Cnf, puzzles: &[Puzzle]) -> Box<dyn Direct> {
    let assumptions: Vec<Vec<Lit>> = puzzles.iter().map(given_lits).collect();
    if name == "native" {
        let spec = bench::solver::config::SolverSpec::parse("native").expect("native");
        let mut options = bench::solver::config::native_options("native", &spec.settings)
            .expect("native's options");
        // As bench's native session (see `NativeSession::new`).
        options.elim = false;
        let mut solver = cdcl_engine::CdclSolver::with_options(options);
        solver.ensure_vars(rules.num_vars());
        for c in rules.clauses() {
            solver.add_clause(c);
        }
        return Box::new(Native {
            solver,
            assumptions,
        });
    }
    #[cfg(feature = "rustsat-solvers")]
    {
        use rustsat::types::Lit as RsLit;
        let rs = |l: &Lit| RsLit::new(l.var().index() as u32, !l.is_positive());
        let clauses: Vec<Vec<RsLit>> = rules
            .clauses()
            .map(|c| c.iter().map(rs).collect())
            .collect();
        let assumptions: Vec<Vec<RsLit>> = assumptions
            .iter()
            .map(|a| a.iter().map(rs).collect())
            .collect();
        match name {
            "minisat-lib" => Box::new(lib_direct::Library::new(
                rustsat_minisat::core::Minisat::default(),
                &clauses,
                assumptions,
            )),
            "glucose-lib" => Box::new(lib_direct::Library::new(
                rustsat_glucose::core::Glucose::default(),
                &clauses,
                assumptions,
            )),
            "cadical-lib" => Box::new(lib_direct::Library::new(
                rustsat_cadical::CaDiCaL::default(),
                &clauses,
                assumptions,
            )),
            other => panic!("no direct loop for {other}"),
        }
    }
    #[cfg(not(feature = "rustsat-solvers"))]
    {
        panic!("{name} needs the feature rustsat-solvers")
    }
}

/// The median (of an even count, the mean of the middle two).
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len().is_multiple_of(2) {
        (v[m - 1] + v[m]) / 2.0
    } else {
        v[m]
    }
}

fn main() {
    let mut count = 2000usize;
    let mut rounds = 1usize;
    let mut solvers = if bench::solver::LIBRARY_BUILT {
        "native,minisat-lib,glucose-lib,cadical-lib".to_string()
    } else {
        "native".to_string()
    };
    let mut file = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--count" => count = args.next().and_then(|n| n.parse().ok()).expect("--count N"),
            "--solvers" => solvers = args.next().expect("--solvers A,B"),
            "--rounds" => {
                rounds = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("--rounds N");
                assert!(rounds >= 1, "--rounds N: at least 1");
            }
            "--bench" => {}
            _ => file = Some(PathBuf::from(a)),
        }
    }
    let file = file.unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpora/minimal-9x9.txt")
    });
    let puzzles: Vec<Puzzle> = read_path(&file, &ReadOptions::default())
        .expect("the puzzle file")
        .entries
        .into_iter()
        .map(|e| e.expect("a puzzle").puzzle)
        .filter(|p| p.side() == 9 && p.boards().len() == 1)
        .take(count)
        .collect();
    assert!(!puzzles.is_empty(), "no 9×9 puzzle in {}", file.display());
    let enc = EncodeOptions {
        encoding: Encoding::Extended,
        amo: Amo::Pairwise,
    };
    let empty = Puzzle::empty(puzzles[0].kind(), 9).expect("an empty grid");
    let mut rules = Cnf::new(0);
    let vars = encode(&empty, enc, &mut rules);
    rules.ensure_vars(vars);
    // The direct loops read cell·9 + digit: the grid variables' numbering.
    assert_eq!(grid_var(9, 0, 1, 2, 3).index(), 9 * 9 + 2 * 9 + 3);
    let given: Vec<Digits> = puzzles.iter().map(digits).collect();
    let interrupt = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        timeout: Some(Duration::from_secs(60)),
        interrupt: Some(interrupt),
        ..Limits::default()
    };
    println!(
        "{} puzzles of {}, extended encoding, givens as assumptions, chunks of {CHUNK}\n",
        puzzles.len(),
        file.file_name().unwrap_or_default().to_string_lossy()
    );
    println!(
        "| solver | round | bench puzzles/CPU-s | direct puzzles/CPU-s | bench / direct CPU (total) | median of chunk ratios | conflicts |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|");
    let list = bench::solver::config::parse_solver_list(&solvers).expect("a solver list");
    let setup = Setup {
        puzzles: &puzzles,
        given: &given,
        rules: &rules,
        enc,
        limits: &limits,
    };
    for spec in &list.0 {
        let name = spec.name();
        let (mut totals, mut medians) = (Vec::new(), Vec::new());
        for round in 1..=rounds {
            let r = one_round(spec, &setup);
            let n = puzzles.len() as f64;
            let (total, chunks) = (
                r.bench.as_secs_f64() / r.direct.as_secs_f64(),
                median(r.ratios),
            );
            println!(
                "| {name} | {round} | {:.0} | {:.0} | {total:.3} | {chunks:.3} | {} |",
                n / r.bench.as_secs_f64(),
                n / r.direct.as_secs_f64(),
                r.conflicts
            );
            totals.push(total);
            medians.push(chunks);
        }
        if rounds > 1 {
            println!(
                "| {name} | median of {rounds} | | | {:.3} | {:.3} | |",
                median(totals),
                median(medians)
            );
        }
    }
}

/// What every round shares: the puzzles, their givens as digits, the rules, the encoding
/// and bench's limits.
struct Setup<'a> {
    puzzles: &'a [Puzzle],
    given: &'a [Digits],
    rules: &'a Cnf,
    enc: EncodeOptions,
    limits: &'a Limits,
}

/// One round's CPU times, chunk pairs' ratios (bench / direct) and conflicts.
struct Round {
    bench: Duration,
    direct: Duration,
    ratios: Vec<f64>,
    conflicts: u64,
}

/// One round for `spec`: a fresh session and a fresh direct solver, taking turns on the
/// chunks; fails unless both did the same search and every answer checks.
fn one_round(spec: &bench::solver::config::SolverSpec, setup: &Setup) -> Round {
    let (puzzles, limits) = (setup.puzzles, setup.limits);
    let name = spec.name();
    let solver = by_spec(spec, &SolverConfig::default()).expect("a solver");
    let mut loaded = load(solver.as_ref(), &puzzles[0], setup.enc, 0).expect("a session");
    let mut plain = direct(&name, setup.rules, puzzles);
    let (mut t_bench, mut t_direct) = (Duration::ZERO, Duration::ZERO);
    let (mut c_bench, mut c_direct) = (0u64, 0u64);
    let mut ratios = Vec::new();
    for (k, chunk) in (0..puzzles.len())
        .collect::<Vec<_>>()
        .chunks(CHUNK)
        .enumerate()
    {
        let mut pair = [Duration::ZERO; 2];
        for side in [k % 2, 1 - k % 2] {
            let t0 = cpu();
            for &i in chunk {
                if side == 0 {
                    let p = &puzzles[i];
                    let out = loaded.session.solve(&given_lits(p), limits);
                    assert_eq!(out.status, Status::Sat, "{name} on puzzle {i}");
                    solution(p, &out).unwrap_or_else(|e| panic!("{name}: WRONG {e}"));
                    c_bench += out
                        .stats
                        .iter()
                        .find(|(k, _)| k == "conflicts")
                        .map_or(0, |s| s.1);
                } else {
                    let (grid, conflicts) = plain.solve(i);
                    let grid = grid.unwrap_or_else(|| panic!("direct {name}: not SAT"));
                    assert!(check(&setup.given[i], &grid), "direct {name}: WRONG on {i}");
                    c_direct = conflicts;
                }
            }
            pair[side] = cpu() - t0;
        }
        t_bench += pair[0];
        t_direct += pair[1];
        if !pair[1].is_zero() {
            ratios.push(pair[0].as_secs_f64() / pair[1].as_secs_f64());
        }
    }
    assert_eq!(
        c_bench, c_direct,
        "{name}: bench and the direct loop did different searches"
    );
    Round {
        bench: t_bench,
        direct: t_direct,
        ratios,
        conflicts: c_bench,
    }
}
