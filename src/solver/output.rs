//! Solver output, read and written.
//!
//! Reading: the three shapes in which solvers hand back an answer (DESIGN.md's solver
//! table): the SAT-competition format (`s SATISFIABLE` plus `v … 0` lines, as kissat,
//! cadical, picosat, cryptominisat, glucose and `bench solve` print), minisat's result file
//! (`SAT` then one line of literals ending in 0, or `UNSAT` / `INDET`), and zchaff's
//! report (`Instance Satisfiable`, a line of literals with no final 0 cut short by
//! `Random Seed Used`, then `RESULT:\tSAT`). The shape is detected from the text.
//!
//! Writing: [`write_competition`] prints any [`Outcome`] in the competition format, so every
//! solver looks the same to the user and to any harness that runs `bench solve`.

use std::io::{self, Write};

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
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
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

/// Reads `s`/`v` lines. `c` lines and anything else are ignored; the model is the `v`
/// literals up to the terminating 0 (literals after it are an error).
pub fn parse_competition(text: &str) -> Result<Claim, OutputError> {
    parse_competition_within(text, crate::cnf::MAX_VARS)
}

/// [`parse_competition`] for a formula of `max_var` variables: a model literal beyond it
/// is [`OutputError::OutOfRange`] (and no model is built for it).
pub fn parse_competition_within(text: &str, max_var: u32) -> Result<Claim, OutputError> {
    let mut model_fault: Option<OutputError> = None;
    let mut status: Option<(usize, &str)> = None;
    let mut lits: Vec<Lit> = Vec::new();
    let mut saw_v = false;
    let mut terminated = false;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.trim_end_matches('\r');
        if let Some(rest) = line.strip_prefix("s ") {
            let word = rest.trim();
            if let Some((first_line, previous)) = status
                && previous != word
            {
                let _ = first_line;
                return Err(OutputError::Conflicting { line: line_no });
            }
            status = Some((line_no, word));
        } else if let Some(rest) = line
            .strip_prefix('v')
            .filter(|r| r.is_empty() || r.starts_with([' ', '\t']))
        {
            saw_v = true;
            for token in rest.split_ascii_whitespace() {
                let n: i64 = token.parse().map_err(|_| OutputError::BadLiteral {
                    line: line_no,
                    token: token.to_string(),
                })?;
                if terminated {
                    return Err(OutputError::BadLiteral {
                        line: line_no,
                        token: token.to_string(),
                    });
                }
                if n == 0 {
                    terminated = true;
                } else {
                    match literal(n, line_no, token, max_var) {
                        Ok(l) => lits.push(l),
                        // Kept until the `s` line says what this model is claimed for.
                        Err(e) => {
                            model_fault.get_or_insert(e);
                        }
                    }
                }
            }
        }
    }
    let (line_no, word) = status.ok_or(OutputError::NoResult)?;
    if let Some(fault) = model_fault
        && word != "UNSATISFIABLE"
    {
        return Err(fault);
    }
    match word {
        "SATISFIABLE" => {
            if !saw_v {
                return Err(OutputError::Mismatch("`s SATISFIABLE` with no `v` lines"));
            }
            model_of(lits).map(Claim::Sat)
        }
        "UNSATISFIABLE" if saw_v => Err(OutputError::Mismatch("`s UNSATISFIABLE` with `v` lines")),
        "UNSATISFIABLE" => Ok(Claim::Unsat),
        "UNKNOWN" | "INDETERMINATE" => Ok(Claim::Unknown(word.to_string())),
        other => Err(OutputError::UnknownResult {
            line: line_no,
            text: other.to_string(),
        }),
    }
}

/// Reads minisat's result file: `SAT` and a line of literals ending in 0, `UNSAT`, `INDET`.
pub fn parse_minisat(text: &str) -> Result<Claim, OutputError> {
    parse_minisat_within(text, crate::cnf::MAX_VARS)
}

/// [`parse_minisat`] for a formula of `max_var` variables.
pub fn parse_minisat_within(text: &str, max_var: u32) -> Result<Claim, OutputError> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((_, first)) = lines.next() else {
        return Err(OutputError::NoResult);
    };
    match first.trim() {
        "SAT" => {
            let mut lits = Vec::new();
            let mut terminated = false;
            for (i, line) in lines {
                for token in line.split_ascii_whitespace() {
                    let n: i64 = token.parse().map_err(|_| OutputError::BadLiteral {
                        line: i + 1,
                        token: token.to_string(),
                    })?;
                    if terminated {
                        return Err(OutputError::BadLiteral {
                            line: i + 1,
                            token: token.to_string(),
                        });
                    }
                    if n == 0 {
                        terminated = true;
                    } else {
                        lits.push(literal(n, i + 1, token, max_var)?);
                    }
                }
            }
            if !terminated {
                return Err(OutputError::Mismatch("minisat model without its final 0"));
            }
            model_of(lits).map(Claim::Sat)
        }
        "UNSAT" => Ok(Claim::Unsat),
        "INDET" => Ok(Claim::Unknown("INDET".into())),
        other => Err(OutputError::UnknownResult {
            line: 1,
            text: other.to_string(),
        }),
    }
}

/// Reads zchaff's report. Progress lines end in `\r` (so one `\n`-line may hold several),
/// the model follows `Instance Satisfiable` with no final 0 and runs into `Random Seed
/// Used`; unassigned variables print as `(n)`. The verdict is the `RESULT:` line.
pub fn parse_zchaff(text: &str) -> Result<Claim, OutputError> {
    parse_zchaff_within(text, crate::cnf::MAX_VARS)
}

/// [`parse_zchaff`] for a formula of `max_var` variables.
pub fn parse_zchaff_within(text: &str, max_var: u32) -> Result<Claim, OutputError> {
    let mut result: Option<(usize, String)> = None;
    let mut model_line: Option<(usize, &str)> = None;
    let mut lines = text.split(['\n', '\r']).enumerate().peekable();
    while let Some((i, line)) = lines.next() {
        if line.starts_with("Instance Satisfiable") {
            if let Some((j, next)) = lines.peek() {
                model_line = Some((j + 1, next));
            }
        } else if let Some(rest) = line.strip_prefix("RESULT:") {
            let word = rest.trim().to_string();
            if let Some((_, previous)) = &result
                && *previous != word
            {
                return Err(OutputError::Conflicting { line: i + 1 });
            }
            result = Some((i + 1, word));
        }
    }
    let (line_no, word) = result.ok_or(OutputError::NoResult)?;
    match word.as_str() {
        "SAT" => {
            let (line, text) = model_line.ok_or(OutputError::Mismatch(
                "zchaff said SAT but printed no model",
            ))?;
            let text = text.split("Random Seed Used").next().unwrap_or("");
            let mut lits = Vec::new();
            for token in text.split_ascii_whitespace() {
                if token.starts_with('(') && token.ends_with(')') {
                    continue; // unassigned: either value
                }
                let n: i64 = token.parse().map_err(|_| OutputError::BadLiteral {
                    line,
                    token: token.to_string(),
                })?;
                if n == 0 {
                    return Err(OutputError::BadLiteral {
                        line,
                        token: token.to_string(),
                    });
                }
                lits.push(literal(n, line, token, max_var)?);
            }
            model_of(lits).map(Claim::Sat)
        }
        "UNSAT" => Ok(Claim::Unsat),
        w if w.starts_with("ABORT") => Ok(Claim::Unknown(w.to_string())),
        other => Err(OutputError::UnknownResult {
            line: line_no,
            text: other.to_string(),
        }),
    }
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

fn model_of(lits: Vec<Lit>) -> Result<Model, OutputError> {
    Model::from_lits_checked(lits).map_err(|v| OutputError::Inconsistent { var: v.dimacs() })
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
