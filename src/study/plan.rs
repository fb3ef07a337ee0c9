//! The study's plan, `study/run.json`: a [`Record`] of kind `study` holding the typed
//! plan every shard runs (the same options and solver paths on every node), the folder its
//! relative paths are relative to, the plan's fingerprint, and how many instances and runs
//! each shard holds.
//!
//! It is written once, when the study is planned (`bench slurm`, or the first `bench run
//! --shard` into the folder), through a temporary file linked into place, so that shards
//! starting at the same moment cannot overwrite each other's plan; a later plan with another
//! fingerprint is refused.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use anyhow::{Context, bail};

use crate::run::corpus;
use crate::run::plan::Plan;
use crate::run::record::{self, Layout, Record, RecordKind};
use crate::run::shard::{self, Shard};
use crate::run::{meta, plan as run_plan};
use crate::solver::by_spec;

use super::roster::Roster;

/// A study's run.json: a record of kind `study`, with its layout.
pub type StudyPlan = Record;

pub use crate::results::Key;

/// The plan, with the instances it was made from.
pub struct Planned {
    /// The plan.
    pub plan: StudyPlan,
    /// The instances, in corpus order.
    pub instances: Roster,
    /// The shard of each instance.
    pub shard_of: Vec<u32>,
    /// Encoding names, in option order.
    pub encodings: Vec<String>,
    /// The encoding of a DIMACS instance: `dimacs`.
    dimacs: [String; 1],
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
        let hash = self.instances.hash(i);
        let encodings: &[String] = if self.instances.is_puzzle(i) {
            &self.encodings
        } else {
            &self.dimacs
        };
        for encoding in encodings {
            for run in 1..=repeat {
                for solver in solvers {
                    f((hash, encoding.as_str(), solver.as_str(), run));
                }
            }
        }
    }

    /// The instances of each shard, by index.
    pub fn by_shard(&self) -> Vec<Vec<u32>> {
        let mut out = vec![Vec::new(); self.plan.shards()];
        for (i, &s) in self.shard_of.iter().enumerate() {
            out[s as usize].push(i as u32);
        }
        out
    }
}

/// Plans the study of `planned` (made in `cwd` by `command_line`) in `shards` parts: loads
/// the corpus (each instance's identity, no puzzle kept), fingerprints it, splits it.
pub fn make(
    planned: &Plan,
    cwd: &Path,
    command_line: &[String],
    shards: usize,
) -> anyhow::Result<Planned> {
    if shards == 0 {
        bail!("a study needs at least one shard");
    }
    let mut plan = planned.clone();
    plan.shards = shards;
    if u32::try_from(shards).is_err() {
        bail!("a study has at most {} shards", u32::MAX);
    }
    let corpus = corpus::load_hashed(cwd, &plan.corpora, &plan.read_options(), plan.strict)?;
    let mut instances = corpus.instances;
    if let Some(file) = &plan.families {
        for w in corpus::name_families(&mut instances, file, cwd)? {
            eprintln!("bench: warning: {}", crate::text::terminal(&w));
        }
    }
    let fingerprint = run_plan::fingerprint(&plan, &instances);
    let shard_of = shard::assign(&instances, plan.encodings.len(), shards);
    let per_unit = plan.solvers.len() * plan.repeat as usize;
    let mut shard_instances = vec![0; shards];
    let mut shard_runs = vec![0; shards];
    for (instance, &s) in instances.iter().zip(&shard_of) {
        shard_instances[s] += 1;
        shard_runs[s] += shard::units(instance, plan.encodings.len()) * per_unit;
    }
    let encodings = plan.encodings.iter().map(|e| e.to_string()).collect();
    let roster = Roster::of(&instances);
    drop(instances);
    // Fits: there are at most u32::MAX shards.
    let shard_of = shard_of.into_iter().map(|s| s as u32).collect();
    let record = Record {
        version: record::VERSION,
        kind: RecordKind::Study,
        plan,
        cwd: cwd.to_path_buf(),
        fingerprint,
        bench_version: env!("CARGO_PKG_VERSION").into(),
        command_line: command_line.to_vec(),
        created: meta::utc_stamps(SystemTime::now()).0,
        shard: None,
        layout: Some(Layout {
            instances: roster.len(),
            runs: shard_runs.iter().sum(),
            shard_instances,
            shard_runs,
        }),
        execution: None,
    };
    Ok(Planned {
        plan: record,
        instances: roster,
        shard_of,
        encodings,
        dimacs: ["dimacs".to_string()],
    })
}

/// The solver paths that pin every external solver of `plan` to the binary found here,
/// so every node runs the same one (solvers already given a path or a command are left as
/// they are).
pub fn pinned_solver_paths(plan: &Plan) -> anyhow::Result<Vec<(String, PathBuf)>> {
    let config = plan.solver_config();
    let mut out = Vec::new();
    let given: HashSet<&str> = config
        .paths
        .iter()
        .map(|(n, _)| n.as_str())
        .chain(config.commands.iter().map(|(n, _)| n.as_str()))
        .collect();
    for spec in &plan.solvers {
        let name = spec.name();
        if given.contains(name.as_str()) || crate::solver::BUILT_IN.contains(&name.as_str()) {
            continue;
        }
        // Fails here, at planning, if the solver is not found.
        by_spec(spec, &config)?;
        let found = crate::solver::external::adapters::adapter(&name)
            .and_then(|a| crate::solver::external::locate::find_binary(a.binaries));
        if let Some(path) = found {
            out.push((name, path.canonicalize().unwrap_or(path)));
        }
    }
    Ok(out)
}

/// `study/run.json`.
pub fn path(study: &Path) -> PathBuf {
    record::path(study)
}

/// The folder of shard `shard` of `study`.
pub fn shard_dir(study: &Path, shard: Shard) -> PathBuf {
    study.join("shards").join(shard.dir_name())
}

/// Reads `study/run.json`.
pub fn read(study: &Path) -> anyhow::Result<StudyPlan> {
    let hint = || {
        format!(
            "(is {} a study folder? `bench slurm` or `bench run --shard K/N --out {}` makes one)",
            study.display(),
            study.display()
        )
    };
    let record = record::read_record(study).with_context(hint)?;
    if record.kind != RecordKind::Study || record.shard_runs().len() != record.shards() {
        bail!("{}: not a study plan {}", path(study).display(), hint());
    }
    Ok(record)
}

/// Writes the plan unless the study has one; returns the study's plan. A study planned
/// with another fingerprint is refused.
pub fn write_new(study: &Path, plan: &StudyPlan) -> anyhow::Result<StudyPlan> {
    let existing = record::write_new(study, plan)?;
    if existing.kind != RecordKind::Study {
        bail!(
            "{} holds a run, not a study: use another folder",
            study.display()
        );
    }
    if existing.fingerprint != plan.fingerprint || existing.shards() != plan.shards() {
        bail!(
            "{} holds another plan ({} shards, fingerprint {}; this one: {} shards, {}): \
             the corpus or the options differ. Use another folder.",
            study.display(),
            existing.shards(),
            existing.fingerprint,
            plan.shards(),
            plan.fingerprint
        );
    }
    Ok(existing)
}
