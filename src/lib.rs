//! `bench`: compare SAT solvers and CNF encodings on sudoku-family puzzle corpora.
//!
//! The data flows one way: corpus → [`puzzle`] → [`encode`] → [`cnf`] → [`solver`] →
//! answer → [`check`] → result row → CSV → report. Each module owns one stage;
//! [`cli`] and [`commands`] are the command line on top.

pub mod bounded;
pub mod check;
pub mod cli;
pub mod cnf_gen;
pub mod commands;
pub mod count;
pub mod encode;
pub mod family;
pub mod generate;
pub mod identity;
pub mod judge;
pub mod machine;
pub mod puzzle;
pub mod report;
pub mod results;
pub mod run;
pub mod shrink;
pub mod solver;
pub mod study;
pub mod text;
pub mod trust;

// The bottom layer, at its old paths: `crate::cnf::…` and `crate::rng::…`.
pub use cnf_core as cnf;
pub use cnf_core::rng;
