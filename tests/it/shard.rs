//! A study without SLURM: `bench run --shard K/N --out STUDY` for every K, then `bench
//! merge`, gives exactly the run keys and statuses of one `bench run` of the same plan; the
//! shards are disjoint; a missing shard is named with the command that completes it; studies
//! and shards of other plans, and runs recorded twice, are refused; a task whose solver or
//! corpus is missing fails at once, before any run.

use crate::support::bench;
use crate::support::study::{key_status, ok, text};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bench::results::read_rows;

/// A small corpus: 9 easy sudokus, 3 without a solution, and 4 DIMACS files.
fn corpus(dir: &Path) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora");
    let lines = |file: &str, n: usize| -> String {
        std::fs::read_to_string(root.join(file))
            .unwrap()
            .lines()
            .take(n + 1)
            .map(|l| format!("{l}\n"))
            .collect()
    };
    let puzzles = dir.join("puzzles.txt");
    std::fs::write(&puzzles, lines("easy.txt", 9) + &lines("nosolution.txt", 3)).unwrap();
    let cnf = dir.join("cnf");
    std::fs::create_dir_all(&cnf).unwrap();
    for f in [
        "php-7-6.cnf",
        "php-8-7.cnf",
        "rand3-150-639-s1.cnf",
        "rand3-150-639-s2.cnf",
    ] {
        std::fs::copy(root.join("cnf").join(f), cnf.join(f)).unwrap();
    }
    vec![puzzles, cnf]
}

const OPTS: &[&str] = &[
    "--solvers",
    "native,minisat",
    "--encodings",
    "minimal,extended",
    "--timeout",
    "60",
    "--jobs",
    "2",
];

#[test]
fn shards_merge_into_what_one_machine_gives() {
    if !crate::support::external::require_all(&["minisat"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let corpora = corpus(dir.path());
    let study = dir.path().join("study");
    // Shard 2 first: the order the shards run in does not matter.
    for k in [2, 0] {
        ok(bench()
            .arg("run")
            .args(&corpora)
            .args(OPTS)
            .args(["--shard", &format!("{k}/3"), "--out"])
            .arg(&study));
    }
    let status = ok(bench().arg("status").arg(&study));
    assert!(
        status.contains("1-of-3") && status.contains("not started"),
        "{status}"
    );

    // Shard 1 is missing: the merge names it, with the command that completes it.
    let o = bench().arg("merge").arg(&study).output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let command = format!("bench run --study {} --shard 1/3", study.display());
    assert!(text(&o).contains(&command), "{}", text(&o));
    assert!(study.join("missing.csv").exists());
    assert!(
        !study.join("results.csv").exists(),
        "nothing merged without --partial"
    );
    // --partial merges what there is, and the report says so.
    let o = bench()
        .arg("merge")
        .arg(&study)
        .arg("--partial")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let summary = std::fs::read_to_string(study.join("summary.md")).unwrap();
    assert!(summary.contains("PARTIAL MERGE"), "{summary}");

    // The printed command completes the study.
    ok(bench().args(command.split(' ').skip(1)));
    let out = ok(bench().arg("merge").arg(&study));
    assert!(out.contains("merged 56 runs of 3 shards"), "{out}");
    assert!(!study.join("missing.csv").exists());
    let merged = read_rows(&study.join("results.csv"), false).unwrap();
    // --no-report writes the same results.csv, shard by shard.
    let csv = std::fs::read_to_string(study.join("results.csv")).unwrap();
    let alone = dir.path().join("alone");
    let out = ok(bench()
        .arg("merge")
        .arg(&study)
        .arg("--no-report")
        .arg("--out")
        .arg(&alone));
    assert!(out.contains("bench report"), "{out}");
    assert_eq!(
        std::fs::read_to_string(alone.join("results.csv")).unwrap(),
        csv
    );
    assert!(!alone.join("index.html").exists());

    // Disjoint shards: every instance in exactly one.
    let mut owner: HashMap<String, usize> = HashMap::new();
    for k in 0..3 {
        let rows = read_rows(&study.join(format!("shards/{k}-of-3/results.csv")), false).unwrap();
        for r in rows {
            let o = *owner.entry(r.instance.to_string()).or_insert(k);
            assert_eq!(o, k, "{} in shards {o} and {k}", r.instance);
        }
    }

    // One machine, the same plan.
    let local = dir.path().join("local");
    ok(bench()
        .arg("run")
        .args(&corpora)
        .args(OPTS)
        .arg("--out")
        .arg(&local));
    let single = read_rows(&local.join("results.csv"), false).unwrap();
    assert_eq!(merged.len(), single.len());
    assert_eq!(key_status(&merged), key_status(&single));

    // Machines recorded.
    let machines = std::fs::read_to_string(study.join("machines.csv")).unwrap();
    assert_eq!(machines.lines().count(), 4, "{machines}");
    assert!(machines.starts_with("shard,host,cpu_model,cores,kernel,bench_version"));
}

#[test]
fn merging_what_does_not_belong_together_is_refused() {
    if !crate::support::external::require_all(&["minisat"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let corpora = corpus(dir.path());
    let plan = |study: &Path, timeout: &str| {
        ok(bench()
            .arg("slurm")
            .args(&corpora)
            .args([
                "--solvers",
                "native",
                "--timeout",
                timeout,
                "--shards",
                "2",
                "--out",
            ])
            .arg(study));
    };
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    plan(&a, "60");
    plan(&b, "30");
    // Two studies of different plans.
    let o = bench().arg("merge").arg(&a).arg(&b).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("another plan"), "{}", text(&o));
    // Planning again into a study of another plan is refused too.
    let o = bench()
        .arg("slurm")
        .args(&corpora)
        .args([
            "--solvers",
            "native",
            "--timeout",
            "5",
            "--shards",
            "2",
            "--out",
        ])
        .arg(&a)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("holds another plan"), "{}", text(&o));

    // A shard of study b copied into study a.
    for study in [&a, &b] {
        for k in 0..2 {
            ok(bench()
                .arg("run")
                .arg("--study")
                .arg(study)
                .args(["--shard", &format!("{k}/2")]));
        }
    }
    ok(bench().arg("merge").arg(&a));
    let stray = a.join("shards/1-of-2");
    std::fs::remove_dir_all(&stray).unwrap();
    copy_dir(&b.join("shards/1-of-2"), &stray);
    let o = bench().arg("merge").arg(&a).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("ran another plan"), "{}", text(&o));

    // A run recorded twice (shard 0's rows appended to shard 1's results).
    std::fs::remove_dir_all(&stray).unwrap();
    ok(bench()
        .arg("run")
        .arg("--study")
        .arg(&a)
        .args(["--shard", "1/2"]));
    let zero = std::fs::read_to_string(a.join("shards/0-of-2/results.csv")).unwrap();
    let first_row = zero.lines().nth(1).unwrap();
    let one = a.join("shards/1-of-2/results.csv");
    let text1 = std::fs::read_to_string(&one).unwrap() + first_row + "\n";
    std::fs::write(&one, text1).unwrap();
    let o = bench().arg("merge").arg(&a).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("belongs to shard 0/2"), "{}", text(&o));
    // And a shard of another split.
    std::fs::write(
        &one,
        std::fs::read_to_string(&one)
            .unwrap()
            .replace(&format!("{first_row}\n"), ""),
    )
    .unwrap();
    std::fs::create_dir_all(a.join("shards/0-of-3")).unwrap();
    let o = bench().arg("merge").arg(&a).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("not a shard of this 2-shard plan"),
        "{}",
        text(&o)
    );
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.path().is_file() {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn a_task_checks_before_it_spends() {
    if !crate::support::external::require_all(&["minisat"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let corpora = corpus(dir.path());
    // minisat from a copy that will vanish, as on a node without it.
    let minisat = dir.path().join("minisat");
    std::fs::copy("/usr/bin/minisat", &minisat)
        .expect("minisat installed (scripts/install-solvers.sh)");
    let study = dir.path().join("study");
    ok(bench()
        .arg("slurm")
        .args(&corpora)
        .args(["--solvers", "native,minisat", "--shards", "2", "--out"])
        .arg(&study)
        .arg("--solver-path")
        .arg(format!("minisat={}", minisat.display())));
    std::fs::remove_file(&minisat).unwrap();
    let start = Instant::now();
    let o = bench()
        .arg("run")
        .arg("--study")
        .arg(&study)
        .args(["--shard", "0/2"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("minisat") && text(&o).contains("not an executable"),
        "{}",
        text(&o)
    );
    assert!(start.elapsed() < Duration::from_secs(20));
    assert!(
        !study.join("shards/0-of-2/results.csv").exists(),
        "no run was made"
    );

    // A corpus file that cannot be read on this node.
    let study2 = dir.path().join("study2");
    ok(bench()
        .arg("slurm")
        .args(&corpora)
        .args(["--shards", "2", "--out"])
        .arg(&study2));
    let victim = corpora[1].join("php-7-6.cnf");
    std::fs::remove_file(&victim).unwrap();
    std::os::unix::fs::symlink(dir.path().join("nowhere"), &victim).unwrap();
    let o = bench()
        .arg("run")
        .arg("--study")
        .arg(&study2)
        .args(["--shard", "1/2"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("the plan cannot be kept here")
            && text(&o).contains("php-7-6.cnf: not readable"),
        "{}",
        text(&o)
    );
    assert!(
        !study2.join("shards/1-of-2/results.csv").exists(),
        "no run was made"
    );
}

#[test]
fn a_study_planned_with_relative_paths_runs_and_merges_from_anywhere() {
    if !crate::support::external::require_all(&["minisat"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let corpora = corpus(dir.path());
    let relative: Vec<PathBuf> = corpora
        .iter()
        .map(|p| p.strip_prefix(dir.path()).unwrap().to_path_buf())
        .collect();
    ok(bench()
        .current_dir(dir.path())
        .arg("run")
        .args(&relative)
        .args(["--solvers", "native", "--shard", "0/2", "--out", "st"]));
    let study = dir.path().join("st");
    // Shard 1 and the merge from elsewhere: the plan's paths are relative to its folder.
    ok(bench()
        .current_dir("/")
        .arg("run")
        .arg("--study")
        .arg(&study)
        .args(["--shard", "1/2"]));
    let out = ok(bench().current_dir("/").arg("merge").arg(&study));
    assert!(out.contains("merged 16 runs of 2 shards"), "{out}");
    let rows = read_rows(&study.join("results.csv"), false).unwrap();
    assert!(
        rows.iter().all(|r| !r.corpus.starts_with('/')),
        "corpus as typed"
    );
}
