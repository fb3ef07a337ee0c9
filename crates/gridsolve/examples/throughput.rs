//! Throughput of the solver in puzzles per CPU-second.
//!
//! * `throughput FILE [--repeat R] [--generic]`: solves every puzzle of FILE (bench's line
//!   format, any box side: the first word of each line not starting with `#`, symbols
//!   `1`-`9`, `A`-`Z`, `a`-`z`, blank `0` or `.`) R times with limit 1, checks every solution
//!   against its givens and the rules, and prints puzzles, CPU seconds, puzzles per
//!   CPU-second, guesses per puzzle, the share solved without a guess and nodes per
//!   puzzle.
//! * `throughput --generate SIDE COUNT [--blank PERCENT] [--seed S]`: the same on COUNT
//!   sudokus of side SIDE made here: a full grid by pattern, digits, rows inside bands,
//!   bands, columns inside stacks and stacks shuffled, then PERCENT % of the cells
//!   blanked (default 50), solved with limit 1.
//! * `throughput --time-child CMD ARGS...`: runs CMD (standard input and output passed
//!   through) and prints its user+system CPU seconds to standard error, for timing other
//!   solvers the same way.
//!
//! CPU time is read with `getrusage`.

use std::process::{Command, ExitCode};

use gridsolve::{Limit, Shape, Solver, Status};

fn cpu_seconds(who: libc::c_int) -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(who, &mut u) };
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    tv(u.ru_utime) + tv(u.ru_stime)
}

fn arg_value(args: &[String], name: &str, default: u64) -> Result<u64, String> {
    match args.iter().position(|a| a == name) {
        None => Ok(default),
        Some(i) => args
            .get(i + 1)
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("{name} needs a number")),
    }
}

/// Reads the puzzles of FILE in bench's line format: a line starting with `#` is skipped;
/// the first word of any other line holds the `n²` cells (`1`-`9`, `A`-`Z` for 10-35,
/// `a`-`z` for 36-61, `0` or `.` for a blank). Returns the box side (from the first
/// puzzle; lines of another length are skipped) and the puzzles.
fn read_puzzles(path: &str) -> Result<(usize, Vec<Vec<u16>>), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let words = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_whitespace().next());
    let mut k = 0;
    let mut puzzles = Vec::new();
    for w in words {
        if k == 0 {
            k = (1..=8).find(|k| k * k * k * k == w.len()).unwrap_or(0);
            if k == 0 {
                return Err(format!("{path}: {} symbols is not a sudoku", w.len()));
            }
        }
        if w.len() != k.pow(4) {
            continue;
        }
        let cell = |b: u8| -> u16 {
            match b {
                b'1'..=b'9' => u16::from(b - b'0'),
                b'A'..=b'Z' => u16::from(b - b'A') + 10,
                b'a'..=b'z' => u16::from(b - b'a') + 36,
                _ => 0,
            }
        };
        puzzles.push(w.bytes().map(cell).collect());
    }
    Ok((k.max(3), puzzles))
}

/// A small seeded generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n as u64) as usize
    }
    fn permutation(&mut self, n: usize) -> Vec<usize> {
        let mut v: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            v.swap(i, self.below(i + 1));
        }
        v
    }
}

/// A shuffled full sudoku grid of box side `k`, with `percent` % of the cells blanked.
fn generate(k: usize, percent: usize, rng: &mut Rng) -> Vec<u16> {
    let n = k * k;
    let digits = rng.permutation(n);
    let order = |rng: &mut Rng| -> Vec<usize> {
        let (outer, inner) = (rng.permutation(k), (0..k).map(|_| rng.permutation(k)));
        let inner: Vec<Vec<usize>> = inner.collect();
        (0..n)
            .map(|i| outer[i / k] * k + inner[i / k][i % k])
            .collect()
    };
    let (rows, cols) = (order(rng), order(rng));
    let mut g = Vec::with_capacity(n * n);
    for &r in &rows {
        for &c in &cols {
            let v = digits[(k * (r % k) + r / k + c) % n] as u16 + 1;
            g.push(if rng.below(100) < percent { 0 } else { v });
        }
    }
    g
}

fn valid_sudoku(k: usize, g: &[u16]) -> bool {
    let n = k * k;
    fn unit_ok(g: &[u16], n: usize, mut cells: impl Iterator<Item = usize>) -> bool {
        let mut seen = vec![false; n + 1];
        cells.all(|i| !std::mem::replace(&mut seen[usize::from(g[i])], true))
    }
    g.len() == n * n
        && g.iter().all(|&v| v >= 1 && usize::from(v) <= n)
        && (0..n).all(|i| {
            let (br, bc) = (i / k * k, i % k * k);
            unit_ok(g, n, (0..n).map(|c| i * n + c))
                && unit_ok(g, n, (0..n).map(|r| r * n + i))
                && unit_ok(g, n, (0..n).map(|j| (br + j / k) * n + bc + j % k))
        })
}

fn run(puzzles: &[Vec<u16>], k: usize, repeat: u64, generic: bool) -> Result<(), String> {
    let shape = Shape::sudoku(k * k).map_err(|e| e.to_string())?;
    let mut solver = if generic {
        Solver::new_generic(shape)
    } else {
        Solver::new(shape)
    };
    let mut answers = Vec::with_capacity(puzzles.len());
    let (mut guesses, mut nodes, mut no_guess, mut solved) = (0u64, 0u64, 0u64, 0u64);
    let start = cpu_seconds(libc::RUSAGE_SELF);
    for round in 0..repeat {
        for p in puzzles {
            let a = solver.solve(p, Limit::first()).map_err(|e| e.to_string())?;
            guesses += a.stats.guesses;
            nodes += a.stats.nodes;
            no_guess += u64::from(a.stats.solved_without_guess);
            solved += u64::from(a.status == Status::Solved);
            if round == 0 {
                answers.push(a);
            }
        }
    }
    let cpu = cpu_seconds(libc::RUSAGE_SELF) - start;
    for (p, a) in puzzles.iter().zip(&answers) {
        let Some(s) = a.solutions.first() else {
            return Err(format!("no solution found for {p:?}"));
        };
        let g = s.flat();
        if !valid_sudoku(k, &g) || p.iter().zip(&g).any(|(&x, &y)| x != 0 && x != y) {
            return Err(format!("wrong solution for {p:?}"));
        }
    }
    let total = puzzles.len() as u64 * repeat;
    println!(
        "puzzles={total} solved={solved} cpu_s={cpu:.4} puzzles_per_cpu_s={:.0} guesses_per_puzzle={:.2} no_guess_share={:.4} nodes_per_puzzle={:.1}",
        total as f64 / cpu,
        guesses as f64 / total as f64,
        no_guess as f64 / total as f64,
        nodes as f64 / total as f64
    );
    Ok(())
}

fn time_child(cmd: &[String]) -> Result<(), String> {
    let (prog, args) = cmd.split_first().ok_or("--time-child needs a command")?;
    let status = Command::new(prog)
        .args(args)
        .status()
        .map_err(|e| format!("{prog}: {e}"))?;
    if !status.success() {
        return Err(format!("{prog} failed: {status}"));
    }
    eprintln!("{:.4}", cpu_seconds(libc::RUSAGE_CHILDREN));
    Ok(())
}

fn main_inner(args: &[String]) -> Result<(), String> {
    match args.first().map(String::as_str) {
        Some("--time-child") => time_child(&args[1..]),
        Some("--generate") => {
            let side = arg_value(args, "--generate", 16)? as usize;
            let count = args.get(2).and_then(|v| v.parse().ok()).unwrap_or(100);
            let percent = arg_value(args, "--blank", 50)? as usize;
            let mut rng = Rng(arg_value(args, "--seed", 1)?.wrapping_mul(0x9E37_79B9) | 1);
            let k = (1..=side).find(|k| k * k >= side).unwrap_or(1);
            let puzzles: Vec<Vec<u16>> = (0..count).map(|_| generate(k, percent, &mut rng)).collect();
            run(&puzzles, k, 1, false)
        }
        Some(path) => {
            let (k, puzzles) = read_puzzles(path)?;
            let repeat = arg_value(args, "--repeat", 1)?.max(1);
            run(&puzzles, k, repeat, args.iter().any(|a| a == "--generic"))
        }
        None => Err("usage: throughput FILE [--repeat R] [--generic] | --generate SIDE COUNT [--blank P] [--seed S] | --time-child CMD...".into()),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match main_inner(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("throughput: {e}");
            ExitCode::FAILURE
        }
    }
}
