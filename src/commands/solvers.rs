//! `bench solvers`: which solvers bench knows, found or not, where, which version; which
//! in-process library solvers this build has, and how to get the ones it lacks.

use crate::cli::SolverLookupArgs;
use crate::solver::{BUILT_IN, LIBRARY, LIBRARY_BUILT, LIBRARY_HOWTO, by_name, external};

pub(super) fn run(args: SolverLookupArgs) -> anyhow::Result<i32> {
    let config = super::solver_config(&args)?;
    let version = env!("CARGO_PKG_VERSION");
    println!("{:<14} {:<9} {:<20} path", "solver", "status", "version");
    for name in BUILT_IN {
        println!("{name:<14} {:<9} {version:<20} (built in)", "found");
    }
    for (name, what) in LIBRARY {
        if LIBRARY_BUILT {
            let version = by_name(name, &config)
                .ok()
                .and_then(|s| s.version())
                .unwrap_or_else(|| "-".into());
            println!(
                "{name:<14} {:<9} {version:<20} (in-process: {what})",
                "found"
            );
        } else {
            println!(
                "{name:<14} {:<9} {:<20} (not in this build: {what})",
                "missing", "-"
            );
        }
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
        let line = format!(
            "{:<14} {status:<9} {:<20} {path}",
            info.name,
            info.version.unwrap_or_else(|| "-".into())
        );
        println!("{}", crate::text::escape_controls(&line));
    }
    if !LIBRARY_BUILT {
        println!("\nThe in-process library solvers: {LIBRARY_HOWTO}.");
    }
    println!(
        "Configured solvers: NAME:key=value,... (native: {}; cadical-lib: its own options).",
        cdcl_engine::options::SETTINGS
            .iter()
            .map(|s| s.key)
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(0)
}
