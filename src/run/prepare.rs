//! Making a run ready: its solvers found, its corpus read and held to the fingerprint
//! expected, its output folder taken and locked, the rows an earlier run of it left read,
//! its formulas and tasks (each with its mode) made, and its run.json written.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use anyhow::{Context, bail};

use crate::cnf::budget::{Account, machine_budget};
use crate::results::{self, Row};
use crate::solver::{Solver, by_spec};
use crate::text::terminal;

use super::corpus::{self, Corpus, Instance};
use super::plan::{self, Plan};
use super::task::{self, Task};
use super::unit::{self, Unit};
use super::{Placement, lock, meta, pruned_among_others, record, shard};

/// A run ready to execute: its solvers, instances, output folder (locked), the rows an
/// earlier run of it left, the formulas and tasks still to do, and its run.json.
pub(crate) struct Prepared {
    pub solvers: Vec<Box<dyn Solver>>,
    pub instances: Vec<Instance>,
    /// Inputs left out, and inputs run under another name: the summary's notes.
    pub skipped: Vec<super::skip::Skip>,
    pub duplicates: Vec<String>,
    pub out_dir: PathBuf,
    pub csv_path: PathBuf,
    /// Rows of a resumed run.
    pub earlier: Vec<Row>,
    pub units: Vec<Unit>,
    pub tasks: Vec<Task>,
    pub record: record::Record,
    /// The record is a finished run's, kept as it was (a resume with nothing to do).
    pub record_kept: bool,
    /// What the summary must say about how the plan runs (the mode of its encodings).
    pub notes: Vec<String>,
    /// The reading budget, one account shared by the workers' reads in progress (None:
    /// nothing known of the machine's memory).
    pub read_budget: Option<Account>,
    _lock: lock::FolderLock,
}

/// Makes the plan ready: solvers found, corpus read and held to the expected fingerprint,
/// the output folder taken, what is done already subtracted, run.json written.
pub(crate) fn prepare(plan: &Plan, at: &Placement) -> anyhow::Result<Prepared> {
    let config = plan.solver_config();
    let solvers: Vec<Box<dyn Solver>> = plan
        .solvers
        .iter()
        .map(|spec| by_spec(spec, &config))
        .collect::<anyhow::Result<_>>()?;
    let (corpus, fingerprint) = load_corpus(plan, at)?;
    let containment = announce_containment(&solvers);
    if plan.limits.cpu_limit_s.is_some() {
        eprintln!("bench: limits of each run: {}", plan.limits.describe());
    }
    let notes = notes(plan, &solvers, &corpus);
    let out_dir = out_dir(plan, at)?;
    std::fs::create_dir_all(&out_dir).with_context(|| format!("creating {}", out_dir.display()))?;
    let lock = lock::lock(&out_dir)?;
    let csv_path = out_dir.join("results.csv");
    let earlier = earlier_rows(at, &csv_path, &corpus.instances)?;
    let dedicated = solvers.iter().any(|s| s.reads_puzzles());
    let units = unit::units(plan, &corpus.instances, dedicated);
    let (tasks, planned) = task::tasks(plan, &units, &corpus.instances, &solvers, &earlier);
    let measurement = crate::machine::Measurement::new(plan.jobs, &at.cores)?;
    for warning in &measurement.warnings {
        eprintln!("bench: warning: {}", terminal(warning));
    }
    // A resume with nothing left to do leaves the record of the run it would finish as it
    // is (its command, dates and machine); any other run records itself.
    let kept = (at.resume.is_some() && tasks.is_empty())
        .then(|| record::read_run(&out_dir))
        .flatten();
    let record_kept = kept.is_some();
    let record = match kept {
        Some(record) => record,
        None => new_record(
            (plan, at),
            (&solvers, containment),
            &corpus,
            (fingerprint, planned),
            measurement,
        ),
    };
    if !record_kept {
        record::write(&out_dir, &record)?;
    }
    eprintln!(
        "bench: {} instances, {} runs to do ({} already done), {} jobs, results in {}",
        corpus.instances.len(),
        tasks.len(),
        planned - tasks.len(),
        plan.jobs,
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
        record_kept,
        notes,
        read_budget: machine_budget(plan.limits.mem_limit_mb).map(Account::new),
        _lock: lock,
    })
}

/// What the summary must say about how the plan runs, each said on stderr too: the mode of
/// its encodings, a proof checker missing, CNF instances a puzzle solver does not run.
fn notes(plan: &Plan, solvers: &[Box<dyn Solver>], corpus: &Corpus) -> Vec<String> {
    let mut notes = Vec::new();
    if !plan.incremental
        && pruned_among_others(&plan.encodings)
        && solvers.iter().any(|s| s.in_process())
    {
        notes.push(
            "mode: in-process solvers solve every encoding fresh, one formula per \
             puzzle: pruned has no session (its givens are in its clauses), so the \
             encodings are compared within one mode (run.json: \"incremental\": false)"
                .to_string(),
        );
    }
    notes.extend(missing_checker(plan, solvers));
    let dedicated: Vec<&str> = solvers
        .iter()
        .filter(|s| s.reads_puzzles())
        .map(|s| s.name())
        .collect();
    let cnfs = corpus
        .instances
        .iter()
        .filter(|i| matches!(i.source, corpus::Source::Dimacs(_)))
        .count();
    if !dedicated.is_empty() && cnfs > 0 {
        let (who, verb) = match dedicated.as_slice() {
            [one] => (one.to_string(), "solves"),
            many => (many.join(", "), "solve"),
        };
        notes.push(format!(
            "{who} {verb} puzzles, not CNF formulas: the {cnfs} CNF instance(s) have no run \
             of {who} (not applicable)"
        ));
    }
    for note in &notes {
        eprintln!("bench: {}", terminal(note));
    }
    notes
}

/// The corpus of the plan (this shard's part of it), said on stderr, and the plan's
/// fingerprint, which must be the one expected (a study's, a resumed shard's).
fn load_corpus(plan: &Plan, at: &Placement) -> anyhow::Result<(Corpus, String)> {
    let mut corpus = corpus::load(&at.cwd, &plan.corpora, &plan.read_options(), plan.strict)?;
    for line in super::skip::summarise(&corpus.skipped) {
        eprintln!("bench: skipped {}", terminal(&line));
    }
    for n in corpus.notes.iter().chain(&corpus.duplicates) {
        eprintln!("bench: {}", terminal(&n.to_string()));
    }
    if let Some(file) = &plan.families {
        let unmatched = corpus::name_families(&mut corpus.instances, file, &at.cwd)?;
        // A study's shards share the corpus: the study's planning said it once.
        if at.shard.is_none() {
            for w in unmatched {
                eprintln!("bench: warning: {}", terminal(&w));
            }
        }
    }
    let fingerprint = plan::fingerprint(plan, &corpus.instances);
    if let Some(expected) = at.expected_fingerprint.as_ref()
        && *expected != fingerprint
    {
        // A file of the plan that this machine cannot read is the likelier cause.
        if !corpus.skipped.is_empty() {
            bail!(
                "the plan cannot be kept here: {}",
                super::skip::summarise(&corpus.skipped).join("; ")
            );
        }
        let changes = changed_instances(at, &corpus.instances);
        let what = if changes.is_empty() {
            "the corpus contents (instances not run yet, or their order) or the plan \
             recorded in run.json differ"
                .to_string()
        } else {
            changes.join("; ")
        };
        bail!(
            "the plan changed: its fingerprint is {fingerprint}, the study or the run being \
             resumed has {expected}: {what}"
        );
    }
    if let Some(s) = at.shard {
        corpus.instances = shard::select(
            std::mem::take(&mut corpus.instances),
            plan.encodings.len(),
            s,
        );
    }
    Ok((corpus, fingerprint))
}

/// What a resumed run's rows say changed in its corpus: an instance run before whose
/// content is another now, or that is gone (at most a few named, then how many more).
fn changed_instances(at: &Placement, instances: &[Instance]) -> Vec<String> {
    let Some(dir) = &at.resume else {
        return Vec::new();
    };
    let Ok((rows, _)) = results::read_table(&dir.join("results.csv"), false) else {
        return Vec::new();
    };
    let now: HashMap<&str, &str> = instances
        .iter()
        .map(|i| (i.id.as_str(), i.hash.as_str()))
        .collect();
    let mut seen = std::collections::BTreeSet::new();
    let mut changes = Vec::new();
    for r in &rows {
        if !seen.insert(r.instance.as_str()) {
            continue;
        }
        match now.get(r.instance.as_str()) {
            None => changes.push(format!("{} is gone from the corpus", terminal(&r.instance))),
            Some(&hash) if !r.hash.is_empty() && hash != r.hash => changes.push(format!(
                "{} has other content (hash {hash}, {} when it ran)",
                terminal(&r.instance),
                r.hash
            )),
            Some(_) => {}
        }
    }
    const SHOWN: usize = 5;
    if changes.len() > SHOWN {
        let more = changes.len() - SHOWN;
        changes.truncate(SHOWN);
        changes.push(format!("and {more} more"));
    }
    changes
}

/// With `--proofs`, a proof checker missing from the machine, said once for the run:
/// without `rate` UNSAT answers stay `cross-checked`, without cake_lpr `proof-checked`.
fn missing_checker(plan: &Plan, solvers: &[Box<dyn Solver>]) -> Option<String> {
    let config = plan.solver_config();
    if !plan.proofs || solvers.iter().all(|s| s.proof_style().is_none()) {
        return None;
    }
    if crate::solver::external::find_rate(&config).is_none() {
        return Some(
            "proofs: rate not found (cargo install rate): no proof is checked, \
             UNSAT answers stay cross-checked"
                .into(),
        );
    }
    if crate::run::proof::find_cake_lpr(&config).is_none() {
        return Some(
            "proofs: cake_lpr not found (the README says how to build it: one gcc command): proofs are \
             checked by rate alone, UNSAT answers are proof-checked, never proof-verified"
                .into(),
        );
    }
    None
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
fn out_dir(plan: &Plan, at: &Placement) -> anyhow::Result<PathBuf> {
    Ok(match (&at.resume, &at.out) {
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
        (None, None) => default_out_dir(&plan.corpora),
    })
}

/// The rows a resumed run already has, as written. Rows of a CSV written before bench
/// recorded hashes are known by their id in this plan, and a CSV of an older bench is
/// given today's columns before anything runs, so that new rows match its header.
fn earlier_rows(
    at: &Placement,
    csv_path: &Path,
    instances: &[Instance],
) -> anyhow::Result<Vec<Row>> {
    if at.resume.is_none() || !csv_path.exists() {
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
        results::write_table(csv_path, &rows)?;
    }
    Ok(rows)
}

/// A new folder under `reports/` named after the first corpus and the time.
fn default_out_dir(corpora: &[PathBuf]) -> PathBuf {
    let stem = corpora
        .first()
        .filter(|p| !crate::cnf::input::is_stdin(p))
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

/// The record of a run about to start: its plan, fingerprint, command, and what it runs on.
fn new_record(
    (plan, at): (&Plan, &Placement),
    (solvers, containment): (
        &[Box<dyn Solver>],
        &crate::solver::external::run::Containment,
    ),
    corpus: &super::corpus::Corpus,
    (fingerprint, planned): (String, usize),
    measurement: crate::machine::Measurement,
) -> record::Record {
    let (start, _) = meta::utc_stamps(SystemTime::now());
    record::Record {
        version: record::VERSION,
        kind: record::RecordKind::Run,
        plan: plan.clone(),
        cwd: at.cwd.clone(),
        fingerprint,
        bench_version: env!("CARGO_PKG_VERSION").to_string(),
        command_line: at.command_line.clone(),
        created: start.clone(),
        shard: at.shard,
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
            load_start: meta::LoadAverage::now(),
            load_end: None,
            planned_runs: planned,
            skipped_inputs: corpus.skipped.len(),
            duplicate_inputs: corpus.duplicates.len(),
            interrupted: false,
            not_started: 0,
            containment: containment.kind().to_string(),
            containment_detail: containment.describe(),
            measurement,
            overhead_cpu_ms_per_run: None,
        }),
    }
}
