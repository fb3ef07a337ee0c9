//! `bench merge`: checks that a study's shards belong together and joins them into one
//! results.csv and the report of `bench report`; lists missing runs with the commands that
//! complete them. Exit status: 0 merged, 1 runs missing (or a wrong answer), 2 refused.

use crate::cli::MergeArgs;
use crate::report::score;
use crate::study::merge::{Refused, merge, read_plans, write, write_missing};
use crate::study::plan;

pub(super) fn run(args: MergeArgs) -> anyhow::Result<i32> {
    let plans = read_plans(&args.studies)?;
    let first = &plans[0];
    let run_args = super::run::plan_args(first)?;
    let opts = super::run::options(run_args)?;
    // The plan again, from the corpus as it is now: it must still be the study's.
    let planned = plan::make(&opts, first.command_line.clone(), first.shards)?;
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
    let merged = match merge(&args.studies, &plans, &planned, &opts.solvers, opts.repeat) {
        Ok(m) => m,
        Err(e) if e.is::<Refused>() => {
            eprintln!("bench: {e}");
            return Ok(2);
        }
        Err(e) => return Err(e),
    };
    let out = args.out.clone().unwrap_or_else(|| args.studies[0].clone());
    let script = args.studies[0].join("bench.sbatch");
    let missing = merged.missing_runs();
    if missing > 0 {
        eprint!(
            "{}",
            merged.missing_text(script.exists().then_some(script.as_path()))
        );
        if !args.partial {
            write_missing(&out, &merged)?;
            eprintln!(
                "bench: {missing} of {} runs missing (listed in {}): nothing merged; complete \
                 them with the commands above, or merge what there is with --partial",
                merged.planned,
                out.join("missing.csv").display()
            );
            return Ok(1);
        }
    }
    let files = write(&out, &merged, args.baseline.clone())?;
    for line in score::wrong_lines(&merged.rows) {
        eprintln!("{line}");
    }
    print!("{}", score::text_table(&score::scores(&merged.rows)));
    for note in merged.notes() {
        eprintln!("bench: {note}");
    }
    println!(
        "merged {} runs of {} shards{}: {} (report: {})",
        merged.rows.len(),
        first.shards,
        if missing > 0 { " (PARTIAL)" } else { "" },
        out.join("results.csv").display(),
        files.index().display()
    );
    Ok(if missing > 0 || merged.rows.iter().any(|r| r.wrong) {
        1
    } else {
        0
    })
}
