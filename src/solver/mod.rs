//! Solvers: one interface for the built-in ones (run in-process) and external binaries
//! (run as child processes), the answer they give, and the registry that finds them by name.
//! The engines and the process sandbox are crates of their own below bench (`cdcl-engine`,
//! `sandbox`); [`cdcl`] and [`native`] are bench's side of the engine.

pub mod abandon;
pub mod cdcl;
pub mod config;
pub mod dedicated;
pub mod dpll;
pub mod external;
pub mod limit_hit;
mod line_process;
pub mod lines;
pub mod native;
pub mod output;
pub mod puzzle;
#[cfg(feature = "rustsat-solvers")]
pub mod rustsat;
pub mod session;
pub mod work;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::cnf::{Cnf, Model};
use config::SolverSpec;
pub use limit_hit::{Clocks, LimitHit};
use session::Session;

/// What a solver run ended with (the `status` column of the results CSV).
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "UPPERCASE")]
pub enum Status {
    /// Satisfiable, with a model.
    Sat,
    /// Unsatisfiable.
    Unsat,
    /// The solver gave up without an answer (its own limit, an interrupt).
    #[default]
    Unknown,
    /// Stopped by bench's wall-clock timeout, whatever the solver printed.
    Timeout,
    /// Ran out of the memory limit.
    Memout,
    /// Crashed, was killed by a signal, wrote nothing usable, or contradicted itself.
    Error,
}

impl Status {
    /// The name used in CSVs and messages.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Sat => "SAT",
            Status::Unsat => "UNSAT",
            Status::Unknown => "UNKNOWN",
            Status::Timeout => "TIMEOUT",
            Status::Memout => "MEMOUT",
            Status::Error => "ERROR",
        }
    }

    /// Parses the CSV name back.
    pub fn parse(s: &str) -> Option<Status> {
        Some(match s {
            "SAT" => Status::Sat,
            "UNSAT" => Status::Unsat,
            "UNKNOWN" => Status::Unknown,
            "TIMEOUT" => Status::Timeout,
            "MEMOUT" => Status::Memout,
            "ERROR" => Status::Error,
            _ => return None,
        })
    }

    /// True for SAT and UNSAT: the run decided the formula.
    pub fn is_solved(self) -> bool {
        matches!(self, Status::Sat | Status::Unsat)
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The two encodings of a DRAT proof; `rate` reads both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DratFormat {
    /// `a`/`d` bytes and variable-length literals: smaller and faster to check.
    Binary,
    /// Clauses as DIMACS lines, `d` before a deletion.
    Text,
}

/// How a solver writes DRAT proofs, and so how `rate` must read them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProofStyle {
    /// The format the solver writes correctly (binary where it can).
    pub format: DratFormat,
    /// The solver deletes unit clauses that are reasons on the trail, which strict DRAT
    /// semantics reject and drat-trim (the SAT competition's checker) ignores: its proofs
    /// are checked as drat-trim does (`rate --skip-unit-deletions`).
    pub skip_unit_deletions: bool,
}

/// The limits and options of one solver run.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Wall-clock limit; `None` = no limit.
    pub timeout: Option<Duration>,
    /// CPU-time limit; `None` = no limit. A child process's whole tree, or an in-process
    /// solver's thread (its CPU clock).
    pub cpu_limit: Option<Duration>,
    /// Address-space limit in MiB for child processes (RLIMIT_AS); `None` = no limit.
    pub mem_limit_mb: Option<u64>,
    /// Set to true from another thread to stop the run early (Ctrl-C).
    pub interrupt: Option<Arc<AtomicBool>>,
    /// Where to write a DRAT proof, for solvers that can.
    pub proof: Option<PathBuf>,
    /// Write the proof in binary DRAT (true) or text DRAT (false).
    pub binary_proof: bool,
    /// Seed for solvers with randomised choices (0 = the solver's default).
    pub seed: u64,
}

/// What one solver run gives back: the answer and how much it cost.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// SAT, UNSAT, ... (see [`Status`]).
    pub status: Status,
    /// The model, for SAT.
    pub model: Option<Model>,
    /// Why, for ERROR (with the tail of the solver's stderr), MEMOUT or UNKNOWN.
    pub error: Option<String>,
    /// Wall-clock time of the run.
    pub wall: Duration,
    /// CPU time (user + system) if measured.
    pub cpu: Option<Duration>,
    /// Peak resident set size in KiB, if measured.
    pub max_rss_kb: Option<u64>,
    /// The child's exit code (external solvers only).
    pub exit_code: Option<i32>,
    /// Solver statistics (`conflicts`, `decisions`, ...), printed as `c` lines.
    pub stats: Vec<(String, u64)>,
    /// The solver never ran: the machine could not start it (its binary gone, exec
    /// refused, no temporary folder). Not the solver's answer: the run is not recorded,
    /// and `--resume` runs it again.
    pub not_started: bool,
    /// Which limit ended it, when one did (TIMEOUT: the wall or the CPU limit; None on a
    /// TIMEOUT means the wall limit).
    pub limit: Option<LimitHit>,
}

impl Outcome {
    /// An outcome with just a status (times zero, nothing else known).
    pub fn new(status: Status) -> Outcome {
        Outcome {
            status,
            model: None,
            error: None,
            wall: Duration::ZERO,
            cpu: None,
            max_rss_kb: None,
            exit_code: None,
            stats: Vec::new(),
            not_started: false,
            limit: None,
        }
    }

    /// A solver the machine could not start, with why (see [`Outcome::not_started`]).
    pub fn not_started(reason: impl Into<String>) -> Outcome {
        Outcome {
            not_started: true,
            ..Outcome::error(reason)
        }
    }

    /// An ERROR outcome with a reason.
    pub fn error(reason: impl Into<String>) -> Outcome {
        Outcome {
            error: Some(reason.into()),
            ..Outcome::new(Status::Error)
        }
    }

    /// A TIMEOUT at limit `hit`.
    pub fn timeout(hit: LimitHit) -> Outcome {
        Outcome {
            limit: Some(hit),
            ..Outcome::new(Status::Timeout)
        }
    }

    /// A SAT outcome with its model.
    pub fn sat(model: Model) -> Outcome {
        Outcome {
            model: Some(model),
            ..Outcome::new(Status::Sat)
        }
    }

    /// The outcome of an in-process solver that stopped without an answer: UNKNOWN when
    /// `limits`' interrupt flag stopped it, else TIMEOUT at the wall deadline (see
    /// [`Outcome::stopped_by`]), so it is counted exactly as a child process stopped by
    /// the clock is.
    pub fn stopped(limits: &Limits) -> Outcome {
        Outcome::stopped_by(limits, LimitHit::Wall)
    }

    /// [`Outcome::stopped`] at limit `hit` (the wall deadline or the CPU clock).
    pub fn stopped_by(limits: &Limits, hit: LimitHit) -> Outcome {
        let interrupted = limits
            .interrupt
            .as_ref()
            .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed));
        if interrupted {
            Outcome {
                error: Some("interrupted".into()),
                ..Outcome::new(Status::Unknown)
            }
        } else {
            Outcome {
                limit: Some(hit),
                ..Outcome::new(Status::Timeout)
            }
        }
    }
}

/// A SAT solver as bench runs it.
pub trait Solver: Send + Sync {
    /// The name used on the command line and in results (`native`, `minisat`, ...).
    fn name(&self) -> &str;

    /// The solver's version, if known.
    fn version(&self) -> Option<String> {
        None
    }

    /// Where the solver's binary is (external solvers).
    fn path(&self) -> Option<PathBuf> {
        None
    }

    /// How the solver writes a DRAT proof to `Limits::proof` when asked, or `None` if it
    /// writes no proof that `rate` can check.
    fn proof_style(&self) -> Option<ProofStyle> {
        None
    }

    /// True for solvers that run inside bench's process (their CPU time is measured on the
    /// calling thread; their memory is bench's).
    fn in_process(&self) -> bool {
        false
    }

    /// Solves `cnf` within `limits`. Never panics on a solver's misbehaviour: every failure
    /// is an [`Outcome`] with status ERROR, TIMEOUT or MEMOUT.
    fn solve(&self, cnf: &Cnf, limits: &Limits) -> Outcome;

    /// An incremental session (clauses kept between calls, assumptions per call) for
    /// solvers that run in-process and have one; `None` for the others. `seed` as in
    /// [`Limits::seed`].
    fn session(&self, _seed: u64) -> Option<Box<dyn Session>> {
        None
    }

    /// True for a dedicated puzzle solver: it takes puzzles, not formulas (mode
    /// `dedicated`, encoding `none`), through [`Solver::puzzle_session`].
    fn reads_puzzles(&self) -> bool {
        false
    }

    /// A worker's handle on a dedicated puzzle solver; `None` for SAT solvers.
    fn puzzle_session(&self) -> Option<Box<dyn puzzle::PuzzleSession>> {
        None
    }
}

/// Runs `f`, then stamps the outcome with the wall time and this thread's CPU time (added
/// to the CPU time `f` found, of a helper thread that did the work) and scores it against
/// `limits` ([`score_past_limits`]).
pub fn measured(limits: &Limits, f: impl FnOnce() -> Outcome) -> Outcome {
    let start = std::time::Instant::now();
    let cpu_start = thread_cpu_time();
    let mut outcome = f();
    outcome.wall = start.elapsed();
    outcome.cpu = match (cpu_start, thread_cpu_time()) {
        (Some(a), Some(b)) => Some(b.saturating_sub(a) + outcome.cpu.unwrap_or_default()),
        _ => None,
    };
    score_past_limits(&mut outcome, limits);
    outcome
}

/// An answer past `limits` scored as a timeout at the limit it passed, as for every
/// solver: an in-process engine looks at its clocks between steps, so it can answer a
/// little after a limit, and that answer counts no more than an external solver's late
/// one. Applied to every outcome once its wall and CPU time are known: by [`measured`]
/// and `session::measured_call` to the in-process solvers', by the external and puzzle
/// line runners to theirs.
pub fn score_past_limits(outcome: &mut Outcome, limits: &Limits) {
    external::verdict::score_late(outcome, limits.timeout);
    external::verdict::score_late_cpu(outcome, limits.cpu_limit);
}

/// CPU time of the calling thread (an in-process solver runs on one thread, possibly among
/// others of a parallel `bench run`, so process time would be wrong): the engine's clock.
pub use cdcl_engine::limits::thread_cpu_time;

/// Where to find solvers: command-line overrides on top of the default discovery.
#[derive(Clone, Debug, Default)]
pub struct SolverConfig {
    /// `--solver-path NAME=PATH`: a known solver at an explicit path.
    pub paths: Vec<(String, PathBuf)>,
    /// `--solver NAME='cmd {cnf} ...'`: a solver speaking the competition format.
    pub commands: Vec<(String, String)>,
    /// `--puzzle-solver NAME='cmd ...'`: a dedicated solver speaking the puzzle line
    /// protocol ([`lines`]).
    pub puzzle_commands: Vec<(String, String)>,
}

/// The built-in solvers, always available. `native` and `dpll` run inside bench; the
/// `-proc` forms run `bench solve` as a child process, measured exactly as an external
/// solver is (spawn, temporary file, rusage), for comparisons where that matters.
pub const BUILT_IN: &[&str] = &[
    "native",
    "dpll",
    "native-proc",
    "dpll-proc",
    dedicated::NAME,
];

/// The `bench` executable, for the `-proc` solvers: this process when it is bench; from
/// another program built on the library (a test, a criterion bench), the `bench` that
/// cargo builds beside it (`target/debug/bench` next to `target/debug/deps/…`).
fn own_executable() -> anyhow::Result<PathBuf> {
    let exe = std::env::current_exe()?;
    if exe.file_stem().is_some_and(|s| s == "bench") {
        return Ok(exe);
    }
    exe.ancestors()
        .skip(1)
        .take(2)
        .map(|dir| dir.join("bench"))
        .find(|p| external::run::is_executable(p))
        .ok_or_else(|| anyhow::anyhow!("no bench executable beside {}", exe.display()))
}

/// The in-process library solvers (minisat, glucose, cadical through the RustSAT crates):
/// name and what it is. They are in this build when [`LIBRARY_BUILT`] is true.
pub const LIBRARY: &[(&str, &str)] = &[
    ("minisat-lib", "MiniSat 2.2 core, rustsat-minisat"),
    ("glucose-lib", "Glucose 4 core, rustsat-glucose"),
    ("cadical-lib", "CaDiCaL, rustsat-cadical"),
];

/// True when this bench was built with the library solvers (feature `rustsat-solvers`).
pub const LIBRARY_BUILT: bool = cfg!(feature = "rustsat-solvers");

/// How to get the library solvers into a build that lacks them.
pub const LIBRARY_HOWTO: &str = "build bench with `--features rustsat-solvers` (needs a C++ \
     compiler, cmake and libclang-dev: scripts/install-solvers.sh installs them and builds it)";

/// Finds a solver by the name a user types (`bench solve --solver`, `bench shrink`): a
/// `--solver`/`--puzzle-solver` command of that exact name, else the name parsed once into
/// a [`SolverSpec`] and found by [`by_spec`].
pub fn by_name(name: &str, config: &SolverConfig) -> anyhow::Result<Box<dyn Solver>> {
    if let Some(solver) = user_solver(name, config)? {
        return Ok(solver);
    }
    by_spec(&SolverSpec::parse(name)?, config)
}

/// A `--puzzle-solver NAME='cmd'` of the user's named `name` (it wins over every name
/// bench knows), or a `--solver NAME='cmd'` (it wins over every name but the built-in
/// solvers').
fn user_solver(name: &str, config: &SolverConfig) -> anyhow::Result<Option<Box<dyn Solver>>> {
    if let Some((_, cmd)) = config.puzzle_commands.iter().find(|(n, _)| n == name) {
        return Ok(Some(Box::new(lines::LineSolver::from_command(name, cmd)?)));
    }
    if !BUILT_IN.contains(&name) && config.commands.iter().any(|(n, _)| n == name) {
        return Ok(Some(external::find(name, config)?));
    }
    Ok(None)
}

/// Finds the solver of `spec`: a user's command of its name, built-in, a library solver,
/// or a known external binary. Settings (`NAME:key=value,...`) are for native and the
/// library solvers (see [`config`]).
pub fn by_spec(spec: &SolverSpec, config: &SolverConfig) -> anyhow::Result<Box<dyn Solver>> {
    let name = spec.name();
    if let Some(solver) = user_solver(&name, config)? {
        return Ok(solver);
    }
    if LIBRARY.iter().any(|(n, _)| *n == spec.base) {
        return library(spec);
    }
    if spec.base == "native" {
        return Ok(Box::new(InProcess(native::Native::from_spec(spec)?)));
    }
    if !spec.settings.is_empty() {
        return Err(config::ConfigError::NoSettings(
            name,
            format!(
                "settings are for native and the library solvers, not {}",
                spec.base
            ),
        )
        .into());
    }
    match name.as_str() {
        "dpll" => Ok(Box::new(InProcess(dpll::DpllSolver))),
        dedicated::NAME => Ok(Box::new(dedicated::Gridsolve)),
        "native-proc" | "dpll-proc" => proc_solver(&name),
        _ => external::find(&name, config),
    }
}

/// `native-proc` or `dpll-proc`: `bench solve` as a child process.
fn proc_solver(name: &str) -> anyhow::Result<Box<dyn Solver>> {
    let exe = own_executable()?;
    let exe = exe.to_str().filter(|p| !p.contains('\'')).ok_or_else(|| {
        anyhow::anyhow!(
            "{name}: bench's own path {} cannot be quoted",
            exe.display()
        )
    })?;
    let inner = name.trim_end_matches("-proc");
    let command = format!("'{exe}' solve --solver {inner} {{cnf}}");
    let solver = external::ExternalSolver::from_command(name, &command)?;
    // native writes DRAT proofs as a child too; dpll has none to write.
    Ok(Box::new(if inner == "native" {
        solver.with_adapter(&external::adapters::BENCH_NATIVE)
    } else {
        solver.with_adapter(&external::adapters::BENCH_DPLL)
    }))
}

/// A variable count claimed beyond the variables used by more than this is not passed to
/// an in-process solver (it would allocate per claimed variable): it gets a copy of the
/// formula sized by the variables actually used.
const CLAIM_SLACK: u32 = 1 << 20;

/// Bytes an in-process solver needs, about, for `cnf` (clause storage with headers and
/// watches, per-variable state): what [`InProcess`] holds against the memory budget. The
/// per-variable part is measured: native on one clause over 2,000,000 variables peaks at
/// 578 MB resident, 289 bytes a variable (its arrays grow by doubling).
pub fn in_process_estimate(cnf: &Cnf, vars: u32) -> u64 {
    cnf.num_lits() as u64 * 12 + cnf.num_clauses() as u64 * 32 + u64::from(vars) * 320
}

/// The memory budget of an in-process solver, bytes: `--mem-limit` when given, else what
/// the machine has available now (`MemAvailable`), since the solver's memory is bench's;
/// never more than half the address space `ulimit -v` leaves bench (the formula and the
/// other workers live there too), so that a solver too big is a MEMOUT, not an abort.
pub fn in_process_budget(limits: &Limits) -> Option<u64> {
    let wanted = memory_wanted(limits);
    match (
        wanted,
        crate::cnf::budget::address_space_left().map(|b| b / 2),
    ) {
        (Some(w), Some(r)) => Some(w.min(r)),
        (w, r) => w.or(r),
    }
}

/// `--mem-limit`, else `MemAvailable`, bytes.
fn memory_wanted(limits: &Limits) -> Option<u64> {
    if let Some(mb) = limits.mem_limit_mb {
        return Some(mb.saturating_mul(1 << 20));
    }
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kb: u64 = meminfo
        .lines()
        .find(|l| l.starts_with("MemAvailable:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(kb * 1024)
}

/// An in-process solver (`native`, `dpll`) as bench runs it: sized by the variables the
/// clauses use, not by the header's claim, and refused (MEMOUT, with the reason) up
/// front when its estimated memory exceeds the budget, instead of aborting bench on a
/// failed allocation.
pub struct InProcess<S>(pub S);

impl<S: Solver> Solver for InProcess<S> {
    fn name(&self) -> &str {
        self.0.name()
    }

    fn version(&self) -> Option<String> {
        self.0.version()
    }

    fn proof_style(&self) -> Option<ProofStyle> {
        self.0.proof_style()
    }

    fn in_process(&self) -> bool {
        true
    }

    fn path(&self) -> Option<PathBuf> {
        self.0.path()
    }

    fn session(&self, seed: u64) -> Option<Box<dyn Session>> {
        self.0.session(seed)
    }

    fn solve(&self, cnf: &Cnf, limits: &Limits) -> Outcome {
        let used = cnf.max_var_used();
        let vars = if cnf.num_vars().saturating_sub(used) > CLAIM_SLACK {
            used
        } else {
            cnf.num_vars()
        };
        let need = in_process_estimate(cnf, vars);
        let budget = in_process_budget(limits);
        if let Some(budget) = budget
            && need > budget
        {
            return Outcome {
                error: Some(format!(
                    "{} would need about {} MiB for {} clauses over {vars} variables, more \
                     than its memory budget of {} MiB",
                    self.name(),
                    need >> 20,
                    cnf.num_clauses(),
                    budget >> 20
                )),
                ..Outcome::new(Status::Memout)
            };
        }
        // The budget found here is the solver's too (its search checks against it): as an
        // explicit limit, so that /proc/meminfo is read once a solve.
        let limits = &Limits {
            mem_limit_mb: budget.map(|b| b >> 20),
            ..limits.clone()
        };
        if vars < cnf.num_vars() {
            self.0.solve(&cnf.sized_by_use(), limits)
        } else {
            self.0.solve(cnf, limits)
        }
    }
}

/// A library solver from its spec, or why this build has none.
fn library(spec: &SolverSpec) -> anyhow::Result<Box<dyn Solver>> {
    #[cfg(feature = "rustsat-solvers")]
    if let Some(solver) = rustsat::by_spec(spec) {
        return Ok(solver?);
    }
    anyhow::bail!(
        "{}: this bench was built without the in-process library solvers: {LIBRARY_HOWTO}",
        spec.base
    )
}

/// Takes the RustSAT crates' build folders off `LD_LIBRARY_PATH`. Cargo puts every native
/// library folder of a dependency on it for `cargo run` and `cargo test`, and the minisat
/// and glucose crates build a `libminisat.so.2` there (bench links the static one): an
/// external `/usr/bin/minisat`, dynamically linked against Debian's `libminisat.so.2`,
/// would load the crate's instead and run wild (it allocated 23 GB here). Call it at the
/// start of `main`, while the process has one thread (the environment is process-wide).
pub fn scrub_library_path() {
    const VAR: &str = "LD_LIBRARY_PATH";
    let Some(value) = std::env::var_os(VAR) else {
        return;
    };
    let kept: Vec<PathBuf> = std::env::split_paths(&value)
        .filter(|p| !p.to_string_lossy().contains("/build/rustsat-"))
        .collect();
    if kept.len() == std::env::split_paths(&value).count() {
        return;
    }
    // SAFETY: called first thing in `main`, before bench starts any thread, so nothing
    // reads the environment concurrently.
    unsafe {
        match std::env::join_paths(&kept) {
            Ok(v) if !kept.is_empty() => std::env::set_var(VAR, v),
            _ => std::env::remove_var(VAR),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_process_solvers_size_by_use_and_keep_to_their_budget() {
        let claimed = Cnf::from_dimacs_clauses(2_000_000_000, &[vec![1, 2], vec![-1]]);
        for name in ["native", "dpll"] {
            let solver = by_name(name, &SolverConfig::default()).unwrap();
            let out = solver.solve(&claimed, &Limits::default());
            assert_eq!(out.status, Status::Sat, "{name}: {:?}", out.error);
            // A formula of ~2 million literals within a 1 MiB budget: refused, not tried.
            let clauses: Vec<Vec<i32>> = (1..=1_000_000).map(|v| vec![v, -(v + 1)]).collect();
            let big = Cnf::from_dimacs_clauses(0, &clauses);
            let tight = Limits {
                mem_limit_mb: Some(1),
                ..Limits::default()
            };
            let out = solver.solve(&big, &tight);
            assert_eq!(out.status, Status::Memout, "{name}");
            assert!(out.error.unwrap().contains("budget"));
        }
    }
}
