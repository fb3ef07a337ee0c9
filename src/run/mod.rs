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
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use anyhow::{Context, bail};

use crate::cnf::Cnf;
use crate::cnf::budget::{Account, ReadLimits, machine_budget};
use crate::cnf::dimacs::{DimacsError, ParseOptions, read_path_within};
use crate::encode::header::BenchHeader;
use crate::encode::{EncodeOptions, Encoding, encode};
use crate::judge::{self, Verdict};
use crate::puzzle::Puzzle;
use crate::puzzle::format::ReadOptions;
use crate::results::{self, Check, Mode, ResultsWriter, Row};
use crate::solver::{DratFormat, Limits, Solver, SolverConfig, Status, by_name};
use crate::text::terminal;
use corpus::{Corpus, Instance, Source};
use exec::Built;

/// Everything `bench run` needs: the plan, and where and how this process runs it.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The plan (what run.json records and the fingerprint covers): read its fields here,
    /// as `opts.plan.jobs`; `timeout`, `config` and `read` are derived from it once.
    pub plan: plan::Plan,
    /// The folder the plan's relative paths are relative to.
    pub cwd: PathBuf,
    /// Per-run wall-clock limit (the plan's `timeout_s`).
    pub timeout: Duration,
    /// Output folder (None: a new one under `reports/`).
    pub out: Option<PathBuf>,
    /// Resume the run in this folder.
    pub resume: Option<PathBuf>,
    /// Where to find solvers (the plan's solver commands and paths).
    pub config: SolverConfig,
    /// How puzzle files are read (the plan's kind, format and alphabet).
    pub read: ReadOptions,
    /// The command line as typed, for run.json (never parsed again).
    pub command_line: Vec<String>,
    /// Run only this part of the plan (`--shard K/N`).
    pub shard: Option<shard::Shard>,
    /// Refuse to start unless the plan has this fingerprint (a study's, or the one a
    /// resumed shard recorded): the corpus or the options changed since.
    pub expected_fingerprint: Option<String>,
    /// Where the workers run (`--cores`, `--allow-siblings`); not part of the plan.
    pub cores: crate::machine::CoreChoice,
}

impl RunOptions {
    /// The options of `plan`, made in `cwd`; where it runs is set by the caller.
    pub fn new(plan: plan::Plan, cwd: PathBuf, command_line: Vec<String>) -> RunOptions {
        RunOptions {
            timeout: plan.timeout(),
            out: None,
            resume: None,
            config: plan.solver_config(),
            read: plan.read_options(),
            command_line,
            shard: None,
            expected_fingerprint: None,
            cores: Default::default(),
            plan,
            cwd,
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
    pub skipped: Vec<String>,
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

/// Runs the benchmark: the plan made ready ([`prepare`]), its runs executed in parallel
/// ([`execute`]), the results finished ([`finish`]). `interrupt` is set by Ctrl-C: running
/// solvers are stopped, their runs are not recorded (a resume redoes them), and the
/// summary covers what finished. The report is the command's to draw.
pub fn run(opts: &RunOptions, interrupt: Arc<AtomicBool>) -> anyhow::Result<RunSummary> {
    let prepared = prepare(opts)?;
    let executed = execute(opts, &prepared, &interrupt)?;
    // Under --strict a malformed input is fatal: no run starts after it is found, the rows
    // already made are kept, and the run ends with an error naming it.
    let fatal = opts
        .plan
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

/// A run ready to execute: its solvers, instances, output folder (locked), the rows an
/// earlier run of it left, the formulas and tasks still to do, and its run.json.
struct Prepared {
    solvers: Vec<Box<dyn Solver>>,
    instances: Vec<Instance>,
    /// Inputs left out, and inputs run under another name: the summary's notes.
    skipped: Vec<String>,
    duplicates: Vec<String>,
    out_dir: PathBuf,
    csv_path: PathBuf,
    /// Rows of a resumed run.
    earlier: Vec<Row>,
    units: Vec<Unit>,
    tasks: Vec<Task>,
    record: record::Record,
    /// What the summary must say about how the plan runs (the mode of its encodings).
    notes: Vec<String>,
    /// The reading budget, one account shared by the workers' reads in progress (None:
    /// nothing known of the machine's memory).
    read_budget: Option<Account>,
    _lock: lock::FolderLock,
}

/// Makes the plan ready: solvers found, corpus read and held to the expected fingerprint,
/// the output folder taken, what is done already subtracted, run.json written.
fn prepare(opts: &RunOptions) -> anyhow::Result<Prepared> {
    let solvers: Vec<Box<dyn Solver>> = opts
        .plan
        .solvers
        .iter()
        .map(|name| by_name(name, &opts.config))
        .collect::<anyhow::Result<_>>()?;
    let (corpus, fingerprint) = load_corpus(opts)?;
    let containment = announce_containment(&solvers);
    let mut notes = Vec::new();
    if !opts.plan.incremental
        && pruned_among_others(&opts.plan.encodings)
        && solvers.iter().any(|s| s.in_process())
    {
        let note = "mode: in-process solvers solve every encoding fresh, one formula per \
                    puzzle: pruned has no session (its givens are in its clauses), so the \
                    encodings are compared within one mode (run.json: \"incremental\": false)";
        eprintln!("bench: {note}");
        notes.push(note.to_string());
    }
    let out_dir = out_dir(opts)?;
    std::fs::create_dir_all(&out_dir).with_context(|| format!("creating {}", out_dir.display()))?;
    let lock = lock::lock(&out_dir)?;
    let csv_path = out_dir.join("results.csv");
    let earlier = earlier_rows(opts, &csv_path, &corpus.instances)?;
    let units = units(opts, &corpus.instances);
    let (tasks, planned) = tasks(opts, &units, &corpus.instances, &solvers, &earlier);
    let measurement = crate::machine::Measurement::new(opts.plan.jobs, &opts.cores)?;
    for warning in &measurement.warnings {
        eprintln!("bench: warning: {}", terminal(warning));
    }
    let (start, _) = meta::utc_stamps(SystemTime::now());
    let record = record::Record {
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
                    sha256: s.path().and_then(|p| crate::machine::sha256_file(&p).ok()),
                })
                .collect(),
            older_machine: None,
            start,
            end: None,
            planned_runs: planned,
            skipped_inputs: corpus.skipped.len(),
            duplicate_inputs: corpus.duplicates.len(),
            interrupted: false,
            containment: containment.kind().to_string(),
            containment_detail: containment.describe(),
            measurement,
        }),
    };
    record::write(&out_dir, &record)?;
    eprintln!(
        "bench: {} instances, {} runs to do ({} already done), {} jobs, results in {}",
        corpus.instances.len(),
        tasks.len(),
        planned - tasks.len(),
        opts.plan.jobs,
        terminal(&out_dir.display().to_string())
    );
    Ok(Prepared {
        solvers,
        instances: corpus.instances,
        skipped: corpus.skipped,
        duplicates: corpus.duplicates,
        out_dir,
        csv_path,
        earlier,
        units,
        tasks,
        record,
        notes,
        read_budget: machine_budget(opts.plan.mem_limit_mb).map(Account::new),
        _lock: lock,
    })
}

/// The corpus of the plan (this shard's part of it), said on stderr, and the plan's
/// fingerprint, which must be the one expected (a study's, a resumed shard's).
fn load_corpus(opts: &RunOptions) -> anyhow::Result<(Corpus, String)> {
    let mut corpus = corpus::load(&opts.cwd, &opts.plan.corpora, &opts.read, opts.plan.strict)?;
    for s in &corpus.skipped {
        eprintln!("bench: skipped {}", terminal(&s.to_string()));
    }
    for n in corpus.notes.iter().chain(&corpus.duplicates) {
        eprintln!("bench: {}", terminal(&n.to_string()));
    }
    let fingerprint = plan::fingerprint(&opts.plan, &corpus.instances);
    if let Some(expected) = opts.expected_fingerprint.as_ref()
        && *expected != fingerprint
    {
        // A file of the plan that this machine cannot read is the likelier cause.
        if !corpus.skipped.is_empty() {
            bail!(
                "the plan cannot be kept here: {}",
                corpus.skipped.join("; ")
            );
        }
        bail!(
            "the plan changed: its fingerprint is {fingerprint}, the study or the run being \
             resumed has {expected} (the corpus contents or the options differ)"
        );
    }
    if let Some(s) = opts.shard {
        corpus.instances = shard::select(
            std::mem::take(&mut corpus.instances),
            opts.plan.encodings.len(),
            s,
        );
    }
    Ok((corpus, fingerprint))
}

/// How solver processes will be contained (said when any solver is one), after clearing
/// what a killed bench left.
fn announce_containment(
    solvers: &[Box<dyn Solver>],
) -> &'static crate::solver::external::run::Containment {
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
    containment
}

/// The output folder: the resumed one, `--out` (which must not hold results yet), or a
/// new one under `reports/`.
fn out_dir(opts: &RunOptions) -> anyhow::Result<PathBuf> {
    Ok(match (&opts.resume, &opts.out) {
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
        (None, None) => default_out_dir(&opts.plan.corpora),
    })
}

/// The rows a resumed run already has. Rows of a CSV written before bench recorded
/// hashes are known by their id in this plan, and the file is rewritten with the hash
/// column, so that new rows match its header.
fn earlier_rows(
    opts: &RunOptions,
    csv_path: &Path,
    instances: &[Instance],
) -> anyhow::Result<Vec<Row>> {
    if opts.resume.is_none() || !csv_path.exists() {
        return Ok(Vec::new());
    }
    // A CSV of an older bench (no `hash`, `mode` or count columns) is rewritten with
    // today's columns, so that the rows appended to it match its header.
    let (mut rows, old_columns) = results::read_table(csv_path, true)?;
    if old_columns || rows.iter().any(|r| r.hash.is_empty()) {
        let by_id: HashMap<&str, &str> = instances
            .iter()
            .map(|i| (i.id.as_str(), i.hash.as_str()))
            .collect();
        for r in rows.iter_mut().filter(|r| r.hash.is_empty()) {
            if let Some(&hash) = by_id.get(r.instance.as_str()) {
                r.hash = hash.into();
            }
        }
        rewrite_rows(csv_path, &rows)?;
    }
    Ok(rows)
}

/// Every formula of the plan: each puzzle under each encoding, each DIMACS file once.
fn units(opts: &RunOptions, instances: &[Instance]) -> Vec<Unit> {
    let mut units = Vec::new();
    for (i, inst) in instances.iter().enumerate() {
        let encodings: Vec<Option<EncodeOptions>> = match inst.source {
            Source::Puzzle(_) => opts
                .plan
                .encodings
                .iter()
                .map(|&encoding| {
                    Some(EncodeOptions {
                        encoding,
                        amo: opts.plan.amo,
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
    units
}

/// The runs still to do (those `earlier` lacks), solvers rotated from one formula to the
/// next; and how many runs the plan has in all.
fn tasks(
    opts: &RunOptions,
    units: &[Unit],
    instances: &[Instance],
    solvers: &[Box<dyn Solver>],
    earlier: &[Row],
) -> (Vec<Task>, usize) {
    let done: HashSet<_> = earlier.iter().map(Row::key).collect();
    let mut tasks = Vec::new();
    let mut planned = 0;
    for (u, unit) in units.iter().enumerate() {
        let hash = &instances[unit.instance].hash;
        let encoding = unit.encoding_name();
        for run in 1..=opts.plan.repeat {
            for k in 0..solvers.len() {
                let solver = (u + k) % solvers.len();
                planned += 1;
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
    (tasks, planned)
}

/// What executing the tasks gave: the new rows, and the inputs that could not be built.
struct Executed {
    rows: Vec<Row>,
    failures: BTreeMap<usize, String>,
}

/// Where each finished run goes: appended to results.csv at once (the one writer), its
/// grids to `solutions/`, counted in the progress line, kept for the summary.
struct Sink<'a> {
    writer: Mutex<ResultsWriter>,
    solution_files: Option<solutions::SolutionFiles>,
    rows: Mutex<Vec<Row>>,
    progress: &'a progress::Progress,
    write_error: Mutex<Option<std::io::Error>>,
}

impl Sink<'_> {
    /// Takes one row; false when it could not be written (a full disk: stop taking runs).
    fn take(&self, instance: &Instance, row: Row, grids: &[Puzzle]) -> bool {
        if let Some(files) = &self.solution_files
            && row.run == 1
            && let Err(e) = files.record(
                instance,
                &row.solver,
                &row.encoding,
                row.status.as_str(),
                grids,
            )
        {
            eprintln!(
                "bench: {}",
                terminal(&format!("writing the solution of {}: {e}", row.instance))
            );
        }
        if let Err(e) = lock_any(&self.writer).write(&row) {
            *lock_any(&self.write_error) = Some(e);
            return false;
        }
        self.progress.record(&row);
        lock_any(&self.rows).push(row);
        true
    }

    fn failed(&self) -> bool {
        lock_any(&self.write_error).is_some()
    }
}

/// A mutex's guard, poisoned or not (a panicking worker must not lose the others' rows).
fn lock_any<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Executes the tasks on `opts.jobs` workers that take them in plan order; every finished
/// run is written at once.
fn execute(
    opts: &RunOptions,
    prepared: &Prepared,
    interrupt: &Arc<AtomicBool>,
) -> anyhow::Result<Executed> {
    let progress = progress::Progress::new(prepared.tasks.len());
    let sink = Sink {
        writer: Mutex::new(ResultsWriter::append(&prepared.csv_path)?),
        solution_files: opts
            .plan
            .solutions
            .then(|| solutions::SolutionFiles::new(&prepared.out_dir, opts.read.alphabet)),
        rows: Mutex::new(Vec::new()),
        progress: &progress,
        write_error: Mutex::new(None),
    };
    let failures: Mutex<BTreeMap<usize, String>> = Mutex::new(BTreeMap::new());
    // Set when --strict meets an input that cannot be built: no further task starts.
    let strict_stop = AtomicBool::new(false);
    let next = AtomicUsize::new(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.plan.jobs)
        .build()?;
    let cpus: &[usize] = prepared
        .record
        .execution
        .as_ref()
        .map_or(&[], |e| &e.measurement.worker_cpus);
    let workers = AtomicUsize::new(0);
    pool.scope(|scope| {
        for _ in 0..opts.plan.jobs {
            scope.spawn(|_| {
                // Each worker on its own core: the solvers it starts inherit the pin.
                let worker = workers.fetch_add(1, Ordering::Relaxed);
                if let Some(&cpu) = cpus.get(worker)
                    && let Err(e) = crate::machine::pin_current_thread(cpu)
                {
                    eprintln!("bench: could not pin worker {worker} to CPU {cpu}: {e}");
                }
                let mut sessions = incremental::Sessions::default();
                while !interrupt.load(Ordering::Relaxed)
                    && !sink.failed()
                    && !strict_stop.load(Ordering::Relaxed)
                {
                    let Some(task) = prepared.tasks.get(next.fetch_add(1, Ordering::Relaxed))
                    else {
                        break;
                    };
                    let instance = &prepared.instances[prepared.units[task.unit].instance];
                    match attempt(opts, prepared, task, &mut sessions, interrupt) {
                        Attempt::Row(row, grids) => {
                            if !sink.take(instance, row, &grids) {
                                break;
                            }
                        }
                        Attempt::Unbuildable(why) => {
                            lock_any(&failures).entry(task.unit).or_insert(why);
                            progress.skip();
                            if opts.plan.strict {
                                strict_stop.store(true, Ordering::Relaxed);
                            }
                        }
                        Attempt::Interrupted => {}
                    }
                }
            });
        }
    });
    progress.finish();
    if let Some(files) = &sink.solution_files
        && let Err(e) = files.finish()
    {
        eprintln!("bench: sorting the solution files: {e}");
    }
    if let Some(e) = sink
        .write_error
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
    {
        return Err(anyhow::Error::from(e).context(format!(
            "writing {} (every row before this one is kept: make room, then \
             `bench run --resume {}` runs what is missing)",
            prepared.csv_path.display(),
            prepared.out_dir.display()
        )));
    }
    Ok(Executed {
        rows: sink.rows.into_inner().unwrap_or_else(|p| p.into_inner()),
        failures: failures.into_inner().unwrap_or_else(|p| p.into_inner()),
    })
}

/// What one task came to.
#[allow(clippy::large_enum_variant)]
enum Attempt {
    /// A row, and the grids of its verified solutions (every one a count found).
    Row(Row, Vec<Puzzle>),
    /// The formula could not be built: the input is skipped, with why.
    Unbuildable(String),
    /// Ctrl-C stopped it: no row (a resume redoes it).
    Interrupted,
}

/// Runs one task: in the worker's session where it can be, else on the formula built once
/// for every solver of its instance (a formula too big for memory is a MEMOUT row).
fn attempt(
    opts: &RunOptions,
    prepared: &Prepared,
    task: &Task,
    sessions: &mut incremental::Sessions,
    interrupt: &Arc<AtomicBool>,
) -> Attempt {
    let unit = &prepared.units[task.unit];
    let instance = &prepared.instances[unit.instance];
    let solver = prepared.solvers[task.solver].as_ref();
    let ran = incremental::run_one(
        sessions,
        opts,
        instance,
        unit.encoding,
        task.solver,
        solver,
        task.run,
        interrupt,
    );
    let row = match ran {
        incremental::Ran::Done(row) => row,
        incremental::Ran::NotHere => {
            let read = ReadLimits {
                budget: prepared.read_budget.as_ref().map(Account::limit),
                account: prepared.read_budget.as_ref(),
                interrupt: Some(interrupt),
                deadline: None,
            };
            match unit.get(instance, &read) {
                Ok(built) => run_one(opts, instance, unit, &built, solver, task.run, interrupt),
                Err(BuildError::TooBig {
                    reason,
                    vars,
                    clauses,
                }) => Some((
                    refused_row(
                        opts,
                        instance,
                        unit,
                        solver,
                        task.run,
                        (vars, clauses, reason),
                    ),
                    Vec::new(),
                )),
                Err(e) => {
                    unit.release();
                    return Attempt::Unbuildable(e.message());
                }
            }
        }
    };
    unit.release();
    match row {
        Some((row, grids)) => Attempt::Row(row, grids),
        None => Attempt::Interrupted,
    }
}

/// Finishes the run: the inputs that could not be built join the skipped, the rows old
/// and new are judged together (an UNSAT against a verified model of this run or an
/// earlier one), and run.json records the end.
fn finish(
    mut prepared: Prepared,
    executed: Executed,
    interrupted: bool,
) -> anyhow::Result<RunSummary> {
    for (_, e) in executed.failures {
        eprintln!("bench: skipped {}", terminal(&e.to_string()));
        prepared.skipped.push(e);
    }
    let mut rows = prepared.earlier;
    rows.extend(executed.rows);
    if judge::cross_check_unsat(&mut rows) {
        rewrite_rows(&prepared.csv_path, &rows)?;
    }
    if let Some(e) = prepared.record.execution.as_mut() {
        e.end = Some(meta::utc_stamps(SystemTime::now()).0);
        e.skipped_inputs = prepared.skipped.len();
        e.interrupted = interrupted;
    }
    record::write(&prepared.out_dir, &prepared.record)?;
    Ok(RunSummary {
        out_dir: prepared.out_dir,
        rows,
        notes: prepared
            .notes
            .iter()
            .chain(&prepared.skipped)
            .chain(&prepared.duplicates)
            .cloned()
            .collect(),
        skipped: prepared.skipped,
        interrupted,
    })
}

/// The row of a run as it starts: what the run is, its size and limits; the outcome's
/// columns are filled in when it ends.
pub(crate) fn new_row(
    opts: &RunOptions,
    instance: &Instance,
    encoding: &str,
    (solver, mode): (&str, Mode),
    run: u32,
    (vars, clauses): (u64, u64),
) -> Row {
    Row {
        corpus: instance.corpus.as_str().into(),
        instance: instance.id.as_str().into(),
        hash: instance.hash.as_str().into(),
        kind: instance.kind(),
        side: instance.side(),
        encoding: encoding.into(),
        vars,
        clauses,
        solver: solver.into(),
        mode: Some(mode),
        run,
        status: Status::Unknown,
        check: Check::Unchecked,
        wall_s: 0.0,
        cpu_s: None,
        max_rss_kb: None,
        exit_code: None,
        timeout_s: opts.timeout.as_secs_f64(),
        jobs: opts.plan.jobs as u32,
        error: String::new(),
        wrong: false,
        solutions: None,
        count_wall_s: None,
        count_cpu_s: None,
        givens: instance.givens(),
        family: instance.family().into(),
    }
}

/// The mode of a run on a formula of its own: in bench's process, or a child process.
fn fresh_mode(solver: &dyn Solver) -> Mode {
    if solver.in_process() {
        Mode::Fresh
    } else {
        Mode::Process
    }
}

/// The row of a run whose formula was refused as too big for memory (MEMOUT).
fn refused_row(
    opts: &RunOptions,
    instance: &Instance,
    unit: &Unit,
    solver: &dyn Solver,
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
            (solver.name(), fresh_mode(solver)),
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
) -> Option<(Row, Vec<Puzzle>)> {
    let proof_style = solver.proof_style().filter(|_| opts.plan.proofs);
    let proof_dir = proof_style.and_then(|_| crate::solver::external::run::temp_dir().ok());
    let proof = proof_dir.as_ref().map(|d| d.path().join("proof.drat"));
    let limits = Limits {
        timeout: Some(opts.timeout),
        mem_limit_mb: opts.plan.mem_limit_mb,
        interrupt: Some(interrupt.clone()),
        proof: proof.clone(),
        binary_proof: proof_style.is_some_and(|s| s.format == DratFormat::Binary),
        seed: opts.plan.seed,
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
    let mut row = new_row(
        opts,
        instance,
        &name,
        (solver.name(), fresh_mode(solver)),
        run,
        size,
    );
    exec::fill_row(&mut row, &outcome, &checked.verdict);
    let mut grids: Vec<Puzzle> = Vec::new();
    if opts.plan.count >= 2 && built.header.is_some() {
        // The count's time starts with the first solve, whatever it answered.
        let mut counted = exec::Counted {
            wall: outcome.wall,
            cpu: outcome.cpu,
            ..exec::Counted::default()
        };
        if let Some(first) = checked.grids {
            counted.grids.push(first);
            let mut again = limits.clone();
            again.proof = None;
            if let Err(e) =
                exec::count_solutions(solver, built, &mut counted, &again, opts.plan.count)
            {
                judge::apply(&mut row, &Verdict::ModelWrong(e), None);
            }
            if interrupt.load(Ordering::Relaxed) {
                return None;
            }
        }
        counted.fill(&mut row);
        grids = counted.grids;
    } else {
        grids.extend(checked.grids);
    }
    // The grids the check read, unless counting found the answer wrong after all.
    if row.check != Check::ModelOk {
        grids.clear();
    }
    judge::hold_against_records(&mut row, &instance.records, grids.first(), opts.plan.count);
    Some((row, grids))
}

/// Rewrites results.csv with updated rows, through a temporary file and a rename.
fn rewrite_rows(path: &Path, rows: &[Row]) -> anyhow::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("writing in {}", dir.display()))?;
    tmp.write_all(&results::header_line())?;
    {
        let mut w = ResultsWriter::append(tmp.path())?;
        for r in rows {
            w.write(r)?;
        }
    }
    tmp.persist(path)
        .with_context(|| format!("replacing {}", path.display()))?;
    Ok(())
}
