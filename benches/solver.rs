//! Criterion benchmarks of the built-in solvers in-process: `native` and `dpll` on 9×9
//! puzzles (throughput in puzzles per second, encoding included, since that is what a
//! puzzle solver pays), and `native` on random 3-SAT and pigeonhole formulas.
//!
//! `cargo bench --bench solver`; `cargo bench --bench solver -- dpll` for one group.

use std::time::Duration;

use bench::cnf::Cnf;
use bench::cnf_gen::{pigeonhole, random_ksat};
use bench::encode::{EncodeOptions, encode};
use bench::puzzle::Puzzle;
use bench::puzzle::format::{ReadOptions, read_str};
use bench::solver::cdcl::NativeSolver;
use bench::solver::dpll::DpllSolver;
use bench::solver::{Limits, Solver, Status};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// 9×9 puzzles from easy (Project Euler 96) to hard (Norvig's, AI Escargot's family).
const PUZZLES: &str = "\
003020600900305001001806400008102900700000008006708200002609500800203009005010300
200080300060070084030500209000105408000000000402706000301007040720040060004010003
4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......
52...6.........7.13...........4..8..6......5...........418.........3..2...87.....
85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4.
..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..
";

fn puzzles() -> Vec<Puzzle> {
    read_str(PUZZLES, "bench", &ReadOptions::default())
        .unwrap()
        .entries
        .into_iter()
        .map(|e| e.unwrap().puzzle)
        .collect()
}

fn solve_puzzles(solver: &dyn Solver, puzzles: &[Puzzle]) {
    for p in puzzles {
        let mut cnf = Cnf::new(0);
        encode(p, EncodeOptions::default(), &mut cnf);
        let out = solver.solve(&cnf, &Limits::default());
        assert_eq!(out.status, Status::Sat);
    }
}

fn sudoku_9x9(c: &mut Criterion) {
    let puzzles = puzzles();
    let mut group = c.benchmark_group("sudoku9x9");
    group.throughput(Throughput::Elements(puzzles.len() as u64));
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(5));
    group.bench_function("native", |b| {
        b.iter(|| solve_puzzles(&NativeSolver::default(), &puzzles))
    });
    group.bench_function("dpll", |b| b.iter(|| solve_puzzles(&DpllSolver, &puzzles)));
    group.finish();
}

fn formulas(c: &mut Criterion) {
    let random: Vec<Cnf> = (1..=10).map(|s| random_ksat(150, 639, 3, s)).collect();
    let php = pigeonhole(8, 7);
    let mut group = c.benchmark_group("formulas");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    group.bench_function("native/3sat-150x10", |b| {
        b.iter(|| {
            for f in &random {
                NativeSolver::default().solve(f, &Limits::default());
            }
        })
    });
    group.bench_function("native/php-8-7", |b| {
        b.iter(|| NativeSolver::default().solve(&php, &Limits::default()))
    });
    group.finish();
}

criterion_group!(benches, sudoku_9x9, formulas);
criterion_main!(benches);
