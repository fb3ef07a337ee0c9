//! Values a hostile user controls never become commands or clobber files: a newline in
//! `--out`, `--partition`, `--account` or the working directory is refused by `bench slurm`
//! before anything is written (so no sbatch script holds a line that did not come from
//! bench), and a `.bench.lock` planted as a symlink to another file is refused with that
//! file untouched.

use std::path::{Path, PathBuf};

use crate::support::{bench, root};

/// `bench slurm` on the repository's easy corpus with `extra` arguments, in `cwd`.
fn slurm(cwd: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let corpus = root().join("corpora/easy.txt");
    bench()
        .current_dir(cwd)
        .arg("slurm")
        .arg(&corpus)
        .args(["--solvers", "native", "--shards", "2"])
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn a_newline_in_partition_or_account_is_refused_at_the_door() {
    let dir = tempfile::tempdir().unwrap();
    for option in ["--partition", "--account"] {
        let out = slurm(dir.path(), &["--out", "study", option, "p1\nid > F"]);
        assert_eq!(out.status.code(), Some(2), "{option}: {out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("not a SLURM name"), "{stderr}");
        assert!(
            !dir.path().join("study").exists(),
            "{option}: a study was written"
        );
    }
}

#[test]
fn a_newline_in_the_study_folder_or_the_working_directory_writes_no_script() {
    let dir = tempfile::tempdir().unwrap();
    let out = slurm(dir.path(), &["--out", "st\nid > F"]);
    assert_ne!(out.status.code(), Some(0), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("the study folder"), "{stderr}");
    assert!(!dir.path().join("st\nid > F").exists());

    let odd = dir.path().join("work\nid > F");
    std::fs::create_dir(&odd).unwrap();
    let study = dir.path().join("study");
    let out = slurm(&odd, &["--out", study.to_str().unwrap()]);
    assert_ne!(out.status.code(), Some(0), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("the working directory"), "{stderr}");
    assert!(!study.exists(), "a study was written");
}

#[test]
fn a_space_in_the_study_folder_is_quoted_in_the_script() {
    let dir = tempfile::tempdir().unwrap();
    let out = slurm(dir.path(), &["--out", "my study", "--partition", "short"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let script = std::fs::read_to_string(dir.path().join("my study/bench.sbatch")).unwrap();
    let lines: Vec<&str> = script.lines().collect();
    assert!(lines.contains(&"#SBATCH --partition=short"), "{script}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("#SBATCH --output=\"") && l.ends_with(".out\"")),
        "{script}"
    );
    assert!(lines.iter().any(|l| l.starts_with("STUDY='")), "{script}");
}

#[test]
fn a_lock_file_planted_as_a_symlink_is_refused_and_its_target_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    std::os::unix::fs::symlink(&victim, out_dir.join(".bench.lock")).unwrap();
    let out = bench()
        .arg("run")
        .arg(root().join("corpora/easy.txt"))
        .args(["--solvers", "native", "--out"])
        .arg(&out_dir)
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("not a plain file"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
}

/// The first `n` puzzles of the repository's easy corpus, as `dir/easy.txt`.
fn easy(dir: &Path, n: usize) -> PathBuf {
    let text = std::fs::read_to_string(root().join("corpora/easy.txt")).unwrap();
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(n)
        .collect();
    let path = dir.join("easy.txt");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

/// stdout then stderr of a finished command, as text, after checking its exit code.
fn exit(o: &std::process::Output, code: i32) -> String {
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(o.status.code(), Some(code), "{text}");
    text
}

/// A row that says SAT, whose check found the model wrong, but whose `wrong` column says
/// false (an edited file, or one received as is): `bench report`, `--compare`, `bench
/// merge`, `bench status` and a resumed run each refuse it, naming the file and line; none
/// counts it as solved.
#[test]
fn a_row_whose_columns_contradict_is_refused_by_every_reader() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let corpus = easy(d, 2);
    let study = d.join("study");
    let o = bench()
        .arg("slurm")
        .arg(&corpus)
        .args([
            "--solvers",
            "native",
            "--jobs",
            "1",
            "--shards",
            "1",
            "--out",
        ])
        .arg(&study)
        .output()
        .unwrap();
    exit(&o, 0);
    let shard = || {
        bench()
            .arg("run")
            .arg("--study")
            .arg(&study)
            .args(["--shard", "0/1"])
            .output()
            .unwrap()
    };
    exit(&shard(), 0);
    let csv = study.join("shards/0-of-1/results.csv");
    let good = std::fs::read_to_string(&csv).unwrap();
    assert!(good.lines().nth(2).unwrap().contains(",SAT,model-ok,"));
    let lines: Vec<String> = good
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == 2 {
                l.replacen(",SAT,model-ok,", ",SAT,model-wrong,", 1)
            } else {
                l.to_string()
            }
        })
        .collect();
    std::fs::write(&csv, lines.join("\n") + "\n").unwrap();
    let named = format!("{}:3: check model-wrong with wrong=false", csv.display());

    let report = bench()
        .arg("report")
        .arg(&csv)
        .arg("--out")
        .arg(d.join("r"))
        .output()
        .unwrap();
    assert!(exit(&report, 2).contains(&named));
    let other = d.join("other.csv");
    std::fs::write(&other, &good).unwrap();
    let compare = bench()
        .args(["report", "--compare"])
        .arg(&other)
        .arg(&csv)
        .args(["--fail-on-regression", "2", "--out"])
        .arg(d.join("c"))
        .output()
        .unwrap();
    assert!(exit(&compare, 2).contains(&named));
    let merge = bench().arg("merge").arg(&study).output().unwrap();
    assert!(exit(&merge, 2).contains(&named));
    let status = bench().arg("status").arg(&study).output().unwrap();
    let text = exit(&status, 0);
    assert!(text.contains("corrupt") && text.contains(&named), "{text}");
    assert!(exit(&shard(), 2).contains(&named));
    // The file is left as it was found.
    assert_eq!(
        std::fs::read_to_string(&csv).unwrap(),
        lines.join("\n") + "\n"
    );
}
