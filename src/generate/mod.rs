//! `bench gen`: puzzles with exactly one solution.
//!
//! 1. A random full solution: the empty puzzle solved by `native` with random decisions
//!    and random phases from the seed, so any valid grid can come out (not a pattern grid
//!    in disguise).
//! 2. Holes dug in a random order on ONE incremental solver holding the rules and a clause
//!    that blocks the solution: removing a given is kept only if the solver, assuming the
//!    remaining givens, finds no other solution (UNSAT means unique). One pass over every
//!    cell gives a locally minimal puzzle (removing more givens only adds solutions, so a
//!    given that had to stay still has to); `--givens G` stops earlier.
//! 3. A rating: native's conflicts and decisions on the extended encoding, averaged over a
//!    few random symmetric copies of the puzzle.
//!
//! Everything is drawn from one seeded generator and the solver is deterministic, so the
//! same seed gives the same puzzles on any machine.

pub mod dig;
pub mod rating;
pub mod shuffle;
pub mod spoil;

use crate::cnf::Lit;
use crate::encode::{Amo, EncodeOptions, Encoding, encode, grid_var};
use crate::puzzle::{Kind, Puzzle, ShapeError};
use crate::rng::SplitMix64;
use crate::solver::cdcl::{CdclSolver, Options, SolveResult};

/// What to generate.
#[derive(Clone, Debug)]
pub struct GenOptions {
    /// sudoku, latin or pair.
    pub kind: Kind,
    /// The side n (k² for sudokus and pairs).
    pub side: usize,
    /// How many puzzles.
    pub count: usize,
    /// The seed of everything random.
    pub seed: u64,
    /// Stop digging at this many givens (None: dig to a locally minimal puzzle).
    pub target_givens: Option<usize>,
    /// Keep only puzzles rated at least this.
    pub min_rating: Option<f64>,
    /// Shuffles averaged by the rating.
    pub rating_shuffles: usize,
    /// Generate this many and keep the `count` hardest.
    pub pool: Option<usize>,
    /// Spoil each puzzle on purpose.
    pub variant: Option<Variant>,
}

/// A deliberately spoiled puzzle, for testing what a benchmark does with bad ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// One more given, contradicting the unique solution but breaking no rule: no solution.
    Unsolvable,
    /// One given fewer (of a minimal puzzle): several solutions.
    Ambiguous,
}

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 2] = [Variant::Unsolvable, Variant::Ambiguous];

    /// The name on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Variant::Unsolvable => "unsolvable",
            Variant::Ambiguous => "ambiguous",
        }
    }

    /// Parses `unsolvable` or `ambiguous`.
    pub fn parse(s: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.as_str() == s)
    }
}

/// One generated puzzle.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The puzzle (unique solution).
    pub puzzle: Puzzle,
    /// Its solution.
    pub solution: Puzzle,
    /// The rating.
    pub rating: rating::Rating,
}

/// The rules (extended encoding, no givens) of an empty puzzle of this shape, in `solver`.
pub fn load_rules(solver: &mut CdclSolver, empty: &Puzzle) {
    let mut cnf = crate::cnf::Cnf::new(0);
    let vars = encode(
        empty,
        EncodeOptions {
            encoding: Encoding::Extended,
            amo: Amo::Pairwise,
        },
        &mut cnf,
    );
    solver.ensure_vars(vars);
    for c in cnf.clauses() {
        solver.add_clause(c);
    }
}

/// The grid literal "board b, cell (r, c) holds v" for v in 1..=n.
pub fn cell_lit(n: usize, b: usize, r: usize, c: usize, v: u16) -> Lit {
    grid_var(n, b, r, c, v as usize - 1).pos()
}

/// Reads the grids off a solver's model.
fn read_solution(solver: &CdclSolver, empty: &Puzzle) -> Puzzle {
    let n = empty.side();
    let mut out = empty.clone();
    for (b, board) in out.boards_mut().iter_mut().enumerate() {
        for r in 0..n {
            for c in 0..n {
                let v = (1..=n as u16)
                    .find(|&v| solver.value(cell_lit(n, b, r, c, v)) == Some(true))
                    .unwrap_or(0);
                board.set(r, c, v);
            }
        }
    }
    out
}

/// A random full solution of the empty puzzle `empty`.
pub fn random_solution(empty: &Puzzle, rng: &mut SplitMix64) -> Puzzle {
    let options = Options {
        seed: rng.next_u64() | 1,
        random_var_freq: 0.5,
        random_polarity: true,
        ..Options::plain()
    };
    let mut solver = CdclSolver::with_options(options);
    load_rules(&mut solver, empty);
    // A random first row (any permutation of the values is part of some solution) spreads
    // the start further than random decisions alone.
    let n = empty.side();
    let mut first: Vec<u16> = (1..=n as u16).collect();
    rng.shuffle(&mut first);
    let assumptions: Vec<Lit> = first
        .iter()
        .enumerate()
        .map(|(c, &v)| cell_lit(n, 0, 0, c, v))
        .collect();
    let result = solver.solve_with(&assumptions);
    assert_eq!(
        result,
        SolveResult::Sat,
        "an empty {} with a permuted first row always has a solution",
        empty.kind()
    );
    let solution = read_solution(&solver, empty);
    debug_assert!(empty.check_solution(&solution).is_ok());
    solution
}

/// Makes one puzzle: a random solution, dug, spoiled if asked, rated.
fn one(empty: &Puzzle, opts: &GenOptions, rng: &mut SplitMix64) -> Generated {
    let solution = random_solution(empty, rng);
    let mut puzzle = dig::dig(empty, &solution, opts.target_givens, rng);
    match opts.variant {
        Some(Variant::Unsolvable) => spoil::contradict(&mut puzzle, &solution, rng),
        Some(Variant::Ambiguous) => spoil::remove_one(&mut puzzle, rng),
        None => {}
    }
    let rating = if opts.variant == Some(Variant::Unsolvable) {
        rating::Rating::default()
    } else {
        rating::rate(&puzzle, opts.rating_shuffles, rng)
    };
    Generated {
        puzzle,
        solution,
        rating,
    }
}

/// How many puzzles in a row may miss `--min-rating` before `bench gen` gives up (a rating
/// no puzzle of the shape reaches would make it search for ever).
pub const MAX_MISSES: usize = 200;

/// Generates puzzles, calling `emit` for each as soon as it is made (so a long run shows
/// progress and a large `--count` never waits for the last puzzle). With a pool, the pool
/// is made first and the hardest `count` are emitted, hardest first.
pub fn generate(
    opts: &GenOptions,
    mut emit: impl FnMut(&Generated) -> std::io::Result<()>,
) -> anyhow::Result<usize> {
    let empty =
        Puzzle::empty(opts.kind, opts.side).map_err(|e: ShapeError| anyhow::anyhow!("{e}"))?;
    let mut rng = SplitMix64::new(opts.seed);
    if let Some(pool) = opts.pool {
        let mut all: Vec<Generated> = (0..pool.max(opts.count))
            .map(|_| one(&empty, opts, &mut rng))
            .collect();
        // Stable: equal ratings keep the order they were made in, so the pick is reproducible.
        all.sort_by(|a, b| {
            b.rating
                .score()
                .total_cmp(&a.rating.score())
                .then(b.rating.decisions.total_cmp(&a.rating.decisions))
        });
        let keep: Vec<&Generated> = all
            .iter()
            .filter(|g| opts.min_rating.is_none_or(|m| g.rating.score() >= m))
            .take(opts.count)
            .collect();
        for g in &keep {
            emit(g)?;
        }
        return Ok(keep.len());
    }
    let mut made = 0;
    // Puzzles made since the last one that reached --min-rating, and the best of them.
    let mut misses = 0usize;
    let mut best = f64::NEG_INFINITY;
    while made < opts.count {
        let g = one(&empty, opts, &mut rng);
        if let Some(min) = opts.min_rating.filter(|&min| g.rating.score() < min) {
            misses += 1;
            best = best.max(g.rating.score());
            if misses >= MAX_MISSES {
                anyhow::bail!(
                    "gave up: {made} of {} puzzles reached --min-rating {min}, and the last \
                     {misses} made in a row did not (the highest rated {best:.1})",
                    opts.count
                );
            }
            continue;
        }
        misses = 0;
        emit(&g)?;
        made += 1;
    }
    Ok(made)
}
