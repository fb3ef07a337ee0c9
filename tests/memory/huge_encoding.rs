//! A 64×64 sudoku's extended encoding (33 million clauses, about 600 MB of DIMACS) is
//! written by `bench encode` in bounded memory and parses back with the same counts.

use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;
use bench::cnf::dimacs::{ParseOptions, read_path};

/// Runs `cmd` to its end; its exit status and its own peak RSS (KiB), from `wait4` on its
/// pid (not `RUSAGE_CHILDREN`, which the other tests' children of this process raise).
fn run_measured(mut cmd: Command) -> (std::process::ExitStatus, i64) {
    use std::os::unix::process::ExitStatusExt;
    cmd.stdout(std::process::Stdio::null());
    // Reaped by wait4 below, which gives the peak memory `Child::wait` does not.
    #[allow(clippy::zombie_processes)]
    let child = cmd.spawn().unwrap();
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: a zeroed rusage is valid; wait4 fills it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    assert_eq!(unsafe { libc::wait4(pid, &mut status, 0, &mut usage) }, pid);
    (std::process::ExitStatus::from_raw(status), usage.ru_maxrss)
}

#[test]
fn sixty_four_by_sixty_four_streams() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dir.path().join("big.txt");
    // One given in the first cell (64 > 61 symbols, so the integer grid format).
    let mut rows = Vec::new();
    for r in 0..64 {
        let row: Vec<&str> = (0..64)
            .map(|c| if r == 0 && c == 0 { "7" } else { "0" })
            .collect();
        rows.push(row.join(" "));
    }
    std::fs::write(&puzzle, rows.join("\n") + "\n").unwrap();
    let out = dir.path().join("out");
    let mut cmd = Command::cargo_bin("bench").unwrap();
    cmd.args(["encode", "--format", "grid", "--encoding", "extended"])
        .arg(&puzzle)
        .arg("-o")
        .arg(&out);
    let (status, rss_kb) = run_measured(cmd);
    assert!(status.success(), "{status:?}");
    let cnf_path = out.join("big-1.cnf");
    let size = std::fs::metadata(&cnf_path).unwrap().len();
    let expected_clauses: usize = 4096 + 4096 * 2016 + 192 * 64 * 2016 + 192 * 64 + 1;
    println!("64×64 extended: {size} bytes, encoder peak RSS {rss_kb} KiB");
    assert!(size > 500_000_000, "{size} bytes");
    assert!(
        rss_kb < 100_000,
        "bench encode used {rss_kb} KiB for a {size}-byte file: not streamed"
    );
    let dimacs = read_path(&cnf_path, ParseOptions::default()).unwrap();
    assert_eq!(dimacs.cnf.num_vars(), 64 * 64 * 64);
    assert_eq!(dimacs.cnf.num_clauses(), expected_clauses);
}
