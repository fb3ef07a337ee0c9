//! Values a hostile user controls never become commands or clobber files: a newline in
//! `--out`, `--partition`, `--account` or the working directory is refused by `bench slurm`
//! before anything is written (so no sbatch script holds a line that did not come from
//! bench), and a `.bench.lock` planted as a symlink to another file is refused with that
//! file untouched.

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
    let out = slurm(&odd, &["--out", "study"]);
    assert_ne!(out.status.code(), Some(0), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("the working directory"), "{stderr}");
    assert!(!odd.join("study").exists(), "a study was written");
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
