//! The README held to its word: every example of its tour runs as written, in order, from
//! a folder that holds only a copy of `corpora/` (as a fresh clone does), with this build's
//! `bench` on `PATH`; and every option it names is in the `--help` of the command it
//! belongs to.
//!
//! The examples are the README's fenced blocks whose info string starts with `sh`. A block
//! marked `sh setup` (the two set-up commands: one of them is this test's own command) is
//! not run; a block marked `sh features=rustsat-solvers` runs only in a build with that
//! feature (`scripts/test.sh` runs this test in both builds). Each command must exit 0, or
//! the status its trailing `# exit N` comment names. Real solvers throughout: the tour
//! uses minisat, kissat and cadical, which `scripts/install-solvers.sh` installs.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

const README: &str = include_str!("../../README.md");

/// One fenced `sh` block of the README.
struct Block {
    /// The words after `sh` in the info string.
    attrs: Vec<String>,
    /// Its commands, continuation lines joined, comments and blank lines dropped (a
    /// command keeps its trailing comment, which may name its exit status).
    commands: Vec<String>,
    /// The README line the block starts at, for messages.
    line: usize,
}

fn blocks() -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut lines = README.lines().enumerate();
    while let Some((i, line)) = lines.next() {
        let Some(info) = line.strip_prefix("```") else {
            continue;
        };
        let mut words = info.split_whitespace();
        let is_sh = words.next() == Some("sh");
        let attrs: Vec<String> = words.map(str::to_string).collect();
        let mut body = Vec::new();
        for (_, l) in lines.by_ref() {
            if l.starts_with("```") {
                break;
            }
            body.push(l.to_string());
        }
        if !is_sh {
            continue;
        }
        let mut commands = Vec::new();
        let mut pending = String::new();
        for l in body {
            let t = l.trim();
            if pending.is_empty() && (t.is_empty() || t.starts_with('#')) {
                continue;
            }
            match t.strip_suffix('\\') {
                Some(head) => {
                    pending.push_str(head);
                    pending.push(' ');
                }
                None => {
                    pending.push_str(t);
                    commands.push(std::mem::take(&mut pending));
                }
            }
        }
        blocks.push(Block {
            attrs,
            commands,
            line: i + 1,
        });
    }
    blocks
}

/// The exit status a command's trailing `# exit N` names (0 without one).
fn expected_exit(command: &str) -> i32 {
    command
        .rsplit_once("# exit ")
        .and_then(|(_, n)| n.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn bench_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_bench"))
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// `PATH` with this build's bench first.
fn path_with_bench() -> std::ffi::OsString {
    let mut dirs = vec![bench_bin().parent().unwrap().to_path_buf()];
    if let Some(path) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&path));
    }
    std::env::join_paths(dirs).unwrap()
}

#[test]
fn every_example_of_the_tour_runs_as_written() {
    if !crate::support::external::require_all(&["minisat", "kissat", "cadical"]) {
        return;
    }
    let feature = cfg!(feature = "rustsat-solvers");
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    copy_dir(&root.join("corpora"), &dir.path().join("corpora"));
    let mut ran = 0;
    for block in blocks() {
        if block.attrs.iter().any(|a| a == "setup") {
            continue;
        }
        let needs_feature = block.attrs.iter().any(|a| a == "features=rustsat-solvers");
        // Each block runs in one of the two builds scripts/test.sh tests.
        if needs_feature != feature {
            continue;
        }
        for command in &block.commands {
            let out = Command::new("bash")
                .arg("-c")
                .arg(command)
                .current_dir(dir.path())
                .env("PATH", path_with_bench())
                .output()
                .unwrap();
            let expected = expected_exit(command);
            assert_eq!(
                out.status.code(),
                Some(expected),
                "README block at line {}: `{command}` exited {:?}, not {expected}\n\
                 stdout:\n{}\nstderr:\n{}",
                block.line,
                out.status.code(),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr),
            );
            ran += 1;
        }
    }
    if !feature {
        assert!(ran >= 20, "only {ran} README commands found");
    }
}

/// The `--help` text of `bench SUB` (of `bench` for `None`).
fn help(sub: Option<&str>) -> String {
    let mut c = Command::new(bench_bin());
    if let Some(sub) = sub {
        c.arg(sub);
    }
    let out = c.arg("--help").output().unwrap();
    assert!(out.status.success(), "bench {sub:?} --help failed");
    String::from_utf8(out.stdout).unwrap()
}

const SUBCOMMANDS: &[&str] = &[
    "run", "report", "solve", "check", "encode", "gen", "solvers", "slurm", "status", "merge",
    "shrink",
];

/// The `--options` in `text` (words starting with `--` and a letter, up to `=`).
fn options(text: &str) -> BTreeSet<String> {
    text.split(|c: char| c.is_whitespace() || "`()[],;|'\"".contains(c))
        .filter(|w| w.starts_with("--") && w[2..].starts_with(|c: char| c.is_ascii_lowercase()))
        .map(|w| {
            let w = w.split('=').next().unwrap();
            w.trim_end_matches(['.', ':']).to_string()
        })
        .collect()
}

#[test]
fn every_option_the_readme_names_is_in_a_help_text() {
    // Options of other programs the README names (cargo's).
    let foreign: BTreeSet<&str> = ["--release", "--features"].into();
    let helps: Vec<(&str, String)> = SUBCOMMANDS.iter().map(|s| (*s, help(Some(s)))).collect();
    // A `bench SUB …` command in a code block: its options are SUB's.
    let mut checked = 0;
    for block in blocks() {
        for command in &block.commands {
            for part in command.split(['|', ';', '>', '&']) {
                let words: Vec<&str> = part.split_whitespace().collect();
                let Some(at) = words.iter().position(|w| *w == "bench") else {
                    continue;
                };
                let Some(sub) = words.get(at + 1).filter(|s| SUBCOMMANDS.contains(s)) else {
                    continue;
                };
                let text = &helps.iter().find(|(s, _)| s == sub).unwrap().1;
                let part = part.split('#').next().unwrap();
                for option in options(part) {
                    assert!(
                        text.contains(&option),
                        "README line {}: `bench {sub} {option}` is not in `bench {sub} --help`",
                        block.line
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(
        checked >= 20,
        "only {checked} options checked in the examples"
    );
    // Every option named anywhere in the README is in some help text.
    let all: String = helps.iter().map(|(_, h)| h.as_str()).collect();
    for option in options(README) {
        if foreign.contains(option.as_str()) {
            continue;
        }
        assert!(
            all.contains(&option),
            "the README names `{option}`, which no `bench … --help` mentions"
        );
    }
}
