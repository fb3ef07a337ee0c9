//! What the integration tests share: the one `bench()` command, the one rule for an
//! external tool a test needs ([`require`], [`require_tool`]), and, per area, instances,
//! corpora builders and checks (`contained`, `external`, `inprocess`, `loaded`, `native`, `report`,
//! `study`).

#![allow(dead_code)] // each test module uses its own subset

pub mod contained;
pub mod external;
pub mod inprocess;
pub mod loaded;
pub mod native;
pub mod report;
pub mod study;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// This build's `bench` binary, as a command to run.
pub fn bench() -> Command {
    Command::new(env!("CARGO_BIN_EXE_bench"))
}

/// The repository's root (where `corpora/` and `scripts/` are).
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The tools that no install script provides (zchaff is built by hand, cake_lpr from its
/// source by `.ci/run`): never required, not even by `BENCH_REQUIRE_TOOLS=1`, unless named
/// in it (or, for cake_lpr, `BENCH_REQUIRE_CAKE_LPR=1`).
pub const OPTIONAL_TOOLS: &[&str] = &["zchaff", "cake_lpr"];

/// Whether `tool` must be found here: `BENCH_REQUIRE_TOOLS` is `1` or `all` (every tool
/// but [`OPTIONAL_TOOLS`]) or a comma-separated list of tool names, where `-name` exempts
/// one (`all,-slurm`). scripts/test.sh sets it, having installed every tool.
pub fn tool_required(tool: &str) -> bool {
    // `.ci/run` builds cake_lpr and says so.
    if tool == "cake_lpr" && std::env::var("BENCH_REQUIRE_CAKE_LPR").is_ok_and(|v| v == "1") {
        return true;
    }
    let Ok(value) = std::env::var("BENCH_REQUIRE_TOOLS") else {
        return false;
    };
    let items: Vec<&str> = value.split(',').map(str::trim).collect();
    if items.contains(&format!("-{tool}").as_str()) {
        return false;
    }
    items.contains(&tool)
        || (items.iter().any(|i| *i == "1" || *i == "all") && !OPTIONAL_TOOLS.contains(&tool))
}

/// The one rule for an external tool a test needs: `lookup` finds it, or says why not.
/// Found: `Some`. Missing where it is required ([`tool_required`]): the test fails,
/// saying so. Missing elsewhere: the test prints one line `skipped: TEST: TOOL not found
/// (WHY)` and should return at once (`let Some(x) = require(…) else { return };`).
pub fn require<T>(tool: &str, lookup: impl FnOnce() -> Result<T, String>) -> Option<T> {
    match lookup() {
        Ok(found) => Some(found),
        Err(why) => {
            if tool_required(tool) {
                panic!(
                    "{tool} not found, and required here (BENCH_REQUIRE_TOOLS={}, \
                     BENCH_REQUIRE_CAKE_LPR={}): {why}",
                    std::env::var("BENCH_REQUIRE_TOOLS").unwrap_or_default(),
                    std::env::var("BENCH_REQUIRE_CAKE_LPR").unwrap_or_default()
                );
            }
            let thread = std::thread::current();
            let test = thread.name().unwrap_or("a test");
            // Once per test and tool (a property test asks once per case).
            static SAID: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
            let mut said = SAID.lock().unwrap_or_else(|e| e.into_inner());
            if said.insert(format!("{test}\0{tool}")) {
                eprintln!("skipped: {test}: {tool} not found ({why})");
            }
            None
        }
    }
}

/// The executable `name` on `PATH`, in `.solvers/bin` (where scripts/install-solvers.sh
/// links kissat and glucose) or in `~/.cargo/bin` (`rate`), under the rule of [`require`].
pub fn require_tool(name: &str) -> Option<PathBuf> {
    require(name, || find_tool(name))
}

/// Every tool of `names` ([`require_tool`]); false (after saying which is missing, or
/// failing under the rule) when one is missing.
pub fn require_tools(names: &[&str]) -> bool {
    names.iter().all(|n| require_tool(n).is_some())
}

/// The executable `name` on `PATH`, in `.solvers/bin` or in `~/.cargo/bin`.
pub fn find_tool(name: &str) -> Result<PathBuf, String> {
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    dirs.push(root().join(".solvers/bin"));
    if let Some(home) = std::env::var_os("HOME") {
        dirs.push(PathBuf::from(home).join(".cargo/bin"));
    }
    dirs.into_iter()
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .ok_or_else(|| match name {
            "cake_lpr" => "not on PATH nor in .solvers/bin: the README says how to build it".into(),
            _ => "not on PATH: scripts/install-solvers.sh installs it".to_string(),
        })
}
