//! `bench merge`: a study's shards joined into one results.csv and one report, as if one
//! machine had run the plan, after checking that everything belongs together.
//!
//! Refused (nothing written): a study or shard whose fingerprint differs from the plan's (a
//! different corpus or options), a shard folder of another split (`K-of-M`, M ≠ N), a run
//! recorded twice (in one shard, or in a shard it does not belong to), a run not in the plan.
//! The plan's runs are enumerated again from the corpus, shard by shard, and held against
//! the rows, so every missing run is named with its shard and the command that completes it;
//! without `--partial` a merge with missing runs writes only `missing.csv`. The shards are
//! taken one at a time: each key set is one shard's, and each shard's rows go on to a sink
//! (the merged CSV, written to a temporary file that replaces results.csv only when the
//! merge succeeds) before the next is read, so without the report memory holds one shard;
//! the report needs every row in memory. Every shard's machine (host,
//! CPU model, cores, kernel, bench version) goes to `machines.csv`, and the report says when
//! the shards ran on different CPU models, whose times are then not comparable.
//!
//! The rows of every shard are read with the results reader of `bench run` (a last line cut
//! by a cancelled task is left out), joined in shard order, cross-checked shard by shard (an
//! UNSAT against a verified model of the same instance, which one shard holds whole), and
//! drawn by the report code of `bench report`.

use std::collections::{BTreeMap, HashSet};

use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::report::{ReportOptions, write_report};
use crate::results::cross_check_unsat;
use crate::results::{Row, read_rows};
use crate::run::shard::Shard;

use super::plan::{self, Key, Planned, StudyPlan, shard_dir};
use crate::run::record::{self, Record};

/// The merge was refused: the shards do not belong together. Each line says why.
#[derive(Debug, thiserror::Error)]
#[error("refused to merge:\n  {}", .0.join("\n  "))]
pub struct Refused(pub Vec<String>);

/// One run missing from a shard.
pub type OwnedKey = (String, String, String, u32);

/// The runs missing from one shard.
#[derive(Clone, Debug)]
pub struct Missing {
    /// The shard.
    pub shard: Shard,
    /// The study folder it belongs to (the first one given).
    pub study: PathBuf,
    /// The shard has started (has a run.json): resume it.
    pub started: bool,
    /// The runs, in plan order.
    pub runs: Vec<OwnedKey>,
}

impl Missing {
    /// The command that completes the shard.
    pub fn command(&self) -> String {
        let dir = shard_dir(&self.study, self.shard);
        if self.started {
            format!("bench run --resume {}", dir.display())
        } else {
            format!(
                "bench run --study {} --shard {}",
                self.study.display(),
                self.shard
            )
        }
    }
}

/// Where a shard ran.
#[derive(Clone, Debug, Default)]
pub struct MachineLine {
    /// The shard.
    pub shard: String,
    /// Host name.
    pub host: String,
    /// CPU model.
    pub cpu_model: String,
    /// Logical cores.
    pub cores: String,
    /// Kernel release.
    pub kernel: String,
    /// bench's version.
    pub bench_version: String,
}

/// What the shards hold, checked.
#[derive(Debug, Default)]
pub struct Merged {
    /// Rows merged.
    pub rows: usize,
    /// Missing runs, by shard.
    pub missing: Vec<Missing>,
    /// Runs the shards' own runs left out (inputs they could not read or encode).
    pub skipped: Vec<String>,
    /// Where each shard ran.
    pub machines: Vec<MachineLine>,
    /// Runs in the plan.
    pub planned: usize,
}

impl Merged {
    /// Missing runs in total.
    pub fn missing_runs(&self) -> usize {
        self.missing.iter().map(|m| m.runs.len()).sum()
    }

    /// Remarks for the report: partial, mixed machines, skipped inputs.
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        let missing = self.missing_runs();
        if missing > 0 {
            let shards: Vec<String> = self.missing.iter().map(|m| m.shard.to_string()).collect();
            notes.push(format!(
                "PARTIAL MERGE: {missing} of {} planned runs are missing (shards {}; listed in \
                 missing.csv); scores count only the runs present",
                self.planned,
                shards.join(", ")
            ));
        }
        let mut by_cpu: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for m in &self.machines {
            by_cpu.entry(&m.cpu_model).or_default().push(&m.shard);
        }
        if by_cpu.len() > 1 {
            let list: Vec<String> = by_cpu
                .iter()
                .map(|(cpu, shards)| {
                    let cpu = if cpu.is_empty() { "unknown" } else { cpu };
                    format!("{cpu} ({} shards)", shards.len())
                })
                .collect();
            notes.push(format!(
                "the shards ran on {} different CPU models: {}; times are not comparable \
                 across them (machines.csv says which shard ran where)",
                by_cpu.len(),
                list.join("; ")
            ));
        }
        let versions: HashSet<&str> = self
            .machines
            .iter()
            .map(|m| m.bench_version.as_str())
            .collect();
        if versions.len() > 1 {
            let mut v: Vec<&str> = versions.into_iter().collect();
            v.sort_unstable();
            notes.push(format!(
                "the shards ran different bench versions: {}",
                v.join(", ")
            ));
        }
        notes.extend(self.skipped.iter().cloned());
        notes
    }

    /// The missing runs, shard by shard, with the command that completes each shard.
    pub fn missing_text(&self, sbatch: Option<&Path>) -> String {
        let mut out = String::new();
        for m in &self.missing {
            let _ = writeln!(
                out,
                "shard {}: {} run(s) missing; complete with: {}",
                m.shard.dir_name(),
                m.runs.len(),
                m.command()
            );
            const SHOWN: usize = 10;
            for (instance, encoding, solver, run) in m.runs.iter().take(SHOWN) {
                let _ = writeln!(out, "    {solver} on {instance} ({encoding}, run {run})");
            }
            if m.runs.len() > SHOWN {
                let _ = writeln!(
                    out,
                    "    ... and {} more (missing.csv)",
                    m.runs.len() - SHOWN
                );
            }
        }
        if let Some(script) = sbatch
            && !self.missing.is_empty()
        {
            let ks: Vec<String> = self.missing.iter().map(|m| m.shard.k.to_string()).collect();
            let _ = writeln!(
                out,
                "or on SLURM: sbatch --array={} {}",
                ks.join(","),
                script.display()
            );
        }
        out
    }
}

/// Reads a shard's results.csv (none yet: no rows): a last line cut short (a cancelled
/// task) is left out.
fn read_shard_rows(path: &Path) -> anyhow::Result<Vec<Row>> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    read_rows(path, false)
}

fn machine(shard: Shard, meta: &Record) -> MachineLine {
    let m = meta.execution.as_ref().map(|e| e.machine());
    let text = |f: fn(&crate::machine::Description) -> Option<String>| {
        m.as_ref().and_then(f).unwrap_or_default()
    };
    MachineLine {
        shard: shard.dir_name(),
        host: text(|m| m.host.clone()),
        cpu_model: text(|m| m.cpu_model.clone()),
        cores: text(|m| Some(m.logical_cpus.to_string())),
        kernel: text(|m| m.kernel.clone()),
        bench_version: meta.bench_version.clone(),
    }
}

/// The first column of `row` that the plan decides and that disagrees with it (the
/// timeout, the jobs, the corpus), or with the other rows of its formula (its variables and
/// clauses, in `sizes`): a row changed after it was written, or from another plan.
fn plan_column_differs<'a>(
    row: &'a Row,
    (plan, corpora): (&crate::run::plan::Plan, &[String]),
    sizes: &mut FxHashMap<(&'a str, &'a str), (u64, u64)>,
) -> Option<String> {
    if row.timeout_s != plan.limits.timeout_s {
        return Some(format!(
            "column timeout_s is {}, the plan's is {}",
            row.timeout_s, plan.limits.timeout_s
        ));
    }
    if row.cpu_limit_s != plan.limits.cpu_limit_s {
        let shown = |c: Option<f64>| c.map_or("none".to_string(), |c| c.to_string());
        return Some(format!(
            "column cpu_limit_s is {}, the plan's is {}",
            shown(row.cpu_limit_s),
            shown(plan.limits.cpu_limit_s)
        ));
    }
    if row.jobs as usize != plan.jobs {
        return Some(format!(
            "column jobs is {}, the plan's is {}",
            row.jobs, plan.jobs
        ));
    }
    if !corpora.iter().any(|c| c.as_str() == row.corpus.as_str()) {
        return Some(format!(
            "column corpus is {}, not a corpus of the plan",
            row.corpus
        ));
    }
    let size = (row.vars, row.clauses);
    let first = *sizes
        .entry((row.instance_key(), row.encoding.as_str()))
        .or_insert(size);
    if first.0 != size.0 {
        return Some(format!(
            "column vars is {}, other runs of this formula say {}",
            size.0, first.0
        ));
    }
    if first.1 != size.1 {
        return Some(format!(
            "column clauses is {}, other runs of this formula say {}",
            size.1, first.1
        ));
    }
    None
}

/// Checks and joins the shards of `studies` (all of one plan, `planned`, whose runs are
/// `solvers` × `repeat` per formula), handing each shard's rows to `sink` in shard order.
/// Errors with [`Refused`] when they do not belong together (the sink may have had some
/// shards by then: it must not commit anything before this returns Ok).
pub fn merge(
    studies: &[PathBuf],
    plans: &[StudyPlan],
    planned: &Planned,
    solvers: &[String],
    repeat: u32,
    sink: &mut dyn FnMut(Vec<Row>) -> anyhow::Result<()>,
) -> anyhow::Result<Merged> {
    let plan = &planned.plan;
    let n = plan.shards();
    let mut refused = other_plans(studies, plans, plan);
    if !refused.is_empty() {
        return Err(Refused(refused).into());
    }
    refused.extend(foreign_folders(studies, n));
    let owner = Owner::new(planned);
    let corpora: Vec<String> = plan
        .plan
        .corpora
        .iter()
        .map(|c| c.display().to_string())
        .collect();
    let by_shard = planned.by_shard();
    let mut merged = Merged {
        planned: plan.runs(),
        ..Merged::default()
    };
    for (k, members) in by_shard.iter().enumerate() {
        let shard = Shard { k, n };
        let mut expected: FxHashSet<Key<'_>> = FxHashSet::default();
        expected.reserve(plan.shard_runs()[k]);
        for &i in members {
            planned.keys_of(i as usize, solvers, repeat, |key| {
                expected.insert(key);
            });
        }
        let read = read_shard(studies, shard, plan, &mut refused, &mut merged)?;
        let (mut shard_rows, started) = (read.rows, read.started);
        let ended_with_skips = read.ended_with_skips;
        let to_check = Planning {
            planned,
            solvers,
            repeat,
            owner: &owner,
            corpora: &corpora,
        };
        check_rows(&shard_rows, shard, &mut expected, &to_check, &mut refused);
        // What the rows left of the shard's runs is missing, named in plan order.
        let mut missing = Vec::new();
        if !expected.is_empty() {
            for &i in members {
                let id = planned.instances.id(i as usize);
                planned.keys_of(i as usize, solvers, repeat, |key| {
                    if expected.contains(&key) {
                        missing.push((id.to_string(), key.1.to_string(), key.2.to_string(), key.3));
                    }
                });
            }
        }
        drop(expected);
        if !missing.is_empty() {
            match &ended_with_skips {
                Some((dir, skipped)) => merged.skipped.push(format!(
                    "shard {shard} left out {} run(s) of {skipped} input(s) it could not read or \
                     encode (see {}/summary.md)",
                    missing.len(),
                    dir.display()
                )),
                None => merged.missing.push(Missing {
                    shard,
                    study: studies[0].clone(),
                    started,
                    runs: missing,
                }),
            }
        }
        if refused.is_empty() {
            cross_check_unsat(&mut shard_rows);
            merged.rows += shard_rows.len();
            sink(shard_rows)?;
        }
    }
    if !refused.is_empty() {
        return Err(Refused(refused).into());
    }
    Ok(merged)
}

/// Each instance of a plan by content hash: asked only of a row that its shard does not
/// expect, so the map is made at the first such row.
struct Owner<'a> {
    planned: &'a Planned,
    by_hash: std::cell::OnceCell<FxHashMap<&'a str, u32>>,
}

impl<'a> Owner<'a> {
    fn new(planned: &'a Planned) -> Owner<'a> {
        Owner {
            planned,
            by_hash: std::cell::OnceCell::new(),
        }
    }

    /// The index of the instance whose hash is `hash`, if the plan has it.
    fn of(&self, hash: &str) -> Option<usize> {
        let by_hash = self.by_hash.get_or_init(|| {
            let hashes = self.planned.instances.hashes();
            hashes.zip(0..).collect()
        });
        by_hash.get(hash).map(|&i| i as usize)
    }
}

/// What rows are held to: the plan, its runs' solvers and repetitions, its instances by
/// hash, and its corpora as rows name them.
struct Planning<'a> {
    planned: &'a Planned,
    solvers: &'a [String],
    repeat: u32,
    owner: &'a Owner<'a>,
    corpora: &'a [String],
}

impl Planning<'_> {
    /// The shard of the instance of run `key`, if the plan has the instance, and whether
    /// the plan has the run.
    fn place(&self, key: Key<'_>) -> Option<(usize, bool)> {
        let i = self.owner.of(key.0)?;
        let mut planned = false;
        self.planned.keys_of(i, self.solvers, self.repeat, |k| {
            planned |= k == key;
        });
        Some((self.planned.shard_of[i] as usize, planned))
    }
}

/// The plans among `plans` that are not `plan`: each named, refused.
fn other_plans(studies: &[PathBuf], plans: &[StudyPlan], plan: &StudyPlan) -> Vec<String> {
    let n = plan.shards();
    studies
        .iter()
        .zip(plans)
        .filter(|(_, p)| p.fingerprint != plan.fingerprint || p.shards() != n)
        .map(|(study, p)| {
            format!(
                "{} is another plan ({} shards, fingerprint {}) than {} ({} shards, fingerprint {}): \
                 the corpus or the options differ",
                study.display(),
                p.shards(),
                p.fingerprint,
                studies[0].display(),
                n,
                plan.fingerprint
            )
        })
        .collect()
}

/// Shard folders of another split than `n` shards: each named, refused.
fn foreign_folders(studies: &[PathBuf], n: usize) -> Vec<String> {
    let mut refused = Vec::new();
    for study in studies {
        let Ok(entries) = std::fs::read_dir(study.join("shards")) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let fits = name
                .split_once("-of-")
                .and_then(|(k, m)| Some((k.parse::<usize>().ok()?, m.parse::<usize>().ok()?)))
                .is_some_and(|(k, m)| m == n && k < n);
            if !fits {
                refused.push(format!(
                    "{}: not a shard of this {n}-shard plan",
                    entry.path().display()
                ));
            }
        }
    }
    refused
}

/// What the folders of one shard hold, over every study given.
struct ShardRead {
    /// Its rows, every folder's.
    rows: Vec<Row>,
    /// A folder of it has a run.json: the shard has started.
    started: bool,
    /// A run of it ended with inputs it could not read or encode: its folder and how many.
    ended_with_skips: Option<(PathBuf, u64)>,
}

/// Reads shard `shard` of every study: its rows, and its run.json held to the study's plan
/// (a folder that ran another plan is refused into `refused`; its machine goes to
/// `merged`).
fn read_shard(
    studies: &[PathBuf],
    shard: Shard,
    plan: &StudyPlan,
    refused: &mut Vec<String>,
    merged: &mut Merged,
) -> anyhow::Result<ShardRead> {
    let mut read = ShardRead {
        rows: Vec::new(),
        started: false,
        ended_with_skips: None,
    };
    for study in studies {
        let dir = shard_dir(study, shard);
        let Some(meta) = record::read_run(&dir) else {
            read.rows.extend(read_shard_rows(&dir.join("results.csv"))?);
            continue;
        };
        read.started = true;
        if meta.fingerprint != plan.fingerprint || meta.shard != Some(shard) {
            refused.push(format!(
                "{} ran another plan (fingerprint {}, shard {}) than the study's \
                 (fingerprint {}, shard {shard})",
                dir.display(),
                meta.fingerprint,
                meta.shard.map_or("none".into(), |s| s.to_string()),
                plan.fingerprint
            ));
            continue;
        }
        if let Some(e) = &meta.execution
            && e.end.is_some()
            && !e.interrupted
            && e.skipped_inputs > 0
        {
            read.ended_with_skips = Some((dir.clone(), e.skipped_inputs as u64));
        }
        merged.machines.push(machine(shard, &meta));
        read.rows.extend(read_shard_rows(&dir.join("results.csv"))?);
    }
    Ok(read)
}

/// Holds the rows of shard `shard` to the plan: each a run the shard has not yet seen
/// (`expected`, from which each row's run is taken), with the plan's columns; what is not
/// is refused into `refused`, said as a run of another shard, a run recorded twice, or a
/// run not in the plan. Leaves in `expected` the runs no row holds.
fn check_rows<'a>(
    rows: &'a [Row],
    shard: Shard,
    expected: &mut FxHashSet<Key<'a>>,
    planning: &Planning<'_>,
    refused: &mut Vec<String>,
) {
    let plan = &planning.planned.plan.plan;
    let mut sizes: FxHashMap<(&str, &str), (u64, u64)> = FxHashMap::default();
    for row in rows {
        let key = row.key();
        if let Some(column) = plan_column_differs(row, (plan, planning.corpora), &mut sizes) {
            refused.push(format!(
                "{} on {} ({}, run {}) in shard {shard}: {column}",
                row.solver, row.instance, row.encoding, row.run
            ));
        } else if !expected.remove(&key) {
            refused.push(match planning.place(key) {
                Some((other, _)) if other != shard.k => format!(
                    "{} on {} ({}, run {}) is in shard {shard} but belongs to shard {other}/{}",
                    row.solver, row.instance, row.encoding, row.run, shard.n
                ),
                Some((_, true)) => format!(
                    "{} on {} ({}, run {}) is recorded twice in shard {shard}",
                    row.solver, row.instance, row.encoding, row.run
                ),
                _ => format!(
                    "{} on {} ({}, run {}) in shard {shard} is not in the plan",
                    row.solver, row.instance, row.encoding, row.run
                ),
            });
        }
    }
}

/// Writes a CSV through a temporary file and a rename.
fn write_atomic(
    path: &Path,
    write: impl FnOnce(&mut dyn std::io::Write) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let tmp = path.with_extension("tmp");
    {
        let file =
            std::fs::File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
        let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
        write(&mut out)?;
        out.flush()
            .with_context(|| format!("writing {}", tmp.display()))?;
    }
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))
}

/// The merged results.csv, written shard by shard to a temporary file that replaces
/// `results.csv` only on [`ResultsOut::commit`] (dropped uncommitted, it is removed).
pub struct ResultsOut {
    tmp: PathBuf,
    target: PathBuf,
    csv: Option<csv::Writer<std::io::BufWriter<std::fs::File>>>,
}

impl ResultsOut {
    /// Starts `out/results.csv`.
    pub fn create(out: &Path) -> anyhow::Result<ResultsOut> {
        std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
        let target = out.join("results.csv");
        let tmp = out.join(format!("results.csv.{}.tmp", std::process::id()));
        let file =
            std::fs::File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
        let csv = csv::Writer::from_writer(std::io::BufWriter::with_capacity(1 << 20, file));
        Ok(ResultsOut {
            tmp,
            target,
            csv: Some(csv),
        })
    }

    /// Appends rows.
    pub fn write(&mut self, rows: &[Row]) -> anyhow::Result<()> {
        if let Some(csv) = &mut self.csv {
            for row in rows {
                csv.serialize(row)
                    .with_context(|| format!("writing {}", self.tmp.display()))?;
            }
        }
        Ok(())
    }

    /// Replaces results.csv with what was written.
    pub fn commit(mut self) -> anyhow::Result<()> {
        if let Some(csv) = self.csv.take() {
            let mut inner = csv
                .into_inner()
                .map_err(|e| anyhow::anyhow!("writing {}: {}", self.tmp.display(), e.error()))?;
            inner
                .flush()
                .with_context(|| format!("writing {}", self.tmp.display()))?;
        }
        std::fs::rename(&self.tmp, &self.target)
            .with_context(|| format!("writing {}", self.target.display()))
    }
}

impl Drop for ResultsOut {
    fn drop(&mut self) {
        if self.csv.is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// Writes `missing.csv` (or removes a stale one when nothing is missing).
pub fn write_missing(out: &Path, merged: &Merged) -> anyhow::Result<()> {
    let path = out.join("missing.csv");
    if merged.missing.is_empty() {
        let _ = std::fs::remove_file(&path);
        return Ok(());
    }
    write_atomic(&path, |w| {
        let mut csv = csv::Writer::from_writer(w);
        csv.write_record(["shard", "instance", "encoding", "solver", "run", "command"])?;
        for m in &merged.missing {
            let command = m.command();
            for (instance, encoding, solver, run) in &m.runs {
                csv.write_record([
                    m.shard.dir_name().as_str(),
                    instance,
                    encoding,
                    solver,
                    &run.to_string(),
                    &command,
                ])?;
            }
        }
        csv.flush()?;
        Ok(())
    })
}

/// Writes `machines.csv` and `missing.csv` into `out`.
pub fn write_side_files(out: &Path, merged: &Merged) -> anyhow::Result<()> {
    write_atomic(&out.join("machines.csv"), |w| {
        let mut csv = csv::Writer::from_writer(w);
        csv.write_record([
            "shard",
            "host",
            "cpu_model",
            "cores",
            "kernel",
            "bench_version",
        ])?;
        for m in &merged.machines {
            csv.write_record([
                &m.shard,
                &m.host,
                &m.cpu_model,
                &m.cores,
                &m.kernel,
                &m.bench_version,
            ])?;
        }
        csv.flush()?;
        Ok(())
    })?;
    write_missing(out, merged)
}

/// Writes the report of the merged `rows` into `out`, with the merge's notes (the report
/// lets the rows go once it has read them).
pub fn write_report_of(
    out: &Path,
    rows: Vec<crate::report::rows::Row>,
    merged: &Merged,
    baseline: Option<String>,
) -> anyhow::Result<(crate::report::ReportFiles, crate::report::summary::Summary)> {
    let opts = ReportOptions {
        baseline,
        timeout: None,
        notes: merged.notes(),
        ..ReportOptions::default()
    };
    write_report(rows, out, &opts)
}

/// Reads the plan of every study; the first one's is the plan merged.
pub fn read_plans(studies: &[PathBuf]) -> anyhow::Result<Vec<StudyPlan>> {
    studies.iter().map(|s| plan::read(s)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine(shard: &str, cpu: &str) -> MachineLine {
        MachineLine {
            shard: shard.into(),
            cpu_model: cpu.into(),
            bench_version: "0.1.0".into(),
            ..MachineLine::default()
        }
    }

    #[test]
    fn a_row_of_another_cpu_limit_is_not_the_plans() {
        let plan = crate::run::plan::plan_with(|p| p.limits.cpu_limit_s = Some(10.0));
        let mut row = Row {
            corpus: "a.txt".into(),
            timeout_s: plan.limits.timeout_s,
            jobs: 1,
            cpu_limit_s: Some(10.0),
            ..Row::default()
        };
        let corpora = ["a.txt".to_string()];
        let differs =
            |row: &Row| plan_column_differs(row, (&plan, &corpora), &mut FxHashMap::default());
        assert_eq!(differs(&row), None);
        row.cpu_limit_s = Some(5.0);
        let why = differs(&row).unwrap();
        assert_eq!(why, "column cpu_limit_s is 5, the plan's is 10");
        row.cpu_limit_s = None;
        let why = differs(&row).unwrap();
        assert_eq!(why, "column cpu_limit_s is none, the plan's is 10");
    }

    #[test]
    fn the_notes_say_partial_and_mixed_cpu_models() {
        let mut merged = Merged {
            planned: 10,
            machines: vec![machine("0-of-2", "A"), machine("1-of-2", "A")],
            ..Merged::default()
        };
        assert!(merged.notes().is_empty());
        merged.machines[1].cpu_model = "B".into();
        merged.missing.push(Missing {
            shard: Shard { k: 1, n: 2 },
            study: PathBuf::from("s"),
            started: true,
            runs: vec![("i".into(), "dimacs".into(), "native".into(), 1)],
        });
        let notes = merged.notes().join("\n");
        assert!(notes.contains("PARTIAL MERGE: 1 of 10"), "{notes}");
        assert!(notes.contains("2 different CPU models"), "{notes}");
        assert!(notes.contains("not comparable"), "{notes}");
        let text = merged.missing_text(Some(Path::new("s/bench.sbatch")));
        assert!(
            text.contains("bench run --resume s/shards/1-of-2"),
            "{text}"
        );
        assert!(text.contains("sbatch --array=1 s/bench.sbatch"), "{text}");
    }
}
