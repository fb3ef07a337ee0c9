//! Careless input at the door of `bench run` and `bench solve`: a mistyped corpus leaves
//! no output folder and names the file (no "line 0"); a mistyped solver gets a "did you
//! mean"; one fault on every line of a file is said once, with its count and first place.

use std::process::Output;

use crate::support::{bench, root};

fn text(o: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_missing_corpus_leaves_no_output_folder() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    let o = bench()
        .current_dir(root())
        .args(["run", "corpora/eazy.txt", "--solvers", "native", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = stderr(&o);
    assert!(
        err.contains("corpora/eazy.txt: no such file or folder"),
        "{err}"
    );
    assert!(!err.contains(":0:"), "{err}");
    assert!(!out.exists(), "an output folder was made for nothing");

    // A DIMACS name, and a missing corpus beside a good one, are refused the same way.
    for corpora in [
        &["corpora/nothere.cnf"][..],
        &["corpora/easy.txt", "corpora/gone/"],
    ] {
        let o = bench()
            .current_dir(root())
            .arg("run")
            .args(corpora)
            .args(["--solvers", "native", "--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(
            stderr(&o).contains("no such file or folder"),
            "{}",
            text(&o)
        );
        assert!(!out.exists());
    }
}

#[test]
fn an_unreadable_puzzle_file_is_named_without_a_line() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "# nothing\n\n").unwrap();
    let good = root().join("corpora/easy.txt");
    let o = bench()
        .arg("run")
        .arg(&empty)
        .arg(&good)
        .args(["--solvers", "native", "--timeout", "60", "--out"])
        .arg(dir.path().join("r"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let err = stderr(&o);
    assert!(
        err.contains(&format!("skipped {}: no puzzle", empty.display())),
        "{err}"
    );
    assert!(!err.contains(":0:"), "{err}");
}

#[test]
fn a_mistyped_solver_gets_a_suggestion() {
    for (typed, meant) in [
        ("minsat", "minisat"),
        ("kisat", "kissat"),
        ("natve", "native"),
    ] {
        let o = bench()
            .current_dir(root())
            .args(["run", "corpora/easy.txt", "--solvers", typed])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(
            stderr(&o).contains(&format!(
                "unknown solver `{typed}` (did you mean `{meant}`?)"
            )),
            "{}",
            text(&o)
        );
    }
    // Nothing close: no suggestion.
    let o = bench()
        .current_dir(root())
        .args(["solve", "corpora/easy.txt", "--solver", "zzzzzzzz"])
        .output()
        .unwrap();
    assert!(
        stderr(&o).contains("unknown solver `zzzzzzzz`"),
        "{}",
        text(&o)
    );
    assert!(!stderr(&o).contains("did you mean"), "{}", text(&o));
}

#[test]
fn one_fault_on_every_line_is_said_once() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = root().join("corpora/pairs-4x4.csv");
    let o = bench()
        .arg("run")
        .arg(&corpus)
        .args(["--format", "line", "--solvers", "native", "--out"])
        .arg(dir.path().join("r"))
        .output()
        .unwrap();
    let err = stderr(&o);
    let said: Vec<&str> = err.lines().filter(|l| l.contains("out of range")).collect();
    assert_eq!(said.len(), 1, "{err}");
    let (count, rest) = said[0]
        .trim_start_matches("bench: skipped ")
        .split_once(' ')
        .unwrap();
    let count: u64 = count.parse().expect(said[0]);
    assert!(count > 50, "{err}");
    assert_eq!(
        rest,
        format!(
            "lines: side 1 is out of range (2 to 1000), first at {}:3",
            corpus.display()
        ),
        "{err}"
    );
    // The run still counts every input it left out.
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("r/run.json")).unwrap())
            .unwrap();
    assert_eq!(run["skipped_inputs"].as_u64(), Some(count), "{run}");
}
