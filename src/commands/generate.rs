//! `bench gen`: validates the options, generates, and writes each puzzle as soon as it is
//! made, with its rating, under a first comment line that records the command.

use std::fs;
use std::io::{self, Write};
use std::time::Instant;

use anyhow::{Context, bail};

use crate::cli::GenArgs;
use crate::encode::EncodeOptions;
use crate::generate::{GenOptions, Generated, Variant, generate};
use crate::puzzle::format::{Format, write};
use crate::puzzle::{Kind, exact_sqrt};

fn options(args: &GenArgs) -> anyhow::Result<(GenOptions, Format)> {
    let kind = args.kind;
    let side = match (args.box_size, args.side, kind) {
        (Some(k), _, _) => k * k,
        (None, Some(n), _) => n,
        (None, None, _) => 9,
    };
    if kind.has_boxes() && exact_sqrt(side).is_none_or(|k| k < 2) {
        bail!("a {kind} needs a side k² with k ≥ 2 (use --box K)");
    }
    if !(2..=crate::puzzle::MAX_SIDE).contains(&side) {
        bail!("side {side} is out of range");
    }
    if args.count == 0 {
        bail!("--count must be at least 1");
    }
    refuse_too_big(kind, side)?;
    let format = match args.format {
        Some(f) => f,
        None if kind == Kind::Pair => Format::Csv,
        None if side > 61 => Format::Grid,
        None => Format::Line,
    };
    let variant = args.variant;
    if variant == Some(Variant::Ambiguous) && args.givens.is_some() {
        bail!(
            "--variant ambiguous needs a minimal puzzle (drop --givens): only then does removing a given add solutions"
        );
    }
    let opts = GenOptions {
        pool: args.pool,
        variant,
        kind,
        side,
        count: args.count,
        seed: args.seed,
        target_givens: args.givens,
        min_rating: args.min_rating,
        rating_shuffles: args.shuffles,
    };
    Ok((opts, format))
}

/// Refuses up front a shape whose rules (the extended encoding, held once as clauses and
/// once in the solver) would not fit the memory bench may use, naming what they need.
fn refuse_too_big(kind: Kind, side: usize) -> anyhow::Result<()> {
    let empty = crate::puzzle::Puzzle::empty(kind, side)?;
    let (clauses, lits) = crate::encode::size_bound(&empty, EncodeOptions::default());
    // The flat formula (4 bytes a literal, 8 a clause) and the solver's copy with its
    // watches (12 a literal, 32 a clause).
    let need = lits
        .saturating_mul(16)
        .saturating_add(clauses.saturating_mul(40));
    if let Some(budget) = crate::cnf::budget::machine_budget(None).filter(|&b| need > b) {
        bail!(
            "a {side}×{side} {kind} is too big to generate here: its rules are {clauses} \
             clauses, about {} MiB held with the solver, more than the {} MiB bench may use \
             (half the memory available, within ulimit -v)",
            need >> 20,
            budget >> 20
        );
    }
    Ok(())
}

/// One puzzle in `format`, with its rating as an extra field (line formats) or a comment.
fn render(g: &Generated, format: Format) -> io::Result<Vec<u8>> {
    let rating = format!(
        "rating={:.1} decisions={:.1} givens={}",
        g.rating.conflicts,
        g.rating.decisions,
        g.puzzle.givens()
    );
    let mut body = Vec::new();
    write(&mut body, &g.puzzle, format)?;
    Ok(match format {
        Format::Line | Format::Prefixed => {
            while body.last() == Some(&b'\n') {
                body.pop();
            }
            body.extend_from_slice(format!(" {rating}\n").as_bytes());
            body
        }
        Format::Grid | Format::Csv => {
            let mut out = format!("# {rating}\n").into_bytes();
            out.extend(body);
            out
        }
    })
}

pub(super) fn run(args: GenArgs) -> anyhow::Result<i32> {
    let (opts, format) = options(&args)?;
    let partial = args.out.as_ref().map(|p| p.with_extension("partial"));
    let mut out: Box<dyn Write> = match &partial {
        Some(p) => Box::new(io::BufWriter::new(
            fs::File::create(p).with_context(|| format!("creating {}", p.display()))?,
        )),
        None => Box::new(io::stdout().lock()),
    };
    // The command, minus the output file, so that the file says how to make it again.
    let mut recorded = Vec::new();
    let mut skip_next = false;
    for a in std::env::args().skip(1) {
        if skip_next {
            skip_next = false;
        } else if a == "-o" || a == "--out" {
            skip_next = true;
        } else if !a.starts_with("--out=") {
            recorded.push(a);
        }
    }
    writeln!(out, "# bench {}", recorded.join(" "))?;
    let start = Instant::now();
    let made = generate(&opts, |g| {
        out.write_all(&render(g, format)?)?;
        out.flush()
    })?;
    out.flush()?;
    drop(out);
    if let (Some(partial), Some(target)) = (&partial, &args.out) {
        fs::rename(partial, target).with_context(|| format!("writing {}", target.display()))?;
    }
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "bench: {made} puzzles in {secs:.3} s ({:.1} per second)",
        made as f64 / secs.max(1e-9)
    );
    Ok(0)
}
