//! `bench merge`: checks that a study's shards belong together and joins them into one
//! results.csv and the report of `bench report`; lists missing runs with the commands that
//! complete them. Exit status: 0 merged, 1 runs missing (or a wrong answer), 2 refused.

use crate::cli::MergeArgs;
use crate::report::TimeBasis;
use crate::report::rows::Row;
use crate::report::score;
use crate::study::merge::{
    Refused, ResultsOut, merge, read_plans, write_missing, write_report_of, write_side_files,
};
use crate::study::plan;

pub(super) fn run(mut args: MergeArgs) -> anyhow::Result<i32> {
    crate::report::memory::return_freed_memory();
    let plans = read_plans(&args.studies)?;
    let first = &plans[0];
    // The plan's paths are relative to where it was made: resolve ours, then go there.
    if let Some(out) = &args.out {
        std::fs::create_dir_all(out)?;
        args.out = Some(out.canonicalize()?);
    }
    let given = args.studies.clone();
    for (study, given) in args.studies.iter_mut().zip(&given) {
        *study = given.canonicalize()?;
    }
    // The plan again, from the corpus as it is now: it must still be the study's.
    let planned = plan::make(&first.plan, &first.cwd, &[], first.shards())?;
    if planned.plan.fingerprint != first.fingerprint {
        eprintln!(
            "bench: {}",
            Refused(vec![format!(
                "the corpus or the options changed since {} was planned (fingerprint now {}, \
                 planned {}): its runs cannot be listed",
                args.studies[0].display(),
                planned.plan.fingerprint,
                first.fingerprint
            )])
        );
        return Ok(2);
    }
    let out = args.out.clone().unwrap_or_else(|| args.studies[0].clone());
    // Rows go to results.csv (committed only if the merge succeeds) and, for the report,
    // stay in memory; without the report, one shard at a time is all memory holds.
    let mut results = ResultsOut::create(&out)?;
    let mut kept: Vec<Row> = Vec::new();
    let mut wrong = 0;
    let mut sink = |rows: Vec<crate::results::Row>| -> anyhow::Result<()> {
        results.write(&rows)?;
        wrong += rows.iter().filter(|r| r.wrong).count();
        if !args.no_report {
            if kept.is_empty() {
                kept.reserve_exact(first.runs());
            }
            crate::report::rows::extend(&mut kept, &rows);
        }
        Ok(())
    };
    // The row's solver column holds each solver's canonical name.
    let solvers: Vec<String> = first.plan.solvers.iter().map(|s| s.name()).collect();
    let merged = match merge(
        &args.studies,
        &plans,
        &planned,
        &solvers,
        first.plan.repeat,
        &mut sink,
    ) {
        Ok(m) => m,
        Err(e) if e.is::<Refused>() => {
            eprintln!("bench: {}", crate::text::terminal(&e.to_string()));
            return Ok(2);
        }
        Err(e) => return Err(e),
    };
    // The plan's instances are not needed past the checks: the report has their memory.
    drop(planned);
    conclude(&args, &out, first.shards(), &merged, results, (kept, wrong))
}

/// Says what is missing, commits results.csv (unless runs are missing without
/// `--partial`), and draws the report of the `kept` rows (`wrong` of them wrong).
fn conclude(
    args: &MergeArgs,
    out: &std::path::Path,
    shards: usize,
    merged: &crate::study::merge::Merged,
    results: ResultsOut,
    (kept, wrong): (Vec<Row>, usize),
) -> anyhow::Result<i32> {
    let script = args.studies[0].join("bench.sbatch");
    let missing = merged.missing_runs();
    if missing > 0 {
        let text = merged.missing_text(script.exists().then_some(script.as_path()));
        eprint!("{}", crate::text::terminal(&text));
        if !args.partial {
            write_missing(out, merged)?;
            eprintln!(
                "bench: {missing} of {} runs missing (listed in {}): nothing merged; complete \
                 them with the commands above, or merge what there is with --partial",
                merged.planned,
                out.join("missing.csv").display()
            );
            return Ok(1);
        }
    }
    results.commit()?;
    write_side_files(out, merged)?;
    let report = if args.no_report {
        format!(
            "draw the report with: bench report {}",
            out.join("results.csv").display()
        )
    } else {
        // The wrong answers are named from the rows before the report is given them; the
        // scores are the report's.
        let wrong_lines = score::wrong_lines(&kept);
        let (files, summary) = write_report_of(out, kept, merged, args.baseline.clone())?;
        for line in wrong_lines {
            eprintln!("{line}");
        }
        print!(
            "{}",
            crate::report::tables::text_table(&summary.scores, TimeBasis::default())
        );
        format!(
            "report: {}",
            crate::text::terminal(&files.index().display().to_string())
        )
    };
    for note in merged.notes() {
        eprintln!("bench: {}", crate::text::terminal(&note.to_string()));
    }
    println!(
        "merged {} runs of {} shards{}{}: {} ({report})",
        merged.rows,
        shards,
        if missing > 0 { " (PARTIAL)" } else { "" },
        if wrong > 0 {
            format!(", {wrong} WRONG")
        } else {
            String::new()
        },
        out.join("results.csv").display(),
    );
    Ok(if missing > 0 || wrong > 0 { 1 } else { 0 })
}
