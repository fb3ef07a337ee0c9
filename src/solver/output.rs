//! Solver output, read and written.
//!
//! Reading: the three shapes in which solvers hand back an answer (docs/design.md,
//! "External solvers as they behave"): the SAT-competition format (`s SATISFIABLE` plus `v … 0` lines, as kissat,
//! cadical, picosat, cryptominisat, glucose and `bench solve` print), minisat's result file
//! (`SAT` then one line of literals ending in 0, or `UNSAT` / `INDET`), and zchaff's
//! report (`Instance Satisfiable`, a line of literals with no final 0 cut short by
//! `Random Seed Used`, then `RESULT:\tSAT`). The shape is detected from the text.
//!
//! Each shape has a reader that takes the text as it arrives ([`AnswerStream`], made by
//! [`answer_stream`]): the model's literals go straight into an assignment and no copy of
//! their text is kept, so a model of any size is read in memory proportional to its
//! variables; other lines are kept up to a cap, for messages.
//!
//! Beside the answer, the solver's work counters are read from its statistics lines as
//! they stream by ([`stats`]).
//!
//! Writing: [`write_competition`] prints any [`Outcome`] in the competition format, so every
//! solver looks the same to the user and to any harness that runs `bench solve`.

mod competition;
mod minisat;
mod model_sink;
pub mod stats;
mod zchaff;

use std::io::{self, Write};

pub use competition::CompetitionStream;
pub use minisat::MinisatStream;
pub use stats::{Scanned, StatsScanner, StatsSyntax};
pub use zchaff::ZchaffStream;

use crate::cnf::{Lit, Model};

use super::{Outcome, Status};

/// The answer a solver's output claims, before any checking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// Satisfiable, with the literals the solver printed.
    Sat(Model),
    /// Unsatisfiable.
    Unsat,
    /// The solver said it does not know (`s UNKNOWN`, `INDET`, zchaff's `ABORT`).
    Unknown(String),
}

/// Which shape an answer comes in (detected from the text, or known from the solver's
/// entry in the adapter table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// `s` and `v` lines.
    Competition,
    /// minisat's result file (`{res}`): `SAT` + literals, `UNSAT`, `INDET`.
    Minisat,
    /// zchaff's report.
    Zchaff,
}

/// Why a solver's output could not be read as an answer.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum OutputError {
    /// No `s` line, no result word: nothing says what the answer is.
    #[error("no result line in the solver's output")]
    NoResult,
    /// Two result lines that disagree.
    #[error("line {line}: a second result line contradicts the first")]
    Conflicting {
        /// 1-based line number.
        line: usize,
    },
    /// A result word nobody defined.
    #[error("line {line}: unknown result `{text}`")]
    UnknownResult {
        /// 1-based line number.
        line: usize,
        /// The line.
        text: String,
    },
    /// A model token that is not a literal.
    #[error("line {line}: `{token}` is not a literal")]
    BadLiteral {
        /// 1-based line number.
        line: usize,
        /// The token.
        token: String,
    },
    /// A variable set both true and false.
    #[error("the model sets variable {var} both true and false")]
    Inconsistent {
        /// DIMACS variable.
        var: u32,
    },
    /// A model literal whose variable is beyond the formula (or beyond any formula).
    #[error("line {line}: the model's literal {token} is beyond the formula's {max} variables")]
    OutOfRange {
        /// 1-based line number.
        line: usize,
        /// The literal.
        token: String,
        /// The formula's variable count.
        max: u32,
    },
    /// SAT with no model, or a model with UNSAT.
    #[error("{0}")]
    Mismatch(&'static str),
}

impl OutputError {
    /// True when the output claims SAT with something that is not a model (a variable set
    /// both ways, a variable beyond the formula): a false claim, WRONG, not unreadable.
    pub fn is_false_model(&self) -> bool {
        matches!(
            self,
            OutputError::Inconsistent { .. } | OutputError::OutOfRange { .. }
        )
    }
}

/// Reads an answer in whichever shape `text` is in.
pub fn parse_answer(text: &str) -> Result<(OutputFormat, Claim), OutputError> {
    let format = detect(text);
    let claim = match format {
        OutputFormat::Competition => parse_competition(text)?,
        OutputFormat::Minisat => parse_minisat(text)?,
        OutputFormat::Zchaff => parse_zchaff(text)?,
    };
    Ok((format, claim))
}

/// Guesses the shape of a solver's output.
pub fn detect(text: &str) -> OutputFormat {
    if text
        .lines()
        .any(|l| l.starts_with("RESULT:") || l.starts_with("Instance Satisfiable"))
    {
        return OutputFormat::Zchaff;
    }
    let first = text.lines().map(str::trim).find(|l| !l.is_empty());
    match first {
        Some("SAT" | "UNSAT" | "INDET") => OutputFormat::Minisat,
        _ => OutputFormat::Competition,
    }
}

/// An answer read as it arrives, in chunks of any size.
pub trait AnswerStream: Send {
    /// Reads the next chunk.
    fn feed(&mut self, chunk: &[u8]);

    /// The claim, the kept text of the lines outside the model, and the total length read.
    fn finish(self: Box<Self>) -> (Result<Claim, OutputError>, Vec<u8>, u64);
}

/// An [`AnswerStream`] as the sandbox's stdout consumer: the answer is read as the
/// child's stdout arrives, and taken afterwards with [`AnswerConsumer::claim`].
pub struct AnswerConsumer {
    stream: Option<Box<dyn AnswerStream>>,
    claim: Option<Result<Claim, OutputError>>,
}

impl AnswerConsumer {
    /// Reads through `stream`.
    pub fn new(stream: Box<dyn AnswerStream>) -> AnswerConsumer {
        AnswerConsumer {
            stream: Some(stream),
            claim: None,
        }
    }

    /// Ends the stream (as the end of stdout does), if it is not ended yet.
    pub fn end(&mut self) {
        sandbox::run::StdoutConsumer::finish(self);
    }

    /// The answer, once the stream has ended.
    pub fn claim(self) -> Option<Result<Claim, OutputError>> {
        self.claim
    }
}

impl sandbox::run::StdoutConsumer for AnswerConsumer {
    fn feed(&mut self, chunk: &[u8]) {
        if let Some(stream) = &mut self.stream {
            stream.feed(chunk);
        }
    }

    fn finish(&mut self) -> (Vec<u8>, u64) {
        let Some(stream) = self.stream.take() else {
            return (Vec::new(), 0);
        };
        let (claim, kept, total) = stream.finish();
        self.claim = Some(claim);
        (kept, total)
    }
}

/// The reader of answers in `format`, for models within `bounds`, keeping up to `cap`
/// bytes of the other lines.
pub fn answer_stream(
    format: OutputFormat,
    bounds: ModelBounds,
    cap: usize,
) -> Box<dyn AnswerStream> {
    match format {
        OutputFormat::Competition => Box::new(CompetitionStream::new(bounds, cap)),
        OutputFormat::Minisat => Box::new(MinisatStream::new(bounds)),
        OutputFormat::Zchaff => Box::new(ZchaffStream::new(bounds, cap)),
    }
}

/// Reads all of `text` in `format`.
fn read_whole(format: OutputFormat, text: &str, max_var: u32) -> Result<Claim, OutputError> {
    let mut stream = answer_stream(format, ModelBounds::all(max_var), 0);
    stream.feed(text.as_bytes());
    stream.finish().0
}

/// Reads `s`/`v` lines. `c` lines and anything else are ignored; the model is the `v`
/// literals up to the terminating 0 (literals after it are an error).
pub fn parse_competition(text: &str) -> Result<Claim, OutputError> {
    parse_competition_within(text, crate::cnf::MAX_VARS)
}

/// [`parse_competition`] for a formula of `max_var` variables: a model literal beyond it
/// is [`OutputError::OutOfRange`] (and no model is built for it).
pub fn parse_competition_within(text: &str, max_var: u32) -> Result<Claim, OutputError> {
    read_whole(OutputFormat::Competition, text, max_var)
}

/// What a model read from a solver may hold: literals up to `max_var` (the formula's
/// variable count) are valid; the model keeps the values of variables up to `keep` only
/// (the others occur in no clause, and a header may claim two billion of them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelBounds {
    /// The highest variable a literal may name.
    pub max_var: u32,
    /// The highest variable whose value is kept.
    pub keep: u32,
}

impl ModelBounds {
    /// Every valid variable kept.
    pub fn all(max_var: u32) -> ModelBounds {
        ModelBounds {
            max_var,
            keep: max_var,
        }
    }

    /// The bounds for a formula of `num_vars` variables whose clauses use variables up to
    /// `max_used`: all of them, unless the header overstates the variables by far (then
    /// values beyond `max_used`, of variables in no clause, are checked and dropped).
    pub fn for_formula(num_vars: u32, max_used: u32) -> ModelBounds {
        let keep = if u64::from(num_vars) > 4 * u64::from(max_used) + (1 << 20) {
            max_used
        } else {
            num_vars
        };
        ModelBounds {
            max_var: num_vars,
            keep,
        }
    }
}

/// Reads minisat's result file: `SAT` and a line of literals ending in 0, `UNSAT`, `INDET`.
pub fn parse_minisat(text: &str) -> Result<Claim, OutputError> {
    parse_minisat_within(text, crate::cnf::MAX_VARS)
}

/// [`parse_minisat`] for a formula of `max_var` variables.
pub fn parse_minisat_within(text: &str, max_var: u32) -> Result<Claim, OutputError> {
    read_whole(OutputFormat::Minisat, text, max_var)
}

/// Reads zchaff's report. Progress lines end in `\r` (so one `\n`-line may hold several),
/// the model follows `Instance Satisfiable` with no final 0 and runs into `Random Seed
/// Used`; unassigned variables print as `(n)`. The verdict is the `RESULT:` line.
pub fn parse_zchaff(text: &str) -> Result<Claim, OutputError> {
    parse_zchaff_within(text, crate::cnf::MAX_VARS)
}

/// [`parse_zchaff`] for a formula of `max_var` variables.
pub fn parse_zchaff_within(text: &str, max_var: u32) -> Result<Claim, OutputError> {
    read_whole(OutputFormat::Zchaff, text, max_var)
}

fn literal(n: i64, line: usize, token: &str, max_var: u32) -> Result<Lit, OutputError> {
    if n == 0 {
        return Err(OutputError::BadLiteral {
            line,
            token: token.to_string(),
        });
    }
    if n.unsigned_abs() > u64::from(max_var.min(crate::cnf::MAX_VARS)) {
        return Err(OutputError::OutOfRange {
            line,
            token: token.to_string(),
            max: max_var.min(crate::cnf::MAX_VARS),
        });
    }
    Ok(Lit::from_dimacs(n as i32))
}

/// The exit code a SAT-competition solver gives for `status`: 10 SAT, 20 UNSAT, 0 else.
pub fn competition_exit_code(status: Status) -> i32 {
    match status {
        Status::Sat => 10,
        Status::Unsat => 20,
        _ => 0,
    }
}

/// Prints `outcome` in the competition format: statistics as `c` lines, the `s` line, and
/// for SAT the model as `v` lines of at most ~78 characters ending in `0`. Every variable
/// up to `num_vars` is printed (unassigned ones as false: any value satisfies them),
/// unless `num_vars` is a header's claim far beyond the model (then the model's).
pub fn write_competition(out: &mut dyn Write, outcome: &Outcome, num_vars: u32) -> io::Result<()> {
    for (key, value) in &outcome.stats {
        writeln!(out, "c {key}: {value}")?;
    }
    if let Some(reason) = &outcome.error {
        for line in reason.lines() {
            writeln!(out, "c {line}")?;
        }
    }
    let word = match outcome.status {
        Status::Sat => "SATISFIABLE",
        Status::Unsat => "UNSATISFIABLE",
        _ => "UNKNOWN",
    };
    if !matches!(
        outcome.status,
        Status::Sat | Status::Unsat | Status::Unknown
    ) {
        writeln!(out, "c status: {}", outcome.status)?;
    }
    writeln!(out, "s {word}")?;
    if let (Status::Sat, Some(model)) = (outcome.status, &outcome.model) {
        let mut line = String::from("v");
        // A header may claim far more variables than the clauses use (and the model
        // covers): those are in no clause, and printing billions of them helps nobody.
        let top = if num_vars as usize > model.len().saturating_add(1 << 20) {
            model.len() as u32
        } else {
            num_vars.max(model.len() as u32)
        };
        for v in 0..top {
            let var = crate::cnf::Var::new(v);
            let lit = var.lit(model.var_value(var).unwrap_or(false));
            let token = lit.to_string();
            if line.len() + 1 + token.len() > 78 {
                writeln!(out, "{line}")?;
                line.clear();
                line.push('v');
            }
            line.push(' ');
            line.push_str(&token);
        }
        if line.len() + 2 > 78 {
            writeln!(out, "{line}")?;
            line.clear();
            line.push('v');
        }
        writeln!(out, "{line} 0")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sat_lits(claim: &Claim) -> Vec<i64> {
        match claim {
            Claim::Sat(m) => m.lits().map(|l| l.dimacs()).collect(),
            other => panic!("expected SAT, got {other:?}"),
        }
    }

    #[test]
    fn competition_with_comments_and_long_v() {
        let text = "c banner\ns SATISFIABLE\nv 1 -2\nv 3 0\n";
        let (f, c) = parse_answer(text).unwrap();
        assert_eq!(f, OutputFormat::Competition);
        assert_eq!(sat_lits(&c), vec![1, -2, 3]);
        // cryptominisat's trailing space, glucose's one long line
        let (_, c) = parse_answer("s SATISFIABLE\nv 1 2 -3 0 \n").unwrap();
        assert_eq!(sat_lits(&c), vec![1, 2, -3]);
        assert_eq!(parse_answer("s UNSATISFIABLE\n").unwrap().1, Claim::Unsat);
        assert!(matches!(
            parse_answer("s INDETERMINATE\n").unwrap().1,
            Claim::Unknown(_)
        ));
    }

    #[test]
    fn competition_errors() {
        assert_eq!(parse_answer("c nothing\n"), Err(OutputError::NoResult));
        assert_eq!(parse_answer(""), Err(OutputError::NoResult));
        assert!(matches!(
            parse_answer("s SATISFIABLE\ns UNSATISFIABLE\n"),
            Err(OutputError::Conflicting { line: 2 })
        ));
        assert!(matches!(
            parse_answer("s SATISFIABLE\nv 1 x 0\n"),
            Err(OutputError::BadLiteral { line: 2, .. })
        ));
        assert!(matches!(
            parse_answer("s SATISFIABLE\nv 1 -1 0\n"),
            Err(OutputError::Inconsistent { var: 1 })
        ));
        assert!(parse_answer("s SATISFIABLE\n").is_err());
    }

    #[test]
    fn streamed_in_any_chunks_reads_the_same() {
        let text = "c hi\ns SATISFIABLE\nv 1 -2\nv 3 -4 0\nc bye\n";
        for size in [1, 2, 3, 7, 100] {
            let mut s = CompetitionStream::new(ModelBounds::all(4), 1 << 20);
            for chunk in text.as_bytes().chunks(size) {
                s.feed(chunk);
            }
            let (claim, kept, total) = s.finish();
            assert_eq!(sat_lits(&claim.unwrap()), vec![1, -2, 3, -4]);
            assert_eq!(
                String::from_utf8(kept).unwrap(),
                "c hi\ns SATISFIABLE\nc bye\n"
            );
            assert_eq!(total, text.len() as u64);
        }
        // No final newline, `v` alone, CRLF.
        assert_eq!(
            parse_competition_within("s SATISFIABLE\r\nv 1 0\r\nv", 1),
            Ok(Claim::Sat(Model::from_lits([Lit::from_dimacs(1)])))
        );
    }

    #[test]
    fn a_model_far_larger_than_the_cap_is_read_whole() {
        let n = 200_000u32;
        let mut s = CompetitionStream::new(ModelBounds::all(n), 64);
        s.feed(b"s SATISFIABLE\n");
        let mut line = String::from("v");
        for v in 1..=n {
            line.push_str(&format!(
                " {}",
                if v % 2 == 0 { -(v as i64) } else { v as i64 }
            ));
        }
        line.push_str(" 0\n");
        for chunk in line.as_bytes().chunks(4096) {
            s.feed(chunk);
        }
        let (claim, kept, _) = s.finish();
        let Ok(Claim::Sat(model)) = claim else {
            panic!("{claim:?}")
        };
        assert_eq!(model.len(), n as usize);
        assert_eq!(kept, b"s SATISFIABLE\n");
    }

    #[test]
    fn bounds_drop_values_of_variables_in_no_clause() {
        let b = ModelBounds::for_formula(2_000_000_000, 2);
        assert_eq!(b.keep, 2);
        let mut s = CompetitionStream::new(b, 0);
        s.feed(b"s SATISFIABLE\nv 1 -2 1999999999 0\n");
        let Ok(Claim::Sat(m)) = s.finish().0 else {
            panic!()
        };
        assert_eq!(m.len(), 2);
        let mut s = CompetitionStream::new(b, 0);
        s.feed(b"s SATISFIABLE\nv 1 -2 2000000001 0\n");
        assert!(matches!(s.finish().0, Err(OutputError::OutOfRange { .. })));
        assert_eq!(ModelBounds::for_formula(100, 90).keep, 100);
    }

    #[test]
    fn minisat_result_file() {
        let (f, c) = parse_answer("SAT\n1 -2 3 0\n").unwrap();
        assert_eq!(f, OutputFormat::Minisat);
        assert_eq!(sat_lits(&c), vec![1, -2, 3]);
        assert_eq!(parse_answer("UNSAT\n").unwrap().1, Claim::Unsat);
        assert!(matches!(
            parse_answer("INDET\n").unwrap().1,
            Claim::Unknown(_)
        ));
        assert!(parse_answer("SAT\n1 -2 3\n").is_err());
    }

    #[test]
    fn zchaff_report() {
        let text = "Z-Chaff Version: zChaff 2007.3.12\nSolving x.cnf ......\n\
                    1 Decision\r2 Decisions\r\nInstance Satisfiable\n\
                    1 -2 (3) 4 Random Seed Used\t\t\t\t0\nMax Decision Level\t\t\t3\n\
                    RESULT:\tSAT\n";
        let (f, c) = parse_answer(text).unwrap();
        assert_eq!(f, OutputFormat::Zchaff);
        assert_eq!(sat_lits(&c), vec![1, -2, 4]);
        assert_eq!(
            parse_answer("Instance Unsatisfiable\nRESULT:\tUNSAT\n")
                .unwrap()
                .1,
            Claim::Unsat
        );
        assert!(matches!(
            parse_answer("RESULT:\tABORT : TIME OUT\n").unwrap().1,
            Claim::Unknown(_)
        ));
    }

    /// `text` fed in chunks of `size` to the reader of `format` keeping `cap` bytes.
    fn chunked(format: OutputFormat, text: &str, size: usize, cap: usize) -> (Claim, Vec<u8>) {
        let mut s = answer_stream(format, ModelBounds::all(crate::cnf::MAX_VARS), cap);
        for piece in text.as_bytes().chunks(size) {
            s.feed(piece);
        }
        let (claim, kept, total) = s.finish();
        assert_eq!(total, text.len() as u64);
        (claim.unwrap(), kept)
    }

    #[test]
    fn minisat_and_zchaff_streamed_in_any_chunks_read_the_same() {
        let minisat = "SAT\n1 -2 3 -4 5 0\n";
        let zchaff = "Z-Chaff Version: zChaff 2007.3.12\nSolving x.cnf ......\n\
                      1 Decision\r2 Decisions\r\nInstance Satisfiable\n\
                      1 -2 (3) 4 5Random Seed Used\t\t\t\t0\nMax Decision Level\t\t\t3\n\
                      RESULT:\tSAT\n";
        for (format, text, lits) in [
            (OutputFormat::Minisat, minisat, vec![1, -2, 3, -4, 5]),
            (OutputFormat::Zchaff, zchaff, vec![1, -2, 4, 5]),
        ] {
            let whole = parse_answer(text).unwrap().1;
            assert_eq!(sat_lits(&whole), lits);
            for size in [1, 2, 3, 7, 64] {
                assert_eq!(chunked(format, text, size, 1 << 20).0, whole, "{size}");
            }
        }
        // Faults are found the same way in pieces.
        let (m, z) = (OutputFormat::Minisat, OutputFormat::Zchaff);
        for (format, text, says) in [
            (m, "SAT\n1 x 0\n", "`x` is not a literal"),
            (m, "SAT\n1 -2\n", "without its final 0"),
            (m, "SAT\n1 -1 0\n", "both true and false"),
            (m, "SAT\n1 0 2\n", "line 2: `2` is not a literal"),
            (m, "\nMAYBE\n", "line 2: unknown result `MAYBE`"),
            (m, "", "no result line"),
            (
                z,
                "Instance Satisfiable\n1 0 Random\nRESULT:\tSAT\n",
                "line 2: `0`",
            ),
            (z, "RESULT:\tSAT\n", "printed no model"),
            (z, "RESULT:\tSAT\nRESULT:\tUNSAT\n", "contradicts"),
            (z, "done\n", "no result line"),
        ] {
            let whole = match format {
                OutputFormat::Minisat => parse_minisat(text),
                _ => parse_zchaff(text),
            };
            let whole = whole.unwrap_err().to_string();
            assert!(whole.contains(says), "{text:?}: {whole}");
            let mut s = answer_stream(format, ModelBounds::all(crate::cnf::MAX_VARS), 0);
            for b in text.as_bytes() {
                s.feed(std::slice::from_ref(b));
            }
            assert_eq!(s.finish().0.unwrap_err().to_string(), whole, "{text:?}");
        }
    }

    #[test]
    fn minisat_and_zchaff_models_far_larger_than_the_cap_are_read_whole() {
        let n = 200_000i64;
        let lits: Vec<String> = (1..=n)
            .map(|v| if v % 2 == 0 { -v } else { v }.to_string())
            .collect();
        let minisat = format!("SAT\n{} 0\n", lits.join(" "));
        let zchaff = format!(
            "Instance Satisfiable\n{} Random Seed Used\t0\nRESULT:\tSAT\n",
            lits.join(" ")
        );
        for (format, text) in [
            (OutputFormat::Minisat, minisat),
            (OutputFormat::Zchaff, zchaff),
        ] {
            // A cap of 64 bytes against a model of about 1.4 MB.
            let (claim, kept) = chunked(format, &text, 4096, 64);
            assert!(kept.len() <= 64);
            let Claim::Sat(model) = claim else {
                panic!("{format:?}: {claim:?}")
            };
            for v in [1, 2, n - 1, n] {
                let l = crate::cnf::Lit::from_dimacs(v as i32);
                assert_eq!(model.lit_value(l), Some(v % 2 == 1), "{format:?} {v}");
            }
        }
    }

    #[test]
    fn written_output_reads_back() {
        let model = Model::from_values((0..100).map(|i| i % 3 == 0));
        let mut buf = Vec::new();
        write_competition(&mut buf, &Outcome::sat(model.clone()), 100).unwrap();
        let text = String::from_utf8(buf).unwrap();
        assert!(text.lines().all(|l| l.len() <= 80));
        assert_eq!(parse_answer(&text).unwrap().1, Claim::Sat(model));
    }
}
