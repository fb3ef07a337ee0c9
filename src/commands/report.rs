//! `bench report`: reads one or more results CSVs, merges them, and writes the charts,
//! `summary.md`, `summary.json` and `index.html` (see [`crate::report`]); with `--compare`,
//! the comparison of two runs (see [`crate::report::compare`]).

use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::cli::{ReportArgs, ReportBy};
use crate::family::Families;

use crate::report::compare::{self, SideRows};
use crate::report::merge::read_and_merge;
use crate::report::score;
use crate::report::score::Scoring;
use crate::report::{ReportOptions, write_files, write_report};

pub(super) fn run(args: ReportArgs) -> anyhow::Result<i32> {
    crate::report::memory::return_freed_memory();
    if let Some(sides) = &args.compare {
        return compare(&args, sides);
    }
    // Every CSV is read (strictly) before anything is written: a malformed row stops the
    // command with `file:line` and leaves the output folder untouched.
    let merged = read_and_merge(&args.results)?;
    if let Some(export) = &args.export {
        return write_export(export, &merged.rows, &args);
    }
    let out_dir = args.out.unwrap_or_else(|| folder_of(&args.results[0]));
    let time = args.time;
    let families = match &args.families.families {
        Some(path) => Some(Families::read(path)?),
        None => None,
    };
    if let Some(f) = &families {
        let named = merged.rows.iter().map(|r| {
            let hash = Some(r.hash().as_str()).filter(|h| !h.is_empty());
            (hash, r.corpus().as_str(), r.instance().as_str())
        });
        for w in f.unmatched(named, None) {
            eprintln!("bench: warning: {}", crate::text::terminal(&w));
        }
    }
    let opts = ReportOptions {
        baseline: args.baseline,
        timeout: args.timeout,
        notes: merged.notes(),
        time,
        families,
        by_family: args.by == Some(ReportBy::Family),
        // What each CSV's run recorded beside it.
        provenance: args
            .results
            .iter()
            .filter(|csv| !crate::report::satcomp::is_satcomp(csv).unwrap_or(false))
            .filter_map(|csv| crate::report::provenance::Provenance::beside(csv))
            .collect(),
        run_json: run_json_beside(&args.results),
        score: args.score,
    };
    // The wrong answers are named from the rows before the report is given them (it lets
    // them go once its outcomes are made); the rest of what the terminal shows is the
    // report's summary.
    let wrong = score::wrong_lines(&merged.rows);
    let notes = merged.notes();
    let (files, summary) = write_report(merged.rows, &out_dir, &opts)?;
    for line in wrong {
        eprintln!("{line}");
    }
    if let Some(counter) = args.score {
        print!("{}", work_terminal(&summary, counter));
    }
    print!(
        "{}",
        crate::report::tables::text_table(&summary.scores, time)
    );
    let several = summary.encodings.len() > 1;
    for warning in crate::report::noise::warnings(&summary.noise, several) {
        eprintln!("bench: {}", crate::text::terminal(&warning));
    }
    for note in notes {
        eprintln!("bench: {}", crate::text::terminal(&note.to_string()));
    }
    println!(
        "report: {} files in {} (open {})",
        files.files.len(),
        crate::text::terminal(&files.dir.display().to_string()),
        crate::text::terminal(&files.index().display().to_string())
    );
    Ok(0)
}

/// What the terminal shows with `--score COUNTER`: the ranking by the counter, and the
/// counters of every configuration, from the report's `summary`.
fn work_terminal(
    summary: &crate::report::summary::Summary,
    counter: crate::solver::work::Counter,
) -> String {
    use crate::report::table::{Exporter, Terminal};
    let several = summary.encodings.len() > 1;
    let mut out = format!("Ranked by {counter}:\n");
    if let Some(ranking) = &summary.ranking {
        out += &Terminal.table(&crate::report::counter_rank::table(ranking, several));
    }
    if !summary.work.is_empty() {
        out += "\nWork counters:\n";
        out += &Terminal.table(&crate::report::work::table(&summary.work, several));
    }
    out.push('\n');
    out
}

/// The warnings about noisy repetitions (`report::noise`), for stderr.
pub(super) fn noise_warnings(rows: &[crate::report::rows::Row], scoring: Scoring) -> Vec<String> {
    let modes = crate::report::mode::Modes::of(rows);
    let several =
        crate::report::outcome::first_appearance(rows.iter().map(|r| r.encoding().as_str())).len()
            > 1;
    crate::report::noise::warnings(
        &crate::report::noise::spreads(rows, scoring, &modes),
        several,
    )
}

/// `bench report --export FORMAT FILE`: the rows in another format, nothing else written.
fn write_export(
    export: &[String],
    rows: &[crate::report::rows::Row],
    args: &ReportArgs,
) -> anyhow::Result<i32> {
    let [format, file] = export else {
        anyhow::bail!("--export takes a format and a file");
    };
    if format != "satcomp" {
        anyhow::bail!("--export {format}: unknown format (formats: satcomp)");
    }
    let scoring = Scoring {
        time: args.time,
        timeout: args.timeout,
    };
    let text = crate::report::satcomp::export(rows, scoring)?;
    std::fs::write(file, text).with_context(|| format!("writing {file}"))?;
    println!(
        "exported {} rows in the SAT Competition's format to {file}",
        rows.len()
    );
    Ok(0)
}

/// `bench report --compare OLD NEW`: two CSVs, or two solvers of the CSVs given.
fn compare(args: &ReportArgs, sides: &[String]) -> anyhow::Result<i32> {
    let (old, new) = (&sides[0], &sides[1]);
    let scoring = Scoring {
        time: args.time,
        timeout: args.timeout,
    };
    let factor = args.fail_on_regression.flatten();
    let (comparison, default_out) = if args.results.is_empty() {
        let old_rows = read_and_merge(&[PathBuf::from(old)])?.rows;
        let new_rows = read_and_merge(&[PathBuf::from(new)])?.rows;
        let side = |label: &str, rows| SideRows {
            label: label.to_string(),
            rows,
            solver: None,
        };
        let c = compare::compare(
            &side(old, &old_rows),
            &side(new, &new_rows),
            scoring,
            factor,
        )?;
        (c, folder_of(Path::new(new)))
    } else {
        let rows = read_and_merge(&args.results)?.rows;
        let side = |solver: &str| SideRows {
            label: solver.to_string(),
            rows: &rows,
            solver: Some(solver.to_string()),
        };
        let c = compare::compare(&side(old), &side(new), scoring, factor)?;
        (c, folder_of(&args.results[0]))
    };
    let out_dir = args.out.clone().unwrap_or(default_out);
    let files = write_files(&compare::render::files(&comparison)?, &out_dir)?;
    print!("{}", compare::render::terminal(&comparison));
    println!(
        "comparison: {} files in {} (open {})",
        files.files.len(),
        crate::text::terminal(&files.dir.display().to_string()),
        files.dir.join("compare.html").display()
    );
    let failing = args.fail_on_regression.is_some() && comparison.counts.regressions > 0;
    if failing {
        eprintln!(
            "bench: {} regression(s) of {} against {}",
            comparison.counts.regressions, comparison.new, comparison.old
        );
    }
    Ok(i32::from(failing))
}

/// The folder of `file` (`.` for a bare name).
fn folder_of(file: &Path) -> PathBuf {
    file.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), PathBuf::from)
}

/// The `run.json` beside a single results CSV (a report of one run), if readable.
fn run_json_beside(results: &[PathBuf]) -> Option<serde_json::Value> {
    let [csv] = results else { return None };
    let path = folder_of(csv).join("run.json");
    let text = crate::bounded::read_to_string(&path, crate::bounded::MAX_RUN_JSON).ok()?;
    serde_json::from_str(&text).ok()
}
