//! Criterion benchmarks of the foundation: encoding plus streamed DIMACS writing of 9×9,
//! 25×25 and 64×64 sudokus (extended, pairwise), and DIMACS parsing, as MB/s of DIMACS.

use std::hint::black_box;
use std::io::{self, Write};
use std::time::Duration;

use bench::cnf::dimacs::{DimacsWriter, ParseOptions, parse};
use bench::encode::{EncodeOptions, count, encode};
use bench::puzzle::{Kind, Puzzle};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// Counts bytes and throws them away: the write side of the benchmark without the disk.
struct ByteCounter(u64);

impl Write for ByteCounter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A puzzle of box size k with a third of its cells given (a shifted pattern grid).
fn puzzle(k: usize) -> Puzzle {
    let n = k * k;
    let mut p = Puzzle::empty(Kind::Sudoku, n).unwrap();
    for r in 0..n {
        for c in 0..n {
            if (r * 7 + c * 3) % 3 == 0 {
                p.boards_mut()[0].set(r, c, ((r * k + r / k + c) % n + 1) as u16);
            }
        }
    }
    p
}

/// Counts and streams one encoding, as `bench encode` does; returns the bytes written.
fn encode_to<W: Write>(p: &Puzzle, out: W) -> W {
    let opts = EncodeOptions::default();
    let (vars, clauses) = count(p, opts);
    let mut w = DimacsWriter::new(out, &["bench".into()], vars, clauses).unwrap();
    encode(p, opts, &mut w);
    w.finish().unwrap()
}

fn encode_and_write(c: &mut Criterion) {
    let mut group = c.benchmark_group("encode+write extended");
    for k in [3usize, 5, 8] {
        let p = puzzle(k);
        let bytes = encode_to(&p, ByteCounter(0)).0;
        group.throughput(Throughput::Bytes(bytes));
        if k == 8 {
            group
                .sample_size(10)
                .measurement_time(Duration::from_secs(30));
        }
        group.bench_function(format!("{0}x{0}", k * k), |b| {
            b.iter(|| encode_to(black_box(&p), ByteCounter(0)).0)
        });
    }
    group.finish();
}

fn parse_dimacs(c: &mut Criterion) {
    let mut group = c.benchmark_group("parse");
    let text = encode_to(&puzzle(5), Vec::new());
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("25x25 extended", |b| {
        b.iter(|| {
            parse(black_box(&text[..]), "bench.cnf", ParseOptions::default())
                .unwrap()
                .cnf
                .num_clauses()
        })
    });
    group.finish();
}

criterion_group!(benches, encode_and_write, parse_dimacs);
criterion_main!(benches);
