//! Criterion benchmark of the incremental puzzle mode: puzzles per second on the 100
//! minimal 9×9 of `corpora/minimal-9x9.txt`, every solution decoded and checked, for
//! native (a session with the rules loaded once, the givens as assumptions, against a
//! fresh formula per puzzle) and, with the feature `rustsat-solvers`, the library solvers
//! in sessions. Side by side with more sets and encodings: `scripts/versus-inprocess.sh`.
//!
//! `cargo bench --bench inprocess` (add `--features rustsat-solvers` for the libraries).

use std::path::Path;

use bench::cnf::Cnf;
use bench::encode::given_lits as givens;
use bench::encode::{EncodeOptions, encode};
use bench::puzzle::Puzzle;
use bench::puzzle::format::{ReadOptions, read_path};
use bench::run::incremental::{load, solution};
use bench::solver::{Limits, Solver, SolverConfig, Status, by_name};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn puzzles() -> Vec<Puzzle> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/minimal-9x9.txt");
    read_path(&path, &ReadOptions::default())
        .unwrap()
        .entries
        .into_iter()
        .map(|e| e.unwrap().puzzle)
        .collect()
}

fn solvers() -> Vec<Box<dyn Solver>> {
    let mut names = vec!["native"];
    if bench::solver::LIBRARY_BUILT {
        names.extend(["minisat-lib", "glucose-lib", "cadical-lib"]);
    }
    names
        .into_iter()
        .map(|n| by_name(n, &SolverConfig::default()).unwrap())
        .collect()
}

fn incremental(c: &mut Criterion) {
    let puzzles = puzzles();
    let limits = Limits::default();
    let mut group = c.benchmark_group("minimal9x9");
    group.throughput(Throughput::Elements(puzzles.len() as u64));
    for solver in solvers() {
        let mut loaded = load(solver.as_ref(), &puzzles[0], EncodeOptions::default(), 0).unwrap();
        group.bench_function(format!("{}-session", solver.name()), |b| {
            b.iter(|| {
                for p in &puzzles {
                    let out = loaded.session.solve(&givens(p), &limits);
                    assert_eq!(out.status, Status::Sat);
                    solution(p, &out).unwrap();
                }
            })
        });
    }
    let native = by_name("native", &SolverConfig::default()).unwrap();
    group.bench_function("native-fresh-formula", |b| {
        b.iter(|| {
            for p in &puzzles {
                let mut cnf = Cnf::new(0);
                encode(p, EncodeOptions::default(), &mut cnf);
                let out = native.solve(&cnf, &limits);
                assert_eq!(out.status, Status::Sat);
                solution(p, &out).unwrap();
            }
        })
    });
    group.finish();
}

criterion_group!(benches, incremental);
criterion_main!(benches);
