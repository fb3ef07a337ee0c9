//! Records the git commit bench is built from (`BENCH_COMMIT`, empty outside a git
//! checkout), so that run.json and the report can say exactly which bench measured.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
}

/// Asks Cargo to run this again when `path` changes, if it exists (a missing path would
/// make every build run it again).
fn watch(path: &str) {
    if std::path::Path::new(path).exists() {
        println!("cargo:rerun-if-changed={path}");
    }
}

fn main() {
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_default();
    println!("cargo:rustc-env=BENCH_COMMIT={commit}");
    // Built again when HEAD moves: HEAD itself, and the branch it points at.
    if let Some(head) = git(&["rev-parse", "--git-path", "HEAD"]) {
        watch(&head);
    }
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"])
        && let Some(path) = git(&["rev-parse", "--git-path", &branch])
    {
        watch(&path);
    }
    if let Some(packed) = git(&["rev-parse", "--git-path", "packed-refs"]) {
        watch(&packed);
    }
    println!("cargo:rerun-if-changed=build.rs");
}
