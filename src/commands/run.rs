//! `bench run`: validates the command line into [`RunOptions`], installs the Ctrl-C
//! handler, runs the benchmark, and prints the summary (wrong answers first).

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use anyhow::{Context, bail};
use clap::Parser;

use crate::cli::{Cli, Command, RunArgs};
use crate::report::TimeBasis;
use crate::report::score;
use crate::report::score::Scoring;
use crate::results::Check;
use crate::run::shard::Shard;
use crate::run::{RunOptions, run as run_benchmark};
use crate::study;
use crate::study::plan::StudyPlan;

/// The process-wide interrupt flag, set by Ctrl-C, SIGTERM or SIGHUP (installed once):
/// `scancel`, `timeout` and service managers stop with SIGTERM, a closed terminal with
/// SIGHUP, and each is a stop like Ctrl-C.
fn interrupt_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let handler_flag = flag.clone();
        let _ = ctrlc::set_handler(move || {
            if handler_flag.swap(true, Ordering::SeqCst) {
                // A second stop: the user means it (the helpers end the runs).
                std::process::exit(130);
            }
            eprintln!(
                "\nbench: interrupted (Ctrl-C, SIGTERM or SIGHUP): stopping the running solvers, \
                 keeping every finished row"
            );
        });
        flag
    })
    .clone()
}

/// The options of the run being resumed, and its command line, from its run.json.
fn resumed_args(dir: &std::path::Path) -> anyhow::Result<(RunArgs, Vec<String>)> {
    let path = dir.join("run.json");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let meta: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("{}: not JSON", path.display()))?;
    let argv: Vec<String> = meta["command_line"]
        .as_array()
        .context("run.json has no command_line")?
        .iter()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect();
    match Cli::try_parse_from(&argv) {
        Ok(Cli {
            command: Command::Run(args),
        }) => Ok((args, argv)),
        _ => bail!(
            "{}: the recorded command line is not a `bench run`",
            path.display()
        ),
    }
}

/// The `bench run` arguments of a study's plan.
pub(crate) fn plan_args(plan: &StudyPlan) -> anyhow::Result<RunArgs> {
    match Cli::try_parse_from(&plan.command_line) {
        Ok(Cli {
            command: Command::Run(args),
        }) => Ok(args),
        _ => bail!("the study's plan holds no `bench run` command line"),
    }
}

/// The plan fingerprint a run recorded in `dir/run.json`.
fn recorded_fingerprint(dir: &Path) -> Option<String> {
    crate::study::status::shard_meta(dir)?["fingerprint"]
        .as_str()
        .map(str::to_string)
}

/// Validates the arguments.
pub(crate) fn options(args: RunArgs) -> anyhow::Result<RunOptions> {
    let mut expected_fingerprint = None;
    // A bare `bench run --resume DIR` runs the recorded command again, resumed; `--study DIR
    // --shard K/N` runs the study's plan in its shard folder, resumed if it has started.
    let (args, command_line) = match (&args.resume, args.corpora.is_empty(), &args.study) {
        (_, _, Some(study)) => {
            let plan = study::plan::read(study)?;
            let study = &study::plan::enter_plan_dir(&plan, study)?;
            let shard_arg = args.shard.clone().unwrap_or_default();
            let shard: Shard = shard_arg.parse()?;
            if shard.n != plan.shards {
                bail!(
                    "--shard {shard}: the study in {} has {} shards",
                    study.display(),
                    plan.shards
                );
            }
            expected_fingerprint = Some(plan.fingerprint.clone());
            let mut argv = plan.command_line.clone();
            argv.extend(["--shard".into(), shard_arg, "--out".into()]);
            argv.push(study.display().to_string());
            (
                RunArgs {
                    resume: Some(study::plan::shard_dir(study, shard)),
                    out: Some(study.clone()),
                    shard: args.shard.clone(),
                    study: None,
                    ..plan_args(&plan)?
                },
                argv,
            )
        }
        (Some(dir), true, None) => {
            let (recorded, argv) = resumed_args(dir)?;
            // A shard resumes only the plan it started with (a plain run may resume a
            // corpus that grew), from the folder its study was planned in.
            let mut dir = dir.clone();
            if recorded.shard.is_some() {
                expected_fingerprint = recorded_fingerprint(&dir);
                let study_dir = dir.parent().and_then(Path::parent);
                if let Some(plan) = study_dir.and_then(|s| study::plan::read(s).ok()) {
                    dir = study::plan::enter_plan_dir(&plan, &dir)?;
                }
            }
            let dir = &dir;
            (
                RunArgs {
                    resume: Some(dir.clone()),
                    ..recorded
                },
                argv,
            )
        }
        (Some(dir), false, None) => {
            if args.shard.is_some() {
                expected_fingerprint = recorded_fingerprint(dir);
            }
            (args, std::env::args().collect())
        }
        _ => (args, std::env::args().collect()),
    };
    let shard: Option<Shard> = args.shard.as_deref().map(str::parse).transpose()?;
    // A shard writes into STUDY/shards/K-of-N.
    let (out, study) = match (shard, &args.out, &args.resume) {
        (Some(s), Some(study), _) => (Some(study::plan::shard_dir(study, s)), Some(study.clone())),
        (Some(_), None, None) => {
            bail!("--shard needs --out STUDY: the shard writes STUDY/shards/K-of-N/")
        }
        _ => (args.out.clone(), None),
    };
    if args.corpora.is_empty() {
        bail!("no corpus given (a puzzle file, a DIMACS file or a folder)");
    }
    // Commas also separate a configured solver's settings (`native:restart=luby,...`).
    let mut solvers: Vec<String> = crate::solver::config::split_solver_list(&args.solvers);
    if solvers.is_empty() {
        bail!("--solvers is empty");
    }
    solvers.dedup();
    let (encodings, amo) = (args.encodings.clone(), args.amo);
    if !(args.timeout > 0.0 && args.timeout.is_finite()) {
        bail!("--timeout must be a positive number of seconds");
    }
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if jobs == 0 {
        bail!("--jobs must be at least 1");
    }
    if args.repeat == 0 {
        bail!("--repeat must be at least 1");
    }
    let config = super::solver_config(&args.lookup)?;
    let read = super::read_options(&args.input)?;
    let mut opts = RunOptions {
        corpora: args.corpora,
        solvers,
        encodings,
        amo,
        timeout: Duration::from_secs_f64(args.timeout),
        jobs,
        repeat: args.repeat,
        out,
        resume: args.resume,
        mem_limit_mb: args.mem_limit,
        proofs: args.proofs,
        config,
        seed: args.seed,
        count: args.count,
        strict: args.strict,
        solutions: args.solutions,
        read,
        incremental: !args.no_incremental,
        command_line,
        shard,
        expected_fingerprint,
    };
    // A fresh `--shard K/N --out STUDY`: the study gets its plan (the first shard writes it)
    // and every shard must match it.
    if let (Some(s), Some(study), None) = (shard, study, &opts.expected_fingerprint) {
        let argv = study::plan::strip_options(&opts.command_line, &["--shard", "--out"], &[]);
        let planned = study::plan::make(&opts, argv, s.n)?;
        let plan = study::plan::write_new(&study, &planned.plan)?;
        opts.expected_fingerprint = Some(plan.fingerprint);
    }
    Ok(opts)
}

pub(super) fn run(args: RunArgs) -> anyhow::Result<i32> {
    let opts = options(args)?;
    let interrupt = interrupt_flag();
    let summary = run_benchmark(&opts, interrupt).map_err(|e| match opts.shard {
        // A shard's error lands in a cluster log: say which shard, on which node.
        Some(s) => e.context(format!(
            "shard {s} on {}",
            crate::run::meta::Machine::current()
                .host
                .unwrap_or_else(|| "this host".into())
        )),
        None => e,
    })?;
    let wrong = score::wrong_lines(&summary.rows);
    for w in &wrong {
        println!("{w}");
    }
    if !wrong.is_empty() {
        println!();
    }
    // Right answers to a formula that leaves the puzzle open: the encoding's fault.
    let open: Vec<_> = summary
        .rows
        .iter()
        .filter(|r| r.check == Check::EncodingOpen)
        .collect();
    for r in &open {
        println!(
            "ENCODING OPEN {} on {} ({}, run {}): {}",
            r.solver, r.instance, r.encoding, r.run, r.error
        );
    }
    if !open.is_empty() {
        println!();
    }
    let scores = score::scores(&summary.rows, Scoring::default());
    print!(
        "{}",
        crate::report::tables::text_table(&scores, TimeBasis::default())
    );
    if !summary.skipped.is_empty() {
        println!(
            "{} input(s) skipped (listed in summary.md)",
            summary.skipped.len()
        );
    }
    println!("results: {}", summary.out_dir.join("results.csv").display());
    Ok(if summary.interrupted {
        130
    } else if summary.wrong() > 0 {
        1
    } else if summary.rows.is_empty() {
        eprintln!("bench: nothing ran (every input was skipped)");
        2
    } else {
        0
    })
}
