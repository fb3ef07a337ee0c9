//! In-process solvers beside busy loops, on a formula whose preparation is slow: the
//! promise that a row records at most its timeout plus [`PROMISED_MARGIN_S`], at any load.
//! What is held is bench's own record (the row's `wall_s`, the measured span of the
//! solver's call), never a clock of the test's: the machine may be shared and loaded
//! beyond the two loops this test adds, and the promise is to hold there too.

use std::io::{BufWriter, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use bench::results::{Row, read_rows};

/// The margin the README and docs/limits.md promise: a row of an in-process solver
/// records at most its timeout plus this.
pub const PROMISED_MARGIN_S: f64 = 1.0;

/// Processes that spin on a core each until dropped (killed and reaped then): the
/// test's own children, never anything found by name.
pub struct BusyLoops(Vec<Child>);

impl BusyLoops {
    /// `n` busy loops.
    pub fn start(n: usize) -> BusyLoops {
        let loops = (0..n)
            .map(|_| {
                Command::new("sh")
                    .args(["-c", "while :; do :; done"])
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .expect("a busy loop")
            })
            .collect();
        BusyLoops(loops)
    }
}

impl Drop for BusyLoops {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Writes one clause over variables 1..=n, then PHP(12, 11) on the next variables: a
/// formula whose loading (the long clause, n variables) and first simplification round
/// are slow, and whose search outlasts any short timeout.
pub fn huge_clause_and_pigeons(path: &Path, n: u32) {
    let (p, h) = (12u32, 11u32);
    let var = |i: u32, j: u32| n + i * h + j + 1;
    let mut clauses: Vec<Vec<i64>> = Vec::new();
    for i in 0..p {
        clauses.push((0..h).map(|j| var(i, j) as i64).collect());
    }
    for j in 0..h {
        for a in 0..p {
            for b in a + 1..p {
                clauses.push(vec![-(var(a, j) as i64), -(var(b, j) as i64)]);
            }
        }
    }
    let mut out = BufWriter::new(std::fs::File::create(path).unwrap());
    writeln!(out, "p cnf {} {}", n + p * h, clauses.len() + 1).unwrap();
    for v in 1..=n {
        write!(out, "{v} ").unwrap();
    }
    writeln!(out, "0").unwrap();
    for c in clauses {
        for l in c {
            write!(out, "{l} ").unwrap();
        }
        writeln!(out, "0").unwrap();
    }
    out.flush().unwrap();
}

/// `bench run CNF --solvers SOLVER --timeout T --jobs 1` under `ulimit -v` (8 GB: the
/// solvers live in bench's address space, a few GB of it for ten million variables): the
/// one row.
pub fn run_one(dir: &Path, cnf: &Path, solver: &str, timeout: f64) -> Row {
    let out_dir = dir.join(format!("{solver}-{timeout}"));
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 8000000 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_bench"))
        .arg("run")
        .arg(cnf)
        .args(["--solvers", solver, "--timeout", &timeout.to_string()])
        .args(["--jobs", "1", "--out"])
        .arg(&out_dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{solver}: {err}");
    let rows = read_rows(&out_dir.join("results.csv"), false).unwrap();
    assert_eq!(rows.len(), 1, "{solver}: {err}");
    rows.into_iter().next().unwrap()
}

/// Each of `solvers` on the huge formula beside two busy loops, under each of `timeouts`
/// (so the deadline falls in reading, loading, simplifying or searching, whichever the
/// load makes it): every row a TIMEOUT within the promised margin.
pub fn assert_the_margin_holds_beside_busy_loops(solvers: &[&str], timeouts: &[f64]) {
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("huge.cnf");
    huge_clause_and_pigeons(&cnf, 10_000_000);
    let _busy = BusyLoops::start(2);
    for &solver in solvers {
        for &timeout in timeouts {
            let r = run_one(dir.path(), &cnf, solver, timeout);
            eprintln!(
                "{solver} --timeout {timeout}: {} wall {} s cpu {:?} s: {}",
                r.status.as_str(),
                r.wall_s,
                r.cpu_s,
                r.error
            );
            assert_eq!(r.status.as_str(), "TIMEOUT", "{solver}: {}", r.error);
            let bound = timeout + PROMISED_MARGIN_S;
            assert!(
                r.wall_s <= bound,
                "{solver} --timeout {timeout}: a row of {} s, past the promised {bound} s ({})",
                r.wall_s,
                r.error
            );
        }
    }
}
