//! The result row and the results CSV: one row per run, with the columns of
//! docs/design.md ("Results CSV") first. Below both the runner, which writes rows, and the report, which reads them: the
//! report knows runs only through this file.
//!
//! Rows are appended and flushed as each run ends, so a killed bench loses nothing that
//! finished. Reading back (for `--resume` and `bench report`) tolerates the one thing a
//! kill can leave behind, a last line cut short, and nothing else: any other malformed row
//! is an error naming its line.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::Path;

use anyhow::{Context, bail};
use compact_str::CompactString;
use serde::{Deserialize, Serialize};

use crate::puzzle::Kind;
use crate::solver::{LimitHit, Status};
pub use crate::trust::Trust;

mod consistency;
mod today;
use crate::solver::work::Work;

/// What the check of a run found (the `check` column).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Check {
    /// The model satisfies every clause (and, for puzzles, the rules and givens).
    ModelOk,
    /// The model satisfies every clause, but the formula leaves the puzzle open: the grids
    /// read from it are no solution (a defect of the encoding; the solver is right).
    EncodingOpen,
    /// The model is wrong.
    ModelWrong,
    /// `rate` verified the DRAT proof of UNSAT.
    ProofOk,
    /// `rate` rejected the DRAT proof.
    ProofFailed,
    /// Nothing to check (UNSAT without a proof, UNKNOWN, TIMEOUT, ...).
    #[default]
    Unchecked,
}

impl Check {
    /// The name in the CSV and in messages.
    pub fn as_str(self) -> &'static str {
        match self {
            Check::ModelOk => "model-ok",
            Check::EncodingOpen => "encoding-open",
            Check::ModelWrong => "model-wrong",
            Check::ProofOk => "proof-ok",
            Check::ProofFailed => "proof-failed",
            Check::Unchecked => "unchecked",
        }
    }
}

impl std::fmt::Display for Check {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a solver ran an instance: what its time includes. The `mode` column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// In bench's process, in an incremental session: the encoding's rules loaded once per
    /// worker, the puzzle's givens taken as assumptions, learnt clauses kept between puzzles.
    Session,
    /// In bench's process, on a fresh formula built for this instance alone.
    Fresh,
    /// A child process given a DIMACS file: its time includes the process start and the
    /// reading of the file.
    Process,
    /// A dedicated puzzle solver given the puzzle itself, no formula (`gridsolve` in
    /// bench's process, or a program reading puzzle lines): encoding `none`.
    Dedicated,
}

impl Mode {
    /// Every mode, in the order tables list them.
    pub const ALL: [Mode; 4] = [Mode::Session, Mode::Fresh, Mode::Process, Mode::Dedicated];

    /// The name in the CSV and in every table and legend.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Session => "session",
            Mode::Fresh => "fresh",
            Mode::Process => "process",
            Mode::Dedicated => "dedicated",
        }
    }

    /// True for the two modes that run a SAT solver inside bench (no process start).
    pub fn in_process(self) -> bool {
        matches!(self, Mode::Session | Mode::Fresh)
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What an instance is (the `kind` column): a puzzle of one of the kinds, or a DIMACS file
/// (`cnf`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum InstanceKind {
    /// A puzzle: `sudoku`, `latin` or `pair`.
    Puzzle(Kind),
    /// A DIMACS file, read rather than encoded.
    #[default]
    Cnf,
}

impl InstanceKind {
    /// The name in the CSV.
    pub fn as_str(self) -> &'static str {
        match self {
            InstanceKind::Puzzle(k) => k.as_str(),
            InstanceKind::Cnf => "cnf",
        }
    }

    /// Parses the name in the CSV.
    pub fn parse(s: &str) -> Option<InstanceKind> {
        match s {
            "cnf" => Some(InstanceKind::Cnf),
            _ => Kind::parse(s).map(InstanceKind::Puzzle),
        }
    }

    /// True for a puzzle (encoded by bench), false for a DIMACS file.
    pub fn is_puzzle(self) -> bool {
        self != InstanceKind::Cnf
    }
}

impl std::fmt::Display for InstanceKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for InstanceKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for InstanceKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<InstanceKind, D::Error> {
        struct Name;
        impl serde::de::Visitor<'_> for Name {
            type Value = InstanceKind;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("sudoku, latin, pair or cnf")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<InstanceKind, E> {
                InstanceKind::parse(v).ok_or_else(|| {
                    E::custom(format!("unknown kind `{v}` (sudoku, latin, pair or cnf)"))
                })
            }
        }
        d.deserialize_str(Name)
    }
}

/// Which time of a row a report scores and draws: each row has both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TimeBasis {
    /// CPU time (user + system), what SAT competitions score sequential solvers by: it
    /// does not grow when the machine is shared.
    #[default]
    Cpu,
    /// Wall-clock time, for parallel solvers (and runs without a CPU measure).
    Wall,
}

impl TimeBasis {
    /// Both bases.
    pub const ALL: [TimeBasis; 2] = [TimeBasis::Cpu, TimeBasis::Wall];

    /// The time on this basis: `cpu`, or `wall` where no CPU time was measured (and on the
    /// wall basis).
    pub fn pick(self, cpu: Option<f64>, wall: f64) -> f64 {
        match (self, cpu) {
            (TimeBasis::Cpu, Some(cpu)) => cpu,
            _ => wall,
        }
    }

    /// [`TimeBasis::pick`] where the wall time may be missing too.
    pub fn pick_opt(self, cpu: Option<f64>, wall: Option<f64>) -> Option<f64> {
        match (self, cpu) {
            (TimeBasis::Cpu, Some(cpu)) => Some(cpu),
            _ => wall,
        }
    }

    /// The name on the command line: `cpu` or `wall`.
    pub fn as_str(self) -> &'static str {
        match self {
            TimeBasis::Cpu => "cpu",
            TimeBasis::Wall => "wall",
        }
    }

    /// How charts and tables name it: `CPU time` or `wall time`.
    pub fn words(self) -> &'static str {
        match self {
            TimeBasis::Cpu => "CPU time",
            TimeBasis::Wall => "wall time",
        }
    }
}

/// One run: the columns of docs/design.md ("Results CSV"), then bench's extras.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The corpus file as named on the command line.
    #[serde(with = "text_cell")]
    pub corpus: CompactString,
    /// The stable instance id: file name and line (`hard.txt:12`), or the DIMACS file name.
    #[serde(with = "text_cell")]
    pub instance: CompactString,
    /// What the instance is: its content hash (the GBD hash of a CNF, the hash of a
    /// puzzle's kind, side and givens; see `identity.rs`). Empty in CSVs written before
    /// bench recorded it, where the instance id stands in.
    #[serde(default)]
    pub hash: CompactString,
    /// sudoku, latin, pair, or cnf for DIMACS input.
    pub kind: InstanceKind,
    /// The puzzle side (0 for DIMACS).
    pub side: u32,
    /// The encoding (`dimacs` for DIMACS input).
    pub encoding: CompactString,
    /// Variables in the CNF.
    pub vars: u64,
    /// Clauses in the CNF.
    pub clauses: u64,
    /// The solver's name.
    #[serde(with = "text_cell")]
    pub solver: CompactString,
    /// How it ran ([`Mode`]): `session`, `fresh` or `process`. Empty in CSVs written before
    /// bench recorded it (the report then infers what it can: see `report::mode`).
    #[serde(default)]
    pub mode: Option<Mode>,
    /// Repetition number, from 1.
    pub run: u32,
    /// SAT, UNSAT, UNKNOWN, TIMEOUT, MEMOUT, ERROR.
    pub status: Status,
    /// model-ok, encoding-open, model-wrong, proof-ok, proof-failed, unchecked.
    pub check: Check,
    /// Wall-clock seconds (written to the microsecond).
    #[serde(serialize_with = "seconds")]
    pub wall_s: f64,
    /// CPU seconds (user + system), if measured (written to the microsecond).
    #[serde(serialize_with = "seconds_opt")]
    pub cpu_s: Option<f64>,
    /// Peak resident set in KiB, if measured.
    pub max_rss_kb: Option<u64>,
    /// The child's exit code (external solvers).
    pub exit_code: Option<i32>,
    /// The timeout of the run, seconds.
    #[serde(serialize_with = "seconds")]
    pub timeout_s: f64,
    /// Parallel jobs in the run.
    pub jobs: u32,
    /// Why, for errors and wrong answers (one line: control characters are written as
    /// `\xNN`).
    #[serde(serialize_with = "one_line")]
    pub error: String,
    /// True when the answer is wrong: a bad model, a failed proof, or an UNSAT that a
    /// verified model of the same instance contradicts.
    pub wrong: bool,
    /// With `--count N`: the solutions found, every one checked and distinct (N: at least
    /// N; 0 for a puzzle answered UNSAT; empty when the count did not finish).
    pub solutions: Option<u32>,
    /// With `--count N`: wall-clock seconds of the whole count, the solver's time over
    /// every solve (the first included), where `wall_s` is the first solve's alone.
    #[serde(default, serialize_with = "seconds_opt")]
    pub count_wall_s: Option<f64>,
    /// With `--count N`: CPU seconds of the whole count (every solve, the first included).
    #[serde(default, serialize_with = "seconds_opt")]
    pub count_cpu_s: Option<f64>,
    /// Number of givens (puzzles).
    pub givens: Option<u32>,
    /// The instance's family (see [`crate::family`]): what per-family tables group by.
    /// Empty in CSVs written before bench recorded it (the report then applies the
    /// default rule).
    #[serde(default, with = "text_cell")]
    pub family: CompactString,
    /// How far the answer is trusted ([`Trust`]); empty in CSVs written before bench
    /// recorded it, where [`Row::trust`] derives it.
    #[serde(default)]
    pub trust: Option<Trust>,
    /// CPU seconds of the proof checkers (`rate`, then cake_lpr), if a proof was checked.
    #[serde(default, serialize_with = "seconds_opt")]
    pub check_s: Option<f64>,
    /// Peak memory of the proof checkers in KiB (the larger of the two), if measured.
    #[serde(default)]
    pub check_rss_kb: Option<u64>,
    /// The solver's own work ([`Work`]), each column empty where the solver gives none
    /// (and in CSVs written before bench recorded it): conflicts, decisions and
    /// propagations (CDCL), guesses (a dedicated puzzle solver).
    #[serde(default)]
    pub conflicts: Option<u64>,
    /// Decisions (see `conflicts`).
    #[serde(default)]
    pub decisions: Option<u64>,
    /// Propagations (see `conflicts`).
    #[serde(default)]
    pub propagations: Option<u64>,
    /// Guesses (see `conflicts`).
    #[serde(default)]
    pub guesses: Option<u64>,
    /// The CPU-time limit of the run, seconds (`--cpu-limit`; empty when it had none, and
    /// in CSVs written before bench had one).
    #[serde(default, serialize_with = "seconds_opt")]
    pub cpu_limit_s: Option<f64>,
    /// Which limit ended the run ([`LimitHit`]): `wall` or `cpu` on a TIMEOUT, `memory` on
    /// a MEMOUT, empty otherwise (and in CSVs written before bench recorded it, where a
    /// TIMEOUT was the wall limit's).
    #[serde(default)]
    pub limit: Option<LimitHit>,
}

/// The name columns (corpus, instance, solver, family) as spreadsheet-safe cells: a name
/// like `=HYPERLINK(…).cnf` is shown as text, and reads back as it was (see
/// [`crate::text::spreadsheet_cell`]).
mod text_cell {
    use compact_str::CompactString;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(text: &CompactString, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&crate::text::spreadsheet_cell(text))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<CompactString, D::Error> {
        let cell = CompactString::deserialize(d)?;
        Ok(crate::text::from_spreadsheet_cell(&cell).into())
    }
}

impl Row {
    /// The solver's work counters.
    pub fn work(&self) -> Work {
        Work {
            conflicts: self.conflicts,
            decisions: self.decisions,
            propagations: self.propagations,
            guesses: self.guesses,
        }
    }

    /// Sets the work counters.
    pub fn set_work(&mut self, work: Work) {
        self.conflicts = work.conflicts;
        self.decisions = work.decisions;
        self.propagations = work.propagations;
        self.guesses = work.guesses;
    }

    /// Solved and right: counts towards the solved total and PAR-2.
    pub fn solved(&self) -> bool {
        !self.wrong && self.status.is_solved()
    }

    /// How far the answer is trusted: the `trust` column, or in a CSV without it the
    /// level its other columns give; a wrong answer is trusted at no level.
    pub fn trust(&self) -> Trust {
        Trust::of(self.trust, self.status, self.check, self.wrong)
    }

    /// Solved, right and certified (a checked model or a verified proof): counts towards
    /// the certified solved total and PAR-2.
    pub fn certified(&self) -> bool {
        self.solved() && self.trust().certified()
    }

    /// The run's time on `basis`: CPU time, or wall time where no CPU time was measured
    /// (and on the wall basis).
    pub fn time(&self, basis: TimeBasis) -> f64 {
        basis.pick(self.cpu_s, self.wall_s)
    }

    /// The time of the whole `--count` on `basis` (every solve, the first included), if
    /// the run counted.
    pub fn count_time(&self, basis: TimeBasis) -> Option<f64> {
        basis.pick_opt(self.count_cpu_s, self.count_wall_s)
    }

    /// What the instance is, for every join: its content hash, or its id in a CSV that
    /// has no hash.
    pub fn instance_key(&self) -> &str {
        if self.hash.is_empty() {
            &self.instance
        } else {
            &self.hash
        }
    }

    /// What identifies a run across restarts and shards: a resumed run skips rows with a
    /// key it has, a merge counts each key once.
    pub fn key(&self) -> Key<'_> {
        (self.instance_key(), &self.encoding, &self.solver, self.run)
    }
}

/// A run's identity: (instance hash, encoding, solver, repetition), borrowed.
pub type Key<'a> = (&'a str, &'a str, &'a str, u32);

/// Seconds to the microsecond, in plain decimal notation (`2.160906`, never
/// `2.1609059999999998` or `4.817e-6`).
pub fn format_seconds(x: f64) -> String {
    let mut s = String::new();
    push_seconds(&mut s, x);
    s
}

/// Appends [`format_seconds`] of `x` to `out` (no text of its own made).
pub fn push_seconds(out: &mut String, x: f64) {
    use std::fmt::Write;
    if !x.is_finite() {
        let _ = write!(out, "{x}");
        return;
    }
    let start = out.len();
    let _ = write!(out, "{x:.6}");
    while out.ends_with('0') && !out[start..].ends_with(".0") {
        out.pop();
    }
}

fn seconds<S: serde::Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format_seconds(*x))
}

fn seconds_opt<S: serde::Serializer>(x: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match x {
        Some(x) => s.serialize_str(&format_seconds(*x)),
        None => s.serialize_none(),
    }
}

fn one_line<S: serde::Serializer>(text: &str, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&crate::text::escape_controls(text))
}

/// Appends rows to a results CSV, each handed to the kernel whole as it is written, so the
/// file only ever ends with a complete row: a write that fails (a full disk) is cut back
/// off, and every row before it stays readable by `--resume` and `bench report`.
pub struct ResultsWriter {
    /// The file, opened for appending.
    file: File,
    /// Its length after the last whole row: where a failed write is cut back to.
    len: u64,
    /// Formats each row (after the header, when the file started empty) into memory.
    csv: csv::Writer<Vec<u8>>,
}

impl ResultsWriter {
    /// Opens `path` for appending; writes the header at once if the file is new or
    /// empty, so that a results file always has its header, even with no row.
    pub fn append(path: &Path) -> anyhow::Result<ResultsWriter> {
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("opening {}", path.display()))?;
        let mut len = file.metadata()?.len();
        if len == 0 {
            let header = header_line();
            file.write_all(&header)
                .with_context(|| format!("writing {}", path.display()))?;
            len = header.len() as u64;
        }
        Ok(ResultsWriter {
            file,
            len,
            csv: formatter(false),
        })
    }

    /// Writes one row in a single write; on failure the file is left as it was.
    pub fn write(&mut self, row: &Row) -> io::Result<()> {
        self.csv.serialize(row).map_err(io::Error::other)?;
        // The header, if any, is in this row's bytes: the next formatter goes without.
        let bytes = std::mem::replace(&mut self.csv, formatter(false))
            .into_inner()
            .map_err(|e| e.into_error())?;
        match self.file.write_all(&bytes) {
            Ok(()) => {
                self.len += bytes.len() as u64;
                Ok(())
            }
            Err(e) => {
                // Whatever part of the row got through would be a broken last line (and
                // the header, if it went with this row, must go with the next one).
                let _ = self.file.set_len(self.len);
                self.csv = formatter(self.len == 0);
                Err(e)
            }
        }
    }
}

/// The header line of a results CSV (the column names and a newline).
pub fn header_line() -> Vec<u8> {
    let mut w = formatter(true);
    let _ = w.serialize(Row::default());
    let bytes = w.into_inner().unwrap_or_default();
    let end = bytes
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |i| i + 1);
    bytes[..end].to_vec()
}

/// A CSV formatter into memory, starting with the header if `header`.
fn formatter(header: bool) -> csv::Writer<Vec<u8>> {
    csv::WriterBuilder::new()
        .has_headers(header)
        .from_writer(Vec::new())
}

/// Reads a results CSV, its rows cross-checked ([`cross_check_unsat`]). A last line cut
/// short by a kill is dropped when `repair` is set (and cut from the file, so appending
/// continues cleanly); any other bad row is an error naming `file:line`.
pub fn read_rows(path: &Path, repair: bool) -> anyhow::Result<Vec<Row>> {
    let mut rows = read_table(path, repair)?.0;
    cross_check_unsat(&mut rows);
    Ok(rows)
}

/// The rows of a results CSV as written (not cross-checked), and whether the file's header
/// names other columns than today's (a CSV of an older bench, to be rewritten with
/// [`write_table`] before rows are appended to it).
pub(crate) fn read_table(path: &Path, repair: bool) -> anyhow::Result<(Vec<Row>, bool)> {
    let name = path.display().to_string();
    let mut file = File::open(path).with_context(|| format!("reading {name}"))?;
    let whole = whole_lines(&mut file).with_context(|| format!("reading {name}"))?;
    let size = file
        .metadata()
        .with_context(|| format!("reading {name}"))?
        .len();
    if repair && whole < size {
        OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|f| f.set_len(whole))
            .with_context(|| format!("cutting the last, unfinished line of {name}"))?;
    }
    // Streamed from the file: memory grows with the rows, never with the lines (blank
    // lines, however many, cost nothing).
    file.seek(SeekFrom::Start(0))?;
    let mut rows = Vec::new();
    let current = each_row(io::BufReader::new(file.take(whole)), &name, |row| {
        rows.push(row);
        Ok(())
    })?;
    Ok((rows, whole > 0 && !current))
}

/// Writes `rows` as a whole results CSV at `path` (a CSV of an older bench given today's
/// columns, before a resumed run appends to it), through a temporary file and a rename.
pub(crate) fn write_table(path: &Path, rows: &[Row]) -> anyhow::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("writing in {}", dir.display()))?;
    tmp.write_all(&header_line())?;
    {
        let mut w = ResultsWriter::append(tmp.path())?;
        for r in rows {
            w.write(r)?;
        }
    }
    tmp.persist(path)
        .with_context(|| format!("replacing {}", path.display()))?;
    Ok(())
}

/// Holds every UNSAT answer against the verified models of the same instance (by content
/// hash): a contradicted UNSAT is WRONG. A model whose grids solve the puzzle refutes UNSAT
/// under every encoding (all encodings of a puzzle have the same solutions); a model that
/// only satisfies the clauses of an encoding that leaves the puzzle open refutes UNSAT
/// under that encoding alone. Applied wherever rows are read and wherever rows meet (a
/// run's rows in memory, a resumed run's old rows with its new ones, the files of a
/// report, the shards of a merge); it is never written back into a file. Returns how
/// many rows it marked.
pub fn cross_check_unsat<R: CrossChecked>(rows: &mut [R]) -> usize {
    // (instance, encoding or "" for every encoding) -> the first row that witnessed a
    // model; keys borrowed from the rows (a study of millions of rows copies none).
    let mut witnessed: rustc_hash::FxHashMap<(R::Name<'_>, Option<R::Name<'_>>), usize> =
        Default::default();
    for (i, r) in rows.iter().enumerate() {
        if r.status() != Status::Sat {
            continue;
        }
        let scope = match r.check() {
            Check::ModelOk => None,
            Check::EncodingOpen => Some(r.encoding_name()),
            _ => continue,
        };
        witnessed.entry((r.instance_name(), scope)).or_insert(i);
    }
    let mut contradicted: Vec<(usize, String)> = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        if r.status() != Status::Unsat || r.wrong() {
            continue;
        }
        let by = witnessed
            .get(&(r.instance_name(), None))
            .or_else(|| witnessed.get(&(r.instance_name(), Some(r.encoding_name()))));
        if let Some(&by) = by {
            contradicted.push((
                i,
                format!("{} ({})", rows[by].solver(), rows[by].encoding()),
            ));
        }
    }
    drop(witnessed);
    for (i, by) in &contradicted {
        rows[*i].mark_wrong(&format!("UNSAT contradicted by the verified model of {by}"));
    }
    contradicted.len()
}

/// What [`cross_check_unsat`] reads of a row and marks on it: the results row and the
/// report's compact row ([`crate::report::rows::Row`]) alike.
pub trait CrossChecked {
    /// A name as the rows hold it, for joins: equal texts, equal names.
    type Name<'a>: Copy + Eq + std::hash::Hash
    where
        Self: 'a;
    /// [`CrossChecked::instance_key`] as a name.
    fn instance_name(&self) -> Self::Name<'_>;
    /// [`CrossChecked::encoding`] as a name.
    fn encoding_name(&self) -> Self::Name<'_>;
    fn status(&self) -> Status;
    fn check(&self) -> Check;
    fn wrong(&self) -> bool;
    /// The instance's content hash, or its id where the CSV has none.
    fn instance_key(&self) -> &str;
    fn encoding(&self) -> &str;
    fn solver(&self) -> &str;
    /// Marks the answer WRONG (trusted at no level) with `why` after its error.
    fn mark_wrong(&mut self, why: &str);
}

impl CrossChecked for Row {
    type Name<'a> = &'a str;
    fn instance_name(&self) -> &str {
        self.instance_key()
    }
    fn encoding_name(&self) -> &str {
        &self.encoding
    }
    fn status(&self) -> Status {
        self.status
    }
    fn check(&self) -> Check {
        self.check
    }
    fn wrong(&self) -> bool {
        self.wrong
    }
    fn instance_key(&self) -> &str {
        Row::instance_key(self)
    }
    fn encoding(&self) -> &str {
        self.encoding.as_str()
    }
    fn solver(&self) -> &str {
        self.solver.as_str()
    }
    fn mark_wrong(&mut self, why: &str) {
        self.wrong = true;
        self.trust = Some(Trust::Unchecked);
        if !self.error.is_empty() {
            self.error.push_str("; ");
        }
        self.error.push_str(why);
    }
}

/// The length of `file` up to and including its last newline: a last line without one was
/// cut short by a kill.
pub(crate) fn whole_lines(file: &mut File) -> io::Result<u64> {
    let size = file.metadata()?.len();
    let mut end = size;
    let mut chunk = vec![0u8; 1 << 16];
    while end > 0 {
        let start = end.saturating_sub(chunk.len() as u64);
        let part = &mut chunk[..(end - start) as usize];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(part)?;
        if let Some(i) = part.iter().rposition(|&b| b == b'\n') {
            return Ok(start + i as u64 + 1);
        }
        end = start;
    }
    Ok(0)
}

/// Parses results CSV text; `name` names it in errors.
pub fn parse_rows(text: &str, name: &str) -> anyhow::Result<Vec<Row>> {
    let mut rows = Vec::new();
    each_row(text.as_bytes(), name, |row| {
        rows.push(row);
        Ok(())
    })?;
    Ok(rows)
}

/// Reads a results CSV from `reader` one row at a time, each held to the rules of
/// [`consistency`] and handed to `take`; `name` names it in errors. Returns whether its
/// header names today's columns (an empty file has none).
pub(crate) fn each_row(
    reader: impl io::Read,
    name: &str,
    mut take: impl FnMut(Row) -> anyhow::Result<()>,
) -> anyhow::Result<bool> {
    let mut reader = csv::ReaderBuilder::new().from_reader(reader);
    // A bench killed before its first row leaves an empty file: nothing to resume from.
    let headers = match reader.headers() {
        Ok(h) if h.iter().all(|f| f.trim().is_empty()) => return Ok(false),
        Ok(h) => h.clone(),
        Err(e) => bail!("{name}:1: unreadable header ({e})"),
    };
    for column in [
        "corpus",
        "instance",
        "solver",
        "status",
        "wall_s",
        "timeout_s",
    ] {
        if !headers.iter().any(|h| h == column) {
            bail!("{name}:1: not a results CSV: no `{column}` column");
        }
    }
    let today = csv::Reader::from_reader(&header_line()[..])
        .headers()?
        .clone();
    // Today's columns in today's order are read by position, without matching each
    // field's name on every row; other headers (older CSVs) by name.
    let by_name = (headers != today).then_some(&headers);
    let mut record = csv::StringRecord::new();
    loop {
        match reader.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => {
                let line = e.position().map_or(0, |p| p.line());
                bail!("{name}:{line}: {e}");
            }
        }
        let line = record.position().map_or(0, |p| p.line());
        if record == headers {
            bail!(
                "{name}:{line}: a second header: two bench processes wrote this file at once \
                 (a bench from before the output folder was locked); its rows cannot be trusted"
            );
        }
        let fast = if by_name.is_none() {
            today::row(&record)
        } else {
            None
        };
        let row: Row = match fast {
            Some(row) => row,
            None => record
                .deserialize(by_name)
                .map_err(|e| anyhow::anyhow!("{name}:{line}: {e}"))?,
        };
        consistency::check_row(&row).map_err(|e| anyhow::anyhow!("{name}:{line}: {e}"))?;
        take(row)?;
    }
    Ok(by_name.is_none())
}

#[cfg(test)]
mod tests;
