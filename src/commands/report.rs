//! `bench report`: reads one or more results CSVs, merges them, and writes the charts,
//! `summary.md`, `summary.json` and `index.html` (see [`crate::report`]).

use std::path::PathBuf;

use crate::cli::ReportArgs;

use crate::report::merge::read_and_merge;
use crate::report::score;
use crate::report::score::Scoring;
use crate::report::{ReportOptions, write_report};

pub(super) fn run(args: ReportArgs) -> anyhow::Result<i32> {
    // Every CSV is read (strictly) before anything is written: a malformed row stops the
    // command with `file:line` and leaves the output folder untouched.
    let merged = read_and_merge(&args.results)?;
    let out_dir = args.out.unwrap_or_else(|| {
        args.results[0]
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), PathBuf::from)
    });
    let time = args.time;
    let opts = ReportOptions {
        baseline: args.baseline,
        timeout: args.timeout,
        notes: merged.notes(),
        time,
    };
    let files = write_report(&merged.rows, &out_dir, &opts)?;
    for line in score::wrong_lines(&merged.rows) {
        eprintln!("{line}");
    }
    let scoring = Scoring {
        time,
        timeout: args.timeout,
    };
    print!(
        "{}",
        crate::report::tables::text_table(&score::scores(&merged.rows, scoring), time)
    );
    for note in merged.notes() {
        eprintln!("bench: {note}");
    }
    println!(
        "report: {} files in {} (open {})",
        files.files.len(),
        files.dir.display(),
        files.index().display()
    );
    Ok(0)
}
