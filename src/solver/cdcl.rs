//! native's engine at its old path: the `cdcl-engine` crate (which knows nothing of
//! bench), and beside it bench's adapter [`NativeSolver`] (in [`super::native`]), so that
//! `crate::solver::cdcl::…` keeps naming both.

pub use super::native::{NativeSolver, memout};
pub use cdcl_engine::*;
