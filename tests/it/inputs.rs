//! Careless input at the door of `bench run` and `bench solve`: a mistyped corpus leaves
//! no output folder and names the file (no "line 0"); a mistyped solver gets a "did you
//! mean"; one fault on every line of a file is said once, with its count and first place.
//! Input that is not a plain file: standard input (`-`), `/dev/stdin`, a shell's `<(…)`
//! and a FIFO are read whole (a compression magic number read once) or refused at once,
//! never a hang; a puzzle given as the argument; corpus folders with link loops and FIFOs.

use std::path::Path;
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

/// A puzzle of corpora/easy.txt and its one solution.
const PUZZLE: &str =
    "003020600900305001001806400008102900700000008006708200002609500800203009005010300";
const SOLVED: &str =
    "483921657967345821251876493548132976729564138136798245372689514814253769695417382";

/// Runs `cmd` to its end, its stdin given by `feed` (None: no stdin), killing it and
/// failing the test if it has not ended after two minutes: a guard against a hang, far
/// beyond what any of these commands takes.
fn output_of(mut cmd: std::process::Command, feed: Option<Vec<u8>>) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    cmd.stdin(if feed.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    });
    let mut child = cmd.spawn().unwrap();
    if let Some(bytes) = feed {
        let mut stdin = child.stdin.take().unwrap();
        std::thread::spawn(move || {
            let _ = stdin.write_all(&bytes);
        });
    }
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(120) {
            child.kill().unwrap();
            panic!("{cmd:?} hung: killed after 120 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo reads the path we pass, which lives for the call.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

/// The solved grids `bench solve` printed, each under its `# PLACE` line.
fn solved(o: &Output) -> Vec<(String, String)> {
    let out = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    lines
        .windows(2)
        .filter(|w| w[0].starts_with("# ") && !w[1].starts_with('#'))
        .map(|w| (w[0][2..].to_string(), w[1].to_string()))
        .collect()
}

#[test]
fn solve_reads_stdin_pipes_and_process_substitution_whole() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.txt");
    std::fs::write(&file, format!("{PUZZLE}\n")).unwrap();

    // `echo PUZZLE | bench solve -`
    let mut cmd = bench();
    cmd.args(["solve", "-"]);
    let o = output_of(cmd, Some(format!("{PUZZLE}\n").into_bytes()));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(solved(&o), [("stdin:1".to_string(), SOLVED.to_string())]);

    // `bench solve /dev/stdin < p.txt` and `… /dev/stdin` on a pipe: 81 symbols, not 75.
    let mut cmd = bench();
    cmd.args(["solve", "/dev/stdin"]);
    let o = output_of(cmd, Some(format!("{PUZZLE}\n").into_bytes()));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(solved(&o)[0].1, SOLVED);
    let o = bench()
        .args(["solve", "/dev/stdin"])
        .stdin(std::fs::File::open(&file).unwrap())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(solved(&o)[0].1, SOLVED);

    // A gzipped CNF on a pipe: the magic number is read once, not lost.
    let cnf = gzip(b"p cnf 2 2\n1 2 0\n-1 0\n");
    for arg in ["-", "/dev/stdin"] {
        let mut cmd = bench();
        cmd.args(["solve", arg]);
        let o = output_of(cmd, Some(cnf.clone()));
        assert_eq!(o.status.code(), Some(10), "{arg}: {}", text(&o));
        assert!(
            String::from_utf8_lossy(&o.stdout).contains("v -1 2 0"),
            "{}",
            text(&o)
        );
    }

    // `bench solve <(cat p.txt)` (bash's process substitution, a pipe at /dev/fd/N).
    let mut cmd = std::process::Command::new("bash");
    cmd.arg("-c")
        .arg(r#""$0" solve <(cat "$1")"#)
        .arg(env!("CARGO_BIN_EXE_bench"))
        .arg(&file);
    let o = output_of(cmd, None);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(solved(&o)[0].1, SOLVED);
}

#[test]
fn solve_takes_the_puzzle_itself_where_no_file_has_its_name() {
    let o = bench().args(["solve", PUZZLE]).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(solved(&o), [("puzzle:1".to_string(), SOLVED.to_string())]);
    // A name that is no puzzle stays a missing file.
    let o = bench()
        .args(["solve", "corpora/eazy.txt"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        stderr(&o).contains("corpora/eazy.txt: No such file"),
        "{}",
        text(&o)
    );
    // A file of that name wins over the text.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(PUZZLE), "# no puzzle here\n").unwrap();
    let o = bench()
        .current_dir(dir.path())
        .args(["solve", PUZZLE])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(stderr(&o).contains("no puzzle"), "{}", text(&o));
}

#[test]
fn a_fifo_is_read_while_written_and_refused_without_a_writer() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("f");
    mkfifo(&fifo);

    // No program writes to it: refused at once, not a hang.
    let mut cmd = bench();
    cmd.arg("solve").arg(&fifo);
    let o = output_of(cmd, None);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(stderr(&o).contains("no program writes to"), "{}", text(&o));

    // A writer holds it open: the puzzle is read whole. The test is the writer (opened
    // read-write, which never waits), and closes once bench has the FIFO open.
    let mut writer = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&fifo)
        .unwrap();
    let mut child = bench()
        .arg("solve")
        .arg(&fifo)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut writer, format!("{PUZZLE}\n").as_bytes()).unwrap();
    wait_until_open(&mut child, &fifo);
    drop(writer);
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(solved(&o), [("f:1".to_string(), SOLVED.to_string())]);
}

#[test]
fn run_reads_puzzles_from_stdin_and_refuses_a_formula_on_a_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = bench();
    cmd.args([
        "run",
        "-",
        "--solvers",
        "native",
        "--timeout",
        "60",
        "--out",
    ])
    .arg(dir.path().join("r"));
    let o = output_of(cmd, Some(format!("{PUZZLE}\n{PUZZLE}\n").into_bytes()));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let rows = bench::results::read_rows(&dir.path().join("r/results.csv"), true).unwrap();
    assert_eq!(rows.len(), 1, "one content, one instance: {rows:?}");
    assert_eq!(rows[0].instance.as_str(), "stdin:1");
    assert_eq!(rows[0].check.as_str(), "model-ok");

    let mut cmd = bench();
    cmd.args(["run", "-", "--solvers", "native", "--out"])
        .arg(dir.path().join("r2"));
    let o = output_of(cmd, Some(gzip(b"p cnf 1 1\n1 0\n")));
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        stderr(&o).contains("a DIMACS formula on a pipe"),
        "{}",
        text(&o)
    );
    assert!(!dir.path().join("r2").exists());
}

#[test]
fn a_corpus_folder_with_link_loops_and_a_fifo_is_walked_once() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("c");
    // Three levels, each with two links back up: a walk that follows them blindly makes
    // paths without end.
    let mut d = corpus.clone();
    for level in ["a", "b", "c"] {
        d = d.join(level);
        std::fs::create_dir_all(&d).unwrap();
        std::os::unix::fs::symlink("..", d.join("up")).unwrap();
        std::os::unix::fs::symlink("..", d.join("up2")).unwrap();
    }
    std::fs::write(d.join("p.txt"), format!("{PUZZLE}\n")).unwrap();
    mkfifo(&corpus.join("a/pipe.txt"));
    let mut cmd = bench();
    cmd.arg("run")
        .arg(&corpus)
        .args(["--solvers", "native", "--timeout", "60", "--out"])
        .arg(dir.path().join("r"));
    let o = output_of(cmd, None);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let err = stderr(&o);
    assert!(
        err.contains("a/pipe.txt: left out: a named pipe (FIFO), not a regular file"),
        "{err}"
    );
    assert!(
        err.contains("6 inputs: left out: a link to a folder read already"),
        "{err}"
    );
    let rows = bench::results::read_rows(&dir.path().join("r/results.csv"), true).unwrap();
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0].instance.as_str(), "a/b/c/p.txt:1");
}

/// A stop while the corpus is read ends bench at once: here a FIFO whose writer never
/// closes it, which bench would otherwise read forever. SIGTERM goes to bench once it has
/// the FIFO open; it exits 130 saying no run had started.
#[test]
fn a_stop_while_the_corpus_is_read_ends_bench_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("endless");
    mkfifo(&fifo);
    // The test holds the write end open (read-write never waits) and never closes it.
    let mut writer = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&fifo)
        .unwrap();
    std::io::Write::write_all(&mut writer, format!("{PUZZLE}\n").as_bytes()).unwrap();
    let mut child = bench()
        .arg("run")
        .arg(&fifo)
        .arg("--out")
        .arg(dir.path().join("r"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_until_open(&mut child, &fifo);
    let pid = child.id().to_string();
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap();
    assert!(killed.success());
    // Without the early stop bench reads on for as long as the writer holds the FIFO:
    // for ever. A generous bound tells the two apart.
    let waited = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(
            waited.elapsed().as_secs() < 120,
            "bench is still reading the FIFO after SIGTERM"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", text(&o));
    assert!(stderr(&o).contains("no run had started"), "{}", text(&o));
    drop(writer);
}

/// Waits until `child` has `fifo` open (its `/proc` file descriptors say so).
fn wait_until_open(child: &mut std::process::Child, fifo: &Path) {
    let fds = format!("/proc/{}/fd", child.id());
    let start = std::time::Instant::now();
    while !std::fs::read_dir(&fds).is_ok_and(|fds| {
        fds.flatten()
            .any(|fd| std::fs::read_link(fd.path()).is_ok_and(|l| l == fifo))
    }) {
        assert!(
            child.try_wait().unwrap().is_none(),
            "bench ended without opening the FIFO"
        );
        assert!(
            start.elapsed().as_secs() < 120,
            "bench never opened the FIFO"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}
