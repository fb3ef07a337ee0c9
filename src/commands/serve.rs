//! `bench solve --serve`: bench's own side of the puzzle line protocol (see
//! `solver::lines`), answering with gridsolve. It reads puzzles, one a line in the line
//! format, on stdin, and writes one line for each at once: the solution, checked against
//! the rules and the givens before it is written, in the line format; `none` when the
//! puzzle has no solution; `error` and why when the line is no puzzle, the shape is one
//! gridsolve does not take, or `--timeout` or `--cpu-limit` ended the search. So `bench run
//! --puzzle-solver gs='bench solve --serve'` runs gridsolve as a process.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use crate::cli::SolveArgs;
use crate::puzzle::format::{self, Format, ReadOptions};
use crate::solver::dedicated;

pub(super) fn run(args: &SolveArgs) -> anyhow::Result<i32> {
    let read = ReadOptions {
        format: Some(Format::Line),
        ..super::read_options(&args.input)?
    };
    let cpu = args.limits.cpu_limit.map(Duration::from_secs_f64);
    let timeout = args.limits.timeout.map(Duration::from_secs_f64);
    let mut out = io::stdout().lock();
    for line in io::stdin().lock().lines() {
        let answer = answer(&line?, &read, (timeout, cpu));
        writeln!(out, "{answer}")?;
        out.flush()?;
    }
    Ok(0)
}

/// The answer line for one puzzle line.
fn answer(
    line: &str,
    read: &ReadOptions,
    (timeout, cpu): (Option<Duration>, Option<Duration>),
) -> String {
    let one_line = |why: String| format!("error: {}", why.replace(['\n', '\r'], " "));
    let entry = match format::read_str(line, "stdin", read) {
        Ok(file) => match file.entries.into_iter().next() {
            Some(Ok(entry)) => entry,
            Some(Err(e)) => return one_line(e.to_string()),
            None => return one_line("no puzzle on the line".into()),
        },
        Err(e) => return one_line(e.to_string()),
    };
    let clocks = crate::solver::Clocks::starting_now(timeout, cpu);
    match dedicated::solve_within(&entry.puzzle, gridsolve::Limit::first(), clocks, None) {
        Ok(a) => match (a.status, a.solutions.first()) {
            (gridsolve::Status::Solved, Some(solved)) => {
                let mut text = Vec::new();
                match format::write(&mut text, solved, Format::Line) {
                    Ok(()) => String::from_utf8_lossy(&text).trim_end().to_string(),
                    Err(e) => one_line(e.to_string()),
                }
            }
            (gridsolve::Status::NoSolution, _) => "none".into(),
            _ => one_line("stopped by the time limit".into()),
        },
        Err(e) => one_line(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_line_gets_one_answer_line() {
        let read = ReadOptions {
            format: Some(Format::Line),
            ..ReadOptions::default()
        };
        let solved = answer("1...........3..2", &read, (None, None));
        assert_eq!(solved.len(), 16, "{solved}");
        assert!(solved.starts_with('1') && !solved.contains('.'));
        assert_eq!(answer("11..............", &read, (None, None)), "none");
        assert!(answer("hello", &read, (None, None)).starts_with("error: "));
    }
}
