//! Times bench's DIMACS reader on one file, for comparison with minisat's "Parse time":
//! `cargo run --release --example parse_time -- FILE.cnf`.

use std::time::Instant;

use bench::cnf::dimacs::{ParseOptions, read_path};

fn main() {
    let path = std::env::args().nth(1).expect("usage: parse_time FILE.cnf");
    let start = Instant::now();
    let dimacs =
        read_path(path.as_ref(), ParseOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let secs = start.elapsed().as_secs_f64();
    let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    println!(
        "{path}: {} variables, {} clauses, parsed in {secs:.3} s ({:.0} MB/s)",
        dimacs.cnf.num_vars(),
        dimacs.cnf.num_clauses(),
        bytes as f64 / 1e6 / secs
    );
}
