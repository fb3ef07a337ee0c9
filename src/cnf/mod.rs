//! CNF formulas: variables and literals, clause storage, DIMACS reading and writing.

pub mod budget;
pub mod dimacs;
mod formula;
mod lit;

pub use formula::{ClauseCounter, ClauseSink, Cnf, Model};
pub use lit::{Lit, MAX_VARS, Var};
