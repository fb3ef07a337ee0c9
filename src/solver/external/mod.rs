//! External solvers run as child processes. STUB: replaced by the real adapters.

use super::{Solver, SolverConfig};

/// Finds an external solver by name.
pub fn find(name: &str, _config: &SolverConfig) -> anyhow::Result<Box<dyn Solver>> {
    anyhow::bail!("unknown solver `{name}`")
}

/// What discovery found out about one solver.
#[derive(Clone, Debug)]
pub struct SolverInfo {
    /// The solver's name.
    pub name: String,
    /// Where its binary is, if found.
    pub path: Option<std::path::PathBuf>,
    /// Its version, if found and it says.
    pub version: Option<String>,
}

/// Every known external solver (and `--solver` command), found or not.
pub fn discover(_config: &SolverConfig) -> Vec<SolverInfo> {
    Vec::new()
}
