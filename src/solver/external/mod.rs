//! External solvers, run as child processes: finding them, running them, reading their
//! answers.
//!
//! The pieces, one concept a file: `adapters.rs` is the table of what bench knows about
//! each solver (invocation, answer shape, exit codes, memory-failure text, version,
//! proof flags); `locate.rs` finds binaries and versions; `command.rs` splits and fills
//! command templates; `run.rs` runs one child under limits and measures it; `verdict.rs`
//! turns a finished child into an answer. This file ties them into [`Solver`]s.
//!
//! Every external solver gets the CNF as plain DIMACS written by bench into a temporary
//! directory (solvers disagree on compressed input, and bench only hands them what it
//! wrote itself), which is removed when the run ends (by the exec helper if bench
//! dies first; `cgroup.rs` and `run.rs` say how each run is contained).

pub mod adapters;
pub mod command;
pub mod locate;
pub mod verdict;

// The process sandbox, a crate of its own below bench, at its old paths.
pub use sandbox::{cgroup, exec_helper, reap, run};

use std::ffi::OsString;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use crate::cnf::ClauseSink;
use crate::cnf::Cnf;
use crate::cnf::dimacs::DimacsWriter;
use crate::solver::output::{
    AnswerConsumer, ModelBounds, OutputError, OutputFormat, Scanned, StatsSyntax, answer_stream,
};

use super::{DratFormat, Limits, Outcome, ProofStyle, Solver, SolverConfig, Status};
use adapters::{ADAPTERS, Adapter, GENERIC};
pub use adapters::{CAKE_LPR, RATE, Tool};
use command::Values;

/// The known name closest to a mistyped `name`, if one is close: the Jaro similarity
/// above 0.7 that clap uses to suggest an option's value.
pub fn did_you_mean<'a>(name: &str, known: &[&'a str]) -> Option<&'a str> {
    known
        .iter()
        .map(|k| (strsim::jaro(name, k), *k))
        .filter(|(score, _)| *score > 0.7)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k)| k)
}

/// Finds an external solver by name: a `--solver NAME=CMD` command first, then a known
/// solver (at its `--solver-path`, or found by [`locate`]'s search), then a
/// `--solver-path` with an unknown name (run as a competition-format solver).
pub fn find(name: &str, config: &SolverConfig) -> anyhow::Result<Box<dyn Solver>> {
    if let Some((_, cmd)) = config.commands.iter().rev().find(|(n, _)| n == name) {
        return Ok(Box::new(ExternalSolver::from_command(name, cmd)?));
    }
    let explicit = config
        .paths
        .iter()
        .rev()
        .find(|(n, _)| n == name)
        .map(|(_, p)| p);
    let adapter = adapters::adapter(name);
    if let Some(path) = explicit {
        if !run::is_executable(path) {
            bail!(
                "--solver-path {name}={}: not an executable file",
                path.display()
            );
        }
        let adapter = adapter.unwrap_or(&GENERIC);
        return Ok(Box::new(ExternalSolver::new(name, path.clone(), adapter)));
    }
    let Some(adapter) = adapter else {
        let known: Vec<&str> = crate::solver::BUILT_IN
            .iter()
            .copied()
            .chain(crate::solver::LIBRARY.iter().map(|(n, _)| *n))
            .chain(ADAPTERS.iter().map(|a| a.name))
            .collect();
        let hint = did_you_mean(name, &known)
            .map(|n| format!(" (did you mean `{n}`?)"))
            .unwrap_or_default();
        bail!(
            "unknown solver `{name}`{hint}; known: {}; any other solver that speaks the \
             competition format: --solver {name}='/path/to/solver {{cnf}} --flags'",
            known.join(", ")
        );
    };
    let Some(path) = locate::find_binary(adapter.binaries) else {
        // install-solvers.sh installs every known solver but zchaff, which has no package.
        let get = if adapter.name == "zchaff" {
            "zchaff has no package: build it from its source (README, \"Solvers\")"
        } else {
            "run scripts/install-solvers.sh"
        };
        bail!(
            "solver `{name}` not found (looked for {} in ${}, ./{dir}, the crate's {dir} and PATH); \
             {get} or pass --solver-path {name}=PATH",
            adapter.binaries.join(", "),
            locate::SOLVERS_DIR_ENV,
            dir = locate::INSTALL_DIR,
        );
    };
    Ok(Box::new(ExternalSolver::new(adapter.name, path, adapter)))
}

/// What discovery found out about one solver.
#[derive(Clone, Debug)]
pub struct SolverInfo {
    /// The solver's name.
    pub name: String,
    /// Where its binary is, if found.
    pub path: Option<std::path::PathBuf>,
    /// Its version, if found and it says.
    pub version: Option<String>,
}

/// Every known external solver (and `--solver` command, and `--solver-path` entry), found
/// or not, followed by the DRAT checker `rate`.
pub fn discover(config: &SolverConfig) -> Vec<SolverInfo> {
    let mut infos = Vec::new();
    let mut names: Vec<&str> = ADAPTERS.iter().map(|a| a.name).collect();
    let extra = config
        .paths
        .iter()
        .map(|(n, _)| n)
        .chain(config.commands.iter().map(|(n, _)| n));
    for n in extra {
        if n != RATE.name && n != CAKE_LPR.name && !names.contains(&n.as_str()) {
            names.push(n);
        }
    }
    for name in names {
        let info = match find(name, config) {
            Ok(solver) => SolverInfo {
                name: name.to_string(),
                version: solver.version(),
                path: solver_path(name, config),
            },
            Err(_) => SolverInfo {
                name: name.to_string(),
                path: None,
                version: None,
            },
        };
        infos.push(info);
    }
    for tool in [&RATE, &CAKE_LPR] {
        let path = find_tool(tool, config);
        let version = match &tool.version {
            Some(probe) => path
                .as_deref()
                .and_then(|p| locate::version(p, Some(probe))),
            // Said as it is: the binary cannot tell which release it is.
            None => path.as_ref().map(|_| "no version flag".to_string()),
        };
        infos.push(SolverInfo {
            name: tool.name.to_string(),
            version,
            path,
        });
    }
    infos
}

/// Where the solver `name` runs from under `config` (the program of a `--solver` command).
fn solver_path(name: &str, config: &SolverConfig) -> Option<PathBuf> {
    if let Some((_, cmd)) = config.commands.iter().rev().find(|(n, _)| n == name) {
        let words = command::split_words(cmd).ok()?;
        return locate::resolve_program(words.first()?);
    }
    if let Some((_, p)) = config.paths.iter().rev().find(|(n, _)| n == name) {
        return Some(p.clone());
    }
    locate::find_binary(adapters::adapter(name)?.binaries)
}

/// The DRAT checker `rate`: at `--solver-path rate=PATH`, or found like the solvers.
pub fn find_rate(config: &SolverConfig) -> Option<PathBuf> {
    find_tool(&RATE, config)
}

/// A tool (`rate`, cake_lpr): at `--solver-path NAME=PATH`, or found like the solvers.
pub fn find_tool(tool: &Tool, config: &SolverConfig) -> Option<PathBuf> {
    match config.paths.iter().rev().find(|(n, _)| n == tool.name) {
        Some((_, p)) => run::is_executable(p).then(|| p.clone()),
        None => locate::find_binary(tool.binaries),
    }
}

/// A solver binary run through its adapter.
#[derive(Clone, Debug)]
pub struct ExternalSolver {
    name: String,
    program: PathBuf,
    /// Argument templates (the adapter's, or a `--solver` command's).
    args: Vec<String>,
    adapter: &'static Adapter,
}

impl ExternalSolver {
    /// The solver `name` at `program`, invoked as `adapter` says.
    pub fn new(name: &str, program: PathBuf, adapter: &'static Adapter) -> ExternalSolver {
        ExternalSolver {
            name: name.to_string(),
            program,
            args: adapter.args.iter().map(|s| s.to_string()).collect(),
            adapter,
        }
    }

    /// A competition-format solver from a `--solver NAME='cmd {cnf} --flags'` command
    /// (the input file goes last when the command has no `{cnf}`).
    pub fn from_command(name: &str, cmd: &str) -> anyhow::Result<ExternalSolver> {
        let mut words = command::split_words(cmd).map_err(anyhow::Error::msg)?;
        if words.is_empty() {
            bail!("--solver {name}: empty command");
        }
        let program_word = words.remove(0);
        let program = locate::resolve_program(&program_word).with_context(|| {
            format!("--solver {name}: `{program_word}` is not an executable file")
        })?;
        if !words.iter().any(|w| w.contains("{cnf}")) {
            words.push("{cnf}".into());
        }
        Ok(ExternalSolver {
            name: name.to_string(),
            program,
            args: words,
            adapter: &GENERIC,
        })
    }

    /// The same command read through `adapter` (its answer shape, exit codes, proof
    /// flags) instead of the generic competition format.
    pub fn with_adapter(self, adapter: &'static Adapter) -> ExternalSolver {
        ExternalSolver { adapter, ..self }
    }

    /// The binary this solver runs.
    pub fn program(&self) -> &Path {
        &self.program
    }

    /// The adapter (what bench knows about this solver).
    pub fn adapter(&self) -> &'static Adapter {
        self.adapter
    }

    /// The full argument list for one run.
    fn arguments(&self, values: &Values, limits: &Limits) -> Result<Vec<OsString>, String> {
        let mut templates: Vec<&str> = self.args.iter().map(String::as_str).collect();
        if let Some(seed) = self.adapter.seed.filter(|_| limits.seed != 0) {
            templates.extend(seed);
        }
        if limits.proof.is_some() {
            let format = if limits.binary_proof {
                "binary"
            } else {
                "text"
            };
            let flags = self.adapter.proof.and_then(|p| {
                let extra = if limits.binary_proof {
                    p.binary
                } else {
                    p.text
                };
                extra.map(|e| (p.args, e))
            });
            let Some((args, extra)) = flags else {
                return Err(format!("{} cannot write a {format} DRAT proof", self.name));
            };
            templates.extend(args);
            templates.extend(extra);
        }
        templates
            .iter()
            .map(|t| command::expand(t, values))
            .collect()
    }
}

impl Solver for ExternalSolver {
    fn name(&self) -> &str {
        &self.name
    }

    fn version(&self) -> Option<String> {
        locate::version(&self.program, self.adapter.version.as_ref())
    }

    fn path(&self) -> Option<PathBuf> {
        Some(self.program.clone())
    }

    fn proof_style(&self) -> Option<ProofStyle> {
        let flags = self.adapter.proof?;
        let format = if flags.binary.is_some() {
            DratFormat::Binary
        } else {
            flags.text.map(|_| DratFormat::Text)?
        };
        Some(ProofStyle {
            format,
            skip_unit_deletions: flags.skip_unit_deletions,
        })
    }

    fn solve(&self, cnf: &Cnf, limits: &Limits) -> Outcome {
        // A folder reused from run to run (see `RunDir`): input.cnf is written over in place
        // and every other file removed between runs, so a missing answer still reads as
        // none.
        let mut dir = match run::RunDir::take() {
            Ok(d) => d,
            Err(e) => {
                return Outcome::not_started(format!("cannot create a temporary directory: {e}"));
            }
        };
        // A header that claims far more variables than the clauses use (`p cnf 2000000000
        // 2`) makes solvers allocate for all of them: kissat and cryptominisat refuse it,
        // cadical and picosat run out of memory. They get the true maximum instead; the
        // model is still checked against the original formula, and the row says so.
        let bounds = ModelBounds::for_formula(cnf.num_vars(), cnf.max_var_used());
        let vars = bounds.keep;
        let input = match dir.rewrite("input.cnf", |file| write_input(file, cnf, vars)) {
            Ok(p) => p,
            Err(e) => {
                let input = dir.path().join("input.cnf");
                return Outcome::not_started(format!("cannot write {}: {e}", input.display()));
            }
        };
        let res = dir.path().join("result.txt");
        let values = Values {
            cnf: Some(&input),
            res: Some(&res),
            proof: limits.proof.as_deref(),
            seed: Some(limits.seed),
            secs: limits.timeout.map(|t| t.as_secs() + 2),
        };
        let args = match self.arguments(&values, limits) {
            Ok(a) => a,
            Err(e) => return Outcome::error(e),
        };
        let mut spec = run::Spec::new(&self.program, &args);
        spec.timeout = limits.timeout;
        spec.cpu_limit = limits.cpu_limit;
        spec.mem_limit_mb = limits.mem_limit_mb;
        spec.interrupt = limits.interrupt.as_deref();
        spec.tmp_dir = Some(dir.path());
        // Stdout read as it arrives, the model straight into an assignment (no model is too
        // big to keep; `stdout_cap` then caps only the other lines); minisat's answer is
        // in its result file instead.
        // The work counters are read from the same stream, beside the answer.
        let syntax = self.adapter.stats.unwrap_or(StatsSyntax::NameColonValue);
        let ran = if self.adapter.answer != OutputFormat::Minisat {
            let stream =
                answer_stream(self.adapter.answer, ModelBounds::all(vars), spec.stdout_cap);
            run::run_with(&spec, Scanned::new(AnswerConsumer::new(stream), syntax)).map(
                |(done, consumer)| match consumer {
                    Some(c) => (done, c.inner.claim(), c.stats.counters()),
                    None => (done, None, Vec::new()),
                },
            )
        } else {
            run::run_with(
                &spec,
                Scanned::new(run::Capped::new(spec.stdout_cap), syntax),
            )
            .map(|(done, consumer)| {
                let counters = consumer.map(|c| c.stats.counters());
                (done, None, counters.unwrap_or_default())
            })
        };
        let (done, streamed, counters) = match ran {
            Ok(d) => d,
            Err(e) if limits.mem_limit_mb.is_some() && e.raw_os_error() == Some(libc::ENOMEM) => {
                return Outcome {
                    error: Some(format!(
                        "cannot start {} within the memory limit: {e}",
                        self.program.display()
                    )),
                    ..Outcome::new(Status::Memout)
                };
            }
            Err(e) => {
                return Outcome::not_started(format!("cannot run {}: {e}", self.program.display()));
            }
        };
        if done.containment == run::Kind::ProcessGroup || !done.stdout_complete {
            dir.remove_after();
        }
        // minisat's result file, streamed like stdout: the model into an assignment, no
        // copy of the file kept. A missing file reads as empty (no result).
        let result_file = (self.adapter.answer == OutputFormat::Minisat).then(|| {
            let stream = answer_stream(OutputFormat::Minisat, ModelBounds::all(vars), 0);
            let mut consumer = AnswerConsumer::new(stream);
            if let Ok(f) = std::fs::File::open(&res) {
                run::read_into(f, &mut consumer);
            }
            consumer.end();
            consumer.claim().unwrap_or(Err(OutputError::NoResult))
        });
        let mut outcome = verdict::verdict_for(self.adapter, &done, streamed, result_file, vars);
        if self.adapter.stats.is_some() {
            outcome.stats = counters;
        }
        outcome.wall = done.wall;
        outcome.cpu = done.cpu;
        outcome.max_rss_kb = done.max_rss_kb;
        outcome.exit_code = match done.exit {
            run::Exit::Code(c) => Some(c),
            // The shell's convention, so a CSV column shows a signal death distinctly.
            run::Exit::Signal(s) => Some(128 + s),
        };
        if vars < cnf.num_vars() {
            let note = format!(
                "the header's {} variables were passed as {vars}, the highest variable the \
                 clauses use",
                cnf.num_vars()
            );
            outcome.error = Some(match outcome.error.take() {
                Some(e) => format!("{e}; {note}"),
                None => note,
            });
        }
        verdict::score_late(&mut outcome, limits.timeout);
        verdict::score_late_cpu(&mut outcome, limits.cpu_limit);
        outcome
    }
}

/// Writes `cnf` with `vars` in its header (at least the highest variable used) to `file`.
fn write_input(file: &mut std::fs::File, cnf: &Cnf, vars: u32) -> std::io::Result<()> {
    let out = BufWriter::with_capacity(1 << 20, file);
    let mut w = DimacsWriter::new(out, &[], vars, cnf.num_clauses() as u64)?;
    for c in cnf.clauses() {
        w.add_clause(c);
    }
    w.finish()?.flush()
}
