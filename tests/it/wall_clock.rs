//! `wall_s` is measured from spawn to exit by a monotonic clock in the process that spawns
//! the solver, so it holds everything the CPU time holds: for a short single-threaded busy
//! child, wall ≥ CPU in every run (it once read 6–17 µs against 1.2–1.7 ms of CPU).

use std::ffi::OsString;

use bench::solver::external::run::{Spec, run};

#[test]
fn wall_is_at_least_cpu_for_short_busy_children() {
    let sh = std::path::Path::new("/bin/sh");
    let args: Vec<OsString> = ["-c", "i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done"]
        .iter()
        .map(OsString::from)
        .collect();
    for _ in 0..24 {
        let done = run(&Spec::new(sh, &args)).unwrap();
        let cpu = done.cpu.expect("the helper measures CPU time");
        assert!(!cpu.is_zero());
        assert!(
            done.wall >= cpu,
            "wall {:?} below CPU {:?} for a single-threaded child",
            done.wall,
            cpu
        );
    }
}
