//! Every file bench reads is input, held to the command line's standard, and values a
//! hostile user controls never become commands or clobber files: a newline in `--out`,
//! `--partition`, `--account` or the working directory is refused by `bench slurm` before
//! anything is written, a `.bench.lock` planted as a symlink is refused with its target
//! untouched; a results row whose columns contradict each other is refused by every reader
//! naming file and line; `--resume` holds the recorded plan (corpus content, run.json's
//! values and size), names the solver commands it will run, and runs again what the
//! machine could not start; names with control characters, colliding or too long make a
//! whole report with no control byte in it.

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

/// `bench run` of the easy puzzles in `dir` with native, one job, into `dir/out`.
fn run_native(dir: &Path, corpus: &Path) -> PathBuf {
    let out = dir.join("out");
    let o = bench()
        .current_dir(dir)
        .arg("run")
        .arg(corpus)
        .args(["--solvers", "native", "--jobs", "1", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    exit(&o, 0);
    out
}

fn resume(out: &Path) -> std::process::Output {
    bench()
        .arg("run")
        .arg("--resume")
        .arg(out)
        .output()
        .unwrap()
}

/// A plain `--resume` holds the plan as a shard does: a corpus whose content changed is
/// refused naming the instance, a missing corpus is refused, and so is a run.json whose
/// plan was edited (its fingerprint no longer matches) or whose fingerprint was zeroed;
/// nothing is appended.
#[test]
fn resume_refuses_a_changed_or_missing_corpus_and_an_edited_plan() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let corpus = easy(d, 3);
    let out = run_native(d, &corpus);
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert_eq!(csv.lines().count(), 4);
    let original = std::fs::read_to_string(&corpus).unwrap();
    let mut lines: Vec<&str> = original.lines().collect();
    lines.swap(0, 2);
    std::fs::write(&corpus, lines.join("\n") + "\n").unwrap();
    let text = exit(&resume(&out), 2);
    assert!(
        text.contains("the plan changed") && text.contains("easy.txt:1 has other content"),
        "{text}"
    );
    std::fs::remove_file(&corpus).unwrap();
    let text = exit(&resume(&out), 2);
    assert!(text.contains("easy.txt"), "{text}");
    std::fs::write(&corpus, &original).unwrap();
    // The plan as written: nothing to do.
    let text = exit(&resume(&out), 0);
    assert!(text.contains("0 runs to do (3 already done)"), "{text}");
    let record = out.join("run.json");
    let json = std::fs::read_to_string(&record).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
    value["plan"]["timeout_s"] = serde_json::json!(30.0);
    std::fs::write(&record, value.to_string()).unwrap();
    let text = exit(&resume(&out), 2);
    assert!(text.contains("the plan changed"), "{text}");
    let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
    value["fingerprint"] = serde_json::json!("0");
    std::fs::write(&record, value.to_string()).unwrap();
    let text = exit(&resume(&out), 2);
    assert!(text.contains("the plan changed"), "{text}");
    assert_eq!(
        std::fs::read_to_string(out.join("results.csv")).unwrap(),
        csv
    );
}

/// Every value run.json gives the plan passes the command line's range: a timeout of
/// 1e308 or −1, 4e9 repetitions, 100,000 jobs are refused naming the field, before any
/// worker starts; a 6 GiB run.json or `--families` file is refused unread (under an
/// address-space limit far below its size).
#[test]
fn run_json_values_pass_the_command_lines_door_and_big_files_are_refused_unread() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let corpus = easy(d, 1);
    let out = run_native(d, &corpus);
    let record = out.join("run.json");
    let json = std::fs::read_to_string(&record).unwrap();
    for (field, value) in [
        ("timeout_s", serde_json::json!(1e308)),
        ("timeout_s", serde_json::json!(-1.0)),
        ("repeat", serde_json::json!(4_000_000_000u64)),
        ("jobs", serde_json::json!(100_000)),
        ("count", serde_json::json!(0)),
    ] {
        let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
        v["plan"][field] = value.clone();
        std::fs::write(&record, v.to_string()).unwrap();
        let text = exit(&resume(&out), 2);
        assert!(
            text.contains(&format!("plan.{field}: ")) && text.contains("out of range")
                || text.contains("not a count"),
            "{field} = {value}: {text}"
        );
    }
    // Sparse files: six GiB that take no disk.
    let huge = |path: &Path| {
        std::fs::File::create(path)
            .unwrap()
            .set_len(6 << 30)
            .unwrap();
    };
    huge(&record);
    let limited = |args: &str| {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v 1000000; exec '{}' {args}",
                env!("CARGO_BIN_EXE_bench")
            ))
            .current_dir(d)
            .output()
            .unwrap()
    };
    let text = exit(&limited("run --resume out"), 2);
    assert!(text.contains("6442450944 bytes, more than"), "{text}");
    // A report beside it draws without it.
    let text = exit(&limited("report out/results.csv --out rep0"), 0);
    assert!(d.join("rep0/index.html").exists(), "{text}");
    let families = d.join("families.csv");
    huge(&families);
    let text = exit(
        &limited("report out/results.csv --out rep --families families.csv"),
        2,
    );
    assert!(
        text.contains("families.csv: 6442450944 bytes, more than"),
        "{text}"
    );
}

/// A custom solver whose binary vanishes during the run: the runs it could not start
/// leave no row (they are not the solver's errors), the run says so, and once the binary
/// is back `--resume` names the recorded command and runs exactly those runs.
#[test]
fn runs_the_machine_could_not_start_are_run_by_resume() {
    use std::os::unix::fs::PermissionsExt;
    let Some(kissat) = crate::support::require_tool("kissat") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let corpus = easy(d, 3);
    // The solver removes its own binary as it runs: every later run finds none.
    let script = d.join("solver.sh");
    let install = |vanish: &str| {
        let body = format!("#!/bin/sh\n{vanish}exec '{}' \"$@\"\n", kissat.display());
        std::fs::write(&script, body).unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    install("rm -f \"$0\"\n");
    let out = d.join("out");
    let o = bench()
        .current_dir(d)
        .arg("run")
        .arg(&corpus)
        .args(["--solvers", "mine", "--jobs", "1", "--solver"])
        .arg(format!("mine={} {{cnf}}", script.display()))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let text = exit(&o, 0);
    assert!(
        text.contains("2 run(s) not started") && text.contains("No such file"),
        "{text}"
    );
    let rows = bench::results::read_rows(&out.join("results.csv"), false).unwrap();
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0].status, bench::solver::Status::Sat);
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    assert_eq!(record["not_started"], 2, "{record}");
    install("");
    let text = exit(&resume(&out), 0);
    assert!(
        text.contains("--resume runs the command recorded in")
            && text.contains(&format!("--solver mine='{} {{cnf}}'", script.display())),
        "{text}"
    );
    assert!(text.contains("2 runs to do (1 already done)"), "{text}");
    let rows = bench::results::read_rows(&out.join("results.csv"), false).unwrap();
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert!(rows.iter().all(|r| r.status == bench::solver::Status::Sat));
}

/// Rows whose names hold ESC and BEL, whose families collide once made file-safe (`a/b`,
/// `a_b`) or run to 300 characters, and whose solvers collide too: `bench report --by
/// family` writes every chart under a name of its own, and neither the page, the other
/// files nor the terminal holds a control byte other than a line break or a tab.
#[test]
fn names_with_controls_or_colliding_make_a_whole_report_with_no_control_byte() {
    use crate::support::report::{row, write_csv};
    let dir = tempfile::tempdir().unwrap();
    let long = "f".repeat(300);
    let families = ["a/b", "a_b", long.as_str(), "fam\u{1b}]0;title\u{7}"];
    let solvers = ["x/y", "x_y", "so\u{1b}[2Jlver"];
    let mut rows = Vec::new();
    for (i, family) in families.iter().enumerate() {
        for (s, solver) in solvers.iter().enumerate() {
            let mut r = row(
                &format!("i\u{7}{i}.cnf"),
                "extended",
                solver,
                "SAT",
                0.01 * (1 + i + s) as f64,
            );
            r.corpus = "c\u{1b}[31m.txt".into();
            r.family = (*family).into();
            if i == 0 && s == 2 {
                r.check = bench::results::Check::ModelWrong;
                r.wrong = true;
                r.error = "bad \u{1b}[2J model".into();
            }
            rows.push(r);
        }
    }
    let csv = write_csv(&dir.path().join("results.csv"), &rows);
    let out = dir.path().join("r");
    let o = bench()
        .arg("report")
        .arg(&csv)
        .args(["--by", "family", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let text = exit(&o, 0);
    let controls = |bytes: &[u8]| bytes.iter().any(|&b| b < 0x20 && b != b'\n' && b != b'\t');
    assert!(!controls(&o.stdout) && !controls(&o.stderr), "{text}");
    let mut names = Vec::new();
    for entry in std::fs::read_dir(&out).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().into_string().unwrap();
        assert!(name.len() < 200, "{name}");
        let bytes = std::fs::read(entry.path()).unwrap();
        assert!(!controls(&bytes), "{name} holds a control byte");
        names.push(name);
    }
    let family_charts = names
        .iter()
        .filter(|n| n.starts_with("cactus-family-"))
        .count();
    assert_eq!(family_charts, 4, "{names:?}");
    let scatters = names.iter().filter(|n| n.starts_with("scatter-")).count();
    assert_eq!(scatters, 3, "{names:?}");
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(html.contains("so\\x1b[2Jlver"), "the name shows as text");
}
