//! Workers pinned to cores: a running solver's `Cpus_allowed_list` (read by the solver
//! process itself from /proc, just before it becomes the real minisat by exec, which keeps
//! the affinity) is one CPU, the one `--cores` names when given; run.json records the
//! machine, the placement and each external solver's SHA-256, equal to `sha256sum`'s.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;

/// A solver that writes its own `Cpus_allowed_list` into `dir`, then execs minisat.
fn recording_minisat(dir: &Path, minisat: &Path) -> PathBuf {
    let script = dir.join("pinned.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ngrep Cpus_allowed_list: /proc/$$/status > '{}'/$$.cpus\nexec '{}' \"$1\"\n",
            dir.display(),
            minisat.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

/// Runs the recording solver on corpora/cnf with `args`; the CPU lists it recorded.
/// `None` (the test skips) without minisat.
fn recorded(args: &[&str]) -> Option<(Vec<Vec<usize>>, serde_json::Value, String)> {
    let minisat = crate::support::require_tool("minisat")?;
    let dir = tempfile::tempdir().unwrap();
    let script = recording_minisat(dir.path(), &minisat);
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/cnf");
    let out = dir.path().join("out");
    let result = Command::cargo_bin("bench")
        .unwrap()
        .arg("run")
        .arg(&corpus)
        .arg("--solver")
        .arg(format!("pinned={} {{cnf}}", script.display()))
        .args(["--solvers", "pinned,minisat", "--timeout", "30"])
        .args(args)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let mut lists = Vec::new();
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "cpus") {
            let text = std::fs::read_to_string(&path).unwrap();
            let list = text.trim().trim_start_matches("Cpus_allowed_list:").trim();
            lists.push(bench::machine::parse_cpu_list(list).unwrap());
        }
    }
    assert_eq!(lists.len(), 13, "one record per instance");
    let meta = std::fs::read_to_string(out.join("run.json")).unwrap();
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    Some((lists, serde_json::from_str(&meta).unwrap(), page))
}

#[test]
fn each_running_solver_is_on_one_cpu() {
    let Some((lists, meta, page)) = recorded(&["--jobs", "1"]) else {
        return;
    };
    for list in &lists {
        assert_eq!(list.len(), 1, "a solver allowed on {list:?}");
    }
    let cpus = meta["measurement"]["worker_cpus"].as_array().unwrap();
    assert_eq!(cpus.len(), 1, "{meta}");
    assert_eq!(lists[0][0] as u64, cpus[0].as_u64().unwrap());
    // The machine and the solvers' checksums, as sha256sum computes them.
    let machine = &meta["measurement"]["machine"];
    assert!(machine["physical_cores"].as_u64().unwrap() >= 1, "{meta}");
    // The commit bench was built from, as git names it: a commit of this repository (not
    // compared with HEAD, which may have moved on since the build).
    let in_git = Command::new("git")
        .args(["rev-parse", "--is-inside-work-tree"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .is_ok_and(|o| o.status.success());
    if in_git {
        let commit = meta["measurement"]["bench_commit"].as_str().unwrap();
        let named = Command::new("git")
            .args(["rev-parse", "--short=12"])
            .arg(format!("{commit}^{{commit}}"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        assert!(named.status.success(), "{commit} is no commit: {meta}");
        assert_eq!(String::from_utf8_lossy(&named.stdout).trim(), commit);
    }
    assert!(machine["logical_cpus"].as_u64().unwrap() >= 1, "{meta}");
    let minisat = meta["solvers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "minisat")
        .unwrap();
    let path = minisat["path"].as_str().unwrap();
    let sum = Command::new("sha256sum").arg(path).output().unwrap();
    let sum = String::from_utf8_lossy(&sum.stdout);
    let sum = sum.split_whitespace().next().unwrap();
    assert_eq!(minisat["sha256"].as_str().unwrap(), sum);
    // The report page shows the machine and the checksum.
    assert!(
        page.contains("Machine and solvers") && page.contains(sum),
        "no machine section"
    );
}

#[test]
fn cores_names_the_cpu() {
    // The last CPU this test may use.
    let allowed = bench::machine::allowed_cpus();
    let last = allowed.last().unwrap().id.to_string();
    let Some((lists, meta, _)) = recorded(&["--jobs", "1", "--cores", &last]) else {
        return;
    };
    for list in &lists {
        assert_eq!(list, &[allowed.last().unwrap().id], "{meta}");
    }
}
