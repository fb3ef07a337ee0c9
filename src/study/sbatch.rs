//! `study/bench.sbatch`: the SLURM array job of a study, one task per shard, written to be
//! read and edited (site rules: modules, constraints, QOS go in by hand).
//!
//! Resources follow from the plan. `--cpus-per-task` is the plan's jobs. `--time` is the
//! worst case of the biggest shard, every run to its wall limit (with `--cpu-limit` alone,
//! the wall limit its convention gives, see `run/limits.rs`): ⌈runs / jobs⌉ × wall limit
//! (× 2 with `--count 2`; with `--proofs` plus the checkers' `--checker-timeout`), plus 10 % and
//! 10 minutes for bench's own work. `--mem` is the memory limit × jobs plus 1 GiB for bench
//! (the formulas in flight); without `--mem-limit` no `--mem` is written (the site default
//! applies) and the script says so.
//!
//! Nothing the user typed reaches the script unchecked: partition and account names are
//! [`SlurmName`]s (checked at the door), and a path with a control character (a newline
//! would start a shell line) or a double quote is refused before anything is written.

use std::fmt;
use std::path::Path;
use std::time::Duration;

use super::plan::StudyPlan;

/// A SLURM partition or account name: letters, digits, `_`, `-`, `.`, and commas between
/// names (a list of partitions). Anything else (a space, a quote, a newline) is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlurmName(String);

impl SlurmName {
    /// Checks `s` (clap's value parser for `--partition` and `--account`).
    pub fn parse(s: &str) -> Result<SlurmName, String> {
        let names_ok = s.split(',').all(|n| {
            !n.is_empty()
                && n.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c))
        });
        if s.len() <= 256 && names_ok {
            Ok(SlurmName(s.to_string()))
        } else {
            Err(format!(
                "{:?} is not a SLURM name: letters, digits, `_`, `-` and `.`, names separated by \
                 commas, at most 256 characters",
                s.chars().take(64).collect::<String>()
            ))
        }
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SlurmName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A value that cannot be written into the script safely.
#[derive(Debug, thiserror::Error)]
#[error("{what} {value:?} cannot go into the sbatch script: {why}")]
pub struct UnsafeValue {
    /// Which value (`the study folder`, `the working directory`, …).
    pub what: &'static str,
    /// The value, as typed (debug-escaped in the message).
    pub value: String,
    /// What is wrong with it.
    pub why: &'static str,
}

/// `path` as text for the script, or why it cannot be written there: a control character
/// would end a `#SBATCH` or comment line early (a newline starts a shell line) and a double
/// quote would end the quoted `#SBATCH` value.
pub fn script_path(what: &'static str, path: &Path) -> Result<String, UnsafeValue> {
    let unsafe_value = |why| UnsafeValue {
        what,
        value: path.display().to_string(),
        why,
    };
    let Some(text) = path.to_str() else {
        return Err(unsafe_value("it is not valid UTF-8"));
    };
    if text.chars().any(char::is_control) {
        return Err(unsafe_value(
            "it holds a control character (a newline, a tab, ESC…)",
        ));
    }
    if text.contains('"') {
        return Err(unsafe_value("it holds a double quote"));
    }
    Ok(text.to_string())
}

/// A `#SBATCH` option's value: in double quotes when it holds a space (sbatch strips them).
fn directive(value: &str) -> String {
    if value.chars().any(char::is_whitespace) {
        format!("\"{value}\"")
    } else {
        value.to_string()
    }
}

/// What the script needs besides the plan.
#[derive(Clone, Debug, Default)]
pub struct SlurmOptions {
    /// `--partition`.
    pub partition: Option<SlurmName>,
    /// `--account`.
    pub account: Option<SlurmName>,
    /// At most this many tasks at once.
    pub max_parallel: Option<usize>,
}

/// bench's own memory in a task, MiB, on top of the solvers'.
const BENCH_MEM_MB: u64 = 1024;

/// The worst-case wall time of the biggest shard, with the margin.
pub fn time_limit(plan: &StudyPlan) -> Duration {
    let biggest = plan.shard_runs().iter().copied().max().unwrap_or(0) as f64;
    let rounds = (biggest / plan.plan.jobs.max(1) as f64).ceil();
    let mut per_run = plan.plan.limits.timeout_s * f64::from(plan.plan.count.max(1));
    if plan.plan.proofs {
        // The proof checkers' own limit comes after the solve's.
        per_run += plan.plan.checker_timeout().as_secs_f64();
    }
    let secs = rounds * per_run;
    Duration::from_secs_f64(secs * 1.1 + 600.0)
}

/// SLURM's `D-HH:MM:SS`, rounded up to the minute.
pub fn slurm_time(d: Duration) -> String {
    let minutes = d.as_secs().div_ceil(60);
    let (days, rest) = (minutes / (24 * 60), minutes % (24 * 60));
    format!("{days}-{:02}:{:02}:00", rest / 60, rest % 60)
}

/// `--mem` in MiB, if the plan has a memory limit.
pub fn mem_mb(plan: &StudyPlan) -> Option<u64> {
    plan.plan
        .limits
        .mem_limit_mb
        .map(|m| m * plan.plan.jobs.max(1) as u64 + BENCH_MEM_MB)
}

/// Quotes `s` for bash (the `shell-words` crate: single quotes where needed).
fn quote(s: &str) -> String {
    shell_words::quote(s).into_owned()
}

/// The script. `study` and `bench` are absolute paths; every path is checked with
/// [`script_path`] first, so the script holds no line that did not come from bench.
pub fn script(
    plan: &StudyPlan,
    opts: &SlurmOptions,
    study: &Path,
    bench: &Path,
) -> Result<String, UnsafeValue> {
    let n = plan.shards();
    let study_s = script_path("the study folder", study)?;
    let cwd = directive(&script_path("the working directory", &plan.cwd)?);
    let bench_s = script_path("bench's own path", bench)?;
    let array = match opts.max_parallel {
        Some(m) => format!("0-{}%{m}", n - 1),
        None => format!("0-{}", n - 1),
    };
    let biggest = plan.shard_runs().iter().copied().max().unwrap_or(0);
    let mut s = String::new();
    s.push_str("#!/bin/bash\n");
    s.push_str(&format!(
        "# A bench study as a SLURM array job, written by `bench slurm` on {}.\n\
         # {} instances, {} runs in {n} shards (at most {biggest} runs a shard), limits: {}.\n\
         # Task K runs shard K of the plan in {study_s}/run.json into {study_s}/shards/K-of-{n}/\n\
         # (resuming it if it ran before). Edit freely: site rules (modules, --constraint,\n\
         # --qos) go below; then `sbatch {}`.\n\
         # Afterwards: `bench status {}` and `bench merge {}`.\n",
        plan.created,
        plan.instances(),
        plan.runs(),
        plan.plan.limits.describe(),
        quote(&format!("{study_s}/bench.sbatch")),
        quote(&study_s),
        quote(&study_s),
    ));
    s.push_str(&format!(
        "#SBATCH --job-name=bench-study\n#SBATCH --array={array}\n"
    ));
    s.push_str(&format!(
        "#SBATCH --cpus-per-task={}\n#SBATCH --ntasks=1\n",
        plan.plan.jobs.max(1)
    ));
    s.push_str(&format!(
        "# --time: the biggest shard with every run to its wall limit, plus 10 % and 10 minutes.\n\
         #SBATCH --time={}\n",
        slurm_time(time_limit(plan))
    ));
    match mem_mb(plan) {
        Some(m) => s.push_str(&format!(
            "# --mem: --mem-limit × jobs, plus {BENCH_MEM_MB} MiB for bench itself.\n#SBATCH --mem={m}M\n"
        )),
        None => s.push_str(
            "# No --mem-limit in the plan: the site's default memory applies. Add a line\n\
             # `#SBATCH --mem=...` (and plan with --mem-limit) to bound the solvers.\n",
        ),
    }
    let (out, err) = (
        directive(&format!("{study_s}/logs/shard-%a.%A.out")),
        directive(&format!("{study_s}/logs/shard-%a.%A.err")),
    );
    s.push_str(&format!("#SBATCH --output={out}\n#SBATCH --error={err}\n"));
    s.push_str(&format!("#SBATCH --chdir={cwd}\n"));
    if let Some(p) = &opts.partition {
        s.push_str(&format!("#SBATCH --partition={p}\n"));
    }
    if let Some(a) = &opts.account {
        s.push_str(&format!("#SBATCH --account={a}\n"));
    }
    s.push_str(&format!(
        "\nset -euo pipefail\n\
         # module load ...   (site set-up, if any)\n\
         BENCH=${{BENCH:-{}}}\n\
         STUDY={}\n\
         echo \"bench shard $SLURM_ARRAY_TASK_ID/{n} on $(hostname), job ${{SLURM_ARRAY_JOB_ID:-?}}\"\n\
         exec \"$BENCH\" run --study \"$STUDY\" --shard \"$SLURM_ARRAY_TASK_ID/{n}\"\n",
        quote(&bench_s),
        quote(&study_s),
    ));
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan() -> StudyPlan {
        use crate::run::record::{Layout, Record, RecordKind, VERSION};
        Record {
            version: VERSION,
            kind: RecordKind::Study,
            plan: crate::run::plan::plan_with(|p| {
                p.shards = 200;
                p.limits.timeout_s = 5000.0;
                p.jobs = 4;
                p.limits.mem_limit_mb = Some(8000);
            }),
            cwd: "/home/u".into(),
            fingerprint: "f".into(),
            bench_version: "0.1.0".into(),
            command_line: vec!["bench".into(), "run".into(), "c".into()],
            created: "2026-11-23T11:00:00Z".into(),
            shard: None,
            layout: Some(Layout {
                instances: 5000,
                runs: 50_000,
                shard_instances: vec![25; 200],
                shard_runs: vec![250; 200],
            }),
            execution: None,
        }
    }

    #[test]
    fn resources_follow_from_the_plan() {
        let p = plan();
        // ⌈250 / 4⌉ = 63 rounds × 5000 s = 315,000 s; × 1.1 + 600 = 347,100 s = 4 d 0 h 25 min.
        assert_eq!(slurm_time(time_limit(&p)), "4-00:25:00");
        assert_eq!(mem_mb(&p), Some(8000 * 4 + 1024));
        let text = script(
            &p,
            &SlurmOptions {
                partition: Some(SlurmName::parse("long").unwrap()),
                account: None,
                max_parallel: Some(50),
            },
            Path::new("/scratch/study"),
            Path::new("/opt/bench"),
        )
        .unwrap();
        for line in [
            "#SBATCH --array=0-199%50",
            "#SBATCH --cpus-per-task=4",
            "#SBATCH --time=4-00:25:00",
            "#SBATCH --mem=33024M",
            "#SBATCH --output=/scratch/study/logs/shard-%a.%A.out",
            "#SBATCH --partition=long",
            "#SBATCH --chdir=/home/u",
            "exec \"$BENCH\" run --study \"$STUDY\" --shard \"$SLURM_ARRAY_TASK_ID/200\"",
        ] {
            assert!(text.lines().any(|l| l == line), "no `{line}` in\n{text}");
        }
        assert!(!text.contains("--account"));
        assert!(
            text.contains("limits: wall 5000 s, memory 8000 MiB."),
            "{text}"
        );
    }

    #[test]
    fn a_cpu_limit_alone_asks_for_its_wall_limit() {
        let mut p = plan();
        p.plan.limits = crate::run::limits::RunLimits::of(None, Some(1000.0), None).unwrap();
        // The plan carries the limit to every shard; the wall limit is 2 × 1000 + 10 s:
        // 63 rounds × 2010 s = 126,630 s; × 1.1 + 600 = 139,893 s = 1 d 14 h 52 min.
        assert_eq!(slurm_time(time_limit(&p)), "1-14:52:00");
        let text = script(
            &p,
            &SlurmOptions::default(),
            Path::new("/s"),
            Path::new("/b"),
        )
        .unwrap();
        assert!(text.contains("limits: CPU 1000 s, wall 2010 s."), "{text}");
    }

    #[test]
    fn names_and_paths_that_would_inject_a_line_are_refused() {
        for bad in ["p1\nid > F", "p 1", "p'1", "", "a,,b", "$(id)", "p1\r"] {
            assert!(SlurmName::parse(bad).is_err(), "{bad:?} accepted");
        }
        assert_eq!(
            SlurmName::parse("gpu,long-2.x_y").unwrap().as_str(),
            "gpu,long-2.x_y"
        );
        let p = plan();
        let opts = SlurmOptions::default();
        let bench = Path::new("/opt/bench");
        let err = script(&p, &opts, Path::new("/s/a\nid > F"), bench).unwrap_err();
        assert!(err.to_string().contains("the study folder"), "{err}");
        assert!(script(&p, &opts, Path::new("/s/a\"b"), bench).is_err());
        assert!(script(&p, &opts, Path::new("/s"), Path::new("/opt/b\x1bench")).is_err());
        let mut p = plan();
        p.cwd = "/home/u\nid > F".into();
        let err = script(&p, &opts, Path::new("/s"), bench).unwrap_err();
        assert!(err.to_string().contains("the working directory"), "{err}");
    }

    #[test]
    fn a_path_with_spaces_is_quoted_in_every_line() {
        let mut p = plan();
        p.cwd = "/home/u/my runs".into();
        let text = script(
            &p,
            &SlurmOptions::default(),
            Path::new("/scratch/my study"),
            Path::new("/opt/my bench"),
        )
        .unwrap();
        assert!(
            text.contains("#SBATCH --chdir=\"/home/u/my runs\"\n"),
            "{text}"
        );
        assert!(text.contains("#SBATCH --output=\"/scratch/my study/logs/shard-%a.%A.out\"\n"));
        assert!(text.contains("STUDY='/scratch/my study'\n"), "{text}");
        assert!(text.contains("BENCH=${BENCH:-'/opt/my bench'}\n"), "{text}");
    }

    #[test]
    fn quoting() {
        assert_eq!(quote("/a/b-c_d.e"), "/a/b-c_d.e");
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("it's"), r"'it'\''s'");
    }
}
