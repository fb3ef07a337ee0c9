//! `run.json`: one schema for a run, a shard of a study and a study, written by bench and
//! read back typed (never re-parsed from a command line). Every record holds the schema
//! version, the typed [`Plan`], the folder its relative paths are relative to, and the
//! plan's fingerprint; a study adds how its instances and runs are split into shards; a
//! run or shard adds what it ran with and how it went (solvers and their versions, the
//! machine, containment, start and end).
//!
//! A `run.json` of another schema is refused with what to do: one written before the plan
//! was recorded (no `version`, only the command line) cannot be resumed (its results.csv
//! still reports, and its command run again into a new folder makes the plan anew); one of
//! a newer bench is that bench's to read.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};

use super::meta::SolverMeta;
use super::plan::Plan;
use super::shard::Shard;

/// The schema version this bench writes.
pub const VERSION: u32 = 2;

/// What a record describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RecordKind {
    /// A `bench run` (a whole plan, or one shard of a study).
    Run,
    /// A study: a plan split into shards, each run apart (`bench slurm`, `--shard`).
    Study,
}

/// Everything in `run.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The schema version ([`VERSION`]).
    pub version: u32,
    /// A run or a study.
    pub kind: RecordKind,
    /// The plan.
    pub plan: Plan,
    /// The folder the plan's relative paths are relative to.
    pub cwd: PathBuf,
    /// The plan's fingerprint over the instances' hashes (see `plan.rs`).
    pub fingerprint: String,
    /// bench's version.
    pub bench_version: String,
    /// The command line as typed, for people (never read back).
    pub command_line: Vec<String>,
    /// When the record was made, UTC.
    pub created: String,
    /// The shard a run is, `K/N` (runs of a study only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// How a study is split (studies only).
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<Layout>,
    /// What a run ran with and how it went (runs only).
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub execution: Option<Execution>,
}

/// How a study's plan is split into shards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Layout {
    /// Instances in the plan.
    pub instances: usize,
    /// Runs in the plan.
    pub runs: usize,
    /// Instances per shard.
    pub shard_instances: Vec<usize>,
    /// Runs per shard.
    pub shard_runs: Vec<usize>,
}

/// What a run ran with and how it went.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Execution {
    /// The solvers as found.
    pub solvers: Vec<SolverMeta>,
    /// The shorter machine record of a run.json written by an older bench, read and never
    /// written: [`Execution::machine`] folds it into `measurement.machine`.
    #[serde(default, rename = "machine", skip_serializing)]
    pub older_machine: Option<crate::machine::Description>,
    /// Start, UTC, RFC 3339.
    pub start: String,
    /// End, UTC (null while running or if killed).
    pub end: Option<String>,
    /// The machine's load average as the run started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load_start: Option<super::meta::LoadAverage>,
    /// The machine's load average as it ended (null while running or if killed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load_end: Option<super::meta::LoadAverage>,
    /// Runs planned (those a resume found done included).
    pub planned_runs: usize,
    /// Inputs left out (malformed puzzles, unreadable files).
    pub skipped_inputs: usize,
    /// Inputs whose content was planned under another name.
    #[serde(default)]
    pub duplicate_inputs: usize,
    /// True if a stop (Ctrl-C, SIGTERM) ended the run before the plan was done.
    pub interrupted: bool,
    /// Runs the machine could not start (a solver's binary gone, exec refused): not
    /// recorded in results.csv, run again by `--resume`.
    #[serde(default)]
    pub not_started: usize,
    /// How external runs were contained (one name, the one bench prints).
    pub containment: String,
    /// The containment in words.
    pub containment_detail: String,
    /// The machine in detail, where the workers ran, and what could skew the times.
    #[serde(default)]
    pub measurement: crate::machine::Measurement,
    /// bench's own CPU time per run, milliseconds: the CPU of bench's whole process tree
    /// (bench, its exec helpers, the solvers, the control groups' set-up) less the rows'
    /// `cpu_s`, over the rows. Null for a resumed or interrupted run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overhead_cpu_ms_per_run: Option<f64>,
}

impl Execution {
    /// The machine the run ran on: `measurement.machine`, with what it lacks taken from
    /// the older record, if the file has one.
    pub fn machine(&self) -> crate::machine::Description {
        let older = self.older_machine.clone().unwrap_or_default();
        self.measurement.machine.clone().or(older)
    }
}

impl Record {
    /// How many shards the plan is run in.
    pub fn shards(&self) -> usize {
        self.plan.shards
    }

    /// Runs per shard (a study's; empty for a run).
    pub fn shard_runs(&self) -> &[usize] {
        self.layout.as_ref().map_or(&[], |l| &l.shard_runs)
    }

    /// Instances per shard (a study's; empty for a run).
    pub fn shard_instances(&self) -> &[usize] {
        self.layout.as_ref().map_or(&[], |l| &l.shard_instances)
    }

    /// Runs in the plan (a study's).
    pub fn runs(&self) -> usize {
        self.layout.as_ref().map_or(0, |l| l.runs)
    }

    /// Instances in the plan (a study's).
    pub fn instances(&self) -> usize {
        self.layout.as_ref().map_or(0, |l| l.instances)
    }

    /// `path` resolved against the record's folder.
    pub fn resolve(&self, path: &Path) -> PathBuf {
        super::plan::resolve(&self.cwd, path)
    }
}

/// `dir/run.json`.
pub fn path(dir: &Path) -> PathBuf {
    dir.join("run.json")
}

/// Reads `dir/run.json`, a record of this schema; any other is refused, saying what to do.
pub fn read_record(dir: &Path) -> anyhow::Result<Record> {
    let path = path(dir);
    let text = crate::bounded::read_to_string(&path, crate::bounded::MAX_RUN_JSON)?;
    let value: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("{}: not JSON", path.display()))?;
    match value.get("version").and_then(|v| v.as_u64()) {
        Some(v) if v == u64::from(VERSION) => {
            let record: Record = serde_json::from_value(value)
                .with_context(|| format!("{}: not a bench run.json", path.display()))?;
            // The door the command line passes: a value it refuses is refused here too.
            if let Err(why) = record.plan.check_ranges() {
                bail!("{}: {why}", path.display());
            }
            Ok(record)
        }
        Some(v) => bail!(
            "{}: schema version {v}, this bench reads {VERSION}: use the bench that wrote it",
            path.display()
        ),
        None => bail!("{}", unversioned(&path, dir, &value)),
    }
}

/// Why a run.json without a schema version (an older bench's, which recorded its command
/// line and no plan) is refused, and what to do instead.
fn unversioned(path: &Path, dir: &Path, value: &serde_json::Value) -> String {
    let argv: Option<Vec<String>> = value
        .get("command_line")
        .and_then(|argv| serde_json::from_value(argv.clone()).ok());
    let is_run = value.get("kind").is_none()
        && argv
            .as_ref()
            .is_some_and(|a| a.get(1).is_some_and(|c| c == "run"));
    if !is_run {
        return format!(
            "{}: written by an older bench (no schema version): plan the study again \
             (bench slurm, or bench run --shard K/N --out NEW)",
            path.display()
        );
    }
    // The command again, without the folder it wrote to: the user picks a new one.
    let mut again: Vec<String> = Vec::new();
    let mut args = argv.unwrap_or_default().into_iter().skip(2);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--out" | "--resume" => drop(args.next()),
            _ if a.starts_with("--out=") || a.starts_with("--resume=") => {}
            _ => again.push(a),
        }
    }
    let command = crate::text::terminal(&shell_words::join(
        ["bench", "run"]
            .into_iter()
            .map(String::from)
            .chain(again)
            .chain(["--out".to_string(), "NEW".to_string()]),
    ))
    .into_owned();
    format!(
        "{}: written by an older bench, which recorded its command line and not its plan: \
         it cannot be resumed. Its rows stay readable (bench report {}); to finish its \
         runs, start them again into a new folder: {command}",
        path.display(),
        dir.join("results.csv").display()
    )
}

/// A run's record, if `dir` has a readable one (shards not started have none).
pub fn read_run(dir: &Path) -> Option<Record> {
    read_record(dir).ok().filter(|r| r.kind == RecordKind::Run)
}

/// Writes `dir/run.json` atomically (a temporary file in the folder, then a rename).
pub fn write(dir: &Path, record: &Record) -> anyhow::Result<()> {
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("writing in {}", dir.display()))?;
    serde_json::to_writer_pretty(&mut tmp, record)?;
    std::io::Write::write_all(&mut tmp, b"\n")?;
    tmp.persist(path(dir))
        .with_context(|| format!("writing {}", path(dir).display()))?;
    Ok(())
}

/// Writes `dir/run.json` only if there is none yet (of two writers racing, one wins: the
/// file is linked into place, which fails if it exists); returns the record that is there.
pub fn write_new(dir: &Path, record: &Record) -> anyhow::Result<Record> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let target = path(dir);
    if !target.exists() {
        let mut tmp = tempfile::NamedTempFile::new_in(dir)
            .with_context(|| format!("writing in {}", dir.display()))?;
        serde_json::to_writer_pretty(&mut tmp, record)?;
        std::io::Write::write_all(&mut tmp, b"\n")?;
        if let Err(e) = tmp.persist_noclobber(&target)
            && !target.exists()
        {
            return Err(
                anyhow::Error::from(e.error).context(format!("writing {}", target.display()))
            );
        }
    }
    read_record(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_machine_is_recorded_once_and_an_older_second_record_still_reads() {
        let older = r#"{"solvers": [], "start": "2026-11-25T12:44:14Z", "end": null,
            "planned_runs": 1, "skipped_inputs": 0, "interrupted": false,
            "containment": "subreaper", "containment_detail": "",
            "machine": {"host": "vm", "cores": 2, "cpu_model": "AMD EPYC",
                        "mem_total_kb": 1024, "kernel": "6.1"},
            "measurement": {"machine": {"cpu_model": "AMD EPYC", "logical_cpus": 2,
                                        "physical_cores": 1, "kernel": "6.1"}}}"#;
        let e: Execution = serde_json::from_str(older).unwrap();
        let m = e.machine();
        assert_eq!(m.host.as_deref(), Some("vm"));
        assert_eq!((m.logical_cpus, m.physical_cores), (2, 1));
        assert_eq!(m.mem_total_kb, Some(1024));
        let written = serde_json::to_value(&e).unwrap();
        assert!(written.get("machine").is_none(), "{written}");
        assert_eq!(written["measurement"]["machine"]["cpu_model"], "AMD EPYC");
    }

    #[test]
    fn a_run_json_without_a_schema_is_refused_saying_what_to_do() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            path(dir.path()),
            r#"{"command_line": ["bench", "run", "a.txt", "--out", "old", "--jobs", "1"],
                "fingerprint": "x"}"#,
        )
        .unwrap();
        let err = read_record(dir.path()).unwrap_err().to_string();
        assert!(err.contains("cannot be resumed"), "{err}");
        assert!(
            err.contains("start them again into a new folder: bench run a.txt --jobs 1 --out NEW"),
            "{err}"
        );
        std::fs::write(path(dir.path()), r#"{"kind": "bench study"}"#).unwrap();
        let err = read_record(dir.path()).unwrap_err().to_string();
        assert!(err.contains("plan the study again"), "{err}");
    }
}
