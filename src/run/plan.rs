//! The plan: every option that decides a benchmark's runs, as one typed value. It is
//! built once from the command line (by `commands/run.rs`), written into `run.json` (a
//! run's, a shard's and a study's alike, see [`super::record`]), and read back typed by
//! `--resume`, `--study`, `bench status`, `bench merge` and `bench slurm`: no command line
//! is ever parsed again.
//!
//! Its canonical serialization (JSON with sorted keys) and the instances' content hashes
//! are the plan's fingerprint ([`fingerprint`]), so an option added to [`Plan`] is inside
//! the fingerprint by construction. What is not in the plan does not decide the runs: the
//! output folder, which shard a task runs, the folder bench was started in.
//!
//! `--resume DIR` runs the plan recorded in `DIR/run.json`; a corpus or option given beside
//! it must agree with the recorded one ([`Plan::check_given`]), and the refusal names the
//! option and both values.

use std::path::{Path, PathBuf};

use anyhow::bail;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::encode::{Amo, Encoding};
use crate::puzzle::Kind;
use crate::puzzle::format::{Format, ReadOptions};
use crate::puzzle::symbols::Alphabet;
use crate::solver::SolverConfig;
use crate::solver::config::SolverSpec;

/// The plan of a benchmark.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    /// Puzzle files, DIMACS files and folders, as named (relative to [`super::record`]'s
    /// `cwd`).
    pub corpora: Vec<PathBuf>,
    /// The solvers (`native`, `native:restart=luby`, `kissat`), in order.
    pub solvers: Vec<SolverSpec>,
    /// Encodings for puzzles.
    pub encodings: Vec<Encoding>,
    /// The at-most-one sub-encoding.
    pub amo: Amo,
    /// The limits of each run: wall clock, CPU time, memory (in run.json, the plan's
    /// fields `timeout_s`, `cpu_limit_s`, `mem_limit_mb`).
    #[serde(flatten)]
    pub limits: super::limits::RunLimits,
    /// Parallel runs.
    pub jobs: usize,
    /// Repetitions of each run.
    pub repeat: u32,
    /// DRAT proofs checked by `rate`, and as LRAT by cake_lpr.
    pub proofs: bool,
    /// The proof checkers' time limit, seconds (`--checker-timeout`; None: 9 times the
    /// solver's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checker_timeout_s: Option<f64>,
    /// Seed for randomised solvers.
    pub seed: u64,
    /// Solutions counted up to this many (1: none).
    pub count: u32,
    /// A malformed input stops the run.
    pub strict: bool,
    /// Solved grids kept under `solutions/`.
    pub solutions: bool,
    /// In-process solvers solve puzzles in sessions.
    pub incremental: bool,
    /// Puzzle files read as this kind.
    pub kind: Option<Kind>,
    /// Puzzle files read in this format.
    pub format: Option<Format>,
    /// Puzzle files written in this alphabet.
    pub alphabet: Option<Alphabet>,
    /// `--solver-path NAME=PATH`: known solvers at explicit (absolute) paths.
    pub solver_paths: Vec<(String, PathBuf)>,
    /// `--solver NAME=CMD`: solvers speaking the competition format.
    pub solver_commands: Vec<(String, String)>,
    /// `--puzzle-solver NAME=CMD`: dedicated solvers speaking the puzzle line protocol
    /// (left out of run.json when none, so a plan without one keeps its fingerprint).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub puzzle_solver_commands: Vec<(String, String)>,
    /// The parts the plan is run in (`--shard K/N`: N; 1 for a run in one piece).
    pub shards: usize,
    /// `--families FILE`: the family column's families (left out of run.json when none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub families: Option<crate::family::FamiliesFile>,
}

/// One option as the command line names it, and how two plans compare on it.
struct OptionName {
    /// The clap argument id.
    id: &'static str,
    /// How a user types it (`--timeout`, or `corpus` for the positional arguments).
    flag: &'static str,
    /// The plan's field it sets (a path: `limits.timeout_s`), which a test holds to the
    /// fields run.json writes.
    #[cfg_attr(not(test), allow(dead_code))]
    field: &'static str,
    /// The values of two plans as a person reads them, when they differ.
    differ: fn(&Plan, &Plan) -> Option<(String, String)>,
}

/// `OPTIONS`, one line a field of [`Plan`]: clap's argument id, the flag, the field (a
/// path into the plan). A test checks that every field run.json writes has its line.
macro_rules! options {
    ($($id:literal, $flag:literal, $($field:ident).+;)*) => {
        /// Every option that decides the plan, by argument id: what [`Plan::check_given`]
        /// compares, field by field, typed.
        const OPTIONS: &[OptionName] = &[$(OptionName {
            id: $id,
            flag: $flag,
            field: stringify!($($field).+),
            differ: |a, b| {
                (a.$($field).+ != b.$($field).+)
                    .then(|| (a.$($field).+.shown(), b.$($field).+.shown()))
            },
        }),*];
    };
}

options! {
    "corpora", "corpus", corpora;
    "solvers", "--solvers", solvers;
    "encodings", "--encodings", encodings;
    "amo", "--amo", amo;
    "timeout", "--timeout", limits.timeout_s;
    "cpu_limit", "--cpu-limit", limits.cpu_limit_s;
    "jobs", "--jobs", jobs;
    "repeat", "--repeat", repeat;
    "mem_limit", "--mem-limit", limits.mem_limit_mb;
    "proofs", "--proofs", proofs;
    "checker_timeout", "--checker-timeout", checker_timeout_s;
    "seed", "--seed", seed;
    "count", "--count", count;
    "strict", "--strict", strict;
    "solutions", "--solutions", solutions;
    "no_incremental", "--no-incremental", incremental;
    "kind", "--kind", kind;
    "format", "--format", format;
    "alphabet", "--alphabet", alphabet;
    "solver_path", "--solver-path", solver_paths;
    "solver_cmd", "--solver", solver_commands;
    "puzzle_solver_cmd", "--puzzle-solver", puzzle_solver_commands;
    "shard", "--shard", shards;
    "families", "--families", families;
}

/// A plan's value as a person reads it, in a refusal: `5`, `native,kissat`, `none`.
trait Shown {
    fn shown(&self) -> String;
}

macro_rules! shown_by_display {
    ($($t:ty),*) => {$(
        impl Shown for $t {
            fn shown(&self) -> String {
                self.to_string()
            }
        }
    )*};
}
shown_by_display!(usize, u32, u64, bool, String, SolverSpec);

macro_rules! shown_by_name {
    ($($t:ty),*) => {$(
        impl Shown for $t {
            fn shown(&self) -> String {
                self.as_str().to_string()
            }
        }
    )*};
}
shown_by_name!(Encoding, Amo, Kind, Format);

impl Shown for f64 {
    fn shown(&self) -> String {
        format!("{self:?}")
    }
}

impl Shown for PathBuf {
    fn shown(&self) -> String {
        self.display().to_string()
    }
}

impl Shown for crate::family::FamiliesFile {
    fn shown(&self) -> String {
        format!("{} (sha256 {})", self.path.display(), self.sha256)
    }
}

impl Shown for Alphabet {
    fn shown(&self) -> String {
        self.symbols()
    }
}

impl<T: Shown> Shown for Option<T> {
    fn shown(&self) -> String {
        self.as_ref().map_or_else(|| "none".into(), Shown::shown)
    }
}

impl<T: Shown> Shown for Vec<T> {
    fn shown(&self) -> String {
        self.iter().map(Shown::shown).collect::<Vec<_>>().join(",")
    }
}

impl<A: Shown, B: Shown> Shown for (A, B) {
    fn shown(&self) -> String {
        format!("{}={}", self.0.shown(), self.1.shown())
    }
}

impl Plan {
    /// The per-run wall-clock limit.
    pub fn timeout(&self) -> std::time::Duration {
        self.limits.wall()
    }

    /// The proof checkers' time limit (`rate` and cake_lpr together): `--checker-timeout`,
    /// else 9 times the solver's, the SAT Competition's ratio.
    pub fn checker_timeout(&self) -> std::time::Duration {
        match self.checker_timeout_s {
            Some(s) => std::time::Duration::from_secs_f64(s),
            None => self.timeout().saturating_mul(9),
        }
    }

    /// Where solvers are found.
    pub fn solver_config(&self) -> SolverConfig {
        SolverConfig {
            paths: self.solver_paths.clone(),
            commands: self.solver_commands.clone(),
            puzzle_commands: self.puzzle_solver_commands.clone(),
        }
    }

    /// How puzzle files are read.
    pub fn read_options(&self) -> ReadOptions {
        ReadOptions {
            format: self.format,
            kind: self.kind,
            alphabet: self.alphabet,
        }
    }

    /// Holds every numeric value to the range the command line holds it to (the one
    /// validation, [`super::ranges`]): a plan read from run.json passes the same door.
    /// `Err` names the field (`plan.timeout_s`) and the range.
    pub fn check_ranges(&self) -> Result<(), String> {
        use super::ranges;
        let field = |name: &str, r: Result<(), String>| r.map_err(|e| format!("plan.{name}: {e}"));
        self.limits
            .check_ranges()
            .map_err(|e| format!("plan.{e}"))?;
        field("jobs", ranges::jobs(self.jobs).map(drop))?;
        field("repeat", ranges::repeat(self.repeat).map(drop))?;
        field("count", ranges::count(self.count).map(drop))?;
        field("shards", ranges::shards(self.shards).map(drop))?;
        Ok(())
    }

    /// Refuses options given on the command line (`given`, those `explicit` says were
    /// typed) that differ from this recorded plan, naming the option and both values.
    pub fn check_given(&self, given: &Plan, explicit: &dyn Fn(&str) -> bool) -> anyhow::Result<()> {
        let differ: Vec<String> = OPTIONS
            .iter()
            .filter(|o| explicit(o.id))
            .filter_map(|o| {
                let (ours, theirs) = (o.differ)(self, given)?;
                Some(format!(
                    "{}: the run has {ours}, this command gives {theirs}",
                    o.flag
                ))
            })
            .collect();
        if !differ.is_empty() {
            bail!(
                "--resume runs the plan recorded in run.json; these differ from it:\n  {}\n\
                 (leave them out to resume as planned, or start a new run with another --out)",
                differ.join("\n  ")
            );
        }
        Ok(())
    }
}

/// A JSON value with every object's keys sorted: the canonical form that is hashed.
fn canonical(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let fields: Vec<String> = keys
                .into_iter()
                .map(|k| {
                    format!(
                        "{}:{}",
                        serde_json::Value::from(k.as_str()),
                        canonical(&map[k])
                    )
                })
                .collect();
            format!("{{{}}}", fields.join(","))
        }
        serde_json::Value::Array(items) => {
            format!(
                "[{}]",
                items.iter().map(canonical).collect::<Vec<_>>().join(",")
            )
        }
        other => other.to_string(),
    }
}

/// The fingerprint of a plan (any serializable form of it) over the instances' content
/// hashes, in plan order: SHA-256 of the plan's canonical JSON and the hashes, in hex (32
/// characters kept).
pub fn fingerprint_of<'a>(
    plan: &serde_json::Value,
    hashes: impl IntoIterator<Item = &'a str>,
) -> String {
    let mut h = Sha256::new();
    h.update(b"bench-plan-2\n");
    h.update(canonical(plan).as_bytes());
    for hash in hashes {
        h.update(b"\n");
        h.update(hash.as_bytes());
    }
    h.finalize()
        .iter()
        .take(16)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The fingerprint of `plan` over `instances`.
pub fn fingerprint<P>(plan: &Plan, instances: &[super::corpus::Instance<P>]) -> String {
    let value = serde_json::to_value(plan).unwrap_or_default();
    fingerprint_of(&value, instances.iter().map(|i| i.hash.as_str()))
}

/// `path` as a corpus of a plan made in `cwd` means it.
pub fn resolve(cwd: &Path, path: &Path) -> PathBuf {
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        cwd.join(path)
    }
}

/// Serde by name for the option enums: each is written as the name the command line
/// takes (`as_str`) and read back from it, so run.json reads like the command line.
macro_rules! serde_by_name {
    ($($t:ty),*) => {$(
        impl Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                let name = String::deserialize(d)?;
                <$t>::ALL
                    .iter()
                    .copied()
                    .find(|x| x.as_str() == name)
                    .ok_or_else(|| serde::de::Error::custom(format!("unknown value `{name}`")))
            }
        }
    )*};
}
serde_by_name!(Encoding, Amo, Kind, Format);

impl Serialize for Alphabet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.symbols())
    }
}

impl<'de> Deserialize<'de> for Alphabet {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Alphabet, D::Error> {
        let symbols = String::deserialize(d)?;
        Alphabet::parse(&symbols).map_err(serde::de::Error::custom)
    }
}

/// The solver `name` (for tests).
#[cfg(test)]
pub(crate) fn spec(name: &str) -> SolverSpec {
    SolverSpec::parse(name).expect("a solver spec")
}

/// A plan as `bench run a.txt --jobs 1` makes it, with `edit` applied (for tests).
#[cfg(test)]
pub(crate) fn plan_with(edit: impl FnOnce(&mut Plan)) -> Plan {
    let mut plan = Plan {
        corpora: vec!["a.txt".into()],
        solvers: vec![spec("native")],
        encodings: vec![Encoding::Extended],
        amo: Amo::default(),
        limits: Default::default(),
        jobs: 1,
        repeat: 1,
        proofs: false,
        checker_timeout_s: None,
        seed: 0,
        count: 1,
        strict: false,
        solutions: false,
        incremental: true,
        kind: None,
        format: None,
        alphabet: None,
        solver_paths: Vec::new(),
        solver_commands: Vec::new(),
        puzzle_solver_commands: Vec::new(),
        shards: 1,
        families: None,
    };
    edit(&mut plan);
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_is_an_option_and_round_trips() {
        let plan = plan_with(|p| {
            p.solvers = vec![
                spec("native"),
                spec("minisat"),
                spec("native: phase = random"),
            ];
            p.checker_timeout_s = Some(3.0);
            p.alphabet = Some(Alphabet::parse("ABCDEFGHI").unwrap());
            p.kind = Some(Kind::Latin);
            p.format = Some(Format::Line);
            p.encodings = vec![Encoding::Minimal, Encoding::Pruned];
            p.limits.mem_limit_mb = Some(100);
            p.limits.cpu_limit_s = Some(7.5);
            p.solver_paths = vec![("kissat".into(), "/x/kissat".into())];
            p.puzzle_solver_commands = vec![("gs".into(), "bench solve --serve".into())];
            p.families = Some(crate::family::FamiliesFile {
                path: "/x/families.csv".into(),
                sha256: "ab".repeat(32),
            });
        });
        let value = serde_json::to_value(&plan).unwrap();
        let fields: Vec<&String> = value.as_object().unwrap().keys().collect();
        let named = |o: &OptionName| o.field.rsplit('.').next().unwrap_or(o.field);
        for f in &fields {
            assert!(
                OPTIONS.iter().any(|o| named(o) == f.as_str()),
                "plan field `{f}` has no option in OPTIONS"
            );
        }
        assert_eq!(fields.len(), OPTIONS.len());
        for o in OPTIONS {
            assert!((o.differ)(&plan, &plan).is_none(), "{}", o.flag);
        }
        assert_eq!(
            value["solvers"][2], "native:phase=random",
            "the canonical name"
        );
        let back: Plan = serde_json::from_value(value).unwrap();
        assert_eq!(back, plan);
    }

    #[test]
    fn a_new_field_moves_the_fingerprint() {
        let plan = plan_with(|_| {});
        let value = serde_json::to_value(&plan).unwrap();
        let base = fingerprint_of(&value, ["h1"]);
        let mut grown = value.clone();
        grown
            .as_object_mut()
            .unwrap()
            .insert("a_later_option".into(), serde_json::json!(false));
        assert_ne!(fingerprint_of(&grown, ["h1"]), base);
        assert_ne!(fingerprint_of(&value, ["h2"]), base, "the instances count");
        assert_eq!(fingerprint_of(&value, ["h1"]), base, "stable");
        let other = plan_with(|p| p.limits.timeout_s = 5.0);
        assert_ne!(
            fingerprint_of(&serde_json::to_value(&other).unwrap(), ["h1"]),
            base
        );
        let cpu = plan_with(|p| p.limits.cpu_limit_s = Some(100.0));
        assert_ne!(
            fingerprint_of(&serde_json::to_value(&cpu).unwrap(), ["h1"]),
            base,
            "the CPU limit is in the fingerprint"
        );
    }

    #[test]
    fn a_differing_option_is_named_with_both_values() {
        let recorded = plan_with(|_| {});
        let given = plan_with(|p| {
            p.limits.timeout_s = 5.0;
            p.solvers = vec![spec("kissat")];
        });
        let all = |_: &str| true;
        let err = recorded.check_given(&given, &all).unwrap_err().to_string();
        assert!(
            err.contains("--timeout: the run has 100.0, this command gives 5.0"),
            "{err}"
        );
        assert!(
            err.contains("--solvers: the run has native, this command gives kissat"),
            "{err}"
        );
        let only_corpus = |id: &str| id == "corpora";
        recorded.check_given(&given, &only_corpus).unwrap();
    }
}
