//! Shared helpers of the external-solver tests: instances (a 9×9 sudoku, pigeonhole
//! formulas, a large random formula), finding the real binaries (under the one rule for a
//! missing tool, `support::require`), and writing fault scripts.

#![allow(dead_code)] // each test file uses its own subset

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use bench::cnf::{Cnf, Lit};
use bench::encode::{Amo, EncodeOptions, Encoding, encode};
use bench::puzzle::{Grid, Kind, Puzzle};
use bench::solver::{Solver, SolverConfig, external};

/// The solvers the install script provides (zchaff is built by hand, tested separately).
pub const INSTALLED: &[&str] = &[
    "minisat",
    "kissat",
    "cadical",
    "picosat",
    "cryptominisat",
    "glucose",
];

/// The solver `name`, found the way `bench` finds it, under the one rule for a missing
/// tool ([`crate::support::require`]): `None` (the test skips) when it is missing here.
pub fn require(name: &str) -> Option<Box<dyn Solver>> {
    crate::support::require(name, || {
        external::find(name, &SolverConfig::default())
            .map_err(|e| format!("{e}: scripts/install-solvers.sh installs it"))
    })
}

/// Every solver of `names` ([`require`]): false when one is missing (the test skips).
pub fn require_all(names: &[&str]) -> bool {
    names.iter().all(|n| require(n).is_some())
}

/// The example 9×9 puzzle from the project brief.
pub const SUDOKU_9: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// A puzzle line as a sudoku.
pub fn sudoku(line: &str) -> Puzzle {
    let n = (line.len() as f64).sqrt() as usize;
    let cells = line
        .chars()
        .map(|c| match c {
            '.' | '0' => 0,
            c => c.to_digit(36).expect("symbol") as u16,
        })
        .collect();
    Puzzle::new(
        Kind::Sudoku,
        vec![Grid::from_cells(n, cells).expect("grid")],
    )
    .expect("puzzle")
}

/// The extended pairwise encoding of a puzzle line.
pub fn sudoku_cnf(line: &str) -> Cnf {
    let opts = EncodeOptions {
        encoding: Encoding::Extended,
        amo: Amo::Pairwise,
    };
    let mut cnf = Cnf::new(0);
    let vars = encode(&sudoku(line), opts, &mut cnf);
    cnf.ensure_vars(vars);
    cnf
}

/// The pigeonhole formula: `p` pigeons in `h` holes (unsatisfiable for p > h, and
/// exponentially hard for resolution: 12/11 runs for minutes in every solver here).
pub fn pigeonhole(p: usize, h: usize) -> Cnf {
    let var = |i: usize, j: usize| (i * h + j + 1) as i32;
    let mut clauses: Vec<Vec<i32>> = (0..p)
        .map(|i| (0..h).map(|j| var(i, j)).collect())
        .collect();
    for j in 0..h {
        for a in 0..p {
            for b in a + 1..p {
                clauses.push(vec![-var(a, j), -var(b, j)]);
            }
        }
    }
    Cnf::from_dimacs_clauses((p * h) as u32, &clauses)
}

/// A random 3-SAT formula (xorshift, deterministic) of `vars` variables and
/// `4.2 × vars` clauses: large enough that no solver loads it in a few MiB.
pub fn random_3sat(vars: u32) -> Cnf {
    random_3sat_with(vars, vars as u64 * 42 / 10)
}

/// A random 3-SAT formula of `vars` variables and `clauses` clauses (xorshift64 from a
/// fixed seed, so the same arguments always give the same formula).
pub fn random_3sat_with(vars: u32, clauses: u64) -> Cnf {
    let mut state = 0x9e3779b97f4a7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut cnf = Cnf::new(vars);
    for _ in 0..clauses {
        let lits: Vec<Lit> = (0..3)
            .map(|_| {
                let r = next();
                let v = (r % vars as u64) as i32 + 1;
                Lit::from_dimacs(if r & (1 << 40) != 0 { v } else { -v })
            })
            .collect();
        bench::cnf::ClauseSink::add_clause(&mut cnf, &lits);
    }
    cnf
}

/// Writes an executable shell script `name` into `dir`.
pub fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("write script");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    path
}

/// A `--solver NAME='script {cnf}'` configuration.
pub fn command_config(name: &str, script: &Path) -> SolverConfig {
    SolverConfig {
        paths: Vec::new(),
        commands: vec![(name.to_string(), format!("'{}' {{cnf}}", script.display()))],
        ..SolverConfig::default()
    }
}

/// True while some process of group `pgid` is alive (zombies count as dead).
pub fn group_alive(pgid: i32) -> bool {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return false;
    };
    for e in entries.flatten() {
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
            continue;
        };
        // fields after the parenthesised command: state ppid pgrp ...
        let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.len() > 2 && fields[2] == pgid.to_string() && fields[0] != "Z" {
            return true;
        }
    }
    false
}
