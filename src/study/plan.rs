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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::format::ReadOptions;
    use crate::run::corpus::Instance;

    const P1: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const P2: &str =
        "002593007005807000900002030006008143080130952009054000500089704020000005000705360";
    const P3: &str =
        "000987014400000000903045720530070800702000000000192030004520160050004089120860005";
    const CLASH: &str =
        "550000000000000000000000000000000000000000000000000000000000000000000000000000000";

    /// A corpus with what makes loading hard: two puzzle files of one name, duplicates
    /// within a file and across files and formats, a bad line, givens that clash, a folder
    /// of DIMACS files of one name, one of them a duplicate, and an unreadable file.
    fn corpus(dir: &Path) -> Vec<PathBuf> {
        let write = |rel: &str, text: &str| {
            let path = dir.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write(
            "p/a.txt",
            &format!("# p\n{P1}\n{P2} 1\n{P1}\nxyz\n{CLASH}\n"),
        );
        write("q/a.txt", &format!("{P3}\n{P2}\n"));
        write("f/e1/x.cnf", "p cnf 2 2\n1 2 0\n-1 0\n");
        write("f/e2/x.cnf", "p cnf 2 1\n1 -2 0\n");
        write(
            "f/e2/y.cnf",
            "c the same as e1/x.cnf\np cnf 2 2\n1 2 0\n-1 0\n",
        );
        write("f/z.txt", &format!("{P3}\n{P1}\n"));
        write("f/junk.dat", "neither\n");
        ["p/a.txt", "q/a.txt", "f"].map(PathBuf::from).to_vec()
    }

    fn same_identity<P, Q>(a: &[Instance<P>], b: &[Instance<Q>]) {
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(b) {
            assert_eq!(
                (
                    &*x.corpus,
                    &x.id,
                    &x.hash,
                    x.is_puzzle(),
                    x.format,
                    &x.family
                ),
                (
                    &*y.corpus,
                    &y.id,
                    &y.hash,
                    y.is_puzzle(),
                    y.format,
                    &y.family
                )
            );
        }
    }

    #[test]
    fn the_hashed_loader_and_the_plan_agree_with_the_full_loader() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        let corpora = corpus(dir);
        std::fs::write(
            dir.join("families.csv"),
            "path,family\np/a.txt:2,two\nf/e2/x.cnf,cnf\nnowhere.cnf,none\n",
        )
        .unwrap();
        let (families, _) =
            crate::family::FamiliesFile::read(dir, Path::new("families.csv")).unwrap();
        let read = ReadOptions::default();
        let mut full = corpus::load(dir, &corpora, &read, false).unwrap();
        let mut hashed = corpus::load_hashed(dir, &corpora, &read, false).unwrap();
        assert_eq!(full.skipped, hashed.skipped);
        assert_eq!(full.notes, hashed.notes);
        assert_eq!(full.duplicates, hashed.duplicates);
        assert!(!full.skipped.is_empty() && !full.notes.is_empty());
        assert_eq!(full.duplicates.len(), 5, "{:?}", full.duplicates);
        assert!(full.instances.iter().any(|i| !i.records.is_empty()));
        assert!(hashed.instances.iter().all(|i| i.records.is_empty()));
        let warned = corpus::name_families(&mut full.instances, &families, dir).unwrap();
        let warned_too = corpus::name_families(&mut hashed.instances, &families, dir).unwrap();
        assert_eq!(warned, warned_too);
        assert_eq!(warned.len(), 1, "{warned:?}");
        same_identity(&full.instances, &hashed.instances);
        let ids: Vec<&str> = full.instances.iter().map(|i| i.id.as_str()).collect();
        for id in ["p/a.txt:2", "a.txt:1", "a.txt:3", "e1/x.cnf", "e2/x.cnf"] {
            assert!(ids.contains(&id), "{id} in {ids:?}");
        }

        let plan = crate::run::plan::plan_with(|p| {
            p.corpora = corpora.clone();
            p.encodings = vec![
                crate::encode::Encoding::Minimal,
                crate::encode::Encoding::Extended,
            ];
            p.families = Some(families.clone());
        });
        let planned = make(&plan, dir, &[], 3).unwrap();
        let roster = &planned.instances;
        assert_eq!(roster.len(), full.instances.len());
        for (k, i) in full.instances.iter().enumerate() {
            assert_eq!(roster.id(k), i.id);
            assert_eq!(roster.hash(k), i.hash);
            assert_eq!(roster.is_puzzle(k), i.is_puzzle());
        }
        let shard_of: Vec<u32> = shard::assign(&full.instances, 2, 3)
            .into_iter()
            .map(|s| s as u32)
            .collect();
        assert_eq!(planned.shard_of, shard_of);
        let planned_plan = Plan { shards: 3, ..plan };
        assert_eq!(
            planned.plan.fingerprint,
            run_plan::fingerprint(&planned_plan, &full.instances)
        );
        let layout = planned.plan.layout.as_ref().unwrap();
        assert_eq!(layout.instances, full.instances.len());
        let units: usize = full.instances.iter().map(|i| shard::units(i, 2)).sum();
        assert_eq!(layout.runs, units);
    }
}
