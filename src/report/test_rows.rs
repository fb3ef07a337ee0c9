//! Hand-made result rows for the report's unit tests.

use crate::results::{Check, Row};
use crate::solver::Status;

/// A row of `solver` on `instance` under `encoding`: `status` in `wall` seconds, a 10 s
/// timeout, not wrong, a 9×9 sudoku; as the report holds it.
pub fn row(
    instance: &str,
    encoding: &str,
    solver: &str,
    status: &str,
    wall: f64,
) -> crate::report::rows::Row {
    full_row(instance, encoding, solver, status, wall).into()
}

/// [`row`] as a results row.
pub fn full_row(instance: &str, encoding: &str, solver: &str, status: &str, wall: f64) -> Row {
    Row {
        corpus: "c.txt".into(),
        instance: instance.into(),
        hash: Default::default(),
        kind: crate::results::InstanceKind::Puzzle(crate::puzzle::Kind::Sudoku),
        side: 9,
        encoding: encoding.into(),
        vars: 729,
        clauses: 10_000,
        solver: solver.into(),
        mode: None,
        run: 1,
        status: Status::parse(status).expect("a status"),
        // Every SAT answer is checked (see `results::consistency`).
        check: if status == "SAT" {
            Check::ModelOk
        } else {
            Check::Unchecked
        },
        wall_s: wall,
        cpu_s: None,
        max_rss_kb: None,
        exit_code: None,
        timeout_s: 10.0,
        jobs: 1,
        error: String::new(),
        wrong: false,
        solutions: None,
        count_wall_s: None,
        count_cpu_s: None,
        givens: None,
        family: String::new().into(),
        ..Row::default()
    }
}
