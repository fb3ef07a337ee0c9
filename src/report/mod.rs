//! Reading results back: scores per solver and encoding, and the summary tables.

pub mod score;
