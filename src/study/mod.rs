//! A study: one plan of `bench run` split into N shards that run anywhere (SLURM array
//! tasks, GNU parallel, a shell loop) and come back as one results CSV and one report.
//!
//! The study folder, on a file system every node shares:
//!
//! ```text
//! study/run.json                  the plan: the `bench run` command every shard runs, the
//!                                 number of shards, the plan's fingerprint, runs per shard
//! study/bench.sbatch              the SLURM array job (`bench slurm`)
//! study/logs/                     one output and one error file per array task
//! study/shards/K-of-N/            one shard: results.csv, run.json (with its fingerprint
//!                                 and machine), its own small report
//! study/results.csv, index.html…  the merged results and report (`bench merge`)
//! study/missing.csv               the runs a merge found missing, by shard
//! study/machines.csv              where each shard ran
//! ```
//!
//! bench does no scheduling of its own: [`plan`] makes the plan (its instances packed in a
//! [`roster::Roster`]), [`sbatch`] writes the array job, [`status`] counts what is done,
//! and [`merge`] joins the shards after checking they belong together. The split itself is [`crate::run::shard`].

pub mod merge;
pub mod plan;
pub mod roster;
pub mod sbatch;
pub mod status;
