//! `cnfgen`: writes the formula families of `bench::cnf_gen` as DIMACS, and random puzzles
//! dug out of random full sudoku grids, for the benchmark script (scripts/versus-minisat.sh).
//!
//! ```text
//! cnfgen ksat VARS CLAUSES K SEED        random k-SAT
//! cnfgen planted VARS CLAUSES SEED       3-SAT with a planted solution
//! cnfgen php PIGEONS HOLES               pigeonhole
//! cnfgen parity N SEED                   unsatisfiable parity chains
//! cnfgen grids BOX COUNT SEED BLANK_PCT  puzzle lines: random full grids, BLANK_PCT% blanked
//! ```
//! Random full grids come from solving the empty sudoku with the native solver deciding
//! random values (seeded), so each seed gives its own grid on every machine.

use std::io::{self, Write};

use anyhow::{Context, bail};
use bench::cnf::Cnf;
use bench::cnf::dimacs::write_cnf;
use bench::cnf_gen::{parity_chains, pigeonhole, planted_3sat, random_ksat};
use bench::encode::{EncodeOptions, decode::decode_full, encode};
use bench::puzzle::{Kind, Puzzle, format};
use bench::rng::SplitMix64;
use bench::solver::cdcl::{CdclSolver, Options, SolveResult};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize| -> anyhow::Result<u64> {
        args.get(i)
            .with_context(|| format!("missing argument {i}"))?
            .parse()
            .with_context(|| format!("argument {i} is not a number"))
    };
    let out = io::stdout().lock();
    let cnf = match args.first().map(String::as_str) {
        Some("ksat") => random_ksat(num(1)? as u32, num(2)? as usize, num(3)? as usize, num(4)?),
        Some("planted") => planted_3sat(num(1)? as u32, num(2)? as usize, num(3)?).0,
        Some("php") => pigeonhole(num(1)? as u32, num(2)? as u32),
        Some("parity") => parity_chains(num(1)? as u32, num(2)?),
        Some("grids") => return grids(num(1)? as usize, num(2)?, num(3)?, num(4)?, out),
        _ => bail!("usage: cnfgen ksat|planted|php|parity|grids ARGS (see the source's header)"),
    };
    write_cnf(out, &cnf, &[])?.flush()?;
    Ok(())
}

/// A random full sudoku grid of box size `k`: the empty puzzle solved with random values.
fn random_full_grid(k: usize, seed: u64) -> anyhow::Result<Puzzle> {
    let empty = Puzzle::empty(Kind::Sudoku, k * k)?;
    let mut cnf = Cnf::new(0);
    encode(&empty, EncodeOptions::default(), &mut cnf);
    let mut solver = CdclSolver::with_options(Options {
        seed,
        random_polarity: true,
        random_var_freq: 0.05,
        ..Options::default()
    });
    for clause in cnf.clauses() {
        solver.add_clause(clause);
    }
    if solver.solve() != SolveResult::Sat {
        bail!("the empty {0}×{0} sudoku was not solved", k * k);
    }
    let model = solver.model().context("no model")?;
    Ok(decode_full(&empty, &model)?)
}

fn grids(
    k: usize,
    count: u64,
    seed: u64,
    blank_pct: u64,
    mut out: impl Write,
) -> anyhow::Result<()> {
    let mut rng = SplitMix64::new(seed);
    for i in 0..count {
        let mut puzzle = random_full_grid(k, seed.wrapping_mul(1000).wrapping_add(i))?;
        let n = k * k;
        let mut cells: Vec<usize> = (0..n * n).collect();
        rng.shuffle(&mut cells);
        let blanks = (n * n) as u64 * blank_pct / 100;
        for &cell in &cells[..blanks as usize] {
            puzzle.boards_mut()[0].set(cell / n, cell % n, 0);
        }
        format::write(&mut out, &puzzle, format::Format::Line)?;
    }
    Ok(())
}
