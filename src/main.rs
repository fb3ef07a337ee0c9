//! The `bench` command: parse the command line, run the command, print the error.

use clap::Parser;

fn main() {
    let cli = bench::cli::Cli::parse();
    let code = match bench::commands::run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("bench: {e:#}");
            2
        }
    };
    std::process::exit(code);
}
