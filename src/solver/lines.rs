//! Any dedicated puzzle solver as a process (`--puzzle-solver NAME='CMD'`), speaking the
//! puzzle line protocol: bench writes one puzzle a line on the program's standard input,
//! in bench's line format (`.` for a blank), and waits for its answer line before it
//! sends the next. One process serves every puzzle of a worker. An answer line is
//!
//! - the solution, in the line format (both boards one after the other for a pair);
//! - tdoku's `puzzle:count:solution` (count 0, or an empty solution: no solution);
//! - `none` or `0`: the puzzle has no solution (UNSAT);
//! - `error` and a reason: the solver could not answer (ERROR).
//!
//! Anything else is an answer that is no solution: wrong. Each answer is timed from the
//! puzzle sent to the line read (wall, and the program's CPU time between the two, from
//! its control group's counter or its threads' nanosecond counters). A program that does
//! not answer within the timeout is killed with everything it started (TIMEOUT) and
//! started again for the next puzzle; one that ends, or closes its output, is an ERROR
//! (MEMOUT when its group reached `--mem-limit`) and started again. It is contained and
//! limited as any external solver is (`line_process.rs`): a control group of its own
//! where runs get one (the memory limit over all its processes, the process limit; the
//! row's peak memory is the group's), else an address-space limit per process.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use crate::cnf::Cnf;
use crate::puzzle::Puzzle;
use crate::puzzle::format::{self, Format, ReadOptions};

use super::line_process::Running;
use super::puzzle::{PuzzleAnswer, PuzzleSession};
use super::{LimitHit, Limits, Outcome, Solver, Status};

/// A program speaking the puzzle line protocol.
pub struct LineSolver {
    name: String,
    program: PathBuf,
    args: Vec<String>,
}

impl LineSolver {
    /// The solver `name` running `command` (a program and its arguments, shell-quoted).
    pub fn from_command(name: &str, command: &str) -> anyhow::Result<LineSolver> {
        let mut words = shell_words::split(command)
            .with_context(|| format!("--puzzle-solver {name}: cannot split `{command}`"))?;
        if words.is_empty() {
            bail!("--puzzle-solver {name}: empty command");
        }
        let first = words.remove(0);
        let program = super::external::locate::resolve_program(&first).with_context(|| {
            format!("--puzzle-solver {name}: `{first}` is not an executable file")
        })?;
        Ok(LineSolver {
            name: name.to_string(),
            program,
            args: words,
        })
    }
}

impl Solver for LineSolver {
    fn name(&self) -> &str {
        &self.name
    }

    fn path(&self) -> Option<PathBuf> {
        Some(self.program.clone())
    }

    fn solve(&self, _: &Cnf, _: &Limits) -> Outcome {
        Outcome::error(format!("{} solves puzzles, not CNF formulas", self.name))
    }

    fn reads_puzzles(&self) -> bool {
        true
    }

    fn puzzle_session(&self) -> Option<Box<dyn PuzzleSession>> {
        Some(Box::new(LineSession {
            program: self.program.clone(),
            args: self.args.clone(),
            running: None,
        }))
    }
}

/// One worker's process of a line solver, started on first use and after a failure.
struct LineSession {
    program: PathBuf,
    args: Vec<String>,
    running: Option<Running>,
}

impl LineSession {
    /// Sends `line`, waits for the answer within the timeout: the line, or the outcome
    /// that ends the wait (TIMEOUT, ERROR, an interrupt).
    fn exchange(&mut self, line: &str, limits: &Limits) -> (Result<String, Box<Outcome>>, Outcome) {
        let mut timing = Outcome::new(Status::Unknown);
        if self.running.is_none() {
            match Running::start(&self.program, &self.args, limits.mem_limit_mb) {
                Ok(r) => self.running = Some(r),
                Err(e) => {
                    let why = format!("cannot start: {e}");
                    return (Err(Box::new(Outcome::error(why))), timing);
                }
            }
        }
        let Some(running) = self.running.as_mut() else {
            return (Err(Box::new(Outcome::error("not started"))), timing);
        };
        let cpu_start = running.cpu();
        let hits = running.memory_hits();
        let start = Instant::now();
        let sent = writeln!(running.stdin, "{line}").and_then(|()| running.stdin.flush());
        let answer = match sent {
            Err(e) => Err(Box::new(Outcome::error(format!("the solver ended: {e}")))),
            Ok(()) => wait_line(running, (start, cpu_start), limits),
        };
        timing.wall = start.elapsed();
        timing.cpu = cpu_start
            .zip(running.cpu())
            .map(|(a, b)| b.saturating_sub(a));
        timing.max_rss_kb = running.peak_kb();
        // Out of memory, when the group's counters say so: the reason, for an answer
        // that is an ERROR (the program died or gave up), as for any external run.
        timing.error = running.memory_hits().since(hits);
        if answer.is_err()
            && let Some(r) = self.running.take()
        {
            r.kill();
        }
        (answer, timing)
    }
}

/// The next line of `running`'s output, within the timeout from `start` and the CPU
/// limit from the program's CPU time then (looked at every slice).
fn wait_line(
    running: &Running,
    (start, cpu_start): (Instant, Option<Duration>),
    limits: &Limits,
) -> Result<String, Box<Outcome>> {
    let slice = Duration::from_millis(50);
    loop {
        if let (Some(limit), Some(from)) = (limits.cpu_limit, cpu_start)
            && running
                .cpu()
                .is_some_and(|now| now.saturating_sub(from) >= limit)
        {
            return Err(Box::new(Outcome::timeout(LimitHit::Cpu)));
        }
        if limits
            .interrupt
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            return Err(Box::new(Outcome::stopped(limits)));
        }
        let wait = match limits.timeout {
            Some(t) if start.elapsed() >= t => {
                return Err(Box::new(Outcome::timeout(LimitHit::Wall)));
            }
            Some(t) => (t - start.elapsed()).min(slice),
            None => slice,
        };
        match running.lines.recv_timeout(wait) {
            Ok(Ok(line)) => return Ok(line),
            Ok(Err(e)) => {
                return Err(Box::new(Outcome::error(format!("reading its answer: {e}"))));
            }
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => {
                return Err(Box::new(Outcome::error(
                    "the solver ended, or closed its output, without answering",
                )));
            }
        }
    }
}

impl PuzzleSession for LineSession {
    fn solve(&mut self, puzzle: &Puzzle, _count: u32, limits: &Limits) -> PuzzleAnswer {
        let mut text = Vec::new();
        if let Err(e) = format::write(&mut text, puzzle, Format::Line) {
            return PuzzleAnswer::without(Outcome::error(format!(
                "this puzzle has no line form: {e}"
            )));
        }
        // Blanks as `.` (tdoku reads `0` as no blank); no value is written `0`.
        let line = String::from_utf8_lossy(&text).trim_end().replace('0', ".");
        let (answer, timing) = self.exchange(&line, limits);
        let mut read = match answer {
            Ok(answer) => read_answer(puzzle, &answer),
            Err(outcome) => PuzzleAnswer::without(*outcome),
        };
        if read.outcome.status == Status::Error
            && let Some(why) = timing.error
        {
            read = PuzzleAnswer::without(Outcome {
                error: Some(why),
                ..Outcome::new(Status::Memout)
            });
        }
        read.outcome.wall = timing.wall;
        read.outcome.cpu = timing.cpu;
        read.outcome.max_rss_kb = timing.max_rss_kb;
        read.past_limits(limits)
    }
}

impl Drop for LineSession {
    fn drop(&mut self) {
        if let Some(r) = self.running.take() {
            r.kill();
        }
    }
}

/// An answer line read (not checked: the run checks the solution).
pub fn read_answer(puzzle: &Puzzle, answer: &str) -> PuzzleAnswer {
    let answer = answer.trim();
    if answer == "none" || answer == "0" {
        return PuzzleAnswer::without(Outcome::new(Status::Unsat));
    }
    if let Some(why) = answer.strip_prefix("error") {
        return PuzzleAnswer::without(Outcome::error(format!(
            "the solver says: error{}",
            crate::text::escape_controls(why)
        )));
    }
    // tdoku's `puzzle:count:solution`.
    let solution = match answer.split(':').collect::<Vec<_>>().as_slice() {
        [_, count, solution] => {
            if count.trim() == "0" || solution.trim().is_empty() {
                return PuzzleAnswer::without(Outcome::new(Status::Unsat));
            }
            solution.trim()
        }
        _ => answer,
    };
    let opts = ReadOptions {
        format: Some(Format::Line),
        kind: Some(puzzle.kind()),
        alphabet: None,
    };
    let grid = match format::read_str(solution, "answer", &opts) {
        Ok(file) => match file.entries.into_iter().next() {
            Some(Ok(entry)) if entry.puzzle.side() == puzzle.side() => Ok(entry.puzzle),
            Some(Ok(entry)) => Err(format!(
                "a grid of side {}, not {}",
                entry.puzzle.side(),
                puzzle.side()
            )),
            Some(Err(e)) => Err(e.to_string()),
            None => Err("an empty answer line".into()),
        },
        Err(e) => Err(e.to_string()),
    };
    PuzzleAnswer {
        outcome: Outcome::new(Status::Sat),
        solutions: grid
            .map(|g| vec![g])
            .map_err(|e| format!("`{}`: {e}", crate::text::escape_controls(answer))),
        complete: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answer_lines_of_each_shape() {
        let puzzle = Puzzle::empty(crate::puzzle::Kind::Latin, 2).unwrap();
        let latin = Puzzle::empty(crate::puzzle::Kind::Latin, 2).unwrap();
        assert_eq!(read_answer(&puzzle, "none").outcome.status, Status::Unsat);
        assert_eq!(read_answer(&puzzle, "x:0:").outcome.status, Status::Unsat);
        assert_eq!(
            read_answer(&puzzle, "error: no").outcome.status,
            Status::Error
        );
        let bare = read_answer(&latin, "1221");
        assert_eq!(bare.outcome.status, Status::Sat);
        let tdoku = read_answer(&latin, "....:1:1221");
        assert_eq!(tdoku.solutions, bare.solutions);
        assert!(read_answer(&latin, "12").solutions.is_err());
        assert!(read_answer(&latin, "hello").solutions.is_err());
    }
}
