//! `bench check CNF ANSWER`: reads any solver's answer and checks it against the CNF
//! and, when the CNF carries a `c bench` line, against the puzzle's rules and givens.

use anyhow::Context;

use crate::check::{Reading, check_with_header};
use crate::cli::CheckArgs;
use crate::cnf::dimacs::{ParseOptions, read_path};
use crate::encode::header::BenchHeader;
use crate::puzzle::format::{Format, write};
use crate::solver::output::{Claim, parse_answer};

pub(super) fn run(args: CheckArgs) -> anyhow::Result<i32> {
    let dimacs = read_path(&args.cnf, ParseOptions::default())?;
    let header = dimacs
        .bench_header
        .as_deref()
        .map(BenchHeader::parse)
        .transpose()
        .map_err(|e| anyhow::anyhow!("{}: bad `c bench` line: {e}", args.cnf.display()))?;
    let bytes = std::fs::read(&args.answer)
        .with_context(|| format!("reading {}", args.answer.display()))?;
    let text = String::from_utf8_lossy(&bytes);
    let (_, claim) =
        parse_answer(&text).map_err(|e| anyhow::anyhow!("{}: {e}", args.answer.display()))?;
    match claim {
        Claim::Sat(model) => match check_with_header(&dimacs.cnf, header.as_ref(), &model) {
            Ok(None) => {
                println!("model-ok");
                Ok(0)
            }
            Ok(Some(Reading::Solved(solved))) => {
                println!("model-ok");
                let mut out = std::io::stdout().lock();
                write(&mut out, &solved, Format::Grid)?;
                Ok(0)
            }
            Ok(Some(Reading::Open(e))) => {
                // The answer is right for the formula; the formula is loose.
                println!(
                    "encoding-open: the model satisfies every clause, but the formula leaves \
                     the puzzle open: {e}"
                );
                Ok(0)
            }
            Err(e) => {
                println!("model-wrong: {e}");
                Ok(1)
            }
        },
        Claim::Unsat => {
            println!(
                "unchecked: the answer claims UNSAT (a model cannot refute it; use a DRAT proof)"
            );
            Ok(0)
        }
        Claim::Unknown(word) => {
            println!("unchecked: the answer is {word}");
            Ok(0)
        }
    }
}
