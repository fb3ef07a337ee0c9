//! Hostile inputs beside a good puzzle, each `bench run` under `ulimit -v`: a small xz
//! file that expands to 10⁹ clauses, a gzip file whose first line is a comment longer than
//! the address space bench may use, a header line of 10 MB. None may abort bench or cost
//! the puzzle its row; the bomb gets one MEMOUT row naming the file and the budget, and
//! bench's peak memory stays within the budget and its stated margin.
//!
//! The bombs are made on the fly: a compressed chunk written many times is a valid
//! multi-stream gzip or xz file, so a 10⁹-clause formula costs 700 KB and no compression
//! time.

use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use bench::results::{Row, read_rows};

const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n";

/// What reading may hold beyond its budget: buffers, the decoder, the rest of bench.
const MARGIN_KB: u64 = 96 << 10;

fn bench_path() -> PathBuf {
    assert_cmd::cargo::cargo_bin("bench")
}

fn xz(bytes: &[u8]) -> Vec<u8> {
    let mut e = xz2::write::XzEncoder::new(Vec::new(), 1);
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn gz(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// `head`, then `chunk` `times` times, then `tail`, each compressed by `pack` as its own
/// stream.
fn bomb(
    path: &Path,
    pack: fn(&[u8]) -> Vec<u8>,
    head: &[u8],
    chunk: &[u8],
    times: usize,
    tail: &[u8],
) {
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    f.write_all(&pack(head)).unwrap();
    let packed = pack(chunk);
    for _ in 0..times {
        f.write_all(&packed).unwrap();
    }
    if !tail.is_empty() {
        f.write_all(&pack(tail)).unwrap();
    }
    f.flush().unwrap();
}

/// What one `bench run` under `ulimit -v` left.
struct Ran {
    code: Option<i32>,
    signal: Option<i32>,
    stderr: String,
    rows: Vec<Row>,
    peak_kb: u64,
}

/// `bench run ARGS` under `ulimit -v LIMIT_KB`, its peak resident memory from `wait4`.
fn run_limited(dir: &Path, limit_kb: u64, args: &[&str]) -> Ran {
    let out = dir.join(format!("out-{}", args.join("-").replace(['/', '.'], "_")));
    let err_path = dir.join("stderr.txt");
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!("ulimit -v {limit_kb} && exec \"$0\" \"$@\""))
        .arg(bench_path())
        .arg("run")
        .args(args)
        .arg("--out")
        .arg(&out)
        .current_dir(dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(&err_path).unwrap());
    // Reaped by wait4 below, which gives the peak memory `Child::wait` does not.
    #[allow(clippy::zombie_processes)]
    let child = cmd.spawn().unwrap();
    let mut status = 0;
    // SAFETY: a zeroed rusage is valid; wait4 fills it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid);
    let status = std::process::ExitStatus::from_raw(status);
    let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
    let csv = out.join("results.csv");
    let rows = if csv.exists() {
        read_rows(&csv, true).unwrap()
    } else {
        Vec::new()
    };
    Ran {
        code: status.code(),
        signal: status.signal(),
        stderr,
        rows,
        peak_kb: usage.ru_maxrss as u64,
    }
}

fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("p.txt"), PUZZLE).unwrap();
    dir
}

/// The puzzle solved and checked, whatever the bomb did.
fn puzzle_ran(ran: &Ran) {
    assert_eq!(ran.code, Some(0), "signal {:?}\n{}", ran.signal, ran.stderr);
    let p = ran
        .rows
        .iter()
        .find(|r| r.instance.starts_with("p.txt"))
        .unwrap_or_else(|| panic!("no row for the puzzle\n{}", ran.stderr));
    assert_eq!(p.status.as_str(), "SAT", "{}", ran.stderr);
    assert_eq!(p.check.as_str(), "model-ok");
}

fn clause_bomb(dir: &Path) {
    let chunk = "1 0\n".repeat(1_000_000);
    bomb(
        &dir.join("bomb.cnf.xz"),
        xz,
        b"p cnf 1 1000000000\n",
        chunk.as_bytes(),
        1000,
        b"",
    );
}

#[test]
fn a_billion_clauses_under_a_memory_limit_is_one_memout_row() {
    let dir = setup();
    clause_bomb(dir.path());
    let ran = run_limited(
        dir.path(),
        2_000_000,
        &[
            "bomb.cnf.xz",
            "p.txt",
            "--mem-limit",
            "256",
            "--timeout",
            "10",
        ],
    );
    puzzle_ran(&ran);
    let b = ran
        .rows
        .iter()
        .find(|r| r.instance.as_str() == "bomb.cnf.xz")
        .unwrap_or_else(|| panic!("no row for the bomb\n{}", ran.stderr));
    assert_eq!(b.status.as_str(), "MEMOUT");
    assert!(b.error.contains("bomb.cnf.xz:"), "{}", b.error);
    assert!(b.error.contains("256 MiB"), "{}", b.error);
    assert_eq!(b.clauses, 1_000_000_000);
    eprintln!("peak {} KiB with --mem-limit 256", ran.peak_kb);
    assert!(
        ran.peak_kb < (256 << 10) + MARGIN_KB,
        "peak {} KiB",
        ran.peak_kb
    );
}

#[test]
fn bombs_read_at_once_share_one_budget() {
    let dir = setup();
    // Three different bombs (one unit each: the same formula twice would run once).
    let names = ["b1.cnf.xz", "b2.cnf.xz", "b3.cnf.xz"];
    for (i, name) in names.iter().enumerate() {
        // 10⁸ clauses (1.2 GB of clause arrays), far past the budget of 64 MiB.
        let chunk = format!("{} 0\n", i + 1).repeat(1_000_000);
        let head = b"p cnf 3 100000000\n";
        bomb(&dir.path().join(name), xz, head, chunk.as_bytes(), 100, b"");
    }
    let mut args = names.to_vec();
    args.extend([
        "p.txt",
        "--mem-limit",
        "64",
        "--timeout",
        "10",
        "--jobs",
        "3",
    ]);
    let ran = run_limited(dir.path(), 3_000_000, &args);
    puzzle_ran(&ran);
    for name in names {
        let b = ran
            .rows
            .iter()
            .find(|r| r.instance.as_str() == name)
            .unwrap_or_else(|| panic!("no row for {name}\n{}", ran.stderr));
        assert_eq!(b.status.as_str(), "MEMOUT", "{}", b.error);
        assert!(b.error.contains(&format!("{name}:")), "{}", b.error);
    }
    // Three workers read at once, within the one budget of 64 MiB (not 3 × 64) and its
    // margin.
    eprintln!(
        "peak {} KiB with three bombs and --mem-limit 64",
        ran.peak_kb
    );
    assert!(
        ran.peak_kb < (64 << 10) + MARGIN_KB,
        "peak {} KiB",
        ran.peak_kb
    );
}

#[test]
fn a_billion_clauses_under_ulimit_alone_is_one_memout_row() {
    let dir = setup();
    clause_bomb(dir.path());
    // No --mem-limit: the budget is half the address space left under the ulimit.
    let limit_kb = 1_500_000;
    let ran = run_limited(
        dir.path(),
        limit_kb,
        // The time limit covers reading: far beyond it, so that only memory decides
        // however loaded the machine is.
        &["bomb.cnf.xz", "p.txt", "--timeout", "600", "--jobs", "1"],
    );
    puzzle_ran(&ran);
    let b = ran
        .rows
        .iter()
        .find(|r| r.instance.as_str() == "bomb.cnf.xz")
        .unwrap_or_else(|| panic!("no row for the bomb\n{}", ran.stderr));
    assert_eq!(b.status.as_str(), "MEMOUT", "{}", b.error);
    assert!(b.error.contains("bomb.cnf.xz:"), "{}", b.error);
    eprintln!("peak {} KiB under ulimit -v {limit_kb}", ran.peak_kb);
    assert!(
        ran.peak_kb < limit_kb / 2 + MARGIN_KB,
        "peak {} KiB",
        ran.peak_kb
    );
}

#[test]
fn a_comment_longer_than_the_address_space_is_passed_not_held() {
    let dir = setup();
    // A first line of 1.5 GB, under a 1 GB ulimit: held whole, it could not fit.
    let chunk = vec![b'c'; 1 << 20];
    bomb(
        &dir.path().join("comment.cnf.gz"),
        gz,
        b"c ",
        &chunk,
        1536,
        b"\np cnf 2 2\n1 2 0\n-1 0\n",
    );
    let ran = run_limited(
        dir.path(),
        1_000_000,
        // Reading 1.5 GB of gzip takes seconds, more under load; the time limit covers
        // reading, so it is far beyond that.
        &["comment.cnf.gz", "p.txt", "--timeout", "600"],
    );
    puzzle_ran(&ran);
    let c = ran
        .rows
        .iter()
        .find(|r| r.instance.as_str() == "comment.cnf.gz")
        .unwrap_or_else(|| panic!("no row for the file\n{}", ran.stderr));
    assert_eq!(c.status.as_str(), "SAT");
    assert_eq!(c.check.as_str(), "model-ok");
    eprintln!("peak {} KiB", ran.peak_kb);
    assert!(ran.peak_kb < MARGIN_KB, "peak {} KiB", ran.peak_kb);
}

#[test]
fn a_header_line_of_ten_megabytes_is_skipped_with_its_line() {
    let dir = setup();
    let mut text = b"c fine\np cnf 2".to_vec();
    text.extend(std::iter::repeat_n(b' ', 10 << 20));
    text.extend_from_slice(b"1\n1 0\n");
    std::fs::write(dir.path().join("h.cnf"), &text).unwrap();
    let ran = run_limited(
        dir.path(),
        1_000_000,
        &["h.cnf", "p.txt", "--timeout", "10"],
    );
    puzzle_ran(&ran);
    assert!(
        ran.stderr
            .contains("h.cnf:2: the header line is longer than 1024 bytes"),
        "{}",
        ran.stderr
    );
}

#[test]
fn a_header_that_overstates_the_variables_is_passed_with_the_true_maximum() {
    if !crate::support::external::require_all(&[
        "minisat",
        "kissat",
        "cadical",
        "picosat",
        "cryptominisat",
        "glucose",
    ]) {
        return;
    }
    let dir = setup();
    std::fs::write(
        dir.path().join("wide.cnf"),
        "p cnf 2000000000 2\n1 2 0\n-1 0\n",
    )
    .unwrap();
    let solvers = "minisat,kissat,cadical,picosat,cryptominisat,glucose";
    let ran = run_limited(
        dir.path(),
        4_000_000,
        &["wide.cnf", "p.txt", "--solvers", solvers, "--timeout", "20"],
    );
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    let wide: Vec<&Row> = ran
        .rows
        .iter()
        .filter(|r| r.instance.as_str() == "wide.cnf")
        .collect();
    assert_eq!(wide.len(), 6, "{}", ran.stderr);
    for r in wide {
        assert_eq!(r.status.as_str(), "SAT", "{}: {}", r.solver, r.error);
        assert_eq!(r.check.as_str(), "model-ok", "{}: {}", r.solver, r.error);
        assert!(
            r.error
                .contains("the header's 2000000000 variables were passed as 2"),
            "{}: {}",
            r.solver,
            r.error
        );
        assert_eq!(r.vars, 2_000_000_000);
    }
}

#[test]
fn a_model_larger_than_the_stdout_cap_is_read_and_checked() {
    if !crate::support::external::require_all(&["kissat", "minisat"]) {
        return;
    }
    let dir = setup();
    // One clause of 10 million literals: kissat's model is 81 MB of `v` lines, more than
    // the 64 MiB of stdout bench keeps; minisat's result file is as long, and streamed
    // the same way.
    let n = 10_000_000;
    let mut f =
        std::io::BufWriter::new(std::fs::File::create(dir.path().join("long.cnf")).unwrap());
    writeln!(f, "p cnf {n} 1").unwrap();
    for v in 1..=n {
        write!(f, "{v} ").unwrap();
    }
    writeln!(f, "0").unwrap();
    f.flush().unwrap();
    drop(f);
    let ran = run_limited(
        dir.path(),
        6_000_000,
        &[
            "long.cnf",
            "--solvers",
            "kissat,minisat",
            "--timeout",
            "120",
        ],
    );
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    assert_eq!(ran.rows.len(), 2, "{}", ran.stderr);
    for r in &ran.rows {
        assert_eq!(r.status.as_str(), "SAT", "{}: {}", r.solver, r.error);
        assert_eq!(r.check.as_str(), "model-ok", "{}: {}", r.solver, r.error);
    }
    eprintln!(
        "peak {} KiB with a 79 MB clause and an 81 MB model",
        ran.peak_kb
    );
}

#[test]
fn a_plain_formula_larger_than_the_memory_limit_is_a_memout_row_per_solver() {
    if !crate::support::external::require_all(&["kissat"]) {
        return;
    }
    let dir = setup();
    // 6·10⁶ clauses of three literals over 10⁵ variables: a 133 MB file whose clause arrays
    // (4 bytes a literal, 8 a clause) take 137 MiB, more than the 64 MiB given.
    let (vars, clauses) = (100_000u64, 6_000_000u64);
    let mut f = std::io::BufWriter::new(std::fs::File::create(dir.path().join("big.cnf")).unwrap());
    writeln!(f, "p cnf {vars} {clauses}").unwrap();
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..clauses {
        for _ in 0..3 {
            // xorshift: literals spread over every variable, either sign.
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = (x % vars) as i64 + 1;
            write!(f, "{} ", if x & (1 << 40) == 0 { v } else { -v }).unwrap();
        }
        writeln!(f, "0").unwrap();
    }
    f.flush().unwrap();
    drop(f);
    let size = std::fs::metadata(dir.path().join("big.cnf")).unwrap().len();
    assert!(size > 64 << 20, "{size} bytes");
    std::fs::copy(
        crate::support::root().join("corpora/cnf/php-7-6.cnf"),
        dir.path().join("php.cnf"),
    )
    .unwrap();
    let ran = run_limited(
        dir.path(),
        2_000_000,
        &[
            "big.cnf",
            "php.cnf",
            "p.txt",
            "--solvers",
            "native,kissat",
            "--mem-limit",
            "64",
            "--timeout",
            "60",
            // One read at a time: a small formula read while the big one holds the whole
            // account would find it spent (bombs_read_at_once_share_one_budget).
            "--jobs",
            "1",
        ],
    );
    // bench ran to its end: no abort, every other instance solved by both solvers.
    assert_eq!(ran.code, Some(0), "signal {:?}\n{}", ran.signal, ran.stderr);
    for solver in ["native", "kissat"] {
        let row = |instance: &str| {
            ran.rows
                .iter()
                .find(|r| r.instance.as_str() == instance && r.solver.as_str() == solver)
                .unwrap_or_else(|| panic!("no row of {solver} on {instance}\n{}", ran.stderr))
        };
        let big = row("big.cnf");
        assert_eq!(big.status.as_str(), "MEMOUT", "{solver}: {}", big.error);
        assert!(big.error.contains("big.cnf:"), "{solver}: {}", big.error);
        assert!(big.error.contains("64 MiB"), "{solver}: {}", big.error);
        let php = row("php.cnf");
        assert_eq!(php.status.as_str(), "UNSAT", "{solver}: {}", php.error);
        let p = row("p.txt:1");
        assert_eq!(p.status.as_str(), "SAT", "{solver}: {}", p.error);
        assert_eq!(p.check.as_str(), "model-ok", "{solver}");
    }
    assert_eq!(ran.rows.len(), 6, "{}", ran.stderr);
    eprintln!(
        "peak {} KiB with a {size}-byte formula and --mem-limit 64",
        ran.peak_kb
    );
    assert!(
        ran.peak_kb < (64 << 10) + MARGIN_KB,
        "peak {} KiB",
        ran.peak_kb
    );
}
