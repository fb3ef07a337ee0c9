//! `cnfgen`: writes the formula families of `bench::cnf_gen` as DIMACS, and random puzzles
//! dug out of random full sudoku grids, for the benchmark script (scripts/versus-minisat.sh).
//!
//! ```text
//! cnfgen ksat VARS CLAUSES K SEED        random k-SAT
//! cnfgen planted VARS CLAUSES SEED       3-SAT with a planted solution
//! cnfgen php PIGEONS HOLES               pigeonhole
//! cnfgen parity N SEED                   unsatisfiable parity chains
//! cnfgen grids BOX COUNT SEED BLANK_PCT  puzzle lines: random full grids, BLANK_PCT% blanked
//! cnfgen color VERTICES EDGES K SEED     K-colouring of a flat random graph with a planted
//!                                        colouring (SAT), like SATLIB's flat200
//! cnfgen tseitin VERTICES DEGREE SEED    Tseitin parity of a random DEGREE-regular graph,
//!                                        odd total charge (UNSAT)
//! cnfgen factor BITS N                   N = a·b with 1 < a, b < 2^BITS, an array
//!                                        multiplier (SAT when N has such factors)
//! cnfgen order N                         ordering principle GT_N (UNSAT)
//! cnfgen counter BITS STEPS TARGET       BMC of a BITS-bit counter that may or may not
//!                                        count up each step: can it show TARGET after
//!                                        STEPS steps? (SAT iff TARGET <= STEPS)
//! cnfgen mult-comm BITS                 miter: a·b = b·a, array multipliers (UNSAT)
//! cnfgen mult-assoc BITS                miter: (a·b)·c = a·(b·c) mod 2^BITS (UNSAT)
//! cnfgen mult-arch BITS                 miter: array = Wallace-tree multiplier (UNSAT)
//! cnfgen bmc-gray BITS STEPS            BMC: a Gray counter tracks a binary one (UNSAT)
//! cnfgen sortnet N WIDTH                Batcher's network sorts N words of WIDTH bits
//!                                        (UNSAT)
//! cnfgen gripper BALLS [STEPS]           Gripper planning in STEPS steps, by default one
//!                                        fewer than the optimum (UNSAT)
//! cnfgen shuffle FILE SEED               a shuffled copy of a DIMACS file: variables
//!                                        renamed, signs flipped, clauses and literals
//!                                        reordered (the same formula up to renaming)
//! ```
//! Random full grids come from solving the empty sudoku with the native solver deciding
//! random values (seeded), so each seed gives its own grid on every machine.

use std::io::{self, Write};
use std::path::Path;

use anyhow::{Context, bail};
use bench::cnf::dimacs::{ParseOptions, read_path, write_cnf};
use bench::cnf::{ClauseSink, Cnf, Lit, Var};
use bench::cnf_gen::{bmc, miter, planning, sorting};
use bench::cnf_gen::{parity_chains, pigeonhole, planted_3sat, random_ksat, shuffled};
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
        Some("color") => flat_coloring(num(1)? as u32, num(2)? as usize, num(3)? as u32, num(4)?),
        Some("tseitin") => tseitin_regular(num(1)? as u32, num(2)? as u32, num(3)?)?,
        Some("factor") => factoring(num(1)? as u32, num(2)?),
        Some("order") => ordering(num(1)? as u32),
        Some("counter") => counter_bmc(num(1)? as u32, num(2)? as u32, num(3)?),
        Some("mult-comm") => miter::mul_commutativity(num(1)? as usize),
        Some("mult-assoc") => miter::mul_associativity(num(1)? as usize),
        Some("mult-arch") => miter::mul_architectures(num(1)? as usize),
        Some("bmc-gray") => bmc::gray_counter_bmc(num(1)?.max(2) as usize, num(2)? as usize),
        Some("sortnet") => {
            let n = num(1)? as usize;
            if !n.is_power_of_two() || n < 2 {
                bail!("sortnet: N must be a power of two >= 2");
            }
            sorting::sorting_network(n, num(2)?.max(1) as usize)
        }
        Some("gripper") => {
            let balls = num(1)?.max(1) as usize;
            let steps = match args.get(2) {
                Some(_) => num(2)? as usize,
                None => planning::gripper_optimum(balls) - 1,
            };
            planning::gripper(balls, steps)
        }
        Some("shuffle") => {
            let path = args.get(1).context("missing argument 1 (a DIMACS file)")?;
            let read = read_path(Path::new(path), ParseOptions::default())
                .with_context(|| format!("reading {path}"))?;
            shuffled(&read.cnf, num(2)?).0
        }
        _ => bail!(
            "usage: cnfgen ksat|planted|php|parity|grids|color|tseitin|factor|order|counter|\
             mult-comm|mult-assoc|mult-arch|bmc-gray|sortnet|gripper|shuffle ARGS \
             (see the source's header)"
        ),
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

/// K-colouring of a random graph on `n` vertices with `edges` edges, all between vertices
/// of different classes of a planted balanced partition into `k` classes (so the
/// colouring exists), and no edge twice. Variable `v·k + c`: vertex v has colour c.
fn flat_coloring(n: u32, edges: usize, k: u32, seed: u64) -> Cnf {
    let mut rng = SplitMix64::new(seed);
    let mut class: Vec<u32> = (0..n).map(|v| v % k).collect();
    rng.shuffle(&mut class);
    let var = |v: u32, c: u32| Var::new(v * k + c);
    let mut cnf = Cnf::new(n * k);
    for v in 0..n {
        let clause: Vec<Lit> = (0..k).map(|c| var(v, c).pos()).collect();
        cnf.add_clause(&clause);
        for a in 0..k {
            for b in a + 1..k {
                cnf.add_clause(&[var(v, a).neg(), var(v, b).neg()]);
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    let max_edges = edges.min((n as usize * n as usize) / 3);
    while seen.len() < max_edges {
        let a = rng.below(n as u64) as u32;
        let b = rng.below(n as u64) as u32;
        if class[a as usize] == class[b as usize] || !seen.insert((a.min(b), a.max(b))) {
            continue;
        }
        for c in 0..k {
            cnf.add_clause(&[var(a, c).neg(), var(b, c).neg()]);
        }
    }
    cnf
}

/// Tseitin's parity formula of a random `degree`-regular multigraph on `n` vertices (a
/// random pairing of edge stubs, self-loops re-drawn): one variable per edge, each vertex
/// asks the XOR of its edges to equal its charge, and the charges add up to 1, which no
/// assignment can meet. Hard for resolution on expanders.
fn tseitin_regular(n: u32, degree: u32, seed: u64) -> anyhow::Result<Cnf> {
    if !(n * degree).is_multiple_of(2) || degree == 0 || n < 2 || degree > 10 {
        bail!("tseitin: VERTICES·DEGREE must be even, 1 <= DEGREE <= 10");
    }
    let mut rng = SplitMix64::new(seed);
    let edges = 'draw: loop {
        let mut stubs: Vec<u32> = (0..n).flat_map(|v| (0..degree).map(move |_| v)).collect();
        rng.shuffle(&mut stubs);
        let pairs: Vec<(u32, u32)> = stubs.chunks(2).map(|p| (p[0], p[1])).collect();
        if pairs.iter().all(|&(a, b)| a != b) {
            break 'draw pairs;
        }
    };
    let mut incident: Vec<Vec<u32>> = vec![Vec::new(); n as usize];
    for (e, &(a, b)) in edges.iter().enumerate() {
        incident[a as usize].push(e as u32);
        incident[b as usize].push(e as u32);
    }
    let mut cnf = Cnf::new(edges.len() as u32);
    for (v, inc) in incident.iter().enumerate() {
        let charge = v == 0;
        for bits in 0u32..1 << inc.len() {
            if (bits.count_ones() % 2 == 1) != charge {
                let clause: Vec<Lit> = inc
                    .iter()
                    .enumerate()
                    .map(|(i, &e)| Var::new(e).lit(bits >> i & 1 == 0))
                    .collect();
                cnf.add_clause(&clause);
            }
        }
    }
    Ok(cnf)
}

/// Tseitin encoding helpers over a growing formula.
struct Circuit {
    cnf: Cnf,
}

impl Circuit {
    fn fresh(&mut self) -> Lit {
        let v = self.cnf.num_vars();
        self.cnf.ensure_vars(v + 1);
        Var::new(v).pos()
    }

    fn and(&mut self, a: Lit, b: Lit) -> Lit {
        let o = self.fresh();
        self.cnf.add_clause(&[!o, a]);
        self.cnf.add_clause(&[!o, b]);
        self.cnf.add_clause(&[o, !a, !b]);
        o
    }

    fn xor(&mut self, a: Lit, b: Lit) -> Lit {
        let o = self.fresh();
        self.cnf.add_clause(&[!o, a, b]);
        self.cnf.add_clause(&[!o, !a, !b]);
        self.cnf.add_clause(&[o, !a, b]);
        self.cnf.add_clause(&[o, a, !b]);
        o
    }

    fn or(&mut self, a: Lit, b: Lit) -> Lit {
        !self.and(!a, !b)
    }

    /// Full adder: (sum, carry).
    fn full_add(&mut self, a: Lit, b: Lit, c: Lit) -> (Lit, Lit) {
        let ab = self.xor(a, b);
        let sum = self.xor(ab, c);
        let t1 = self.and(a, b);
        let t2 = self.and(ab, c);
        let carry = self.or(t1, t2);
        (sum, carry)
    }
}

/// Factoring `target` with an array multiplier of two `bits`-bit numbers, both > 1.
fn factoring(bits: u32, target: u64) -> Cnf {
    let mut c = Circuit { cnf: Cnf::new(0) };
    let a: Vec<Lit> = (0..bits).map(|_| c.fresh()).collect();
    let b: Vec<Lit> = (0..bits).map(|_| c.fresh()).collect();
    let width = 2 * bits as usize;
    // The running sum, bit by bit; None stands for a constant 0.
    let mut acc: Vec<Option<Lit>> = vec![None; width];
    for (j, &bj) in b.iter().enumerate() {
        let mut carry: Option<Lit> = None;
        for i in 0..width - j {
            let pp = if i < a.len() {
                Some(c.and(a[i], bj))
            } else {
                None
            };
            let bits_in: Vec<Lit> = [acc[i + j], pp, carry].into_iter().flatten().collect();
            let (sum, next) = match bits_in.len() {
                0 => (None, None),
                1 => (Some(bits_in[0]), None),
                2 => {
                    let s = c.xor(bits_in[0], bits_in[1]);
                    let k = c.and(bits_in[0], bits_in[1]);
                    (Some(s), Some(k))
                }
                _ => {
                    let (s, k) = c.full_add(bits_in[0], bits_in[1], bits_in[2]);
                    (Some(s), Some(k))
                }
            };
            acc[i + j] = sum;
            carry = next;
        }
    }
    for (i, bit) in acc.iter().enumerate() {
        let want = (target >> i) & 1 == 1;
        match bit {
            Some(l) => c.cnf.add_clause(&[if want { *l } else { !*l }]),
            None if want => c.cnf.add_clause(&[]),
            None => {}
        }
    }
    // Both factors > 1: some bit above the lowest is set.
    c.cnf.add_clause(&a[1..]);
    c.cnf.add_clause(&b[1..]);
    c.cnf
}

/// The ordering principle GT_n: a strict total order on n elements without a minimum.
/// Variable `i·n + j` says i < j.
fn ordering(n: u32) -> Cnf {
    let var = |i: u32, j: u32| Var::new(i * n + j);
    let mut cnf = Cnf::new(n * n);
    for i in 0..n {
        for j in 0..n {
            if i == j {
                continue;
            }
            if i < j {
                // Antisymmetric and total.
                cnf.add_clause(&[var(i, j).neg(), var(j, i).neg()]);
                cnf.add_clause(&[var(i, j).pos(), var(j, i).pos()]);
            }
            for k in 0..n {
                if k != i && k != j {
                    cnf.add_clause(&[var(i, j).neg(), var(j, k).neg(), var(i, k).pos()]);
                }
            }
        }
        // Element i is not minimal: some j < i.
        let clause: Vec<Lit> = (0..n)
            .filter(|&j| j != i)
            .map(|j| var(j, i).pos())
            .collect();
        cnf.add_clause(&clause);
    }
    cnf
}

/// Bounded model checking of a `bits`-bit counter that starts at 0 and at each of `steps`
/// steps either keeps its value or adds one (a free input), asking whether it can read
/// `target` at the end. Plus a second, redundant counter of the increments taken, forced
/// equal to the first at the end, so that the solver has to relate two circuits.
fn counter_bmc(bits: u32, steps: u32, target: u64) -> Cnf {
    let mut c = Circuit { cnf: Cnf::new(0) };
    let zero = c.fresh();
    c.cnf.add_clause(&[!zero]);
    let increment = |c: &mut Circuit, x: &[Lit], en: Lit| -> Vec<Lit> {
        let mut carry = en;
        let mut out = Vec::with_capacity(x.len());
        for &b in x {
            out.push(c.xor(b, carry));
            carry = c.and(b, carry);
        }
        out
    };
    let mut x: Vec<Lit> = vec![zero; bits as usize];
    let mut y: Vec<Lit> = vec![zero; bits as usize];
    let inputs: Vec<Lit> = (0..steps).map(|_| c.fresh()).collect();
    for &en in &inputs {
        x = increment(&mut c, &x, en);
    }
    // The second counter takes the increments in reverse order.
    for &en in inputs.iter().rev() {
        y = increment(&mut c, &y, en);
    }
    for i in 0..bits as usize {
        let want = (target >> i) & 1 == 1;
        c.cnf.add_clause(&[if want { x[i] } else { !x[i] }]);
        // y equals x.
        let d = c.xor(x[i], y[i]);
        c.cnf.add_clause(&[!d]);
    }
    c.cnf
}
