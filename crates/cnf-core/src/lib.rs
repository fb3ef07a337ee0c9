//! `cnf-core`, the bottom layer of bench: CNF formulas (variables and literals, clause
//! storage), DIMACS reading and writing within a memory budget, and the seeded random
//! generator every layer above draws from; inputs (files, pipes, standard input) opened once. It depends on no other crate of the workspace.

pub mod budget;
pub mod dimacs;
mod formula;
pub mod input;
mod lit;
pub mod rng;

pub use formula::{ClauseCounter, ClauseSink, Cnf, Model};
pub use lit::{Lit, MAX_VARS, Var};
