//! Corpora in the shapes they come in, with the real solvers: puzzles whose givens clash
//! are instances without solution (UNSAT, not skipped); what a corpus records of the
//! answer (`puzzle:count:solution`, `puzzle,solution`) is held against every answer;
//! `--count N` and `--count all` count solutions, each checked; CSV rows ending in a
//! comma, a pair CSV opening with its box size, and 16×16 written in letters all read.
//! A missing solver fails the test (scripts/install-solvers.sh installs them).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use assert_cmd::cargo::CommandCargoExt;
use bench::results::{Row, read_rows};

/// Norvig's "hardest", its one solution, and a puzzle with exactly 18 solutions (counted
/// by native, minisat, kissat and cadical alike) with one of them.
const HARDEST: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const HARDEST_SOLVED: &str =
    "417369825632158947958724316825437169791586432346912758289643571573291684164875293";
const EIGHTEEN: &str =
    "000006020002500800008002004930700000010000070200400906000000500400309080007800000";
const EIGHTEEN_ONE: &str =
    "543186729192547863768932154934765218816293475275418936389671542421359687657824391";

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// `bench ARGS`, its output, and the rows of `out/results.csv` when there is one.
fn bench(args: &[&str], out: &Path) -> (Output, Vec<Row>) {
    let output = Command::cargo_bin("bench")
        .unwrap()
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    let csv = out.join("results.csv");
    let rows = if csv.exists() {
        read_rows(&csv, false).unwrap()
    } else {
        Vec::new()
    };
    (output, rows)
}

fn said(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn clashing_givens_are_puzzles_without_solution() {
    if !crate::support::external::require_all(&["minisat", "kissat"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let sudoku = write(
        dir.path(),
        "clash.txt",
        &format!("{HARDEST}\n{}\n", HARDEST.replacen('.', "4", 1)),
    );
    // A pair whose boards hold 1 in the same cell (the seed's "no solution" case).
    let pair = write(
        dir.path(),
        "pair.csv",
        "1,0,0,0\n0,0,0,0\n0,0,0,0\n0,0,0,0\n1,0,0,0\n0,0,0,0\n0,0,0,0\n0,0,0,0\n",
    );
    let out = dir.path().join("out");
    let (o, rows) = bench(
        &[
            "run",
            sudoku.to_str().unwrap(),
            pair.to_str().unwrap(),
            "--solvers",
            "native,minisat,kissat",
            "--encodings",
            "minimal,extended,pruned",
            "--solutions",
        ],
        &out,
    );
    assert_eq!(o.status.code(), Some(0), "{}", said(&o));
    // --solutions: the solved grids in the corpus's format, in corpus order, and a
    // puzzle without solution named as such.
    let kept = std::fs::read_to_string(out.join("solutions/clash.kissat.pruned.txt")).unwrap();
    assert_eq!(
        kept,
        format!(
            "# solution of clash.txt:1 SAT\n{HARDEST_SOLVED}\n# solution of clash.txt:2 UNSAT\n"
        )
    );
    let pairs = std::fs::read_to_string(out.join("solutions/pair.native.minimal.csv")).unwrap();
    assert_eq!(pairs, "# solution of pair.csv:1 UNSAT\n");
    assert!(
        said(&o).contains("clash.txt:2: the givens clash (value 4 appears twice in row 1"),
        "{}",
        said(&o)
    );
    assert_eq!(rows.len(), 3 * 3 * 3, "nothing is skipped");
    for r in &rows {
        let want = if r.instance == "clash.txt:1" {
            "SAT"
        } else {
            "UNSAT"
        };
        assert_eq!(r.status.as_str(), want, "{r:?}");
        assert!(!r.wrong, "{r:?}");
    }
    let solve = Command::cargo_bin("bench")
        .unwrap()
        .args(["solve"])
        .arg(&pair)
        .output()
        .unwrap();
    assert!(
        said(&solve)
            .contains("pair.csv:1: no solution (the givens clash: both boards hold 1 at r1c1)"),
        "{}",
        said(&solve)
    );
}

#[test]
fn corpus_records_are_held_against_every_answer() {
    if !crate::support::external::require_all(&["minisat", "kissat", "cadical"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // tdoku's shape, right records; then Kaggle's shape with a header.
    let tdoku = write(
        dir.path(),
        "tdoku.txt",
        &format!("{HARDEST}:1:{HARDEST_SOLVED}\n{EIGHTEEN}:18:{EIGHTEEN_ONE}\n"),
    );
    let kaggle = write(
        dir.path(),
        "kaggle.csv",
        &format!("quizzes,solutions\n{HARDEST},{HARDEST_SOLVED}\n"),
    );
    let out = dir.path().join("out");
    let (o, rows) = bench(
        &[
            "run",
            tdoku.to_str().unwrap(),
            kaggle.to_str().unwrap(),
            "--solvers",
            "native,minisat,kissat,cadical",
            "--encodings",
            "extended,pruned",
            "--count",
            "all",
        ],
        &out,
    );
    assert_eq!(o.status.code(), Some(0), "{}", said(&o));
    // The Kaggle line is the tdoku file's first puzzle: one instance, held against the
    // records of both files.
    assert!(
        said(&o).contains("kaggle.csv:2 is the same instance as tdoku.txt:1"),
        "{}",
        said(&o)
    );
    assert_eq!(rows.len(), 2 * 4 * 2);
    for r in &rows {
        let want = if r.instance == "tdoku.txt:2" { 18 } else { 1 };
        assert_eq!(
            (r.status.as_str(), r.check.as_str(), r.solutions, r.wrong),
            ("SAT", "model-ok", Some(want), false),
            "{r:?}"
        );
    }

    // A record that says 20 solutions where a solver finds 18 makes its claim WRONG; one
    // that records a different solution of a puzzle a solver calls unique too.
    let lying = write(
        dir.path(),
        "lying.txt",
        &format!("{EIGHTEEN}:20\n{EIGHTEEN}:1:{EIGHTEEN_ONE}\n"),
    );
    let out = dir.path().join("out-lying");
    let (o, rows) = bench(
        &[
            "run",
            lying.to_str().unwrap(),
            "--solvers",
            "native,minisat",
            "--count",
            "all",
        ],
        &out,
    );
    assert_eq!(o.status.code(), Some(1), "{}", said(&o));
    for r in rows.iter().filter(|r| r.instance == "lying.txt:1") {
        assert!(r.wrong, "{r:?}");
        assert!(
            r.error
                .contains("found 18 solution(s), the corpus records 20"),
            "{r:?}"
        );
    }
    // 18 verified solutions against a record of 1: the record is wrong, not the solver.
    for r in rows.iter().filter(|r| r.instance == "lying.txt:2") {
        assert!(!r.wrong, "{r:?}");
        assert!(
            r.error
                .contains("18 verified solutions, the corpus records 1"),
            "{r:?}"
        );
    }

    // A record whose solution breaks the givens is an error at its line.
    let broken = write(
        dir.path(),
        "broken.txt",
        &format!(
            "{HARDEST},{HARDEST_SOLVED}\n{HARDEST},{}\n",
            HARDEST_SOLVED.replacen('4', "1", 1)
        ),
    );
    let (o, _) = bench(
        &["run", broken.to_str().unwrap(), "--strict"],
        &dir.path().join("out-broken"),
    );
    assert_ne!(o.status.code(), Some(0));
    assert!(
        said(&o).contains(
            "broken.txt:2: the recorded solution is not one: cell r1c1 holds 1 but the given is 4"
        ),
        "{}",
        said(&o)
    );
}

#[test]
fn count_n_stops_at_n_with_every_solution_checked() {
    if !crate::support::external::require_all(&["kissat"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let corpus = write(dir.path(), "e.txt", &format!("{EIGHTEEN}\n{HARDEST}\n"));
    let out = dir.path().join("out");
    let (o, rows) = bench(
        &[
            "run",
            corpus.to_str().unwrap(),
            "--solvers",
            "native,kissat",
            "--encodings",
            "minimal,pruned",
            "--count",
            "5",
        ],
        &out,
    );
    assert_eq!(o.status.code(), Some(0), "{}", said(&o));
    for r in &rows {
        let want = if r.instance == "e.txt:1" { 5 } else { 1 };
        assert_eq!(r.solutions, Some(want), "{r:?}");
    }
    let (o, _) = bench(
        &["run", corpus.to_str().unwrap(), "--count", "0"],
        &dir.path().join("out0"),
    );
    assert!(said(&o).contains("is not a count"), "{}", said(&o));
}

#[test]
fn shapes_from_the_wild_read() {
    let dir = tempfile::tempdir().unwrap();
    // Every CSV row ending in a comma, a pair opening with its box size.
    let csv = write(
        dir.path(),
        "trailing.csv",
        "2\n1,0,0,0,\n0,0,3,0,\n0,0,0,0,\n0,0,0,2,\n0,0,0,0,\n0,0,0,0,\n0,4,0,0,\n0,0,0,1,\n",
    );
    let solve = |path: &Path, extra: &[&str]| {
        Command::cargo_bin("bench")
            .unwrap()
            .arg("solve")
            .arg(path)
            .args(extra)
            .output()
            .unwrap()
    };
    let o = solve(&csv, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", said(&o));
    let wrong_k = write(
        dir.path(),
        "k3.csv",
        "3\n1,0,0,0\n0,0,3,0\n0,0,0,0\n0,0,0,2\n",
    );
    assert!(
        said(&solve(&wrong_k, &[]))
            .contains("the first line gives the box size 3, but the board has side 4"),
        "{}",
        said(&solve(&wrong_k, &[]))
    );
    // 16×16 in the letters A-P: the error says what each format found and points at
    // --alphabet; with it, the puzzle reads and its solution is written in letters.
    let n = 16;
    let letters: String = (0..n * n)
        .map(|i| {
            let (r, c) = (i / n, i % n);
            let v = (4 * (r % 4) + r / 4 + c) % 16;
            if (i * 7) % 5 < 2 {
                '.'
            } else {
                (b'A' + v as u8) as char
            }
        })
        .collect();
    let file = write(dir.path(), "letters.txt", &format!("{letters}\n"));
    let o = solve(&file, &[]);
    let text = said(&o);
    assert!(
        text.contains("no puzzle found in any format")
            && text.contains("as a line,")
            && text.contains("as csv,")
            && text.contains("see --alphabet"),
        "{text}"
    );
    let o = solve(&file, &["--alphabet", "ABCDEFGHIJKLMNOP"]);
    assert_eq!(o.status.code(), Some(0), "{}", said(&o));
    let solved = String::from_utf8_lossy(&o.stdout);
    // The grid, under the `# FILE:LINE` that names its instance.
    let line = solved.lines().find(|l| !l.starts_with('#')).unwrap();
    assert_eq!(line.len(), 256);
    assert!(line.bytes().all(|b| (b'A'..=b'P').contains(&b)), "{line}");
    for (given, got) in letters.chars().zip(line.chars()) {
        assert!(given == '.' || given == got);
    }
}

/// `bench solve` on a puzzle file: each grid under `# FILE:LINE` (the instance id), exit 0
/// when every puzzle is solved and 1 when one has no solution (both in `--help`), and a
/// reader that closes the pipe early ends it quietly (141, as a shell reports SIGPIPE).
#[test]
fn solve_names_each_grid_and_ends_quietly_on_a_closed_pipe() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let solve = |file: &str| {
        Command::cargo_bin("bench")
            .unwrap()
            .arg("solve")
            .arg(root.join("corpora").join(file))
            .output()
            .unwrap()
    };
    let o = solve("easy.txt");
    assert_eq!(o.status.code(), Some(0), "{}", said(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    // The corpus opens with its command line, so the puzzles are on lines 2 to 51.
    assert_eq!(lines.len(), 100, "{out}");
    for (k, pair) in lines.chunks(2).enumerate() {
        assert_eq!(pair[0], format!("# easy.txt:{}", k + 2));
        assert_eq!(pair[1].len(), 81, "{pair:?}");
    }
    let o = solve("nosolution.txt");
    assert_eq!(o.status.code(), Some(1), "{}", said(&o));
    assert!(
        said(&o).contains("# nosolution.txt:2: no solution"),
        "{}",
        said(&o)
    );
    let help = Command::cargo_bin("bench")
        .unwrap()
        .args(["solve", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    for code in [
        "10 SAT",
        "20 UNSAT",
        "0 when every puzzle was solved",
        "1 when",
        "141",
    ] {
        assert!(help.contains(code), "`bench solve --help` lacks {code:?}");
    }
    // A reader that takes one line and closes the pipe; the output (about 180 KB) is
    // bigger than a pipe holds, so bench is still writing when the reader has gone.
    let dir = tempfile::tempdir().unwrap();
    let many = std::fs::read_to_string(root.join("corpora/minimal-9x9.txt"))
        .unwrap()
        .repeat(20);
    let many = write(dir.path(), "many.txt", &many);
    let o = Command::new("bash")
        .arg("-c")
        .arg(r#""$0" solve "$1" | head -1; exit "${PIPESTATUS[0]}""#)
        .arg(assert_cmd::cargo::cargo_bin("bench"))
        .arg(&many)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&o.stdout), "# many.txt:2\n");
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "",
        "a closed pipe is no error"
    );
    assert_eq!(o.status.code(), Some(141));
}

#[test]
fn a_malformed_cnf_is_skipped_and_fatal_under_strict() {
    let dir = tempfile::tempdir().unwrap();
    let garbage = write(dir.path(), "garbage.cnf", "hello world\n");
    let good = write(dir.path(), "good.txt", &format!("{EIGHTEEN}\n"));
    let args = |strict: bool| {
        let mut a = vec![
            "run",
            garbage.to_str().unwrap(),
            good.to_str().unwrap(),
            "--solvers",
            "native",
            "--jobs",
            "1",
        ];
        if strict {
            a.push("--strict");
        }
        a
    };
    // Skipped, with file and line, and the rest runs.
    let (o, rows) = bench(&args(false), &dir.path().join("lenient"));
    assert_eq!(o.status.code(), Some(0), "{}", said(&o));
    assert!(
        said(&o).contains("garbage.cnf:1: expected 'c' or 'p'"),
        "{}",
        said(&o)
    );
    assert_eq!(rows.len(), 1, "{rows:?}");
    // Fatal under --strict: exit 2 with the same reason.
    let (o, _) = bench(&args(true), &dir.path().join("strict"));
    assert_eq!(o.status.code(), Some(2), "{}", said(&o));
    assert!(
        said(&o).contains("garbage.cnf:1: expected 'c' or 'p'") && said(&o).contains("--strict"),
        "{}",
        said(&o)
    );
}
