//! The subcommands: each takes its parsed arguments, validates them into typed options,
//! runs, and returns the process exit code. Errors that stop a command come back as
//! `anyhow` errors with context; `main` prints them.

mod check;
mod encode;
mod generate;
mod merge;
mod report;
mod run;
mod serve;
mod shrink;
mod slurm;
mod solve;
mod solvers;
mod status;

use std::path::PathBuf;

use anyhow::bail;

use crate::cli::{Cli, Command, PuzzleInputArgs, SolverLookupArgs};
use crate::puzzle::format::ReadOptions;
use crate::puzzle::symbols::Alphabet;
use crate::solver::SolverConfig;

/// Runs a parsed command line; returns the exit code. `matches` (clap's, when there is
/// one) tells which options were typed.
pub fn run(cli: Cli, matches: Option<&clap::ArgMatches>) -> anyhow::Result<i32> {
    let sub = matches.and_then(|m| m.subcommand().map(|(_, m)| m));
    match cli.command {
        Command::Encode(args) => encode::run(args),
        Command::Check(args) => check::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Run(args) => run::run(args, sub),
        Command::Report(args) => report::run(args),
        Command::Shrink(args) => shrink::run(args),
        Command::Gen(args) => generate::run(args),
        Command::Solvers(args) => solvers::run(args),
        Command::Slurm(args) => slurm::run(args),
        Command::Status(args) => status::run(args),
        Command::Merge(args) => merge::run(args),
    }
}

/// Validates `--alphabet` (kind and format are typed by clap).
pub(crate) fn read_options(input: &PuzzleInputArgs) -> anyhow::Result<ReadOptions> {
    let (kind, format) = (input.kind, input.format);
    let alphabet = input
        .alphabet
        .as_deref()
        .map(|a| Alphabet::parse(a).map_err(|e| anyhow::anyhow!("--alphabet {a}: {e}")))
        .transpose()?;
    Ok(ReadOptions {
        format,
        kind,
        alphabet,
    })
}

/// Validates `--solver-path NAME=PATH` and `--solver NAME=CMD` lists.
pub(crate) fn solver_config(lookup: &SolverLookupArgs) -> anyhow::Result<SolverConfig> {
    let (paths, commands) = (&lookup.paths.solver_path, &lookup.solver_cmd);
    let split = |s: &String, what: &str| -> anyhow::Result<(String, String)> {
        match s.split_once('=') {
            Some((name, value)) if !name.is_empty() && !value.is_empty() => {
                Ok((name.to_string(), value.to_string()))
            }
            _ => bail!("`{s}` is not {what}"),
        }
    };
    let mut config = SolverConfig::default();
    for p in paths {
        let (name, path) = split(p, "NAME=PATH")?;
        config.paths.push((name, PathBuf::from(path)));
    }
    for c in commands {
        config.commands.push(split(c, "NAME=COMMAND")?);
    }
    for c in &lookup.puzzle_solver_cmd {
        config.puzzle_commands.push(split(c, "NAME=COMMAND")?);
    }
    Ok(config)
}
