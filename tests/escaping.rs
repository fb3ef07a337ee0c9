//! Names are shown, never obeyed: a solver or instance name holding a NUL byte, an escape
//! sequence, a line break or HTML reaches `summary.md` and the terminal table escaped for
//! each (as the HTML page and the SVGs already escape them).

mod report_common;

use report_common::*;

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
