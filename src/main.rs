//! The `bench` command: parse the command line, run the command, print the error (or,
//! started as its own exec helper, contain one solver run).

use clap::{CommandFactory, FromArgMatches};

fn main() {
    // First of all: bench started as its own exec helper runs a solver and exits here.
    bench::solver::external::exec_helper::run_if_requested();
    // First, while bench has one thread: no external solver may load the RustSAT crates'
    // shared libraries that `cargo run`/`cargo test` put on LD_LIBRARY_PATH.
    bench::solver::scrub_library_path();
    let matches = bench::cli::Cli::command().get_matches();
    let cli = bench::cli::Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let code = match bench::commands::run(cli, Some(&matches)) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("bench: {}", bench::text::terminal(&format!("{e:#}")));
            2
        }
    };
    std::process::exit(code);
}
