//! `bench solve`: one CNF in the SAT-competition format (so any harness can run bench as
//! it runs minisat), or every puzzle of a puzzle file (each solved grid under a comment
//! line naming its instance, so the output reads back as a corpus). Every SAT answer is
//! checked before it is printed; a wrong model is never passed on as SAT. A reader that
//! closes the pipe early (`bench solve … | head`) ends the command quietly, with the exit
//! status of a filter killed by SIGPIPE.
//!
//! The input is a file, `-` (standard input), a pipe or a FIFO, each read once, or the
//! puzzle itself given as the argument when no file has that name (see [`Given`]).

use std::io::{self, Write};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::bail;

use crate::check::{Reading, check_model, check_puzzle_model, read_grids};
use crate::cli::{SolveArgs, SolverLookupArgs};
use crate::cnf::Cnf;
use crate::cnf::budget::ReadLimits;
use crate::cnf::dimacs::{ParseOptions, looks_like_dimacs_input, read_input_within};
use crate::cnf::input::{Input, is_stdin};
use crate::encode::encode;
use crate::encode::header::BenchHeader;
use crate::encode::watched::Watched;
use crate::puzzle::format;
use crate::run::skip::Skip;
use crate::solver::output::{competition_exit_code, write_competition};
use crate::solver::{LimitHit, Limits, Outcome, Solver, Status, by_name, dedicated};

/// The exit status after the reader closed stdout: 128 + SIGPIPE, as a shell reports a
/// filter that SIGPIPE ended.
pub const CLOSED_PIPE_EXIT: i32 = 128 + 13;

pub(super) fn run(args: SolveArgs) -> anyhow::Result<i32> {
    match solve(args) {
        Err(e) if closed_pipe(&e) => Ok(CLOSED_PIPE_EXIT),
        other => other,
    }
}

/// True if `e` is a write to a stdout whose reader has gone.
fn closed_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// What `bench solve` was given: an input opened (a file, standard input, a pipe), with the
/// name its instances take, or the puzzle itself as text.
enum Given {
    Cnf(Input, String),
    Puzzles(Input, String),
    Text(String),
}

impl Given {
    /// Opens `path` once: a DIMACS input by its name or first bytes, else puzzles. An
    /// argument that names nothing and reads as puzzles (at least 16 symbols, no `/`) is
    /// the puzzle text itself.
    fn open(path: &Path, read: &format::ReadOptions) -> anyhow::Result<Given> {
        let name = if is_stdin(path) {
            "stdin".to_string()
        } else {
            path.display().to_string()
        };
        let input = match Input::open(path) {
            Ok(input) => input,
            Err(e) => {
                let text = path.to_string_lossy();
                if e.kind() == io::ErrorKind::NotFound && may_be_puzzle_text(&text) {
                    let read = format::read_str(&text, "puzzle", read);
                    if read.is_ok_and(|f| f.entries.iter().any(Result::is_ok)) {
                        return Ok(Given::Text(text.into_owned()));
                    }
                }
                bail!("{name}: {e}")
            }
        };
        Ok(if looks_like_dimacs_input(path, &input) {
            Given::Cnf(input, name)
        } else {
            Given::Puzzles(input, name)
        })
    }
}

/// True when `text` could be puzzles written out (symbols, blanks, spaces and the line
/// format's separators, 16 of them at least, the fewest of a 4×4 puzzle) rather than a
/// path (no `/`).
fn may_be_puzzle_text(text: &str) -> bool {
    text.chars().filter(|c| !c.is_whitespace()).count() >= 16
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c.is_whitespace() || ".,:|-+*".contains(c))
}

fn solve(args: SolveArgs) -> anyhow::Result<i32> {
    let Some(path) = args.file.clone() else {
        return super::serve::run(&args);
    };
    let read = super::read_options(&args.input)?;
    let given = Given::open(&path, &read)?;
    let is_cnf = matches!(given, Given::Cnf(..));
    // Puzzles go to the dedicated solver unless a solver is named; a CNF to native.
    let named = args
        .solver
        .clone()
        .unwrap_or_else(|| if is_cnf { "native" } else { dedicated::NAME }.to_string());
    if named == dedicated::NAME && is_cnf {
        bail!(
            "{} solves puzzles, not CNF formulas: name a SAT solver (--solver native)",
            dedicated::NAME
        );
    }
    // `NAME=cmd` is a command; `native:key=value` is a configuration.
    let (name, commands) = match named.split_once('=') {
        Some((name, _)) if !name.contains(':') => (name.to_string(), vec![named.clone()]),
        _ if named == dedicated::NAME => ("native".to_string(), Vec::new()),
        _ => (named.clone(), Vec::new()),
    };
    let config = super::solver_config(&SolverLookupArgs {
        paths: args.paths.clone(),
        solver_cmd: commands,
        puzzle_solver_cmd: Vec::new(),
    })?;
    let solver = by_name(&name, &config)?;
    let (timeout, cpu_limit) = time_limits(&args.limits)?;
    let limits = Limits {
        timeout,
        cpu_limit,
        mem_limit_mb: args.limits.mem_limit,
        interrupt: Some(Arc::new(AtomicBool::new(false))),
        proof: args.proof.clone(),
        binary_proof: args.binary_proof,
        seed: 0,
    };
    let by = if named == dedicated::NAME {
        By::Dedicated {
            fallback: args.solver.is_none(),
        }
    } else {
        By::Sat
    };
    let (file, name) = match given {
        Given::Cnf(input, name) => return solve_cnf(input, &name, solver.as_ref(), &limits),
        Given::Puzzles(input, name) => (format::read_input(input, &name, &read)?, name),
        Given::Text(text) => (format::read_str(&text, "puzzle", &read)?, "puzzle".into()),
    };
    solve_puzzles(&args, (&file, &name), solver.as_ref(), &limits, by)
}

/// The wall and CPU limits of `bench solve`: none unless one is given, then `bench run`'s
/// convention (`RunLimits`: a CPU limit alone brings a wall limit of 2 × C + 10 s).
fn time_limits(
    given: &crate::cli::LimitArgs,
) -> anyhow::Result<(Option<Duration>, Option<Duration>)> {
    if !given.timed() {
        return Ok((None, None));
    }
    let limits = given
        .run_limits()
        .map_err(|e| anyhow::anyhow!("the limits: {e}"))?;
    Ok((Some(limits.wall()), limits.cpu()))
}

fn solve_cnf(
    input: Input,
    name: &str,
    solver: &dyn Solver,
    limits: &Limits,
) -> anyhow::Result<i32> {
    let dimacs = read_input_within(input, name, ParseOptions::default(), &ReadLimits::default())?;
    let header = dimacs
        .bench_header
        .as_deref()
        .and_then(|h| BenchHeader::parse(h).ok());
    let mut outcome = solver.solve(&dimacs.cnf, limits);
    let mut out = io::stdout().lock();
    writeln!(out, "c solver: {}", solver.name())?;
    let (wrong, solved) = verify(&dimacs.cnf, header.as_ref(), &mut outcome);
    write_times(&mut out, &outcome)?;
    if let Some(hit) = outcome.limit {
        writeln!(out, "c stopped at the {}", limit_words(hit, limits))?;
    }
    write_competition(&mut out, &outcome, dimacs.cnf.num_vars())?;
    if let Some(solved) = solved {
        let mut grid = Vec::new();
        format::write(&mut grid, &solved, format::Format::Grid)?;
        for line in String::from_utf8_lossy(&grid)
            .lines()
            .filter(|l| !l.is_empty())
        {
            writeln!(out, "c {line}")?;
        }
    }
    Ok(if wrong {
        1
    } else {
        competition_exit_code(outcome.status)
    })
}

/// Checks a SAT outcome's model; a wrong one turns the outcome into an ERROR (so it is
/// never printed as SAT). Returns whether the model was wrong, and the grids of a puzzle
/// it solves.
fn verify(
    cnf: &Cnf,
    header: Option<&BenchHeader>,
    outcome: &mut Outcome,
) -> (bool, Option<crate::puzzle::Puzzle>) {
    if outcome.status != Status::Sat {
        return (false, None);
    }
    let result = match (&outcome.model, header) {
        (None, _) => Err("SAT without a model".to_string()),
        (Some(m), Some(h)) => match check_puzzle_model(cnf, &h.puzzle, m) {
            Ok(Reading::Solved(grids)) => Ok(Some(grids)),
            // The solver answered the formula right; the formula is what is loose.
            Ok(Reading::Open(e)) => {
                eprintln!(
                    "bench: the model satisfies every clause, but the formula leaves the \
                     puzzle open: {e} (a fact about the {} encoding, not the solver)",
                    h.opts.encoding
                );
                Ok(None)
            }
            Err(e) => Err(e.to_string()),
        },
        (Some(m), None) => check_model(cnf, m)
            .map(|()| None)
            .map_err(|e| e.to_string()),
    };
    match result {
        Ok(solved) => (false, solved),
        Err(e) => {
            outcome.status = Status::Error;
            outcome.error = Some(format!("model-wrong: {e}"));
            outcome.model = None;
            (true, None)
        }
    }
}

fn write_times(out: &mut dyn Write, outcome: &Outcome) -> io::Result<()> {
    let secs = |d: Duration| crate::report::table::seconds(d.as_secs_f64());
    writeln!(out, "c wall time: {} s", secs(outcome.wall))?;
    if let Some(cpu) = outcome.cpu {
        writeln!(out, "c cpu time: {} s", secs(cpu))?;
    }
    if let Some(rss) = outcome.max_rss_kb {
        writeln!(out, "c max rss: {rss} KiB")?;
    }
    Ok(())
}

/// The limit that ended a solve, in words: `CPU-time limit (--cpu-limit 0.5 s)`.
fn limit_words(hit: LimitHit, limits: &Limits) -> String {
    let secs = |d: Option<Duration>| {
        d.map_or("-".into(), |d| {
            crate::results::format_seconds(d.as_secs_f64())
        })
    };
    match hit {
        LimitHit::Cpu => format!("CPU-time limit (--cpu-limit {} s)", secs(limits.cpu_limit)),
        LimitHit::Wall => format!("wall-clock limit (--timeout {} s)", secs(limits.timeout)),
        LimitHit::Memory => "memory limit (--mem-limit)".to_string(),
    }
}

/// Who solves the puzzles of `bench solve`.
#[derive(Clone, Copy, Debug)]
enum By {
    /// The dedicated solver; with `fallback` (it was not named) a shape it does not take
    /// goes to the SAT solver instead.
    Dedicated { fallback: bool },
    /// The SAT solver, through the encoding.
    Sat,
}

/// How a puzzle file is written back, and where each answer goes.
struct Output<'a> {
    out: io::StdoutLock<'a>,
    format: format::Format,
    alphabet: Option<&'a crate::puzzle::symbols::Alphabet>,
}

fn solve_puzzles(
    args: &SolveArgs,
    (file, name): (&format::PuzzleFile, &str),
    solver: &dyn Solver,
    limits: &Limits,
    by: By,
) -> anyhow::Result<i32> {
    let read = super::read_options(&args.input)?;
    let mut out = Output {
        out: io::stdout().lock(),
        format: file.format,
        alphabet: read.alphabet.as_ref(),
    };
    let mut failures = 0;
    let mut bad = Vec::new();
    for entry in &file.entries {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                bad.push(Skip::from(e.clone()));
                failures += 1;
                continue;
            }
        };
        // The instance id, as `bench run` names it: the file name and the line.
        let place = format!("{}:{}", file_name(Path::new(name)), entry.line);
        let solved = match by {
            By::Dedicated { fallback } if !fallback || dedicated::supports(&entry.puzzle) => {
                solve_dedicated(entry, &place, limits, &mut out)?
            }
            _ => solve_sat(args, entry, &place, solver, limits, &mut out)?,
        };
        if !solved {
            failures += 1;
        }
    }
    // A fault repeated on many lines is said once.
    for line in crate::run::skip::summarise(&bad) {
        eprintln!("{}", crate::text::terminal(&line));
    }
    Ok(if failures > 0 { 1 } else { 0 })
}

/// Solves one puzzle with the dedicated solver; every solution it prints was checked.
/// Returns whether it was solved.
fn solve_dedicated(
    entry: &format::Entry,
    place: &str,
    limits: &Limits,
    out: &mut Output<'_>,
) -> anyhow::Result<bool> {
    let clocks = crate::solver::Clocks::starting_now(limits.timeout, limits.cpu_limit);
    let interrupt = limits.interrupt.as_deref();
    let answer = match dedicated::solve_within(
        &entry.puzzle,
        gridsolve::Limit::first(),
        clocks,
        interrupt,
    ) {
        Ok(a) => a,
        Err(e) => {
            writeln!(out.out, "# {place}: ERROR {e}")?;
            if matches!(e, dedicated::DedicatedError::Wrong(_)) {
                eprintln!("{}", crate::text::terminal(&format!("{place}: {e}")));
            }
            return Ok(false);
        }
    };
    match (answer.status, answer.solutions.first()) {
        (gridsolve::Status::Solved, Some(solved)) => {
            writeln!(out.out, "# {place}")?;
            format::write_in(&mut out.out, solved, out.format, out.alphabet)?;
            Ok(true)
        }
        (gridsolve::Status::NoSolution, _) => {
            no_solution(out, place, entry)?;
            Ok(false)
        }
        _ => {
            match clocks.passed() {
                Some(hit) => writeln!(
                    out.out,
                    "# {place}: TIMEOUT at the {}",
                    limit_words(hit, limits)
                )?,
                None => writeln!(out.out, "# {place}: TIMEOUT")?,
            }
            Ok(false)
        }
    }
}

/// The line for a puzzle without solution.
fn no_solution(out: &mut Output<'_>, place: &str, entry: &format::Entry) -> io::Result<()> {
    match &entry.clash {
        Some(why) => writeln!(out.out, "# {place}: no solution (the givens clash: {why})"),
        None => writeln!(out.out, "# {place}: no solution"),
    }
}

/// Solves one puzzle with a SAT solver through the encoding; the model is checked and
/// decoded. Returns whether it was solved.
fn solve_sat(
    args: &SolveArgs,
    entry: &format::Entry,
    place: &str,
    solver: &dyn Solver,
    limits: &Limits,
    out: &mut Output<'_>,
) -> anyhow::Result<bool> {
    let opts = crate::encode::EncodeOptions {
        encoding: args.encoding,
        amo: args.amo,
    };
    if let Some((reason, _)) = crate::run::unit::too_big(&entry.puzzle, opts, args.limits.mem_limit)
    {
        writeln!(out.out, "# {place}: MEMOUT {reason}")?;
        return Ok(false);
    }
    {
        let start = std::time::Instant::now();
        let deadline = limits.timeout.and_then(|t| start.checked_add(t));
        let interrupt = limits.interrupt.as_deref();
        let mut cnf = Cnf::new(0);
        let mut watched = Watched::new(&mut cnf, deadline, interrupt);
        let vars = encode(&entry.puzzle, opts, &mut watched);
        if watched.stop().is_some() {
            let why = "the formula was not ready within the time limit";
            writeln!(out.out, "# {place}: TIMEOUT {why}")?;
            return Ok(false);
        }
        cnf.ensure_vars(vars);
        let header = BenchHeader {
            puzzle: entry.puzzle.clone(),
            opts,
        };
        let mut outcome = solver.solve(&cnf, limits);
        let (wrong, _) = verify(&cnf, Some(&header), &mut outcome);
        if wrong {
            let line = format!("{place}: {} gave a wrong model", solver.name());
            eprintln!("{}", crate::text::terminal(&line));
        }
        match (outcome.status, &outcome.model) {
            (Status::Sat, Some(model)) => match read_grids(&cnf, &entry.puzzle, model) {
                Reading::Solved(solved) => {
                    writeln!(out.out, "# {place}")?;
                    format::write_in(&mut out.out, &solved, out.format, out.alphabet)?;
                    Ok(true)
                }
                Reading::Open(e) => {
                    writeln!(
                        out.out,
                        "# {place}: the formula leaves the puzzle open: {e}"
                    )?;
                    Ok(false)
                }
            },
            (Status::Unsat, _) => {
                no_solution(out, place, entry)?;
                Ok(false)
            }
            (status, _) => {
                let why = match outcome.limit {
                    Some(hit @ (LimitHit::Cpu | LimitHit::Wall)) => {
                        format!("at the {}", limit_words(hit, limits))
                    }
                    _ => outcome.error.clone().unwrap_or_default(),
                };
                writeln!(out.out, "# {place}: {status} {why}")?;
                Ok(false)
            }
        }
    }
}

/// A path's file name (the whole path when it has none).
fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}
