//! `bench solvers`: which solvers bench knows, found or not, where, which version.

use crate::cli::SolverLookupArgs;
use crate::solver::{BUILT_IN, external};

pub(super) fn run(args: SolverLookupArgs) -> anyhow::Result<i32> {
    let config = super::solver_config(&args)?;
    let version = env!("CARGO_PKG_VERSION");
    println!("{:<14} {:<9} {:<20} path", "solver", "status", "version");
    for name in BUILT_IN {
        println!("{name:<14} {:<9} {version:<20} (built in)", "found");
    }
    for info in external::discover(&config) {
        let status = if info.path.is_some() {
            "found"
        } else {
            "missing"
        };
        let path = info
            .path
            .map(|p| p.display().to_string())
            .unwrap_or_else(|| "-".into());
        println!(
            "{:<14} {status:<9} {:<20} {path}",
            info.name,
            info.version.unwrap_or_else(|| "-".into())
        );
    }
    Ok(0)
}
