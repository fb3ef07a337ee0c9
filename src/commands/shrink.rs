//! `bench shrink`: a WRONG (or ERROR) row of a results CSV, or a CNF and a solver, to the
//! smallest formula on which the solver still fails as bench judges it (see
//! [`crate::shrink`]). A row is found again as its run found it: the instance in its
//! corpus (by content hash), the solver and its limits from the run's `run.json`. Writes
//! the small DIMACS file and prints the one `bench run` that shows the failure on it.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail};

use crate::cli::{LimitArgs, ShrinkArgs, SolverLookupArgs};
use crate::cnf::Cnf;
use crate::cnf::dimacs::{ParseOptions, read_path};
use crate::results::{Check, Row, read_rows};
use crate::run::corpus::Source;
use crate::run::limits::RunLimits;
use crate::run::plan::Plan;
use crate::run::proof::ChainLimits;
use crate::shrink::reduce::Formula;
use crate::shrink::{Failure, Judge, formula_of};
use crate::solver::{Limits, SolverConfig, Status};

/// What to shrink, found from the command line.
struct Target {
    /// The formula.
    cnf: Cnf,
    /// The solver's name.
    solver: String,
    /// Where solvers are found.
    config: SolverConfig,
    /// The failure the row records (None for `--cnf`: whatever the solver shows).
    expected: Option<Failure>,
    /// The limits of each solve.
    limits: RunLimits,
    /// The default output file.
    out: PathBuf,
}

pub(super) fn run(args: ShrinkArgs) -> anyhow::Result<i32> {
    let target = match (&args.results, &args.cnf) {
        (Some(csv), None) => from_row(&args, csv)?,
        (None, Some(cnf)) => from_cnf(&args, cnf)?,
        _ => bail!("give a results CSV (with --row, or --instance and --solver) or --cnf FILE"),
    };
    let solver = crate::solver::by_name(&target.solver, &target.config)?;
    let limits = Limits {
        timeout: Some(target.limits.wall()),
        cpu_limit: target.limits.cpu(),
        mem_limit_mb: target.limits.mem_limit_mb,
        ..Limits::default()
    };
    let mut judge = Judge::new(solver.as_ref(), limits, target.config.clone())?;
    if args.proofs || target.expected == Some(Failure::RejectedProof) {
        // The chain's own limit, as `bench run`'s default: 9× the solver's.
        judge.proofs = Some(ChainLimits {
            timeout: Duration::from_secs_f64(9.0 * target.limits.timeout_s),
            mem_limit_mb: target.limits.mem_limit_mb,
            interrupt: None,
        });
    }
    let start = formula_of(&target.cnf);
    let (clauses, vars) = (start.clauses.len(), start.num_vars);
    let shrunk = crate::shrink::shrink(&mut judge, start, target.expected, &mut |line| {
        eprintln!("shrink: {line}");
    })?;
    let out = args.out.clone().unwrap_or(target.out.clone());
    let command = reproduce(&target, &out, shrunk.failure, judge.witness.name());
    write_formula(&out, &shrunk.formula, &target.solver, &shrunk, &command)?;
    println!(
        "shrunk: {} shows {} ({}); {clauses} clauses over {vars} variables down to {} over {} \
         ({} solves)",
        target.solver,
        shrunk.failure,
        crate::text::terminal(&shrunk.why),
        shrunk.formula.clauses.len(),
        shrunk.formula.num_vars,
        shrunk.solves
    );
    println!(
        "written: {}",
        crate::text::terminal(&out.display().to_string())
    );
    println!("reproduce: {command}");
    Ok(0)
}

/// The limits of each solve: the time limits given, by `bench run`'s convention
/// (`RunLimits::of`), else the `recorded` ones (the row's run's; `bench run`'s defaults for
/// `--cnf`); the memory limit given, else the recorded one.
fn limits_of(given: &LimitArgs, recorded: RunLimits) -> anyhow::Result<RunLimits> {
    let mut limits = if given.timed() {
        given
            .run_limits()
            .map_err(|e| anyhow::anyhow!("the limits: {e}"))?
    } else {
        recorded
    };
    limits.mem_limit_mb = given.mem_limit.or(recorded.mem_limit_mb);
    Ok(limits)
}

/// The failure a judged row records, if it records one.
fn failure_of(row: &Row) -> Option<Failure> {
    match (row.status, row.wrong) {
        (Status::Sat, true) => Some(Failure::WrongModel),
        (Status::Unsat, true) if row.check == Check::ProofFailed => Some(Failure::RejectedProof),
        (Status::Unsat, true) => Some(Failure::WrongUnsat),
        (Status::Error, _) => Some(Failure::Crash(row.exit_code)),
        _ => None,
    }
}

/// The row `args` names: `--row N`, or the first failing row of `--instance` (and
/// `--solver`), or the file's first failing row; and its number.
fn pick_row(args: &ShrinkArgs, csv: &Path, rows: &[Row]) -> anyhow::Result<(usize, Row)> {
    let name = csv.display();
    if let Some(n) = args.row {
        return match rows.get(n.wrapping_sub(1)) {
            Some(r) => Ok((n, r.clone())),
            None => bail!("{name} has {} rows: no row {n}", rows.len()),
        };
    }
    let solver = args.solver.as_deref().map(solver_name);
    rows.iter()
        .enumerate()
        .find(|(_, r)| {
            failure_of(r).is_some()
                && args.instance.as_deref().is_none_or(|i| r.instance == i)
                && solver.is_none_or(|s| r.solver == s)
        })
        .map(|(i, r)| (i + 1, r.clone()))
        .with_context(|| format!("{name}: no WRONG or ERROR row of that instance and solver"))
}

/// The name of `--solver NAME` or `--solver NAME='cmd'`.
fn solver_name(spec: &str) -> &str {
    match spec.split_once('=') {
        Some((name, _)) if !name.contains(':') => name,
        _ => spec,
    }
}

/// The solver lookup of `--solver` and `--solver-path`, over `base` (a run's).
fn lookup(args: &ShrinkArgs, mut base: SolverConfig) -> anyhow::Result<SolverConfig> {
    let commands = match &args.solver {
        Some(s) if solver_name(s) != s => vec![s.clone()],
        _ => Vec::new(),
    };
    let given = super::solver_config(&SolverLookupArgs {
        paths: args.paths.clone(),
        solver_cmd: commands,
        puzzle_solver_cmd: Vec::new(),
    })?;
    // What is given now wins over what the run recorded.
    base.paths
        .retain(|(n, _)| !given.paths.iter().any(|(g, _)| g == n));
    base.commands
        .retain(|(n, _)| !given.commands.iter().any(|(g, _)| g == n));
    base.paths.extend(given.paths);
    base.commands.extend(given.commands);
    Ok(base)
}

fn from_row(args: &ShrinkArgs, csv: &Path) -> anyhow::Result<Target> {
    let rows = read_rows(csv, false)?;
    let (n, row) = pick_row(args, csv, &rows)?;
    let Some(expected) = failure_of(&row) else {
        bail!(
            "{}: row {n} ({} on {}) is {}, neither WRONG nor an ERROR: nothing to shrink",
            csv.display(),
            row.solver,
            row.instance,
            row.status
        );
    };
    let dir = csv.parent().filter(|p| !p.as_os_str().is_empty());
    let dir = dir.unwrap_or(Path::new("."));
    let record = crate::run::record::read_run(dir);
    let plan: Option<&Plan> = record.as_ref().map(|r| &r.plan);
    let cwd = record
        .as_ref()
        .map_or_else(|| PathBuf::from("."), |r| r.cwd.clone());
    let config = lookup(args, plan.map(Plan::solver_config).unwrap_or_default())?;
    let cnf =
        formula_of_row(&row, plan, &cwd).with_context(|| format!("{}: row {n}", csv.display()))?;
    Ok(Target {
        cnf,
        solver: row.solver.to_string(),
        config,
        expected: Some(expected),
        limits: limits_of(
            &args.limits,
            RunLimits {
                timeout_s: row.timeout_s,
                cpu_limit_s: row.cpu_limit_s,
                mem_limit_mb: plan.and_then(|p| p.limits.mem_limit_mb),
            },
        )?,
        out: dir.join(format!("shrunk-row-{n}.cnf")),
    })
}

/// The formula a row's run solved: its instance found again in its corpus (by content
/// hash, else by id), read or encoded.
fn formula_of_row(row: &Row, plan: Option<&Plan>, cwd: &Path) -> anyhow::Result<Cnf> {
    let read = plan.map(Plan::read_options).unwrap_or_default();
    let corpus = PathBuf::from(row.corpus.as_str());
    let loaded = crate::run::corpus::load(cwd, std::slice::from_ref(&corpus), &read, false)?;
    let instance = loaded
        .instances
        .iter()
        .find(|i| {
            if row.hash.is_empty() {
                i.id == row.instance
            } else {
                i.hash == row.hash
            }
        })
        .with_context(|| {
            format!(
                "instance {} is no longer in {} (its content changed, or it was moved)",
                row.instance,
                corpus.display()
            )
        })?;
    match &instance.source {
        Source::Dimacs(path) => Ok(read_path(path, ParseOptions::default())
            .with_context(|| format!("reading {}", path.display()))?
            .cnf),
        Source::Puzzle(p) => {
            let encoding = crate::encode::Encoding::parse(&row.encoding)
                .with_context(|| format!("unknown encoding `{}`", row.encoding))?;
            let opts = crate::encode::EncodeOptions {
                encoding,
                amo: plan.map(|p| p.amo).unwrap_or_default(),
            };
            let mut cnf = Cnf::new(0);
            let vars = crate::encode::encode(p, opts, &mut cnf);
            cnf.ensure_vars(vars);
            Ok(cnf)
        }
    }
}

fn from_cnf(args: &ShrinkArgs, path: &Path) -> anyhow::Result<Target> {
    let Some(spec) = &args.solver else {
        bail!("--cnf needs --solver NAME (or NAME='/path/solver {{cnf}}')");
    };
    let cnf = read_path(path, ParseOptions::default())
        .with_context(|| format!("reading {}", path.display()))?
        .cnf;
    let name = path
        .file_name()
        .map_or_else(|| "formula".into(), |n| n.to_string_lossy().into_owned());
    let stem = ["xz", "gz"]
        .iter()
        .fold(name.as_str(), |n, ext| {
            n.strip_suffix(&format!(".{ext}")).unwrap_or(n)
        })
        .trim_end_matches(".cnf")
        .to_string();
    Ok(Target {
        cnf,
        solver: solver_name(spec).to_string(),
        config: lookup(args, SolverConfig::default())?,
        expected: None,
        limits: limits_of(&args.limits, RunLimits::default())?,
        out: path.with_file_name(format!("{stem}.shrunk.cnf")),
    })
}

/// The one `bench run` that shows the failure on `out`: the solver (with the witness
/// whose model refutes a wrong UNSAT), its lookup, and the limits.
fn reproduce(target: &Target, out: &Path, failure: Failure, witness: &str) -> String {
    let q = |s: &str| shell_words::quote(s).into_owned();
    let solvers = match failure {
        Failure::WrongUnsat => format!("{witness},{}", target.solver),
        _ => target.solver.clone(),
    };
    let mut words = vec![
        "bench".to_string(),
        "run".into(),
        q(&out.display().to_string()),
        "--solvers".into(),
        q(&solvers),
        "--timeout".into(),
        crate::results::format_seconds(target.limits.timeout_s),
    ];
    if let Some(cpu) = target.limits.cpu_limit_s {
        words.extend(["--cpu-limit".into(), crate::results::format_seconds(cpu)]);
    }
    if let Some(mb) = target.limits.mem_limit_mb {
        words.extend(["--mem-limit".into(), mb.to_string()]);
    }
    if failure == Failure::RejectedProof {
        words.push("--proofs".into());
    }
    for (name, cmd) in &target.config.commands {
        if *name == target.solver {
            words.extend(["--solver".into(), q(&format!("{name}={cmd}"))]);
        }
    }
    for (name, path) in &target.config.paths {
        if *name == target.solver {
            words.extend([
                "--solver-path".into(),
                q(&format!("{name}={}", path.display())),
            ]);
        }
    }
    words.join(" ")
}

/// Writes the small formula, with what it shows and how to see it as comments.
fn write_formula(
    out: &Path,
    formula: &Formula,
    solver: &str,
    shrunk: &crate::shrink::Shrunk,
    command: &str,
) -> anyhow::Result<()> {
    let cnf = Cnf::from_dimacs_clauses(formula.num_vars, &formula.clauses);
    let one_line = |s: &str| crate::text::escape_controls(s).into_owned();
    let comments = vec![
        one_line(&format!(
            "shrunk by bench shrink: {solver} shows {} ({})",
            shrunk.failure, shrunk.why
        )),
        one_line(&format!("reproduce: {command}")),
    ];
    let file = std::fs::File::create(out).with_context(|| format!("writing {}", out.display()))?;
    let mut w = std::io::BufWriter::new(file);
    crate::cnf::dimacs::write_cnf(&mut w, &cnf, &comments)
        .with_context(|| format!("writing {}", out.display()))?;
    std::io::Write::flush(&mut w).with_context(|| format!("writing {}", out.display()))?;
    Ok(())
}
