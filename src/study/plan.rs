//! The study's plan, `study/run.json`: the `bench run` command line every shard runs (the
//! same options and solver paths on every node), the number of shards, the plan's
//! fingerprint, and how many instances and runs each shard holds.
//!
//! It is written once, when the study is planned (`bench slurm`, or the first `bench run
//! --shard` into the folder), through a temporary file and a hard link, so that shards
//! starting at the same moment cannot overwrite each other's plan; a later plan with another
//! fingerprint is refused.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};

use crate::run::corpus::{self, Instance, Source};
use crate::run::shard::{self, Shard};
use crate::run::{RunOptions, fingerprint, meta};
use crate::solver::by_name;

/// What `study/run.json` holds.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct StudyPlan {
    /// Always "bench study": tells this file from a run's run.json.
    pub kind: String,
    /// The `bench run` command line of every shard, without `--shard` and `--out`.
    pub command_line: Vec<String>,
    /// The folder the command line's relative paths are relative to.
    pub cwd: String,
    /// How many shards.
    pub shards: usize,
    /// The plan's fingerprint (see `run/fingerprint.rs`).
    pub fingerprint: String,
    /// Instances in the plan.
    pub instances: usize,
    /// Runs in the plan.
    pub runs: usize,
    /// Instances per shard.
    pub shard_instances: Vec<usize>,
    /// Runs per shard.
    pub shard_runs: Vec<usize>,
    /// Per-run timeout, seconds.
    pub timeout_s: f64,
    /// Parallel runs in each shard.
    pub jobs: usize,
    /// Memory limit per external solver, MiB.
    pub mem_limit_mb: Option<u64>,
    /// Extra work per run: 2 with `--count 2` (a second solve after SAT), 1 otherwise.
    pub solves_per_run: u32,
    /// UNSAT answers are checked with DRAT proofs.
    pub proofs: bool,
    /// bench's version.
    pub bench_version: String,
    /// When the plan was made, UTC.
    pub created: String,
}

/// The kind tag of a study plan.
pub const KIND: &str = "bench study";

pub use crate::results::Key;

/// The plan, with the instances it was made from.
pub struct Planned {
    /// The plan.
    pub plan: StudyPlan,
    /// The instances, in corpus order.
    pub instances: Vec<Instance>,
    /// The shard of each instance.
    pub shard_of: Vec<usize>,
    /// Encoding names, in option order.
    pub encodings: Vec<String>,
}

impl Planned {
    /// Calls `f` with every run key of instance `i`, in plan order.
    pub fn keys_of<'a>(
        &'a self,
        i: usize,
        solvers: &'a [String],
        repeat: u32,
        mut f: impl FnMut(Key<'a>),
    ) {
        let instance = &self.instances[i];
        let encodings: Vec<&str> = match instance.source {
            Source::Puzzle(_) => self.encodings.iter().map(String::as_str).collect(),
            Source::Dimacs(_) => vec!["dimacs"],
        };
        for encoding in encodings {
            for run in 1..=repeat {
                for solver in solvers {
                    f((instance.hash.as_str(), encoding, solver.as_str(), run));
                }
            }
        }
    }

    /// The instances of each shard, by index.
    pub fn by_shard(&self) -> Vec<Vec<usize>> {
        let mut out = vec![Vec::new(); self.plan.shards];
        for (i, &s) in self.shard_of.iter().enumerate() {
            out[s].push(i);
        }
        out
    }
}

/// Plans the study: loads the corpus, fingerprints it, splits it into `shards`.
/// `command_line` is the `bench run` every shard runs (without `--shard` and `--out`).
pub fn make(
    opts: &RunOptions,
    command_line: Vec<String>,
    shards: usize,
) -> anyhow::Result<Planned> {
    if shards == 0 {
        bail!("a study needs at least one shard");
    }
    let corpus = corpus::load(&opts.corpora, &opts.read, opts.strict)?;
    let instances = corpus.instances;
    let fingerprint = fingerprint::plan(opts, &instances, shards)?;
    let shard_of = shard::assign(&instances, opts.encodings.len(), shards);
    let per_unit = opts.solvers.len() * opts.repeat as usize;
    let mut shard_instances = vec![0; shards];
    let mut shard_runs = vec![0; shards];
    for (instance, &s) in instances.iter().zip(&shard_of) {
        shard_instances[s] += 1;
        shard_runs[s] += shard::units(instance, opts.encodings.len()) * per_unit;
    }
    let cwd = std::env::current_dir().context("the current folder")?;
    let plan = StudyPlan {
        kind: KIND.into(),
        command_line,
        cwd: cwd.display().to_string(),
        shards,
        fingerprint,
        instances: instances.len(),
        runs: shard_runs.iter().sum(),
        shard_instances,
        shard_runs,
        timeout_s: opts.timeout.as_secs_f64(),
        jobs: opts.jobs,
        mem_limit_mb: opts.mem_limit_mb,
        solves_per_run: opts.count.max(1),
        proofs: opts.proofs,
        bench_version: env!("CARGO_PKG_VERSION").into(),
        created: meta::utc_stamps(SystemTime::now()).0,
    };
    Ok(Planned {
        plan,
        instances,
        shard_of,
        encodings: opts.encodings.iter().map(|e| e.to_string()).collect(),
    })
}

/// `argv` without the options named in `drop` (each taking a value, as `--x V` or `--x=V`)
/// and the flags in `drop_flags`.
pub fn strip_options(argv: &[String], drop: &[&str], drop_flags: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut args = argv.iter();
    while let Some(a) = args.next() {
        if drop.contains(&a.as_str()) {
            args.next();
        } else if drop_flags.contains(&a.as_str())
            || drop.iter().any(|d| a.starts_with(&format!("{d}=")))
        {
        } else {
            out.push(a.clone());
        }
    }
    out
}

/// The `--solver-path NAME=PATH` options that pin every external solver of `opts` to the
/// binary found here, so every node runs the same one (solvers already given a path or a
/// command are left as they are).
pub fn pinned_solver_paths(opts: &RunOptions) -> anyhow::Result<Vec<String>> {
    let mut out = Vec::new();
    let given: HashSet<&str> = opts
        .config
        .paths
        .iter()
        .map(|(n, _)| n.as_str())
        .chain(opts.config.commands.iter().map(|(n, _)| n.as_str()))
        .collect();
    for name in &opts.solvers {
        if given.contains(name.as_str()) || crate::solver::BUILT_IN.contains(&name.as_str()) {
            continue;
        }
        // Fails here, at planning, if the solver is not found.
        by_name(name, &opts.config)?;
        let found = crate::solver::external::adapters::adapter(name)
            .and_then(|a| crate::solver::external::locate::find_binary(a.binaries));
        if let Some(path) = found {
            let path = path.canonicalize().unwrap_or(path);
            out.push("--solver-path".into());
            out.push(format!("{name}={}", path.display()));
        }
    }
    Ok(out)
}

/// Makes `path` absolute and moves into the folder the plan was made in, so that the
/// plan's relative paths (corpora, `--out`) mean what they meant then, wherever bench is
/// started from. Returns `path`, absolute.
pub fn enter_plan_dir(plan: &StudyPlan, path: &Path) -> anyhow::Result<PathBuf> {
    let absolute = path
        .canonicalize()
        .with_context(|| format!("resolving {}", path.display()))?;
    let cwd = Path::new(&plan.cwd);
    if std::env::current_dir().ok().as_deref() != Some(cwd) {
        std::env::set_current_dir(cwd).with_context(|| {
            format!(
                "the study was planned in {} (its paths are relative to it), which is not here",
                cwd.display()
            )
        })?;
    }
    Ok(absolute)
}

/// `study/run.json`.
pub fn path(study: &Path) -> PathBuf {
    study.join("run.json")
}

/// The folder of shard `shard` of `study`.
pub fn shard_dir(study: &Path, shard: Shard) -> PathBuf {
    study.join("shards").join(shard.dir_name())
}

/// Reads `study/run.json`.
pub fn read(study: &Path) -> anyhow::Result<StudyPlan> {
    let path = path(study);
    let text = std::fs::read_to_string(&path).with_context(|| {
        format!(
            "reading {} (is {} a study folder? `bench slurm` or `bench run --shard K/N --out {}` makes one)",
            path.display(),
            study.display(),
            study.display()
        )
    })?;
    let plan: StudyPlan = serde_json::from_str(&text)
        .with_context(|| format!("{}: not a study plan", path.display()))?;
    if plan.kind != KIND || plan.shard_runs.len() != plan.shards {
        bail!("{}: not a study plan", path.display());
    }
    Ok(plan)
}

/// Writes the plan unless the study has one; returns the study's plan. A study planned
/// with another fingerprint is refused.
pub fn write_new(study: &Path, plan: &StudyPlan) -> anyhow::Result<StudyPlan> {
    std::fs::create_dir_all(study).with_context(|| format!("creating {}", study.display()))?;
    let target = path(study);
    if !target.exists() {
        let tmp = study.join(format!("run.json.{}.tmp", std::process::id()));
        std::fs::write(&tmp, serde_json::to_vec_pretty(plan)?)
            .with_context(|| format!("writing {}", tmp.display()))?;
        // A hard link fails if the target exists: of two racing writers, one wins.
        let linked = std::fs::hard_link(&tmp, &target);
        let _ = std::fs::remove_file(&tmp);
        if let Err(e) = linked
            && !target.exists()
        {
            return Err(anyhow::Error::from(e).context(format!("writing {}", target.display())));
        }
    }
    let existing = read(study)?;
    if existing.fingerprint != plan.fingerprint || existing.shards != plan.shards {
        bail!(
            "{} holds another plan ({} shards, fingerprint {}; this one: {} shards, {}): \
             the corpus or the options differ. Use another folder.",
            study.display(),
            existing.shards,
            existing.fingerprint,
            plan.shards,
            plan.fingerprint
        );
    }
    Ok(existing)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn strip_drops_options_with_values_and_flags() {
        let argv = s(&[
            "bench",
            "slurm",
            "c.txt",
            "--shards",
            "3",
            "--out=st",
            "--submit",
            "--timeout",
            "5",
            "--partition",
            "p",
        ]);
        assert_eq!(
            strip_options(&argv, &["--shards", "--out", "--partition"], &["--submit"]),
            s(&["bench", "slurm", "c.txt", "--timeout", "5"])
        );
    }
}
