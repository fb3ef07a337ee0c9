//! `bench run`: validates the command line into [`RunOptions`], installs the Ctrl-C
//! handler, runs the benchmark, and prints the summary (wrong answers first).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use anyhow::{Context, bail};
use clap::Parser;

use crate::cli::{Cli, Command, RunArgs};
use crate::encode::{Amo, Encoding};
use crate::report::score;
use crate::run::{RunOptions, run as run_benchmark};

/// The process-wide interrupt flag, set by Ctrl-C (installed once).
fn interrupt_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let handler_flag = flag.clone();
        let _ = ctrlc::set_handler(move || {
            if handler_flag.swap(true, Ordering::SeqCst) {
                // A second Ctrl-C: the user means it.
                std::process::exit(130);
            }
            eprintln!(
                "\nbench: interrupted: stopping the running solvers, keeping every finished row"
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

/// Validates the arguments.
pub(crate) fn options(args: RunArgs) -> anyhow::Result<RunOptions> {
    // A bare `bench run --resume DIR` runs the recorded command again, resumed.
    let (args, command_line) = match (&args.resume, args.corpora.is_empty()) {
        (Some(dir), true) => {
            let (recorded, argv) = resumed_args(dir)?;
            (
                RunArgs {
                    resume: Some(dir.clone()),
                    ..recorded
                },
                argv,
            )
        }
        _ => (args, std::env::args().collect()),
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
    let encodings = args
        .encodings
        .split(',')
        .map(|e| {
            Encoding::parse(e.trim()).with_context(|| {
                format!("unknown encoding `{e}` (minimal, efficient, extended, pruned, augmented)")
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let amo = Amo::parse(&args.amo)
        .with_context(|| format!("unknown at-most-one encoding `{}`", args.amo))?;
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
    Ok(RunOptions {
        corpora: args.corpora,
        solvers,
        encodings,
        amo,
        timeout: Duration::from_secs_f64(args.timeout),
        jobs,
        repeat: args.repeat,
        out: args.out,
        resume: args.resume,
        mem_limit_mb: args.mem_limit,
        proofs: args.proofs,
        config,
        seed: args.seed,
        count: args.count,
        strict: args.strict,
        read,
        incremental: !args.no_incremental,
        command_line,
    })
}

pub(super) fn run(args: RunArgs) -> anyhow::Result<i32> {
    let opts = options(args)?;
    let interrupt = interrupt_flag();
    let summary = run_benchmark(&opts, interrupt)?;
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
        .filter(|r| r.check == crate::run::results::check::ENCODING_OPEN)
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
    print!("{}", score::text_table(&score::scores(&summary.rows)));
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
    } else {
        0
    })
}
