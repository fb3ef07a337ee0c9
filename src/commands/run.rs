//! `bench run`: validates the command line into a plan and its placement
//! ([`crate::run::Placement`]), installs the Ctrl-C handler, runs the benchmark, and prints
//! the summary (wrong answers first).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use anyhow::{Context, bail};

use crate::cli::RunArgs;
use crate::report::TimeBasis;
use crate::report::score;
use crate::report::score::Scoring;
use crate::results::Check;
use crate::run::plan::Plan;
use crate::run::record;
use crate::run::shard::Shard;
use crate::run::{Placement, run as run_benchmark};
use crate::study;

/// The process-wide interrupt flag, set by Ctrl-C, SIGTERM or SIGHUP (installed once):
/// `scancel`, `timeout` and service managers stop with SIGTERM, a closed terminal with
/// SIGHUP, and each is a stop like Ctrl-C. Before any task has started (the corpus being
/// read) a stop ends bench at once: there is nothing to keep.
fn interrupt_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let handler_flag = flag.clone();
        let _ = ctrlc::set_handler(move || {
            if !crate::run::TASKS_STARTED.load(Ordering::SeqCst) {
                eprintln!(
                    "\nbench: interrupted (Ctrl-C, SIGTERM or SIGHUP) while the corpus was read: \
                     no run had started"
                );
                std::process::exit(130);
            }
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

/// Which options a command line typed (clap's value source), by argument id: what a
/// `--resume` must hold against its recorded plan. Empty when nothing is known (every
/// option counts as typed).
pub(crate) type Typed<'a> = Option<&'a clap::ArgMatches>;

fn typed(matches: Typed<'_>, id: &str) -> bool {
    matches.is_none_or(|m| m.value_source(id) == Some(clap::parser::ValueSource::CommandLine))
}

/// The plan of a `bench run` command line: the one place a command line becomes a plan
/// (clap has typed and range-checked each value: solvers, shard, limits).
pub(crate) fn plan_of(args: &RunArgs) -> anyhow::Result<Plan> {
    if args.corpora.is_empty() {
        bail!("no corpus given (a puzzle file, a DIMACS file or a folder)");
    }
    let limits = args
        .limits
        .run_limits()
        .map_err(|e| anyhow::anyhow!("the limits: {e}"))?;
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let config = super::solver_config(&args.lookup)?;
    let read = super::read_options(&args.input)?;
    let mut plan = Plan {
        corpora: args.corpora.clone(),
        solvers: args.solvers.0.clone(),
        encodings: args.encodings.clone(),
        amo: args.amo,
        limits,
        jobs,
        repeat: args.repeat,
        proofs: args.proofs,
        checker_timeout_s: args.checker_timeout,
        seed: args.seed,
        count: args.count,
        strict: args.strict,
        solutions: args.solutions,
        incremental: !args.no_incremental && !crate::run::pruned_among_others(&args.encodings),
        kind: read.kind,
        format: read.format,
        alphabet: read.alphabet,
        solver_paths: config.paths,
        solver_commands: config.commands,
        puzzle_solver_commands: config.puzzle_commands,
        shards: args.shard.map_or(1, |s| s.n),
        families: match &args.families.families {
            Some(path) => Some(crate::family::FamiliesFile::read(&cwd()?, path)?.0),
            None => None,
        },
    };
    // Solver paths mean the same from wherever the plan is run.
    for (_, path) in &mut plan.solver_paths {
        if let Ok(abs) = std::path::absolute(&*path) {
            *path = abs;
        }
    }
    Ok(plan)
}

fn cwd() -> anyhow::Result<PathBuf> {
    std::env::current_dir().context("the current folder")
}

/// The plan to resume from `recorded`, after holding the options this command typed
/// against it (typed plans compared field by field, [`Plan::check_given`]).
fn resume_plan(recorded: &Plan, args: &RunArgs, matches: Typed<'_>) -> anyhow::Result<Plan> {
    let mut given_args = args.clone();
    if given_args.corpora.is_empty() {
        given_args.corpora = recorded.corpora.clone();
    }
    if given_args.jobs.is_none() {
        given_args.jobs = Some(recorded.jobs);
    }
    let given = plan_of(&given_args)?;
    recorded.check_given(&given, &|id| typed(matches, id))?;
    Ok(recorded.clone())
}

/// Names on stderr, before anything runs, every program the plan recorded in `dir`'s
/// run.json will start beyond the solvers bench knows: `--solver NAME='cmd'` commands
/// and `--solver-path NAME=PATH` binaries. A folder received from someone else runs
/// what they recorded.
fn say_recorded_commands(plan: &Plan, dir: &std::path::Path) {
    let commands = plan
        .solver_commands
        .iter()
        .map(|(name, cmd)| format!("--solver {name}='{cmd}'"))
        .chain(
            plan.solver_paths
                .iter()
                .map(|(name, path)| format!("--solver-path {name}={}", path.display())),
        );
    for c in commands {
        eprintln!(
            "bench: --resume runs the command recorded in {}: {}",
            record::path(dir).display(),
            crate::text::terminal(&c)
        );
    }
}

/// `--study DIR --shard K/N`: the study's plan, run into its shard's folder (resumed if
/// it has started).
fn study_shard(
    study: &std::path::Path,
    shard: Option<Shard>,
    args: &RunArgs,
    matches: Typed<'_>,
) -> anyhow::Result<(Plan, Placement)> {
    let recorded = study::plan::read(study)?;
    let Some(shard) = shard.filter(|s| s.n == recorded.shards()) else {
        bail!(
            "--shard {}: the study in {} has {} shards",
            shard.map_or("none".into(), |s| s.to_string()),
            study.display(),
            recorded.shards()
        );
    };
    let plan = resume_plan(&recorded.plan, args, matches)?;
    let study = study
        .canonicalize()
        .with_context(|| format!("resolving {}", study.display()))?;
    let dir = study::plan::shard_dir(&study, shard);
    let at = Placement {
        resume: Some(dir.clone()),
        shard: Some(shard),
        expected_fingerprint: Some(recorded.fingerprint),
        ..Placement::new(recorded.cwd, Some(dir))
    };
    Ok((plan, at))
}

/// `--resume DIR`: the plan recorded in `DIR/run.json`, run into `DIR`. A run.json of an
/// older bench (before plans were recorded) is refused by [`record::read_record`], which
/// says what to do.
fn resumed(
    dir: &std::path::Path,
    args: &RunArgs,
    matches: Typed<'_>,
) -> anyhow::Result<(Plan, Placement)> {
    let recorded = record::read_record(dir)?;
    say_recorded_commands(&recorded.plan, dir);
    let plan = resume_plan(&recorded.plan, args, matches)?;
    // A run resumes only the plan it started with, a shard's or not: the corpus must hold
    // what it held (no rows of another plan in one CSV).
    let at = Placement {
        resume: Some(dir.to_path_buf()),
        shard: recorded.shard,
        expected_fingerprint: Some(recorded.fingerprint),
        ..Placement::new(recorded.cwd, None)
    };
    Ok((plan, at))
}

/// Validates the arguments into the plan of a run and where it runs: a new plan, a
/// resumed one (`--resume DIR`: the plan recorded there), or a study's shard (`--study DIR
/// --shard K/N`, or `--shard K/N --out STUDY`).
pub(crate) fn options(args: RunArgs, matches: Typed<'_>) -> anyhow::Result<(Plan, Placement)> {
    let cores = crate::machine::CoreChoice {
        cores: args.cores.clone().map(|c| c.0),
        allow_siblings: args.allow_siblings,
    };
    let (plan, at) = if let Some(study) = &args.study {
        study_shard(study, args.shard, &args, matches)?
    } else if let Some(dir) = &args.resume {
        resumed(dir, &args, matches)?
    } else {
        let plan = plan_of(&args)?;
        let mut at = Placement::new(cwd()?, args.out.clone());
        if let Some(s) = args.shard {
            // A fresh `--shard K/N --out STUDY`: the study gets its plan (the first shard
            // writes it) and every shard must match it.
            let Some(study) = &args.out else {
                bail!("--shard needs --out STUDY: the shard writes STUDY/shards/K-of-N/")
            };
            let planned = study::plan::make(&plan, &at.cwd, &at.command_line, s.n)?;
            let recorded = study::plan::write_new(study, &planned.plan)?;
            at.expected_fingerprint = Some(recorded.fingerprint);
            at.out = Some(study::plan::shard_dir(study, s));
            at.shard = Some(s);
        }
        (plan, at)
    };
    Ok((plan, Placement { cores, ..at }))
}

pub(super) fn run(args: RunArgs, matches: Typed<'_>) -> anyhow::Result<i32> {
    let (plan, at) = options(args, matches)?;
    let interrupt = interrupt_flag();
    let summary = run_benchmark(&plan, &at, interrupt).map_err(|e| match at.shard {
        // A shard's error lands in a cluster log: say which shard, on which node.
        Some(s) => e.context(format!(
            "shard {s} on {}",
            crate::machine::host().unwrap_or_else(|| "this host".into())
        )),
        None => e,
    })?;
    draw_report(&summary)?;
    let report_rows = crate::report::rows::of(&summary.rows);
    let wrong = score::wrong_lines(&report_rows);
    let shrink = shrink_commands(&summary.rows, &summary.out_dir.join("results.csv"));
    for (w, shrink) in wrong.iter().zip(shrink) {
        println!("{w}");
        if let Some(command) = shrink {
            println!("  shrink it: {command}");
        }
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
        let line = format!(
            "ENCODING OPEN {} on {} ({}{}, run {}): {}",
            r.solver,
            r.instance,
            r.encoding,
            r.mode.map_or(String::new(), |m| format!(", {m}")),
            r.run,
            r.error
        );
        println!("{}", crate::text::escape_controls(&line));
    }
    if !open.is_empty() {
        println!();
    }
    let scores = score::scores(&report_rows, Scoring::default());
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
    println!(
        "results: {}",
        crate::text::terminal(&summary.out_dir.join("results.csv").display().to_string())
    );
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

/// The `bench shrink` of each wrong row of `rows`, in order: `--row N`, its number in
/// the results CSV as written (None when the CSV cannot be read back).
fn shrink_commands(rows: &[crate::results::Row], csv: &std::path::Path) -> Vec<Option<String>> {
    if !rows.iter().any(|r| r.wrong) {
        return Vec::new();
    }
    let written = crate::results::read_rows(csv, false).unwrap_or_default();
    let numbers: std::collections::HashMap<_, usize> = written
        .iter()
        .enumerate()
        .map(|(i, w)| (w.key(), i + 1))
        .collect();
    rows.iter()
        .filter(|r| r.wrong)
        .map(|r| {
            let n = numbers.get(&r.key())?;
            let path = shell_words::quote(&csv.display().to_string()).into_owned();
            Some(crate::text::terminal(&format!("bench shrink {path} --row {n}")).into_owned())
        })
        .collect()
}

/// The report of a finished run (charts, summary.md/json, index.html): a view of the rows.
/// If it fails, the results stay, and a plain summary stands in for it.
fn draw_report(summary: &crate::run::RunSummary) -> anyhow::Result<()> {
    let opts = crate::report::ReportOptions {
        notes: summary.notes.clone(),
        // The machine and the solvers' checksums, as run.json records them.
        run_json: std::fs::read_to_string(summary.out_dir.join("run.json"))
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok()),
        ..crate::report::ReportOptions::default()
    };
    let rows = crate::report::rows::of(&summary.rows);
    for warning in super::report::noise_warnings(&rows, Scoring::default()) {
        eprintln!("bench: {}", crate::text::terminal(&warning));
    }
    if let Err(e) = crate::report::write_report(&rows, &summary.out_dir, &opts) {
        eprintln!("bench: the report could not be drawn ({e:#}); writing the plain summary");
        let scores = score::scores(&rows, Scoring::default());
        std::fs::write(
            summary.out_dir.join("summary.md"),
            crate::report::summary::plain_markdown(
                &rows,
                &scores,
                TimeBasis::default(),
                &summary
                    .skipped
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>(),
            ),
        )?;
    }
    Ok(())
}
