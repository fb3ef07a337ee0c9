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

pub mod corpus;
pub mod exec;
pub mod incremental;
pub mod lock;
pub mod meta;
pub mod plan;
pub mod progress;
pub mod record;

pub mod shard;
pub mod solutions;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use anyhow::{Context, bail};

use crate::cnf::Cnf;
use crate::cnf::budget::{ReadLimits, machine_budget};
use crate::cnf::dimacs::{DimacsError, ParseOptions, read_path_within};
use crate::encode::header::BenchHeader;
use crate::encode::{Amo, EncodeOptions, Encoding, encode};
use crate::judge::{self, Verdict};
use crate::puzzle::Puzzle;
use crate::puzzle::format::ReadOptions;
use crate::report::{ReportOptions, score, write_report};
use crate::results::{self, Check, ResultsWriter, Row};
use crate::solver::{DratFormat, Limits, Solver, SolverConfig, Status, by_name};
use corpus::{Corpus, Instance, Source};
use exec::Built;

/// Everything `bench run` needs: the plan, and where and how this process runs it. The
/// typed fields below the plan are the plan's own values, ready to use.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The plan (what run.json records and the fingerprint covers).
    pub plan: plan::Plan,
    /// The folder the plan's relative paths are relative to.
    pub cwd: PathBuf,
    /// Puzzle files, DIMACS files and folders, as named.
    pub corpora: Vec<PathBuf>,
    /// Solver names, in order.
    pub solvers: Vec<String>,
    /// Encodings for puzzle instances.
    pub encodings: Vec<Encoding>,
    /// The at-most-one sub-encoding.
    pub amo: Amo,
    /// Per-run wall-clock limit.
    pub timeout: Duration,
    /// Parallel runs.
    pub jobs: usize,
    /// Repetitions of each run.
    pub repeat: u32,
    /// Output folder (None: a new one under `reports/`).
    pub out: Option<PathBuf>,
    /// Resume the run in this folder.
    pub resume: Option<PathBuf>,
    /// Memory limit for external solvers, MiB.
    pub mem_limit_mb: Option<u64>,
    /// Ask solvers that can for DRAT proofs and check UNSAT answers with `rate`.
    pub proofs: bool,
    /// Where to find solvers.
    pub config: SolverConfig,
    /// Seed for randomised solvers.
    pub seed: u64,
    /// 2: after a SAT answer on a puzzle, solve again with the solution blocked.
    pub count: u32,
    /// A malformed input stops the run instead of being skipped.
    pub strict: bool,
    /// Keep the solved grids under `solutions/` (see [`solutions`]).
    pub solutions: bool,
    /// How puzzle files are read.
    pub read: ReadOptions,
    /// In-process solvers solve puzzles in a session per worker and encoding, the givens
    /// as assumptions (see [`incremental`]); false: one fresh formula per puzzle.
    pub incremental: bool,
    /// The command line as typed, for run.json (never parsed again).
    pub command_line: Vec<String>,
    /// Run only this part of the plan (`--shard K/N`).
    pub shard: Option<shard::Shard>,
    /// Refuse to start unless the plan has this fingerprint (a study's, or the one a
    /// resumed shard recorded): the corpus or the options changed since.
    pub expected_fingerprint: Option<String>,
}

impl RunOptions {
    /// The options of `plan`, made in `cwd`; where it runs is set by the caller.
    pub fn new(plan: plan::Plan, cwd: PathBuf, command_line: Vec<String>) -> RunOptions {
        RunOptions {
            corpora: plan.corpora.clone(),
            solvers: plan.solvers.clone(),
            encodings: plan.encodings.clone(),
            amo: plan.amo,
            timeout: plan.timeout(),
            jobs: plan.jobs,
            repeat: plan.repeat,
            out: None,
            resume: None,
            mem_limit_mb: plan.mem_limit_mb,
            proofs: plan.proofs,
            config: plan.solver_config(),
            seed: plan.seed,
            count: plan.count,
            strict: plan.strict,
            solutions: plan.solutions,
            read: plan.read_options(),
            incremental: plan.incremental,
            command_line,
            shard: None,
            expected_fingerprint: None,
            plan,
            cwd,
        }
    }
}

/// What a finished (or interrupted) run leaves.
#[derive(Debug)]
pub struct RunSummary {
    /// The output folder.
    pub out_dir: PathBuf,
    /// Every row of results.csv (earlier rows of a resumed run included).
    pub rows: Vec<Row>,
    /// Inputs left out.
    pub skipped: Vec<String>,
    /// Ctrl-C stopped the run early.
    pub interrupted: bool,
}

impl RunSummary {
    /// The number of wrong answers.
    pub fn wrong(&self) -> usize {
        self.rows.iter().filter(|r| r.wrong).count()
    }
}

/// One instance under one encoding: built on first use, dropped after its last run.
struct Unit {
    instance: usize,
    /// None for DIMACS input.
    encoding: Option<EncodeOptions>,
    state: Mutex<UnitState>,
    remaining: AtomicUsize,
}

enum UnitState {
    Pending,
    Ready(Arc<Built>),
    Failed(BuildError),
    Done,
}

/// Why an instance could not be built.
#[derive(Clone, Debug)]
enum BuildError {
    /// Unreadable or malformed: the input is skipped.
    Bad(String),
    /// Too big to hold in memory: every run of it is a MEMOUT row with this reason.
    TooBig {
        reason: String,
        vars: u64,
        clauses: u64,
    },
}

impl BuildError {
    fn message(&self) -> String {
        match self {
            BuildError::Bad(m) | BuildError::TooBig { reason: m, .. } => m.clone(),
        }
    }
}

impl Unit {
    fn encoding_name(&self) -> String {
        self.encoding
            .map_or("dimacs".to_string(), |e| e.encoding.to_string())
    }

    /// The built formula, building it if this is the first run to need it.
    fn get(&self, instance: &Instance, read: &ReadLimits) -> Result<Arc<Built>, BuildError> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        match &*state {
            UnitState::Ready(b) => return Ok(b.clone()),
            UnitState::Failed(e) => return Err(e.clone()),
            UnitState::Done => {
                return Err(BuildError::Bad(
                    "internal: unit used after its last run".into(),
                ));
            }
            UnitState::Pending => {}
        }
        let built = build(instance, self.encoding, read).map(Arc::new);
        *state = match &built {
            Ok(b) => UnitState::Ready(b.clone()),
            Err(e) => UnitState::Failed(e.clone()),
        };
        built
    }

    /// Marks one run done; the last one frees the formula.
    fn release(&self) {
        if self.remaining.fetch_sub(1, Ordering::AcqRel) == 1 {
            let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
            if matches!(*state, UnitState::Ready(_)) {
                *state = UnitState::Done;
            }
        }
    }
}

/// Encodes a puzzle, or reads a DIMACS file. An encoding whose formula would take more
/// than half the memory available is refused up front, with its size; a DIMACS file is
/// read within `read`'s budget, and one that does not fit is refused the same way.
fn build(
    instance: &Instance,
    encoding: Option<EncodeOptions>,
    read: &ReadLimits,
) -> Result<Built, BuildError> {
    match (&instance.source, encoding) {
        (Source::Puzzle(p), Some(opts)) => {
            let (clauses, lits) = crate::encode::size_bound(p, opts);
            // The flat formula: 4 bytes a literal, 8 a clause start.
            let bytes = lits
                .saturating_mul(4)
                .saturating_add(clauses.saturating_mul(8));
            let budget = crate::solver::in_process_budget(&Limits::default()).map(|b| b / 2);
            if let Some(budget) = budget.filter(|&b| bytes > b) {
                return Err(BuildError::TooBig {
                    reason: format!(
                        "refused: the {} encoding of this {}×{} puzzle has {}{clauses} clauses \
                         ({} MiB in memory), more than half the memory available ({} MiB)",
                        opts.encoding,
                        p.side(),
                        p.side(),
                        if opts.encoding == crate::encode::Encoding::Pruned {
                            "up to "
                        } else {
                            ""
                        },
                        bytes >> 20,
                        budget >> 20
                    ),
                    vars: u64::from(crate::encode::grid_vars(p)),
                    clauses,
                });
            }
            let mut cnf = Cnf::new(0);
            let vars = encode(p, opts, &mut cnf);
            cnf.ensure_vars(vars);
            Ok(Built {
                cnf,
                header: Some(BenchHeader {
                    puzzle: p.clone(),
                    opts,
                }),
            })
        }
        (Source::Dimacs(path), _) => {
            let d = read_path_within(path, ParseOptions::default(), read).map_err(|e| match e {
                DimacsError::TooBig {
                    declared_vars,
                    declared_clauses,
                    ..
                } => BuildError::TooBig {
                    reason: format!("refused: {e}"),
                    vars: declared_vars.into(),
                    clauses: declared_clauses,
                },
                e => BuildError::Bad(e.to_string()),
            })?;
            let header = match d.bench_header.as_deref().map(BenchHeader::parse) {
                Some(Ok(h)) => Some(h),
                Some(Err(e)) => {
                    return Err(BuildError::Bad(format!(
                        "{}: bad `c bench` line: {e}",
                        path.display()
                    )));
                }
                None => None,
            };
            Ok(Built { cnf: d.cnf, header })
        }
        (Source::Puzzle(_), None) => Err(BuildError::Bad(
            "internal: a puzzle without an encoding".into(),
        )),
    }
}

/// One planned run.
struct Task {
    unit: usize,
    solver: usize,
    run: u32,
}

/// A new folder under `reports/` named after the first corpus and the time.
fn default_out_dir(corpora: &[PathBuf]) -> PathBuf {
    let stem = corpora
        .first()
        .and_then(|p| p.file_stem())
        .and_then(|s| s.to_str())
        .unwrap_or("run")
        .trim_end_matches(".cnf")
        .to_string();
    let (_, stamp) = meta::utc_stamps(SystemTime::now());
    let base = PathBuf::from("reports").join(format!("{stem}-{stamp}"));
    let mut dir = base.clone();
    let mut i = 2;
    while dir.exists() {
        dir = PathBuf::from(format!("{}-{i}", base.display()));
        i += 1;
    }
    dir
}

/// Runs the benchmark. `interrupt` is set by Ctrl-C: running solvers are stopped, their
/// runs are not recorded (a resume redoes them), and the summary covers what finished.
pub fn run(opts: &RunOptions, interrupt: Arc<AtomicBool>) -> anyhow::Result<RunSummary> {
    let solvers: Vec<Box<dyn Solver>> = opts
        .solvers
        .iter()
        .map(|name| by_name(name, &opts.config))
        .collect::<anyhow::Result<_>>()?;
    let Corpus {
        instances,
        mut skipped,
        notes,
        duplicates,
    } = corpus::load(&opts.cwd, &opts.corpora, &opts.read, opts.strict)?;
    for s in &skipped {
        eprintln!("bench: skipped {s}");
    }
    for n in notes.iter().chain(&duplicates) {
        eprintln!("bench: {n}");
    }
    // Checks before any run: the plan the one expected.
    let fingerprint = plan::fingerprint(&opts.plan, &instances);
    if let Some(expected) = opts.expected_fingerprint.as_ref()
        && *expected != fingerprint
    {
        bail!(
            "the plan changed: its fingerprint is {fingerprint}, the study or the run being \
             resumed has {expected} (the corpus contents or the options differ)"
        );
    }
    let instances = match opts.shard {
        Some(s) => shard::select(instances, opts.encodings.len(), s),
        None => instances,
    };
    let containment = crate::solver::external::run::containment();
    // Only solver processes are contained: a run of in-process solvers alone has nothing
    // to say about it (run.json still records what the machine offers).
    if solvers.iter().any(|s| !s.in_process()) {
        eprintln!("bench: containment: {}", containment.describe());
    }
    let (stale_dirs, stale_groups) = crate::solver::external::run::remove_stale();
    if stale_dirs + stale_groups > 0 {
        eprintln!(
            "bench: removed {stale_dirs} temporary folder(s) and {stale_groups} control group(s) \
             left by a bench that was killed"
        );
    }

    let out_dir = match (&opts.resume, &opts.out) {
        (Some(dir), _) => dir.clone(),
        (None, Some(dir)) => {
            if dir.join("results.csv").exists() {
                bail!(
                    "{} already holds a results.csv: choose another --out, or --resume it",
                    dir.display()
                );
            }
            dir.clone()
        }
        (None, None) => default_out_dir(&opts.corpora),
    };
    std::fs::create_dir_all(&out_dir).with_context(|| format!("creating {}", out_dir.display()))?;
    let _lock = lock::lock(&out_dir)?;
    let csv_path = out_dir.join("results.csv");
    let mut rows = if opts.resume.is_some() && csv_path.exists() {
        results::read_rows(&csv_path, true)?
    } else {
        Vec::new()
    };
    // Rows of a CSV written before bench recorded hashes: known by their id in this plan,
    // and the file rewritten with the hash column, so that new rows match its header.
    if rows.iter().any(|r| r.hash.is_empty()) {
        let by_id: HashMap<&str, &str> = instances
            .iter()
            .map(|i| (i.id.as_str(), i.hash.as_str()))
            .collect();
        for r in rows.iter_mut().filter(|r| r.hash.is_empty()) {
            if let Some(&hash) = by_id.get(r.instance.as_str()) {
                r.hash = hash.into();
            }
        }
        rewrite_rows(&csv_path, &rows)?;
    }
    let done: HashSet<_> = rows.iter().map(Row::key).collect();

    // The plan.
    let mut units = Vec::new();
    for (i, inst) in instances.iter().enumerate() {
        let encodings: Vec<Option<EncodeOptions>> = match inst.source {
            Source::Puzzle(_) => opts
                .encodings
                .iter()
                .map(|&encoding| {
                    Some(EncodeOptions {
                        encoding,
                        amo: opts.amo,
                    })
                })
                .collect(),
            Source::Dimacs(_) => vec![None],
        };
        for encoding in encodings {
            units.push(Unit {
                instance: i,
                encoding,
                state: Mutex::new(UnitState::Pending),
                remaining: AtomicUsize::new(0),
            });
        }
    }
    let mut tasks = Vec::new();
    let mut planned = 0;
    for (u, unit) in units.iter().enumerate() {
        let hash = &instances[unit.instance].hash;
        for run in 1..=opts.repeat {
            for k in 0..solvers.len() {
                let solver = (u + k) % solvers.len();
                planned += 1;
                let encoding = unit.encoding_name();
                let key = (
                    hash.as_str(),
                    encoding.as_str(),
                    solvers[solver].name(),
                    run,
                );
                if !done.contains(&key) {
                    tasks.push(Task {
                        unit: u,
                        solver,
                        run,
                    });
                    unit.remaining.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
    }

    let (start, _) = meta::utc_stamps(SystemTime::now());
    let mut record = record::Record {
        version: record::VERSION,
        kind: record::RecordKind::Run,
        plan: opts.plan.clone(),
        cwd: opts.cwd.clone(),
        fingerprint,
        bench_version: env!("CARGO_PKG_VERSION").to_string(),
        command_line: opts.command_line.clone(),
        created: start.clone(),
        shard: opts.shard,
        layout: None,
        execution: Some(record::Execution {
            solvers: solvers
                .iter()
                .map(|s| meta::SolverMeta {
                    name: s.name().to_string(),
                    version: s.version(),
                    path: s.path().map(|p| p.display().to_string()),
                })
                .collect(),
            machine: meta::Machine::current(),
            start,
            end: None,
            planned_runs: planned,
            skipped_inputs: skipped.len(),
            duplicate_inputs: duplicates.len(),
            interrupted: false,
            containment: containment.kind().to_string(),
            containment_detail: containment.describe(),
        }),
    };
    record::write(&out_dir, &record)?;
    eprintln!(
        "bench: {} instances, {} runs to do ({} already done), {} jobs, results in {}",
        instances.len(),
        tasks.len(),
        planned - tasks.len(),
        opts.jobs,
        out_dir.display()
    );

    let writer = Mutex::new(ResultsWriter::append(&csv_path)?);
    let solution_files = opts
        .solutions
        .then(|| solutions::SolutionFiles::new(&out_dir, opts.read.alphabet));
    let new_rows: Mutex<Vec<Row>> = Mutex::new(Vec::new());
    let failures: Mutex<BTreeMap<usize, String>> = Mutex::new(BTreeMap::new());
    let write_error: Mutex<Option<std::io::Error>> = Mutex::new(None);
    let next = AtomicUsize::new(0);
    let progress = progress::Progress::new(tasks.len());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.jobs)
        .build()?;
    pool.scope(|scope| {
        for _ in 0..opts.jobs {
            scope.spawn(|_| {
                let mut sessions = incremental::Sessions::default();
                loop {
                    if interrupt.load(Ordering::Relaxed)
                        || write_error.lock().map_or(true, |e| e.is_some())
                    {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(task) = tasks.get(i) else { break };
                    let unit = &units[task.unit];
                    let instance = &instances[unit.instance];
                    let solver = solvers[task.solver].as_ref();
                    let ran = incremental::run_one(
                        &mut sessions,
                        opts,
                        instance,
                        unit.encoding,
                        task.solver,
                        solver,
                        task.run,
                        &interrupt,
                    );
                    let row = match ran {
                        incremental::Ran::Done(row) => {
                            unit.release();
                            row
                        }
                        incremental::Ran::NotHere => {
                            let read = ReadLimits {
                                budget: machine_budget(opts.mem_limit_mb),
                                interrupt: Some(&interrupt),
                                deadline: None,
                            };
                            let built = match unit.get(instance, &read) {
                                Ok(b) => b,
                                Err(BuildError::TooBig {
                                    reason,
                                    vars,
                                    clauses,
                                }) => {
                                    unit.release();
                                    let row = refused_row(
                                        opts,
                                        instance,
                                        unit,
                                        solver.name(),
                                        task.run,
                                        (vars, clauses, reason),
                                    );
                                    if let Err(e) =
                                        writer.lock().unwrap_or_else(|p| p.into_inner()).write(&row)
                                    {
                                        *write_error.lock().unwrap_or_else(|p| p.into_inner()) =
                                            Some(e);
                                        break;
                                    }
                                    progress.record(&row);
                                    new_rows.lock().unwrap_or_else(|p| p.into_inner()).push(row);
                                    continue;
                                }
                                Err(e) => {
                                    let e = e.message();
                                    failures
                                        .lock()
                                        .unwrap_or_else(|p| p.into_inner())
                                        .entry(task.unit)
                                        .or_insert(e);
                                    unit.release();
                                    progress.skip();
                                    continue;
                                }
                            };
                            let row =
                                run_one(opts, instance, unit, &built, solver, task.run, &interrupt);
                            drop(built);
                            unit.release();
                            row
                        }
                    };
                    let Some((row, grids)) = row else { continue };
                    if let Some(files) = &solution_files
                        && row.run == 1
                        && let Err(e) = files.record(
                            instance,
                            &row.solver,
                            &row.encoding,
                            row.status.as_str(),
                            grids.as_ref(),
                        )
                    {
                        eprintln!("bench: writing the solution of {}: {e}", row.instance);
                    }
                    if let Err(e) = writer.lock().unwrap_or_else(|p| p.into_inner()).write(&row) {
                        // A full disk: stop taking runs; every row written so far stays.
                        *write_error.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                        break;
                    }
                    progress.record(&row);
                    new_rows.lock().unwrap_or_else(|p| p.into_inner()).push(row);
                }
            });
        }
    });
    progress.finish();
    drop(writer);
    if let Some(e) = write_error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(anyhow::Error::from(e).context(format!(
            "writing {} (every row before this one is kept: make room, then \
             `bench run --resume {}` runs what is missing)",
            csv_path.display(),
            out_dir.display()
        )));
    }
    for (_, e) in failures.into_inner().unwrap_or_else(|p| p.into_inner()) {
        eprintln!("bench: skipped {e}");
        skipped.push(e);
    }
    rows.extend(new_rows.into_inner().unwrap_or_else(|p| p.into_inner()));

    if let Some(files) = &solution_files
        && let Err(e) = files.finish()
    {
        eprintln!("bench: sorting the solution files: {e}");
    }
    if judge::cross_check_unsat(&mut rows) {
        rewrite_rows(&csv_path, &rows)?;
    }
    let interrupted = interrupt.load(Ordering::Relaxed);
    // The report (charts, summary.md/json, index.html) is a view of the rows: if it fails,
    // the results stay, and a plain summary stands in for it.
    let report_opts = ReportOptions {
        notes: skipped.iter().chain(&duplicates).cloned().collect(),
        ..ReportOptions::default()
    };
    if let Err(e) = write_report(&rows, &out_dir, &report_opts) {
        eprintln!("bench: the report could not be drawn ({e:#}); writing the plain summary");
        let scores = score::scores(&rows, score::Scoring::default());
        std::fs::write(
            out_dir.join("summary.md"),
            crate::report::summary::plain_markdown(
                &rows,
                &scores,
                crate::results::TimeBasis::default(),
                &skipped,
            ),
        )?;
    }
    if let Some(e) = record.execution.as_mut() {
        e.end = Some(meta::utc_stamps(SystemTime::now()).0);
        e.skipped_inputs = skipped.len();
        e.interrupted = interrupted;
    }
    record::write(&out_dir, &record)?;
    Ok(RunSummary {
        out_dir,
        rows,
        skipped,
        interrupted,
    })
}

/// The row of a run as it starts: what the run is, its size and limits; the outcome's
/// columns are filled in when it ends.
pub(crate) fn new_row(
    opts: &RunOptions,
    instance: &Instance,
    encoding: &str,
    solver: &str,
    run: u32,
    (vars, clauses): (u64, u64),
) -> Row {
    Row {
        corpus: instance.corpus.as_str().into(),
        instance: instance.id.as_str().into(),
        hash: instance.hash.as_str().into(),
        kind: instance.kind().into(),
        side: instance.side(),
        encoding: encoding.into(),
        vars,
        clauses,
        solver: solver.into(),
        run,
        status: Status::Unknown,
        check: Check::Unchecked,
        wall_s: 0.0,
        cpu_s: None,
        max_rss_kb: None,
        exit_code: None,
        timeout_s: opts.timeout.as_secs_f64(),
        jobs: opts.jobs as u32,
        error: String::new(),
        wrong: false,
        solutions: None,
        givens: instance.givens(),
    }
}

/// The row of a run whose formula was refused as too big for memory (MEMOUT).
fn refused_row(
    opts: &RunOptions,
    instance: &Instance,
    unit: &Unit,
    solver: &str,
    run: u32,
    (vars, clauses, reason): (u64, u64, String),
) -> Row {
    Row {
        status: Status::Memout,
        error: reason,
        ..new_row(
            opts,
            instance,
            &unit.encoding_name(),
            solver,
            run,
            (vars, clauses),
        )
    }
}

/// Runs one solver on one built formula, checks the answer, makes the row (and gives the
/// grids of a verified solution). None when Ctrl-C stopped the run (it is redone by a
/// resume, not recorded as a failure).
fn run_one(
    opts: &RunOptions,
    instance: &Instance,
    unit: &Unit,
    built: &Built,
    solver: &dyn Solver,
    run: u32,
    interrupt: &Arc<AtomicBool>,
) -> Option<(Row, Option<Puzzle>)> {
    let proof_style = solver.proof_style().filter(|_| opts.proofs);
    let proof_dir = proof_style.and_then(|_| crate::solver::external::run::temp_dir().ok());
    let proof = proof_dir.as_ref().map(|d| d.path().join("proof.drat"));
    let limits = Limits {
        timeout: Some(opts.timeout),
        mem_limit_mb: opts.mem_limit_mb,
        interrupt: Some(interrupt.clone()),
        proof: proof.clone(),
        binary_proof: proof_style.is_some_and(|s| s.format == DratFormat::Binary),
        seed: opts.seed,
    };
    let outcome = solver.solve(&built.cnf, &limits);
    if interrupt.load(Ordering::Relaxed) {
        return None;
    }
    let proof_limit = opts.timeout.saturating_mul(10).max(Duration::from_secs(60));
    let proof_to_check = proof.as_deref().zip(proof_style);
    let checked = exec::verdict(built, &outcome, proof_to_check, proof_limit, &opts.config);
    let size = (built.cnf.num_vars() as u64, built.cnf.num_clauses() as u64);
    let name = unit.encoding_name();
    let mut row = new_row(opts, instance, &name, solver.name(), run, size);
    exec::fill_row(&mut row, &outcome, &checked.verdict);
    let grids = checked.grids;
    if opts.count >= 2
        && let Some(first) = &grids
    {
        let mut again = limits.clone();
        again.proof = None;
        match exec::count_solutions(solver, built, first, &again, opts.count) {
            Ok(n) => row.solutions = n,
            Err(e) => judge::apply(&mut row, &Verdict::ModelWrong(e), None),
        }
        if interrupt.load(Ordering::Relaxed) {
            return None;
        }
    }
    // The grids the check read, unless counting found the answer wrong after all.
    let grids = grids.filter(|_| row.check == Check::ModelOk);
    judge::hold_against_records(&mut row, &instance.records, grids.as_ref(), opts.count);
    Some((row, grids))
}

/// Rewrites results.csv with updated rows, through a temporary file and a rename.
fn rewrite_rows(path: &Path, rows: &[Row]) -> anyhow::Result<()> {
    let tmp = path.with_extension("csv.tmp");
    let _ = std::fs::remove_file(&tmp);
    {
        let mut w = ResultsWriter::append(&tmp)?;
        for r in rows {
            w.write(r)?;
        }
    }
    std::fs::rename(&tmp, path).with_context(|| format!("replacing {}", path.display()))?;
    Ok(())
}
