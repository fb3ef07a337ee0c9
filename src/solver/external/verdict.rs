//! Turning a finished child into an answer: SAT (with the model), UNSAT, UNKNOWN,
//! TIMEOUT, MEMOUT or ERROR, from what it printed, how it exited and what its adapter
//! says those mean.
//!
//! The rules, in order:
//! 1. A run bench stopped is TIMEOUT (or UNKNOWN when interrupted), whatever it printed:
//!    the output of a process killed mid-write cannot be trusted. The outcome names the
//!    limit: the wall clock's or the CPU time's (RLIMIT_CPU's backstop included).
//! 2. A stdout longer than the cap, or one left unread, is an ERROR: the answer may be cut.
//!    A competition-format answer is read as it arrives instead (the model straight into
//!    an assignment, see `output::CompetitionStream`): the cap bounds only the other lines
//!    kept for messages, and a model of any size is read whole.
//! 3. A SAT or UNSAT answer stands only with the exit code that goes with it and no
//!    signal; otherwise the solver contradicted itself (ERROR).
//! 4. No answer, or UNKNOWN, with the solver's out-of-memory text is MEMOUT.
//! 5. Death by a signal is an ERROR naming the signal.
//! 6. UNKNOWN stands with one of its exit codes; no result line at all is an ERROR, never
//!    UNKNOWN (picosat exits 0 with no `s` line on a parse error).
//!
//! Every ERROR carries the reason and the tail of the solver's stderr.
//!
//! Above these rules stand the run's control group's counters (when it had one): a run
//! that did not end with a SAT or UNSAT answer and whose group reached its memory limit
//! (the OOM killer ended one of its processes, or the limit was hit) is MEMOUT however
//! the solver reported it; forks refused by the process limit are named in the reason.

use crate::cnf::Model;
use crate::solver::output::{
    Claim, OutputError, parse_competition_within, parse_minisat_within, parse_zchaff_within,
};
use crate::solver::{LimitHit, Outcome, Status};

use super::adapters::{Adapter, GENERIC};
use super::run::{Exit, Finished, Stop, signal_name};
use crate::solver::output::OutputFormat;

/// How many lines of stderr (or stdout) an error message quotes, at most.
const TAIL_LINES: usize = 12;
/// And how many bytes.
const TAIL_BYTES: usize = 2000;

/// The answer of a finished run (times and exit code are filled in by the caller).
/// `result_file` is the content of the `{res}` file, for adapters that use one.
pub fn verdict(adapter: &Adapter, done: &Finished, result_file: Option<&[u8]>) -> Outcome {
    let max_var = crate::cnf::MAX_VARS;
    let claim =
        result_file.map(|text| parse_minisat_within(&String::from_utf8_lossy(text), max_var));
    verdict_for(adapter, done, None, claim, max_var)
}

/// [`verdict`] for a formula of `num_vars` variables (a model beyond them is a false
/// claim), with the answer read from stdout as it arrived (`streamed`, when it was) or
/// from the `{res}` file (streamed too).
pub fn verdict_for(
    adapter: &Adapter,
    done: &Finished,
    streamed: Option<Result<Claim, OutputError>>,
    result_file: Option<Result<Claim, OutputError>>,
    num_vars: u32,
) -> Outcome {
    let mut outcome = by_output(adapter, done, streamed, result_file, num_vars);
    let hit = done.limits_hit;
    if done.stopped.is_none()
        && !outcome.status.is_solved()
        && (hit.oom_kills > 0 || hit.mem_limit_hits > 0)
    {
        let how = if hit.oom_kills > 0 {
            format!("the OOM killer ended {} of its processes", hit.oom_kills)
        } else {
            "it could not get more".to_string()
        };
        let mut reason =
            format!("out of memory: the run's processes together reached the memory limit ({how})");
        if let Some(e) = outcome.error.take() {
            reason.push_str(&format!("; the solver: {e}"));
        }
        outcome = Outcome {
            error: Some(reason),
            ..Outcome::new(Status::Memout)
        };
    }
    if hit.forks_refused > 0 && !outcome.status.is_solved() {
        let note = format!(
            "the process limit refused {} forks (a fork bomb?)",
            hit.forks_refused
        );
        note_first(&mut outcome, note);
    }
    outcome
}

/// An answer that came after the timeout is scored as a timeout, as competitions do, and
/// the outcome says it answered late (the model is dropped: a late answer is not checked).
pub fn score_late(outcome: &mut Outcome, timeout: Option<std::time::Duration>) {
    let Some(limit) = timeout else { return };
    if !outcome.status.is_solved() || outcome.wall <= limit {
        return;
    }
    let note = format!(
        "answered {} at {:.3} s, after the {:.3} s timeout: scored as a timeout",
        outcome.status,
        outcome.wall.as_secs_f64(),
        limit.as_secs_f64()
    );
    outcome.status = Status::Timeout;
    outcome.limit = Some(LimitHit::Wall);
    outcome.model = None;
    note_first(outcome, note);
}

/// [`score_late`] for the CPU-time limit: an answer given with more CPU time than the
/// limit (the run ended between two looks at its CPU time) is a timeout at the CPU limit.
pub fn score_late_cpu(outcome: &mut Outcome, cpu_limit: Option<std::time::Duration>) {
    let (Some(limit), Some(cpu)) = (cpu_limit, outcome.cpu) else {
        return;
    };
    if !outcome.status.is_solved() || cpu <= limit {
        return;
    }
    let note = format!(
        "answered {} with {:.3} s of CPU time, past the {:.3} s CPU limit: scored as a timeout",
        outcome.status,
        cpu.as_secs_f64(),
        limit.as_secs_f64()
    );
    outcome.status = Status::Timeout;
    outcome.limit = Some(LimitHit::Cpu);
    outcome.model = None;
    note_first(outcome, note);
}

/// Puts `note` before the outcome's error (if any), the two joined by `; `.
fn note_first(outcome: &mut Outcome, note: String) {
    outcome.error = Some(match outcome.error.take() {
        Some(e) => format!("{note}; {e}"),
        None => note,
    });
}

/// The answer by the rules above, from the output and the exit.
fn by_output(
    adapter: &Adapter,
    done: &Finished,
    streamed: Option<Result<Claim, OutputError>>,
    result_file: Option<Result<Claim, OutputError>>,
    num_vars: u32,
) -> Outcome {
    match done.stopped {
        Some(Stop::Timeout) => return Outcome::timeout(LimitHit::Wall),
        Some(Stop::CpuLimit) => return Outcome::timeout(LimitHit::Cpu),
        Some(Stop::Interrupt) => {
            return Outcome {
                error: Some("interrupted".into()),
                ..Outcome::new(Status::Unknown)
            };
        }
        None => {}
    }
    // An answer read as it arrived saw every byte: the cap cut only the kept text.
    if streamed.is_none() && done.stdout_overflowed() {
        let reason = format!(
            "stdout overflowed: {} bytes, more than the {} bytes bench keeps, so the answer may be cut",
            done.stdout_len,
            done.stdout.len()
        );
        return error(reason, done);
    }
    if !done.stdout_complete {
        return error(
            "stdout was still open after the run (a process escaped its group)".into(),
            done,
        );
    }

    let stdout = String::from_utf8_lossy(&done.stdout);
    let parsed = match (adapter.answer, streamed) {
        (_, Some(streamed)) => streamed,
        (OutputFormat::Competition, None) => parse_competition_within(&stdout, num_vars),
        (OutputFormat::Zchaff, None) => parse_zchaff_within(&stdout, num_vars),
        (OutputFormat::Minisat, None) => result_file.unwrap_or(Err(OutputError::NoResult)),
    };

    let claim = match parsed {
        Ok(Claim::Sat(model)) => return decided(adapter, done, Status::Sat, Some(model)),
        Ok(Claim::Unsat) => return decided(adapter, done, Status::Unsat, None),
        Ok(Claim::Unknown(word)) => Ok(word),
        // SAT with something that is not a model: a false claim (WRONG once checked),
        // not an unreadable answer.
        Err(e) if e.is_false_model() => {
            let mut out = decided(adapter, done, Status::Sat, None);
            if out.status == Status::Sat {
                out.error = Some(format!("the claimed model is not a model: {e}"));
            }
            return out;
        }
        Err(e) => Err(e),
    };

    if let Some(text) = memout_text(adapter, done) {
        return Outcome {
            error: Some(format!("out of memory (`{text}`)")),
            ..Outcome::new(Status::Memout)
        };
    }
    if let Exit::Signal(sig) = done.exit {
        return error(format!("killed by {} ({sig})", signal_name(sig)), done);
    }
    let Exit::Code(code) = done.exit else {
        unreachable!("signals handled above")
    };
    match claim {
        Ok(word) if adapter.exit_unknown.contains(&code) => Outcome {
            error: Some(format!("the solver answered {word}")),
            ..Outcome::new(Status::Unknown)
        },
        Ok(word) => error(
            format!("exit code {code} contradicts the answer {word}"),
            done,
        ),
        Err(OutputError::NoResult) => error(
            format!("no result line in the output (exit code {code})"),
            done,
        ),
        Err(e) => error(format!("unreadable answer: {e} (exit code {code})"), done),
    }
}

/// SAT or UNSAT, if the exit agrees.
fn decided(adapter: &Adapter, done: &Finished, status: Status, model: Option<Model>) -> Outcome {
    let expected = if status == Status::Sat {
        adapter.exit_sat
    } else {
        adapter.exit_unsat
    };
    match done.exit {
        Exit::Code(code) if code == expected => Outcome {
            model,
            ..Outcome::new(status)
        },
        Exit::Code(code) => error(
            format!("exit code {code} contradicts the answer {status} (expected {expected})"),
            done,
        ),
        Exit::Signal(sig) => error(
            format!(
                "answered {status} but was killed by {} ({sig})",
                signal_name(sig)
            ),
            done,
        ),
    }
}

/// The out-of-memory text the solver printed, if any (its own, or the generic ones a
/// failed allocation prints: C++'s `std::bad_alloc`, the loader's ENOMEM message).
fn memout_text(adapter: &Adapter, done: &Finished) -> Option<&'static str> {
    let stderr = String::from_utf8_lossy(&done.stderr_tail);
    let out_tail = &done.stdout[done.stdout.len().saturating_sub(64 << 10)..];
    let stdout = String::from_utf8_lossy(out_tail);
    adapter
        .memout
        .iter()
        .chain(GENERIC.memout)
        .copied()
        .find(|t| stderr.contains(t) || stdout.contains(t))
}

/// An ERROR with `reason` and the tail of stderr (or of stdout when stderr is empty,
/// since some solvers, picosat for one, report errors on stdout).
fn error(reason: String, done: &Finished) -> Outcome {
    let mut message = reason;
    let (label, tail) = if done.stderr_tail.iter().any(|b| !b.is_ascii_whitespace()) {
        ("stderr", tail_text(&done.stderr_tail))
    } else {
        ("stdout", tail_text(&done.stdout))
    };
    if !tail.is_empty() {
        message.push_str(&format!("\n{label} ends with:\n{tail}"));
    }
    Outcome {
        error: Some(message),
        ..Outcome::new(Status::Error)
    }
}

/// Bytes as text: valid UTF-8 as it is, every invalid byte as `\xNN` (a solver's binary
/// output must not turn into replacement characters that hide what it wrote).
pub fn escape_invalid_utf8(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// The last few lines of `bytes`, at most [`TAIL_BYTES`], as text (invalid UTF-8
/// escaped; the CSV writer escapes control characters).
pub fn tail_text(bytes: &[u8]) -> String {
    let text = escape_invalid_utf8(&bytes[bytes.len().saturating_sub(TAIL_BYTES)..]);
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let keep = &lines[lines.len().saturating_sub(TAIL_LINES)..];
    keep.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::external::adapters::adapter;
    use std::time::Duration;

    fn finished(exit: Exit, stdout: &str, stderr: &str) -> Finished {
        Finished {
            exit,
            stopped: None,
            stdout: stdout.as_bytes().to_vec(),
            stdout_len: stdout.len() as u64,
            stdout_complete: true,
            stderr_tail: stderr.as_bytes().to_vec(),
            wall: Duration::ZERO,
            cpu: None,
            max_rss_kb: None,
            limits_hit: Default::default(),
            containment: crate::solver::external::run::Kind::ProcessGroup,
        }
    }

    #[test]
    fn a_late_answer_is_a_timeout_that_says_so() {
        let mut o = Outcome::new(Status::Unsat);
        o.wall = Duration::from_millis(10_350);
        score_late(&mut o, Some(Duration::from_secs(10)));
        assert_eq!(o.status, Status::Timeout);
        assert_eq!(
            o.error.as_deref(),
            Some("answered UNSAT at 10.350 s, after the 10.000 s timeout: scored as a timeout")
        );
        let mut o = Outcome::new(Status::Sat);
        o.wall = Duration::from_millis(9_990);
        score_late(&mut o, Some(Duration::from_secs(10)));
        assert_eq!(o.status, Status::Sat);
    }

    #[test]
    fn competition_answers() {
        let kissat = adapter("kissat").unwrap();
        let sat = verdict(
            kissat,
            &finished(Exit::Code(10), "s SATISFIABLE\nv 1 -2 0\n", ""),
            None,
        );
        assert_eq!(sat.status, Status::Sat);
        assert_eq!(sat.model.unwrap().len(), 2);
        let unsat = verdict(
            kissat,
            &finished(Exit::Code(20), "s UNSATISFIABLE\n", ""),
            None,
        );
        assert_eq!(unsat.status, Status::Unsat);
        // exit code that contradicts the output
        let bad = verdict(
            kissat,
            &finished(Exit::Code(0), "s UNSATISFIABLE\n", ""),
            None,
        );
        assert_eq!(bad.status, Status::Error);
        assert!(bad.error.unwrap().contains("exit code 0"));
        let unknown = verdict(kissat, &finished(Exit::Code(0), "s UNKNOWN\n", ""), None);
        assert_eq!(unknown.status, Status::Unknown);
    }

    #[test]
    fn failures() {
        let picosat = adapter("picosat").unwrap();
        // picosat's parse error: stdout, exit 0, no s line
        let e = verdict(
            picosat,
            &finished(Exit::Code(0), "*** picosat: line 3: invalid\n", ""),
            None,
        );
        assert_eq!(e.status, Status::Error);
        assert!(e.error.as_deref().unwrap().contains("invalid"), "{e:?}");
        let seg = verdict(picosat, &finished(Exit::Signal(11), "", "boom\n"), None);
        assert_eq!(seg.status, Status::Error);
        assert!(seg.error.as_deref().unwrap().contains("SIGSEGV"));
        assert!(seg.error.as_deref().unwrap().contains("boom"));
        let oom = verdict(
            picosat,
            &finished(Exit::Signal(6), "", "*** picosat: out of memory in 'new'\n"),
            None,
        );
        assert_eq!(oom.status, Status::Memout);
        let mut t = finished(Exit::Signal(15), "s SATISFIABLE\nv 1 0\n", "");
        t.stopped = Some(Stop::Timeout);
        assert_eq!(verdict(picosat, &t, None).status, Status::Timeout);
    }

    #[test]
    fn minisat_result_file() {
        let minisat = adapter("minisat").unwrap();
        let done = finished(Exit::Code(10), "SATISFIABLE\n", "");
        let sat = verdict(minisat, &done, Some(b"SAT\n1 -2 0\n"));
        assert_eq!(sat.status, Status::Sat);
        // a failed allocation: INDETERMINATE on stdout, empty result file, exit 0
        let done = finished(Exit::Code(0), "=====\nINDETERMINATE\n", "");
        assert_eq!(verdict(minisat, &done, Some(b"")).status, Status::Memout);
        // parse error: exit 3, empty result file
        let done = finished(Exit::Code(3), "PARSE ERROR! Unexpected char: x\n", "");
        assert_eq!(verdict(minisat, &done, Some(b"")).status, Status::Error);
    }

    #[test]
    fn zchaff_always_exits_zero() {
        let zchaff = adapter("zchaff").unwrap();
        let out = "Instance Satisfiable\n1 -2 Random Seed Used\t0\nRESULT:\tSAT\n";
        assert_eq!(
            verdict(zchaff, &finished(Exit::Code(0), out, ""), None).status,
            Status::Sat
        );
        let out = "RESULT:\tABORT : MEM OUT\n";
        assert_eq!(
            verdict(zchaff, &finished(Exit::Code(0), out, ""), None).status,
            Status::Memout
        );
        let out = "RESULT:\tABORT : TIME OUT\n";
        assert_eq!(
            verdict(zchaff, &finished(Exit::Code(0), out, ""), None).status,
            Status::Unknown
        );
        assert_eq!(
            verdict(zchaff, &finished(Exit::Signal(6), "", ""), None).status,
            Status::Error
        );
    }

    #[test]
    fn a_model_that_is_no_model_is_a_sat_claim_without_a_model() {
        let kissat = adapter("kissat").unwrap();
        for out in [
            "s SATISFIABLE\nv 1 -1 2 0\n",
            "v 2147483648 0\ns SATISFIABLE\n",
        ] {
            let o = verdict(kissat, &finished(Exit::Code(10), out, ""), None);
            assert_eq!(o.status, Status::Sat, "{out}: {:?}", o.error);
            assert!(o.model.is_none());
            assert!(o.error.unwrap().contains("not a model"));
        }
        let beyond = verdict_for(
            kissat,
            &finished(Exit::Code(10), "s SATISFIABLE\nv 1 2000000000 0\n", ""),
            None,
            None,
            2,
        );
        assert_eq!(beyond.status, Status::Sat);
        assert!(beyond.model.is_none());
        let minisat = adapter("minisat").unwrap();
        let done = finished(Exit::Code(10), "SATISFIABLE\n", "");
        let o = verdict(minisat, &done, Some(b"SAT\n1 -1 0\n"));
        assert_eq!((o.status, o.model.is_none()), (Status::Sat, true));
    }

    #[test]
    fn binary_output_is_escaped() {
        assert_eq!(escape_invalid_utf8(b"ok \xff\xfe end"), "ok \\xff\\xfe end");
        assert_eq!(tail_text("é\n".as_bytes()), "é");
    }

    #[test]
    fn group_counters_make_memout_whatever_the_text() {
        let kissat = adapter("kissat").unwrap();
        let mut done = finished(Exit::Signal(9), "", "");
        done.limits_hit.grouped = true;
        done.limits_hit.oom_kills = 1;
        let out = verdict(kissat, &done, None);
        assert_eq!(out.status, Status::Memout, "{:?}", out.error);
        // A clean answer stands even if a helper process was ended.
        let mut done = finished(Exit::Code(10), "s SATISFIABLE\nv 1 0\n", "");
        done.limits_hit.oom_kills = 1;
        assert_eq!(verdict(kissat, &done, None).status, Status::Sat);
        let mut done = finished(Exit::Code(1), "", "Traceback\nMemoryError\n");
        assert_eq!(verdict(kissat, &done, None).status, Status::Memout);
        done.stderr_tail = b"fork: Resource temporarily unavailable".to_vec();
        done.limits_hit.forks_refused = 7;
        let out = verdict(kissat, &done, None);
        assert_eq!(out.status, Status::Error);
        assert!(out.error.unwrap().contains("refused 7 forks"));
    }
}
