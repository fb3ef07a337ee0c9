//! `bench slurm`: plans a study (the `bench run` every shard runs, with the solvers pinned
//! to the paths found here and the plan's fingerprint) into `STUDY/run.json`, writes the
//! array job `STUDY/bench.sbatch`, and with `--submit` hands it to `sbatch`.

use std::process::Command;

use anyhow::{Context, bail};

use crate::cli::SlurmArgs;
use crate::study::plan;
use crate::study::sbatch::{self, SlurmOptions};

pub(super) fn run(args: SlurmArgs) -> anyhow::Result<i32> {
    let run = &args.run;
    if run.shard.is_some() || run.study.is_some() || run.resume.is_some() {
        bail!("bench slurm plans every shard: --shard, --study and --resume do not apply");
    }
    let Some(study) = run.out.clone() else {
        bail!(
            "bench slurm needs --out STUDY, the study folder (on a file system every node shares)"
        );
    };
    if args.shards == 0 {
        bail!("--shards must be at least 1");
    }
    if args.max_parallel == Some(0) {
        bail!("--max-parallel must be at least 1");
    }
    // The shards' plan: this one, with --jobs fixed (a node's core count is not the
    // allocation's) and every external solver pinned to the binary found here.
    let mut run = run.clone();
    run.jobs = run.jobs.or(Some(1));
    let mut plan = super::run::plan_of(&run)?;
    let cwd = std::env::current_dir().context("the current folder")?;
    let bench = std::env::current_exe().context("bench's own path")?;
    // Refused before anything is written: a path the script cannot hold safely.
    sbatch::script_path("the study folder", &std::path::absolute(&study)?)?;
    sbatch::script_path("the working directory", &cwd)?;
    sbatch::script_path("bench's own path", &bench)?;
    let argv: Vec<String> = std::env::args().collect();
    let pinned = plan::pinned_solver_paths(&plan)?;
    plan.solver_paths.extend(pinned);
    let planned = plan::make(&plan, &cwd, &argv, args.shards)?;
    let p = plan::write_new(&study, &planned.plan)?;
    let study_abs = study
        .canonicalize()
        .with_context(|| format!("resolving {}", study.display()))?;
    std::fs::create_dir_all(study_abs.join("logs"))?;
    let slurm = SlurmOptions {
        partition: args.partition.clone(),
        account: args.account.clone(),
        max_parallel: args.max_parallel,
    };
    let script_path = study_abs.join("bench.sbatch");
    std::fs::write(
        &script_path,
        sbatch::script(&p, &slurm, &study_abs, &bench)?,
    )
    .with_context(|| format!("writing {}", script_path.display()))?;
    let smallest = p.shard_runs().iter().min().copied().unwrap_or(0);
    let biggest = p.shard_runs().iter().max().copied().unwrap_or(0);
    println!(
        "plan: {} instances, {} runs in {} shards ({smallest} to {biggest} runs each), fingerprint {}",
        p.instances(),
        p.runs(),
        p.shards(),
        p.fingerprint
    );
    println!(
        "each task: {} jobs, --time {}{}",
        p.plan.jobs,
        sbatch::slurm_time(sbatch::time_limit(&p)),
        sbatch::mem_mb(&p).map_or(String::new(), |m| format!(", --mem {m}M"))
    );
    println!(
        "wrote {} and {}",
        plan::path(&study).display(),
        script_path.display()
    );
    if sbatch::mem_mb(&p).is_none() {
        println!("no --mem-limit: the script asks for no memory (the site default applies)");
    }
    if !args.submit {
        println!("submit with: sbatch {}", script_path.display());
        return Ok(0);
    }
    let output = Command::new("sbatch")
        .arg("--parsable")
        .arg(&script_path)
        .output()
        .context("running sbatch (is SLURM installed here?)")?;
    if !output.status.success() {
        bail!(
            "sbatch {} failed: {}",
            script_path.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let job = stdout.trim().split(';').next().unwrap_or("").to_string();
    println!("submitted job {job}");
    println!("follow with: squeue --me; bench status {}", study.display());
    Ok(0)
}
