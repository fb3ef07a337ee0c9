//! What the containment tests share (`contain`, `cpu_limit`): the two containments a run
//! can have, which of them this machine gives, and the small files and output they show.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The two containments every test runs under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Cgroups,
    Fallback,
}

impl Mode {
    /// Sets `command` (a bench) to run in this containment.
    pub fn apply(self, command: &mut Command) {
        match self {
            Mode::Cgroups => command.env_remove("BENCH_NO_CGROUPS"),
            Mode::Fallback => command.env("BENCH_NO_CGROUPS", "1"),
        };
    }
}

/// True when this machine gives bench control groups (root, v1 or v2 controllers).
pub fn cgroups_here() -> bool {
    std::env::var_os("BENCH_NO_CGROUPS").is_none()
        && bench::solver::external::cgroup::detect().is_ok()
}

/// The modes that can run here (the cgroup one only where groups can be made).
pub fn modes() -> Vec<Mode> {
    [Mode::Cgroups, Mode::Fallback]
        .into_iter()
        .filter(|&m| m == Mode::Fallback || cgroups_here())
        .collect()
}

/// Writes an executable bash script `name` into `dir`.
pub fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/bash\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// A tiny satisfiable formula.
pub fn tiny(dir: &Path) -> PathBuf {
    let path = dir.join("tiny.cnf");
    std::fs::write(&path, "p cnf 2 2\n1 2 0\n-1 0\n").unwrap();
    path
}

/// A finished command's exit code and both outputs, for an assertion's message.
pub fn show(o: &Output) -> String {
    format!(
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}
