//! Names are shown, never obeyed: a solver or instance name holding a NUL byte, an escape
//! sequence, a line break or HTML reaches `summary.md` and the terminal table escaped for
//! each (as the HTML page and the SVGs already escape them).

use crate::support::report::*;

#[test]
fn hostile_names_are_escaped_in_summary_md_and_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let evil_solver = "<script>alert(1)</script>\u{0}\u{1b}[2J";
    let evil_instance = "a|b*c`d\n## heading\u{7}";
    let mut rows = vec![
        row(evil_instance, "extended", evil_solver, "SAT", 0.5),
        row(evil_instance, "extended", "minisat", "SAT", 0.25),
        row("plain:1", "extended", evil_solver, "UNSAT", 1.0),
        row("plain:1", "extended", "minisat", "UNSAT", 2.0),
    ];
    // A wrong answer puts the instance's name into the first table.
    rows[2].wrong = true;
    rows[2].error = "UNSAT, but the corpus records a solution".into();
    let csv = write_csv(&dir.path().join("results.csv"), &rows);
    let out = bench()
        .arg("report")
        .arg(&csv)
        .arg("--out")
        .arg(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let md = std::fs::read_to_string(dir.path().join("summary.md")).unwrap();
    assert!(!md.contains("<script>"), "{md}");
    assert!(md.contains("&lt;script&gt;"), "{md}");
    assert!(!md.contains('\u{0}') && !md.contains('\u{1b}') && !md.contains('\u{7}'));
    assert!(md.contains("\\x00") && md.contains("\\x1b"), "{md}");
    assert!(!md.lines().any(|l| l.starts_with("## heading")), "{md}");
    for text in [&stdout, &stderr] {
        assert!(
            !text.contains('\u{0}') && !text.contains('\u{1b}'),
            "{text}"
        );
    }
}

#[test]
fn file_names_on_the_terminal_show_their_control_characters_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("good.txt"),
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n",
    )
    .unwrap();
    // A garbage formula whose name clears the screen and rings the bell.
    let evil = "bad\u{1b}[2J\u{7}.cnf";
    std::fs::write(d.join(evil), b"p cnf 2 1\n1 x 0\n").unwrap();
    // A puzzle file that is not UTF-8, under a name that retitles the window.
    let evil_txt = "bad\u{1b}]0;title\u{7}.txt";
    std::fs::write(d.join(evil_txt), b"53..7\xff\n").unwrap();
    let run = |inputs: &[&str], extra: &[&str]| {
        bench()
            .current_dir(d)
            .arg("run")
            .args(inputs)
            .args(["good.txt", "--timeout", "10", "--solvers", "native"])
            .args(extra)
            .output()
            .unwrap()
    };
    for (out, code, says) in [
        (
            run(&[evil], &["--out", "r\u{1b}[1A"]),
            0,
            "bad\\x1b[2J\\x07.cnf:2",
        ),
        // --strict: an unreadable puzzle file is fatal, its message printed by main.
        (
            run(&[evil_txt], &["--out", "s", "--strict"]),
            2,
            "bad\\x1b]0;title\\x07.txt:1",
        ),
    ] {
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{stderr}");
        assert!(stderr.contains(says), "{stderr}");
        for text in [&stdout, &stderr] {
            assert!(
                !text.contains('\u{1b}') && !text.contains('\u{7}'),
                "{text}"
            );
        }
    }
}
