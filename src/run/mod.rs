//! `bench run`: the benchmark. Corpora become a plan of runs (instance × encoding ×
//! solver × repetition), executed in parallel by a fixed set of workers that take the runs
//! in plan order; every answer is checked and every finished run is appended to
//! `results.csv` at once, so a killed bench loses nothing that finished and `--resume`
//! runs only what is missing.
//!
//! Each instance's encoding is built once, when its first run starts, shared by all its
//! solvers, and dropped when its last run ends, so memory holds only the formulas in
//! flight. Solvers are rotated from one instance to the next, so that with several jobs
//! every solver shares the machine with every other, and none always runs first.

mod attempt;
pub mod corpus;
mod dedicated;
pub mod exec;
mod execute;
pub mod finished;
pub mod incremental;
pub mod limits;
pub mod lock;
pub mod meta;
pub mod plan;
mod prepare;
pub mod progress;
pub mod proof;
pub mod ranges;
pub mod record;
mod row;
pub mod shard;
pub mod skip;
pub mod solutions;
mod task;
pub(crate) mod unit;
mod walk;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::SystemTime;

use anyhow::bail;

use crate::encode::Encoding;
use crate::results::{self, Row};
use crate::text::terminal;

/// Where and how this process runs a plan: nothing here decides the runs (the plan
/// does, [`plan::Plan`]), so nothing here is in the fingerprint.
#[derive(Clone, Debug, Default)]
pub struct Placement {
    /// The folder the plan's relative paths are relative to.
    pub cwd: PathBuf,
    /// Output folder (None: a new one under `reports/`).
    pub out: Option<PathBuf>,
    /// Resume the run in this folder.
    pub resume: Option<PathBuf>,
    /// Run only this part of the plan (`--shard K/N`).
    pub shard: Option<shard::Shard>,
    /// Where the workers run (`--cores`, `--allow-siblings`).
    pub cores: crate::machine::CoreChoice,
    /// Refuse to start unless the plan has this fingerprint (a study's, or the one a
    /// resumed run recorded): the corpus or the options changed since.
    pub expected_fingerprint: Option<String>,
    /// The command line as typed, for run.json (never parsed again).
    pub command_line: Vec<String>,
}

impl Placement {
    /// A new run of a plan made in `cwd`, into `out` (None: a new folder).
    pub fn new(cwd: PathBuf, out: Option<PathBuf>) -> Placement {
        Placement {
            cwd,
            out,
            command_line: std::env::args().collect(),
            ..Placement::default()
        }
    }
}

/// True when `pruned` is among several encodings. `pruned` has no session (its givens are
/// in its clauses), so the plan then runs every encoding fresh: encodings are compared
/// within one mode by default.
pub fn pruned_among_others(encodings: &[Encoding]) -> bool {
    encodings.len() > 1 && encodings.contains(&Encoding::Pruned)
}

/// What a finished (or interrupted) run leaves.
#[derive(Debug)]
pub struct RunSummary {
    /// The output folder.
    pub out_dir: PathBuf,
    /// Every row of results.csv (earlier rows of a resumed run included).
    pub rows: Vec<Row>,
    /// Inputs left out.
    pub skipped: Vec<skip::Skip>,
    /// What the summary notes: inputs left out, inputs run under another name.
    pub notes: Vec<String>,
    /// Ctrl-C stopped the run early.
    pub interrupted: bool,
}

impl RunSummary {
    /// The number of wrong answers.
    pub fn wrong(&self) -> usize {
        self.rows.iter().filter(|r| r.wrong).count()
    }
}

/// Set once a run's tasks start. A stop (Ctrl-C, SIGTERM) before then, while the corpus is
/// read and hashed and the plan made, has no row to keep and no solver to stop, so bench
/// ends at once rather than after reading a large or endless input.
pub static TASKS_STARTED: AtomicBool = AtomicBool::new(false);

/// Runs the benchmark: the plan made ready ([`prepare`]), its runs executed in parallel
/// ([`execute`]), the results finished ([`finish`]). `interrupt` is set by Ctrl-C: running
/// solvers are stopped, their runs are not recorded (a resume redoes them), and the
/// summary covers what finished. The report is the command's to draw.
pub fn run(
    plan: &plan::Plan,
    at: &Placement,
    interrupt: Arc<AtomicBool>,
) -> anyhow::Result<RunSummary> {
    let prepared = prepare::prepare(plan, at)?;
    TASKS_STARTED.store(true, Ordering::SeqCst);
    let executed = execute::execute(plan, &prepared, &interrupt)?;
    // Under --strict a malformed input is fatal: no run starts after it is found, the rows
    // already made are kept, and the run ends with an error naming it.
    let fatal = plan
        .strict
        .then(|| executed.failures.values().next().cloned())
        .flatten();
    let summary = finish(prepared, executed, interrupt.load(Ordering::Relaxed))?;
    if let Some(why) = fatal {
        bail!(
            "{why} (--strict: the run stopped here; the rows made are in {})",
            summary.out_dir.join("results.csv").display()
        );
    }
    Ok(summary)
}

/// bench's own CPU per run, ms: this process's CPU and that of every child it waited for
/// (exec helpers, and through them the solvers and proof checkers), less the solvers' CPU
/// (`count_cpu_s` of a counting row, which holds its first solve, else `cpu_s`) and the
/// proof checkers' (`check_s`), over the rows.
fn overhead_per_run(rows: &[results::Row]) -> Option<f64> {
    let tree = [libc::RUSAGE_SELF, libc::RUSAGE_CHILDREN]
        .into_iter()
        .map(|who| {
            // SAFETY: rusage is plain data that getrusage fills in.
            let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
            // SAFETY: plain syscall.
            unsafe { libc::getrusage(who, &mut usage) };
            sandbox::reap::cpu_time(&usage).as_secs_f64()
        })
        .sum::<f64>();
    let solvers: f64 = rows
        .iter()
        .flat_map(|r| [r.count_cpu_s.or(r.cpu_s), r.check_s])
        .flatten()
        .sum();
    (!rows.is_empty()).then(|| (tree - solvers).max(0.0) / rows.len() as f64 * 1000.0)
}

/// Finishes the run: the inputs that could not be built join the skipped, the rows old
/// and new are judged together (an UNSAT against a verified model of this run or an
/// earlier one), and run.json records the end.
fn finish(
    mut prepared: prepare::Prepared,
    executed: execute::Executed,
    interrupted: bool,
) -> anyhow::Result<RunSummary> {
    let failed: Vec<skip::Skip> = executed
        .failures
        .into_values()
        .map(skip::Skip::said)
        .collect();
    for line in skip::summarise(&failed) {
        eprintln!("bench: skipped {}", terminal(&line));
    }
    prepared.skipped.extend(failed);
    let not_started: usize = executed.not_started.values().sum();
    for (why, n) in &executed.not_started {
        let note = format!(
            "{n} run(s) not started, the machine's failure and not the solver's ({why}): \
             not recorded; `bench run --resume {}` runs them",
            prepared.out_dir.display()
        );
        eprintln!("bench: {}", terminal(&note));
        prepared.notes.push(note);
    }
    // The summary's rows are results.csv's as every reader sees them (cross-checked, times
    // as written), so that `bench report` on the file gives every figure of the run's own
    // report. Rows kept in memory (unrounded) would not.
    let resumed = !prepared.earlier.is_empty();
    drop((prepared.earlier, executed.rows));
    let rows = results::read_rows(&prepared.out_dir.join("results.csv"), false)?;
    if !prepared.record_kept {
        if let Some(e) = prepared.record.execution.as_mut() {
            if !resumed && !interrupted {
                e.overhead_cpu_ms_per_run = overhead_per_run(&rows);
                if let Some(ms) = e.overhead_cpu_ms_per_run {
                    eprintln!("bench: bench's overhead per run: {ms:.2} ms CPU");
                }
            }
            e.end = Some(meta::utc_stamps(SystemTime::now()).0);
            e.load_end = meta::LoadAverage::now();
            e.skipped_inputs = prepared.skipped.len();
            e.interrupted = interrupted;
            e.not_started = not_started;
        }
        record::write(&prepared.out_dir, &prepared.record)?;
    }
    Ok(RunSummary {
        out_dir: prepared.out_dir,
        rows,
        notes: prepared
            .notes
            .iter()
            .cloned()
            .chain(skip::summarise(&prepared.skipped))
            .chain(prepared.duplicates.iter().cloned())
            .collect(),
        skipped: prepared.skipped,
        interrupted,
    })
}
