//! The SAT Competition's results format (`scores.csv` of the 2026 competition:
//! `solverid,instanceid,runtime,status,score,vresult`), both ways: [`export`] writes result
//! rows in it (`bench report --export satcomp FILE`), and [`read`] turns such a file into
//! result rows that sit in one report beside bench's own (`bench report` detects the file
//! by its header, [`is_satcomp`]). The instance id is the GBD hash bench already computes
//! (the `hash` column), so a user's runs join the competition's published results for the
//! same instances.
//!
//! The mapping (docs/design.md, "The SAT Competition's format", has the table):
//! a SAT answer whose model was checked is `sat-verified`; an UNSAT answer is
//! `unsat-verified` only when its proof was checked (`check` = `proof-ok`), never merely
//! because nothing contradicts it (`unsat-unverified`); a wrong answer is `sat-wrong` or
//! `unsat-wrong`; TIMEOUT, MEMOUT, ERROR and UNKNOWN are `solver-timeout`,
//! `solver-memout`, `solver-error` and `unknown`. `score` follows the competition's rule:
//! the runtime of a verified answer, twice the limit for everything else.
//!
//! Read back, the competition's rows are named after their machine: the solver
//! `kissat` of `sc2026.csv` is `kissat@sc2026` (the file's stem), so that the same solver
//! run here and there are two configurations of one table.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::BufRead;
use std::path::Path;

use anyhow::{Context, bail};

use crate::report::rows::Row as ReportRow;
use crate::report::score::Scoring;
use crate::results::{Check, InstanceKind, Mode, Row, format_seconds};
use crate::solver::Status;

/// The columns of the competition's `scores.csv`, in order.
pub const COLUMNS: [&str; 6] = [
    "solverid",
    "instanceid",
    "runtime",
    "status",
    "score",
    "vresult",
];

/// The limit a competition file is read with when none of its rows shows one (an unsolved
/// row's score is twice the limit): the main track's 5,000 s.
pub const DEFAULT_LIMIT_S: f64 = 5000.0;

/// A competition status, as the competition spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompStatus {
    /// SAT, the model checked.
    SatVerified,
    /// UNSAT, the proof checked.
    UnsatVerified,
    /// SAT without a checked model.
    SatUnverified,
    /// UNSAT without a checked proof.
    UnsatUnverified,
    /// A SAT answer found wrong.
    SatWrong,
    /// An UNSAT answer found wrong.
    UnsatWrong,
    /// Stopped by the time limit.
    SolverTimeout,
    /// Stopped by the memory limit.
    SolverMemout,
    /// Crashed or wrote nothing usable.
    SolverError,
    /// Gave up without an answer.
    Unknown,
}

impl CompStatus {
    /// The name in the file.
    pub fn as_str(self) -> &'static str {
        match self {
            CompStatus::SatVerified => "sat-verified",
            CompStatus::UnsatVerified => "unsat-verified",
            CompStatus::SatUnverified => "sat-unverified",
            CompStatus::UnsatUnverified => "unsat-unverified",
            CompStatus::SatWrong => "sat-wrong",
            CompStatus::UnsatWrong => "unsat-wrong",
            CompStatus::SolverTimeout => "solver-timeout",
            CompStatus::SolverMemout => "solver-memout",
            CompStatus::SolverError => "solver-error",
            CompStatus::Unknown => "unknown",
        }
    }

    /// The competition's status of a row, scored by `scoring` (an answer after the
    /// report's timeout is a timeout).
    pub fn of(row: &ReportRow, scoring: Scoring) -> CompStatus {
        match (scoring.status_of(row), row.wrong) {
            (Status::Sat, true) => CompStatus::SatWrong,
            (Status::Unsat, true) => CompStatus::UnsatWrong,
            (Status::Sat, false) if matches!(row.check, Check::ModelOk | Check::EncodingOpen) => {
                CompStatus::SatVerified
            }
            (Status::Sat, false) => CompStatus::SatUnverified,
            (Status::Unsat, false) if unsat_verified(row) => CompStatus::UnsatVerified,
            (Status::Unsat, false) => CompStatus::UnsatUnverified,
            (Status::Timeout, _) => CompStatus::SolverTimeout,
            (Status::Memout, _) => CompStatus::SolverMemout,
            (Status::Error, _) => CompStatus::SolverError,
            (Status::Unknown, _) => CompStatus::Unknown,
        }
    }

    /// Solved in the competition's sense: a verified answer.
    pub fn solved(self) -> bool {
        matches!(self, CompStatus::SatVerified | CompStatus::UnsatVerified)
    }

    /// The trust a verified status carries: the competition verified the model or proof
    /// (None: the row's columns tell, as for a row written before the column).
    fn trust(self) -> Option<crate::results::Trust> {
        match self {
            CompStatus::SatVerified => Some(crate::results::Trust::ModelChecked),
            CompStatus::UnsatVerified => Some(crate::results::Trust::ProofVerified),
            _ => None,
        }
    }

    /// The status, check and wrongness of a row read with this status.
    fn columns(self) -> (Status, Check, bool) {
        match self {
            CompStatus::SatVerified => (Status::Sat, Check::ModelOk, false),
            CompStatus::UnsatVerified => (Status::Unsat, Check::ProofOk, false),
            CompStatus::SatUnverified => (Status::Sat, Check::Unchecked, false),
            CompStatus::UnsatUnverified => (Status::Unsat, Check::Unchecked, false),
            CompStatus::SatWrong => (Status::Sat, Check::ModelWrong, true),
            CompStatus::UnsatWrong => (Status::Unsat, Check::Unchecked, true),
            CompStatus::SolverTimeout => (Status::Timeout, Check::Unchecked, false),
            CompStatus::SolverMemout => (Status::Memout, Check::Unchecked, false),
            CompStatus::SolverError => (Status::Error, Check::Unchecked, false),
            CompStatus::Unknown => (Status::Unknown, Check::Unchecked, false),
        }
    }

    /// Reads a status of a competition file: the names above, and the competition's other
    /// spellings by what they say (`…timeout…` a timeout, `…memout…` a memory-out,
    /// `…wrong…` a wrong answer, `sat`/`unsat` an unverified answer). `None` for anything
    /// else (read as UNKNOWN, the status kept in the row's error column).
    pub fn parse(status: &str, vresult: &str) -> Option<CompStatus> {
        let s = status.trim().to_ascii_lowercase();
        let unsat = s.starts_with("unsat") || vresult.trim().eq_ignore_ascii_case("unsat");
        Some(match s.as_str() {
            "sat-verified" => CompStatus::SatVerified,
            "unsat-verified" => CompStatus::UnsatVerified,
            "sat" | "sat-unverified" => CompStatus::SatUnverified,
            "unsat" | "unsat-unverified" => CompStatus::UnsatUnverified,
            "unknown" => CompStatus::Unknown,
            _ if s.contains("wrong") || s.contains("refuted") => {
                if unsat {
                    CompStatus::UnsatWrong
                } else {
                    CompStatus::SatWrong
                }
            }
            _ if s.contains("timeout") => CompStatus::SolverTimeout,
            _ if s.contains("memout") || s.contains("memory") => CompStatus::SolverMemout,
            _ if s.contains("error") || s.contains("crash") => CompStatus::SolverError,
            _ => return None,
        })
    }
}

/// True when the UNSAT of `row` is verified: its proof was checked.
fn unsat_verified(row: &ReportRow) -> bool {
    row.check == Check::ProofOk
}

/// The competition's solver id of a row: the solver, with the encoding for a puzzle's
/// formula (`minisat+extended`), since the competition keys a row by solver and instance
/// alone.
fn solver_id(row: &ReportRow) -> String {
    if row.kind().is_puzzle() {
        format!("{}+{}", row.solver(), row.encoding())
    } else {
        row.solver().to_string()
    }
}

/// `rows` in the competition's format (header included), scored by `scoring`: runtime is
/// the time on its basis, score that time for a verified answer and twice the timeout for
/// anything else. Text, no I/O.
pub fn export(rows: &[ReportRow], scoring: Scoring) -> anyhow::Result<String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(COLUMNS)?;
    for row in rows {
        let status = CompStatus::of(row, scoring);
        let runtime = scoring.time_of(row);
        let score = if status.solved() {
            runtime
        } else {
            2.0 * scoring.timeout_of(row)
        };
        let vresult = match scoring.status_of(row) {
            Status::Sat => "sat",
            Status::Unsat => "unsat",
            _ => "",
        };
        w.write_record([
            solver_id(row).as_str(),
            row.instance_key(),
            &format_seconds(runtime),
            status.as_str(),
            &format_seconds(score),
            vresult,
        ])?;
    }
    Ok(String::from_utf8(w.into_inner()?)?)
}

/// True when `path` is a competition results file: its first line that is not a `#`
/// comment is the competition's header.
pub fn is_satcomp(path: &Path) -> anyhow::Result<bool> {
    let file = std::fs::File::open(path).with_context(|| format!("reading {}", path.display()))?;
    for line in std::io::BufReader::new(file).lines() {
        let line = line.with_context(|| format!("reading {}", path.display()))?;
        let line = line.trim_start_matches('\u{feff}').trim();
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        return Ok(fields == COLUMNS);
    }
    Ok(false)
}

/// The machine a competition file's rows are named after: the file's stem.
pub fn machine_of(path: &Path) -> String {
    path.file_stem()
        .map_or_else(|| "satcomp".into(), |s| s.to_string_lossy().into_owned())
}

/// One row of a competition file, as read.
#[derive(Debug)]
struct Read {
    solver: String,
    instance: String,
    /// Empty for an unsolved row that gives none: the limit stands in.
    runtime: Option<f64>,
    /// Empty where the file gives none.
    score: Option<f64>,
    status: Option<CompStatus>,
    raw_status: String,
}

impl Read {
    /// Half the score of an unsolved row: the limit it was run under.
    fn limit(&self) -> Option<f64> {
        if self.status.is_some_and(CompStatus::solved) {
            return None;
        }
        self.score.map(|s| s / 2.0).filter(|&l| l > 0.0)
    }
}

/// Reads a competition file into result rows (see the module's notes): a malformed row is
/// an error naming `file:line`. The limit of every row is what the unsolved rows' scores
/// say (twice the limit), or [`DEFAULT_LIMIT_S`] when none does.
pub fn read(path: &Path) -> anyhow::Result<Vec<Row>> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {name}"))?;
    let read = parse(text.trim_start_matches('\u{feff}'), &name)?;
    Ok(rows_of(read, &name, &machine_of(path)))
}

/// The rows of a competition file's text; `name` names it in errors.
fn parse(text: &str, name: &str) -> anyhow::Result<Vec<Read>> {
    let mut reader = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| anyhow::anyhow!("{name}:1: unreadable header ({e})"))?
        .clone();
    if headers.iter().collect::<Vec<_>>() != COLUMNS {
        bail!(
            "{name}:1: not a SAT Competition results file (the header is not {})",
            COLUMNS.join(",")
        );
    }
    let mut read = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line());
            anyhow::anyhow!("{name}:{line}: {e}")
        })?;
        let line = record.position().map_or(0, |p| p.line());
        let at = |what: String| anyhow::anyhow!("{name}:{line}: {what}");
        let field = |i: usize| record.get(i).unwrap_or("");
        let seconds = |i: usize| -> anyhow::Result<Option<f64>> {
            if field(i).is_empty() {
                return Ok(None);
            }
            let v: f64 = field(i)
                .parse()
                .map_err(|_| at(format!("{} `{}` is not a number", COLUMNS[i], field(i))))?;
            if !(v.is_finite() && v >= 0.0) {
                return Err(at(format!(
                    "{} is {v}: a time is a finite number of seconds ≥ 0",
                    COLUMNS[i]
                )));
            }
            Ok(Some(v))
        };
        for i in [0, 1] {
            if field(i).is_empty() {
                return Err(at(format!("no {}", COLUMNS[i])));
            }
        }
        let status = CompStatus::parse(field(3), field(5));
        let runtime = seconds(2)?;
        if runtime.is_none() && status.is_some_and(|s| s.columns().0.is_solved()) {
            return Err(at(format!("no runtime for an answer ({})", field(3))));
        }
        read.push(Read {
            solver: field(0).to_string(),
            instance: field(1).to_string(),
            runtime,
            score: seconds(4)?,
            status,
            raw_status: field(3).to_string(),
        });
    }
    Ok(read)
}

/// Result rows of a competition file's rows, its solvers named `SOLVER@machine`.
fn rows_of(read: Vec<Read>, name: &str, machine: &str) -> Vec<Row> {
    let limit = read
        .iter()
        .filter_map(Read::limit)
        .fold(None, |a: Option<f64>, l| Some(a.map_or(l, |a| a.max(l))))
        .unwrap_or(DEFAULT_LIMIT_S);
    let mut runs: BTreeMap<(String, String), u32> = BTreeMap::new();
    let mut rows = Vec::with_capacity(read.len());
    for r in read {
        let run = runs
            .entry((r.solver.clone(), r.instance.clone()))
            .or_insert(0);
        *run += 1;
        let (status, check, wrong) = r.status.map_or(
            (Status::Unknown, Check::Unchecked, false),
            CompStatus::columns,
        );
        let mut error = String::new();
        if r.status.is_none() {
            let _ = write!(error, "the competition's status `{}`", r.raw_status);
        }
        let timeout_s = r.limit().unwrap_or(limit);
        rows.push(Row {
            corpus: name.into(),
            instance: r.instance.as_str().into(),
            hash: r.instance.as_str().into(),
            kind: InstanceKind::Cnf,
            encoding: "dimacs".into(),
            solver: format!("{}@{machine}", r.solver).into(),
            mode: Some(Mode::Process),
            run: *run,
            status,
            check,
            wall_s: r.runtime.unwrap_or(timeout_s),
            timeout_s,
            jobs: 1,
            error,
            wrong,
            trust: r.status.and_then(CompStatus::trust),
            ..Row::default()
        });
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_rows::full_row;

    fn cnf_row(solver: &str, hash: &str, status: &str, check: Check, t: f64) -> ReportRow {
        let mut full = full_row(hash, "dimacs", solver, status, t);
        full.kind = InstanceKind::Cnf;
        full.hash = hash.into();
        full.check = check;
        ReportRow::from(&full)
    }

    #[test]
    fn only_a_checked_answer_is_verified_and_scores_its_time() {
        let rows = vec![
            cnf_row("a", "h1", "SAT", Check::ModelOk, 1.5),
            cnf_row("a", "h2", "UNSAT", Check::ProofOk, 2.0),
            cnf_row("a", "h3", "UNSAT", Check::Unchecked, 3.0),
            cnf_row("a", "h4", "TIMEOUT", Check::Unchecked, 10.0),
            ReportRow {
                wrong: true,
                ..cnf_row("a", "h5", "SAT", Check::ModelWrong, 0.5)
            },
        ];
        let text = export(&rows, Scoring::default()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "solverid,instanceid,runtime,status,score,vresult");
        assert_eq!(lines[1], "a,h1,1.5,sat-verified,1.5,sat");
        assert_eq!(lines[2], "a,h2,2.0,unsat-verified,2.0,unsat");
        assert_eq!(lines[3], "a,h3,3.0,unsat-unverified,20.0,unsat");
        assert_eq!(lines[4], "a,h4,10.0,solver-timeout,20.0,");
        assert_eq!(lines[5], "a,h5,0.5,sat-wrong,20.0,sat");
    }

    #[test]
    fn an_unsolved_row_may_leave_its_runtime_and_score_empty() {
        let text = "# a comment\n\
                    solverid,instanceid,runtime,status,score,vresult\n\
                    s,h1,,solver-timeout,,\n\
                    s,h2,3.5,unsat-verified,3.5,unsat\n\
                    s,h3,7,memout,600,\n\
                    s,h1,1,bogus,1,\n";
        let rows = rows_of(parse(text, "f.csv").unwrap(), "f.csv", "m");
        assert_eq!(rows.len(), 4);
        assert_eq!(rows[0].solver, "s@m");
        assert_eq!((rows[0].status, rows[0].wall_s), (Status::Timeout, 300.0));
        assert_eq!(
            (rows[1].status, rows[1].check),
            (Status::Unsat, Check::ProofOk)
        );
        assert_eq!(rows[2].timeout_s, 300.0);
        // The same solver and instance again: a second run, the status kept.
        assert_eq!((rows[3].run, rows[3].status), (2, Status::Unknown));
        assert!(rows[3].error.contains("bogus"));
        let err = parse(
            "solverid,instanceid,runtime,status,score,vresult\ns,h,,sat-verified,,sat\n",
            "f.csv",
        )
        .unwrap_err();
        assert!(err.to_string().starts_with("f.csv:2: no runtime"), "{err}");
    }

    #[test]
    fn the_competitions_spellings_are_read_by_what_they_say() {
        use CompStatus::*;
        for (status, vresult, want) in [
            ("sat-verified", "sat", Some(SatVerified)),
            ("UNSAT-VERIFIED", "unsat", Some(UnsatVerified)),
            ("solver-timeout", "", Some(SolverTimeout)),
            ("verifier-timeout", "unsat", Some(SolverTimeout)),
            ("memout", "", Some(SolverMemout)),
            ("wrong", "unsat", Some(UnsatWrong)),
            ("sat-wrong", "sat", Some(SatWrong)),
            ("bogus", "", None),
        ] {
            assert_eq!(CompStatus::parse(status, vresult), want, "{status}");
        }
    }
}
