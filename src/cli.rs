//! The command line: clap definitions only. Each subcommand's arguments become a typed
//! options value that `commands` validates and runs.

use std::path::PathBuf;

use clap::builder::PossibleValue;
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::encode::{Amo, Encoding};
use crate::generate::Variant;
use crate::puzzle::Kind;
use crate::puzzle::format::Format;
use crate::results::TimeBasis;
use crate::solver::work::Counter;

pub mod ranges;

/// Option values that name things come from the type's own list (`ALL`) and names
/// (`as_str`): `--help` lists them, and a new one is added in one place.
macro_rules! value_enum {
    ($($t:ty),*) => {$(
        impl ValueEnum for $t {
            fn value_variants<'a>() -> &'a [Self] {
                &<$t>::ALL
            }
            fn to_possible_value(&self) -> Option<PossibleValue> {
                Some(PossibleValue::new(self.as_str()))
            }
        }
    )*};
}
value_enum!(Encoding, Amo, Kind, Format, Variant, TimeBasis, Counter);

/// Compare SAT solvers and CNF encodings on sudoku-family puzzles; every answer checked.
#[derive(Debug, Parser)]
#[command(name = "bench", version, about, long_about = None)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Encode puzzles to DIMACS CNF, one file per puzzle.
    #[command(after_help = "Examples:\n  \
        bench encode corpora/easy.txt -o out/            one .cnf per puzzle in out/\n  \
        bench encode one.txt --encoding minimal > p.cnf  a single puzzle to stdout\n  \
        bench encode corpora/25x25.txt --amo sequential -o out/\n  \
        bench encode corpora/easy.txt --kind latin -o out/   9×9 grids as Latin squares")]
    Encode(EncodeArgs),
    /// Check a solver's answer against a CNF (and the puzzle, for files bench wrote).
    #[command(after_help = "Examples:\n  \
        bench solve p.cnf > answer.txt; bench check p.cnf answer.txt   competition output (s/v lines)\n  \
        minisat p.cnf res; bench check p.cnf res   minisat's result file\n  \
        zchaff p.cnf > out; bench check p.cnf out  zchaff's report\n\n\
        Exit status: 0 model-ok (or a claim of UNSAT/UNKNOWN, which a model cannot check), \
        1 a wrong model, 2 unreadable input.")]
    Check(CheckArgs),
    /// Solve one CNF (SAT-competition output) or every puzzle of a puzzle file.
    #[command(after_help = "Examples:\n  \
        bench solve p.cnf                      native solver, competition output, exit 10/20/0\n  \
        bench solve p.cnf --solver minisat     the same output from minisat\n  \
        bench solve p.cnf --timeout 5 --proof p.drat\n  \
        bench solve corpora/easy.txt           prints each solved grid under `# easy.txt:LINE`\n\n\
        Exit status for a CNF: 10 SAT, 20 UNSAT, 0 unknown (timeout, memout, error), 1 a wrong \
        model (never printed as SAT). For a puzzle file: 0 when every puzzle was solved, 1 when \
        any was not (no solution, unsolved within the limits, malformed, or a wrong model: each \
        gets a `#` line saying which). 2 unreadable input or a bad option; 141 when the reader \
        closed the pipe (`bench solve … | head`).")]
    Solve(SolveArgs),
    /// The benchmark: every instance × encoding × solver, in parallel, every answer checked.
    #[command(after_help = "Examples:\n  \
        bench run corpora/hard.txt                                 native solver, extended encoding\n  \
        bench run corpora/hard.txt --solvers native,kissat,minisat --timeout 10\n  \
        bench run corpora/easy.txt --encodings minimal,extended --jobs 1 --repeat 3\n  \
        bench run corpora/cnf/ --solvers native,cadical --proofs   DIMACS folder, UNSAT proofs checked\n  \
        bench run corpora/multisolution.txt --count 2              is each solution unique?\n  \
        bench run corpora/multisolution.txt --count all --solutions   count every puzzle's solutions, keep the grids\n  \
        bench run --resume reports/hard-20261121-140000            finish an interrupted run\n  \
        bench run x.txt --solver mine='/opt/mine {cnf} -q' --solvers native,mine\n\n\
        Writes results.csv (one row per run, as each ends), run.json and summary.md into the \
        output folder. Exit status: 0, or 1 if any answer was WRONG, 130 after Ctrl-C.\n\n\
        What a corpus records is used: a line `puzzle,solution` or `puzzle:count:solution` \
        (Kaggle, tdoku) gives a solution and a count. A solver that claims UNSAT, or fewer \
        solutions than recorded, is WRONG (the recorded solution is checked against the \
        rules and givens when read, so it refutes the claim). A verified model that differs \
        from the record proves the record wrong, not the solver: it is noted, not WRONG. \
        Givens that break a rule make a puzzle without solution: its formula is UNSAT.")]
    Run(RunArgs),
    /// Charts and scores (SVG, Markdown, JSON, HTML) from one or more results CSVs.
    #[command(after_help = "Examples:\n  \
        bench report reports/hard-20261121-140000/results.csv\n  \
        bench report a/results.csv b/results.csv --out merged/ --baseline minisat\n  \
        bench report results.csv --timeout 100     PAR-2 with an explicit timeout\n  \
        bench report --compare old/results.csv new/results.csv --fail-on-regression 2\n  \
        bench report results.csv --compare native native:restart=luby\n\n\
        --compare OLD NEW lists per instance what changed (WRONG answers and regressions \
        first), the speed-ups, and writes compare.md, compare.json, compare.html and \
        compare-speedups.svg. OLD and NEW are two results CSVs, or, when a results CSV is \
        given, two of its solvers. Rows of several CSVs join by instance content (the hash \
        column): an UNSAT in one that a verified model in another contradicts is WRONG \
        (listed first on stderr). Exit status: 0; 1 under --fail-on-regression when NEW \
        has a regression (see docs/compare.md).")]
    Report(ReportArgs),
    /// Shrink a WRONG answer (or an ERROR) to a small formula that still fails, as bench judges it.
    #[command(after_help = "Examples:\n  \
        bench shrink reports/run/results.csv --row 7           that row's formula and solver\n  \
        bench shrink reports/run/results.csv --instance f.cnf --solver kissat\n  \
        bench shrink --cnf f.cnf --solver liar='/opt/liar {cnf}' --timeout 10\n\n\
        Drops clauses in halving chunks, then literals, then renumbers the variables, keeping \
        only what still fails the same way: a model that breaks a clause, an UNSAT refuted by \
        native's checked model of the smaller formula, an ERROR with the same exit code. A \
        row's instance, solver and limits are found as its run found them (run.json beside \
        the CSV). Writes the small DIMACS file (default: shrunk-row-N.cnf beside the CSV, \
        F.shrunk.cnf beside a --cnf) and prints the `bench run` that shows the failure on it.")]
    Shrink(ShrinkArgs),
    /// Generate puzzles with exactly one solution (locally minimal unless --givens).
    #[command(after_help = "Examples:\n  \
        bench gen --seed 7 --count 10                       ten minimal 9×9 sudokus\n  \
        bench gen --box 4 --count 5 --format grid           16×16, as grids\n  \
        bench gen --kind latin --side 10 --count 3\n  \
        bench gen --kind pair --box 2 --count 2             sudoku pairs in the seed's CSV format\n  \
        bench gen --count 20 --min-rating 50 -o hard.txt    only hard ones\n  \
        bench gen --box 5 --givens 300 --count 4            25×25 with 300 givens\n\n\
        Each puzzle carries its rating (native's mean conflicts and decisions on the extended \
        encoding over a few shuffles): an extra field in the line formats, a # comment line \
        before a grid or CSV block.")]
    Gen(GenArgs),
    /// List the solvers bench knows: found or not, where, which version.
    #[command(after_help = "Examples:\n  \
        bench solvers\n  \
        bench solvers --solver-path zchaff=/opt/zchaff/zchaff")]
    Solvers(SolverLookupArgs),
    /// Plan a study as a SLURM array job: the plan (run.json) and bench.sbatch, one task a shard.
    #[command(after_help = "Examples:\n  \
        bench slurm corpora/ --solvers native,minisat,kissat --timeout 5000 --shards 200 --out study/\n  \
        bench slurm corpora/hard.txt --shards 3 --out study/ --partition short --max-parallel 50 --submit\n\n\
        Writes study/run.json (the plan: the `bench run` every task runs, with the solver paths \
        found here, and the plan's fingerprint) and study/bench.sbatch (an array job, one task per \
        shard, logs in study/logs/). Edit the script for site rules and `sbatch study/bench.sbatch`, \
        or pass --submit. Then `bench status study/` and `bench merge study/`.")]
    Slurm(SlurmArgs),
    /// Runs done and to do in a study, per shard and in total.
    #[command(after_help = "Examples:\n  \
        bench status study/")]
    Status(StatusArgs),
    /// Join a study's shards into one results.csv and draw the report, as from one machine.
    #[command(after_help = "Examples:\n  \
        bench merge study/                   every shard must be complete\n  \
        bench merge study/ --partial         merge what there is; the report says what is missing\n\n\
        Refuses shards of another plan (a different corpus or options) and runs recorded twice; \
        lists every missing run by shard with the command that completes it (also written to \
        study/missing.csv). Exit status: 0 merged, 1 runs missing (nothing written without \
        --partial) or a wrong answer, 2 refused.")]
    Merge(MergeArgs),
}

/// Where solvers are found, for every command that runs them.
#[derive(Debug, Args, Clone, Default)]
pub struct SolverLookupArgs {
    /// Known solvers at explicit paths.
    #[command(flatten)]
    pub paths: SolverPathArgs,
    /// Any solver that speaks the competition format: `NAME='/path/solver {cnf} --flags'`
    /// (repeatable).
    #[arg(long = "solver", value_name = "NAME=CMD")]
    pub solver_cmd: Vec<String>,
    /// Any dedicated puzzle solver: `NAME='/path/solver --flags'`, a program that reads
    /// puzzle lines on stdin and answers a line each (repeatable; see the README);
    /// `bench solve --serve` speaks it with gridsolve.
    #[arg(long = "puzzle-solver", value_name = "NAME=CMD")]
    pub puzzle_solver_cmd: Vec<String>,
}

/// How puzzle files are read, for every command that reads them.
#[derive(Debug, Args, Clone, Default)]
pub struct PuzzleInputArgs {
    /// Read the puzzles as this kind (default: from the shape).
    #[arg(long)]
    pub kind: Option<Kind>,
    /// Input format (default: detected).
    #[arg(long)]
    pub format: Option<Format>,
    /// The symbols of 1, 2, 3, … when a corpus does not use bench's `1`-`9`, `A`-`Z`, `a`-`z`
    /// (`ABCDEFGHIJKLMNOP` for 16×16 written with letters, `0123456789ABCDEF` for hex
    /// digits; `letters` for `A`-`Z` then `a`-`z`). `.` is a blank, and `0` unless used.
    #[arg(long, value_name = "SYMBOLS")]
    pub alphabet: Option<String>,
}

/// The limits of each solve, for every command that solves (`bench run`, `bench solve`,
/// `bench shrink`): one typed `run::limits::RunLimits` once validated, with its convention
/// for a time limit not given.
#[derive(Debug, Args, Clone, Default)]
pub struct LimitArgs {
    /// Wall-clock limit of each solve in seconds (0.001 to 31536000, a year). Default:
    /// 2 × --cpu-limit + 10 with --cpu-limit alone; else 100 (`bench run`), none (`bench
    /// solve`), the row's (`bench shrink` of a row).
    #[arg(long, value_parser = ranges::timeout)]
    pub timeout: Option<f64>,
    /// CPU-time limit of each solve in seconds (0.001 to 31536000): user + system time of
    /// the solver's whole process tree, or an in-process solver's thread. `bench run`
    /// scores runs on CPU time against it (default: none, the wall limit alone; `bench
    /// shrink`: the row's).
    #[arg(long = "cpu-limit", value_name = "SECS", value_parser = ranges::timeout)]
    pub cpu_limit: Option<f64>,
    /// Memory limit in MiB (4 to 16777216): an external solver's whole run (all its
    /// processes); an in-process solver's formula and clauses; reading a DIMACS file.
    #[arg(long = "mem-limit", value_name = "MB", value_parser = ranges::mem_limit)]
    pub mem_limit: Option<u64>,
}

impl LimitArgs {
    /// The limits given, a time limit not given following `RunLimits::of`'s convention
    /// (`bench run`'s: a CPU limit alone brings a wall limit of 2 × C + 10 s; neither,
    /// 100 s of wall time).
    pub fn run_limits(&self) -> Result<crate::run::limits::RunLimits, String> {
        crate::run::limits::RunLimits::of(self.timeout, self.cpu_limit, self.mem_limit)
    }

    /// True when a time limit (wall or CPU) is given.
    pub fn timed(&self) -> bool {
        self.timeout.is_some() || self.cpu_limit.is_some()
    }
}

/// A known solver at an explicit path, for commands that run one solver.
#[derive(Debug, Args, Clone, Default)]
pub struct SolverPathArgs {
    /// A known solver at an explicit path: `NAME=PATH` (repeatable).
    #[arg(long = "solver-path", value_name = "NAME=PATH")]
    pub solver_path: Vec<String>,
}

/// Instance families, for the commands that write or report results.
#[derive(Debug, Args, Clone, Default)]
pub struct FamiliesArgs {
    /// Instance families from a CSV of `hash,family` (as GBD exports them) or
    /// `path,family`, over the default (the corpus file for puzzles, the first folder level
    /// for DIMACS files): `bench run` writes them in the `family` column, the report's
    /// per-family table and `--by family` use them. A line that names no instance is
    /// warned of.
    #[arg(long, value_name = "FILE")]
    pub families: Option<PathBuf>,
}

/// `bench encode`.
#[derive(Debug, Args)]
pub struct EncodeArgs {
    /// Puzzle files (any format of docs/design.md, "Puzzles").
    #[arg(required = true)]
    pub puzzles: Vec<PathBuf>,
    /// The encoding.
    #[arg(long, default_value = "extended")]
    pub encoding: Encoding,
    /// At-most-one sub-encoding.
    #[arg(long, default_value = "pairwise")]
    pub amo: Amo,
    /// How puzzle files are read.
    #[command(flatten)]
    pub input: PuzzleInputArgs,
    /// Write one FILE-LINE.cnf per puzzle into this folder (default: stdout, one puzzle).
    #[arg(short = 'o', long = "out", value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// `bench check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The CNF the answer is for.
    pub cnf: PathBuf,
    /// The solver's output: competition format, minisat's result file or zchaff's report.
    pub answer: PathBuf,
}

/// `bench solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// A DIMACS file (.cnf, .cnf.gz, .cnf.xz) or a puzzle file.
    #[arg(required_unless_present = "serve")]
    pub file: Option<PathBuf>,
    /// Serve the puzzle line protocol with gridsolve: read puzzles, one a line, on stdin,
    /// and answer each with a line (its solution, or `none`) at once; `--kind`, `--format`,
    /// `--timeout` and `--cpu-limit` (per puzzle) apply. What `--puzzle-solver` of `bench
    /// run` speaks.
    #[arg(long, conflicts_with_all = ["file", "solver", "proof"])]
    pub serve: bool,
    /// The solver: for puzzles `gridsolve` by default (bench's dedicated puzzle solver, no
    /// SAT encoding; a shape it does not take goes to native), for a CNF `native`; or
    /// native, dpll, an external one (see `bench solvers`), or
    /// `NAME='/path/solver {cnf} --flags'` for any solver speaking the competition format.
    #[arg(long)]
    pub solver: Option<String>,
    /// The limits of the solve (of each puzzle's).
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Write a DRAT proof of UNSAT here (native; binary DRAT with --binary-proof).
    #[arg(long)]
    pub proof: Option<PathBuf>,
    /// Write the proof in binary DRAT.
    #[arg(long = "binary-proof")]
    pub binary_proof: bool,
    /// Puzzle files: the encoding to solve with.
    #[arg(long, default_value = "extended")]
    pub encoding: Encoding,
    /// Puzzle files: the at-most-one sub-encoding.
    #[arg(long, default_value = "pairwise")]
    pub amo: Amo,
    /// How puzzle files are read.
    #[command(flatten)]
    pub input: PuzzleInputArgs,
    /// Known solvers at explicit paths.
    #[command(flatten)]
    pub paths: SolverPathArgs,
}

/// `bench shrink`.
#[derive(Debug, Args)]
pub struct ShrinkArgs {
    /// A results CSV of `bench run`: its row named by --row, or by --instance (and
    /// --solver), or else its first WRONG or ERROR row.
    #[arg(conflicts_with = "cnf", required_unless_present = "cnf")]
    pub results: Option<PathBuf>,
    /// The row to shrink: N counts the rows after the header from 1.
    #[arg(long, requires = "results", conflicts_with = "instance")]
    pub row: Option<usize>,
    /// The instance id of the row to shrink (its first WRONG or ERROR row).
    #[arg(long, requires = "results")]
    pub instance: Option<String>,
    /// A DIMACS file to shrink, with --solver.
    #[arg(long, requires = "solver")]
    pub cnf: Option<PathBuf>,
    /// The solver: a name (native, minisat, … see `bench solvers`), or
    /// `NAME='/path/solver {cnf} --flags'` for any solver speaking the competition format.
    /// With a results CSV it picks the row's solver; the run's own is found from run.json.
    #[arg(long)]
    pub solver: Option<String>,
    /// The limits of each solve (default: the row's run's; with --cnf, `bench run`'s).
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Where to write the small formula.
    #[arg(long, short = 'o')]
    pub out: Option<PathBuf>,
    /// Ask the solver for a DRAT proof of each UNSAT and check it (rate, then cake_lpr): a
    /// rejected proof is the failure to keep (a row whose proof failed implies it).
    #[arg(long)]
    pub proofs: bool,
    /// Known solvers at explicit paths.
    #[command(flatten)]
    pub paths: SolverPathArgs,
}

/// `bench run`.
#[derive(Debug, Args, Clone)]
pub struct RunArgs {
    /// Puzzle files, DIMACS files (.cnf, .cnf.gz, .cnf.xz) and folders of them.
    pub corpora: Vec<PathBuf>,
    /// Comma-separated solver names.
    #[arg(long, default_value = "native", long_help = solvers_long_help(),
          value_parser = crate::solver::config::parse_solver_list)]
    pub solvers: crate::solver::config::SolverList,
    /// Comma-separated encodings for puzzles.
    #[arg(long, default_value = "extended", value_delimiter = ',')]
    pub encodings: Vec<Encoding>,
    /// At-most-one sub-encoding.
    #[arg(long, default_value = "pairwise")]
    pub amo: Amo,
    /// The limits of each run.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Parallel runs (default: the number of cores; 1 for the most faithful times): 1 to 4
    /// times the cores, with a warning past the cores.
    #[arg(long, value_parser = ranges::jobs)]
    pub jobs: Option<usize>,
    /// The logical CPUs to run on, one per job (`0,2,4-7`; default: one physical core per
    /// job when --jobs is at most the physical cores, else no pinning).
    #[arg(long, value_name = "LIST", value_parser = crate::machine::cpu_list)]
    pub cores: Option<crate::machine::CpuList>,
    /// Let --cores put two runs on hyper-thread siblings of one physical core (they slow
    /// each other down).
    #[arg(long = "allow-siblings", requires = "cores")]
    pub allow_siblings: bool,
    /// Repetitions of every run (1 to 10000).
    #[arg(long, default_value_t = 1, value_parser = ranges::repeat)]
    pub repeat: u32,
    /// Output folder (default: a new folder under reports/ named after the corpus and time).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Resume the run in DIR: run only what its results.csv lacks (the corpora and options
    /// come from its run.json when none are given).
    #[arg(long, value_name = "DIR")]
    pub resume: Option<PathBuf>,
    /// Have native, kissat, cadical and glucose write DRAT proofs; `rate` checks each
    /// UNSAT's and writes it as LRAT, which cake_lpr (a verified checker) checks.
    #[arg(long)]
    pub proofs: bool,
    /// The proof checkers' time limit in seconds, `rate` and cake_lpr together (0.001 to
    /// 31536000; default: 9 times --timeout). A check past it leaves the row
    /// `proof-timeout`: neither wrong nor certified.
    #[arg(long = "checker-timeout", value_name = "SECS", value_parser = ranges::timeout)]
    pub checker_timeout: Option<f64>,
    /// Seed for randomised solvers.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Count the solutions of each puzzle, up to N (or `all`, up to 10000): after a SAT
    /// answer, block the solution and solve again, every solution checked and distinct.
    /// 2 asks "is it unique?". The `solutions` column holds the count (N: at least N),
    /// `count_wall_s` and `count_cpu_s` the time of every solve of it (`wall_s` and `cpu_s`
    /// stay the first solve's; each solve has the full timeout). N is 1 to 1000000.
    #[arg(long, default_value = "1", value_name = "N|all", value_parser = parse_count)]
    pub count: u32,
    /// A malformed puzzle or DIMACS file stops the run instead of being skipped (either
    /// way it is reported as file:line).
    #[arg(long)]
    pub strict: bool,
    /// Keep the solved grids: one file per corpus, solver and encoding under solutions/ of
    /// the output folder, in the corpus's own format (a comment names each puzzle); with
    /// --count, every solution the count found.
    #[arg(long)]
    pub solutions: bool,
    /// Give every puzzle a fresh formula, in-process solvers too (mode `fresh`). By
    /// default in-process solvers (native, minisat-lib, glucose-lib, cadical-lib) load each
    /// encoding's rules once per worker and take a puzzle's givens as assumptions (mode
    /// `session`, tdoku's method); the `pruned` encoding folds the givens into its clauses
    /// and is always one formula per puzzle, so with `pruned` among several encodings every
    /// encoding runs fresh (the encodings compare within one mode).
    #[arg(long = "no-incremental")]
    pub no_incremental: bool,
    /// How puzzle files are read.
    #[command(flatten)]
    pub input: PuzzleInputArgs,
    /// Where solvers are found (add a `--solver` NAME to --solvers to run it).
    #[command(flatten)]
    pub lookup: SolverLookupArgs,
    /// Instance families for the `family` column.
    #[command(flatten)]
    pub families: FamiliesArgs,
    /// Run only the K-th of N parts of the plan (K from 0), into OUT/shards/K-of-N.
    #[arg(long, value_name = "K/N", value_parser = clap::value_parser!(crate::run::shard::Shard))]
    pub shard: Option<crate::run::shard::Shard>,
    /// Run one shard of the study in DIR with its plan (DIR/run.json); needs --shard.
    /// Resumes the shard if it has started.
    #[arg(long, value_name = "DIR", requires = "shard", conflicts_with_all = ["resume", "out"])]
    pub study: Option<PathBuf>,
}

/// `bench slurm`.
#[derive(Debug, Args)]
pub struct SlurmArgs {
    /// The study's options, as for `bench run` (--out names the study folder).
    #[command(flatten)]
    pub run: RunArgs,
    /// How many shards (array tasks), 1 to 1000000.
    #[arg(long, value_parser = ranges::shards)]
    pub shards: usize,
    /// SLURM partition (letters, digits, `_`, `-`, `.`; a comma separates several).
    #[arg(long, value_parser = crate::study::sbatch::SlurmName::parse)]
    pub partition: Option<crate::study::sbatch::SlurmName>,
    /// SLURM account (letters, digits, `_`, `-`, `.`).
    #[arg(long, value_parser = crate::study::sbatch::SlurmName::parse)]
    pub account: Option<crate::study::sbatch::SlurmName>,
    /// At most this many tasks at once (`--array=0-(N-1)%MAX`), 1 to 1000000.
    #[arg(long = "max-parallel", value_parser = ranges::shards)]
    pub max_parallel: Option<usize>,
    /// Submit with sbatch and print the job id.
    #[arg(long)]
    pub submit: bool,
}

/// `bench status`.
#[derive(Debug, Args)]
pub struct StatusArgs {
    /// The study folder.
    pub study: PathBuf,
}

/// `bench merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Study folders of one plan (usually one).
    #[arg(required = true)]
    pub studies: Vec<PathBuf>,
    /// Merge even if runs are missing; the report says so.
    #[arg(long)]
    pub partial: bool,
    /// Output folder (default: the first study folder).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Speed-ups and scatter plots against this solver. Default: speed-ups against the
    /// first solver that ran as a child process when in-process solvers are in the results
    /// too (they pay no process start), else against the first solver; scatter plots of
    /// every pair.
    #[arg(long)]
    pub baseline: Option<String>,
    /// Write results.csv only; draw the report later with `bench report` (for studies too
    /// big for one report).
    #[arg(long = "no-report")]
    pub no_report: bool,
}

/// `bench report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Results CSVs written by `bench run` (several merge by instance id), and SAT
    /// Competition results files (`scores.csv`, told by their header), joined by GBD hash.
    #[arg(required_unless_present = "compare")]
    pub results: Vec<PathBuf>,
    /// Write the rows in another format instead of the report: `satcomp FILE`, the SAT
    /// Competition's `scores.csv` (solverid,instanceid,runtime,status,score,vresult).
    #[arg(long, num_args = 2, value_names = ["FORMAT", "FILE"], conflicts_with = "compare")]
    pub export: Option<Vec<String>>,
    /// Compare two runs: OLD and NEW results CSVs, or two solvers of the results CSV given.
    #[arg(long, num_args = 2, value_names = ["OLD", "NEW"])]
    pub compare: Option<Vec<String>>,
    /// With --compare: exit 1 when NEW regressed (a solved instance unsolved, an answer
    /// changed, a WRONG answer) or, given FACTOR, got more than FACTOR times slower.
    #[arg(long, value_name = "FACTOR", num_args = 0..=1, requires = "compare",
          value_parser = parse_factor)]
    pub fail_on_regression: Option<Option<f64>>,
    /// Break the report down further: `family` draws a cactus plot per instance family.
    #[arg(long, value_name = "WHAT")]
    pub by: Option<ReportBy>,
    /// Instance families for the per-family table and `--by family`.
    #[command(flatten)]
    pub families: FamiliesArgs,
    /// Output folder (default: the folder of the first CSV).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Speed-ups and scatter plots against this solver. Default: speed-ups against the
    /// first solver that ran as a child process when in-process solvers are in the results
    /// too (they pay no process start), else against the first solver; scatter plots of
    /// every pair.
    #[arg(long)]
    pub baseline: Option<String>,
    /// The timeout for PAR-2 and the charts, seconds (default: from the CSV; 0.001 to
    /// 31536000).
    #[arg(long, value_parser = ranges::timeout)]
    pub timeout: Option<f64>,
    /// Score and draw CPU time (user + system, what SAT competitions use for sequential
    /// solvers) or wall time (for parallel solvers). Every chart says which.
    #[arg(long, default_value = "cpu")]
    pub time: TimeBasis,
    /// Rank the configurations by a work counter instead of time (the solvers' own count,
    /// the same on any machine): most solved first, then the smallest median of the
    /// counter over the instances every ranked configuration solved. With --compare:
    /// regressions are still told by time.
    #[arg(long, value_name = "COUNTER")]
    pub score: Option<Counter>,
}

/// `bench gen`.
#[derive(Debug, Args)]
pub struct GenArgs {
    /// The kind of puzzle.
    #[arg(long, default_value = "sudoku")]
    pub kind: Kind,
    /// Box size k of a sudoku or pair (side k²), 2 to 31.
    #[arg(long = "box", value_name = "K", conflicts_with = "side", value_parser = ranges::box_size)]
    pub box_size: Option<usize>,
    /// Side of a Latin square (or k² of a sudoku), 2 to 1000.
    #[arg(long, value_parser = ranges::side)]
    pub side: Option<usize>,
    /// How many puzzles (1 to 10000000).
    #[arg(long, default_value_t = 1, value_parser = ranges::gen_count)]
    pub count: usize,
    /// Seed: the same seed gives the same puzzles on any machine.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Dig until no given can be removed (the default).
    #[arg(long, conflicts_with = "givens")]
    pub minimal: bool,
    /// Stop digging at this many givens (over both boards of a pair; 0 to 2000000).
    #[arg(long, value_parser = ranges::givens)]
    pub givens: Option<usize>,
    /// Keep only puzzles rated at least this (mean conflicts of native; a finite number ≥ 0).
    #[arg(long = "min-rating", value_parser = ranges::rating)]
    pub min_rating: Option<f64>,
    /// Generate a pool of this many and keep the --count hardest (by rating; 1 to 10000000).
    #[arg(long, value_parser = ranges::gen_count)]
    pub pool: Option<usize>,
    /// Spoil each (minimal) puzzle on purpose: `unsolvable` adds a given that contradicts
    /// the unique solution without breaking a rule; `ambiguous` removes one given, so the
    /// puzzle has several solutions. For testing UNSAT answers and `--count 2`.
    #[arg(long)]
    pub variant: Option<Variant>,
    /// Shuffled copies the rating averages over (1 to 1000).
    #[arg(long, default_value_t = 3, value_parser = ranges::shuffles)]
    pub shuffles: usize,
    /// Output format (default: csv for pairs, else line).
    #[arg(long)]
    pub format: Option<Format>,
    /// Write to FILE (default: stdout).
    #[arg(short = 'o', long = "out", value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// The largest count `--count all` asks for.
pub use crate::run::ranges::COUNT_ALL;

/// `--count`: a positive number, or `all` ([`COUNT_ALL`]).
/// What `bench report --by` breaks the report down by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ReportBy {
    /// Instance families: a cactus plot per family.
    Family,
}

fn parse_factor(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(f) if f.is_finite() && f >= 1.0 => Ok(f),
        _ => Err(format!(
            "`{s}` is no slowdown factor: a number of at least 1, like 2 or 1.5"
        )),
    }
}

fn parse_count(s: &str) -> Result<u32, String> {
    if s == "all" {
        return Ok(COUNT_ALL);
    }
    let n = s.parse::<u32>().map_err(|_| {
        format!(
            "`{s}` is not a count: give a number from 1 to {}, or `all` (up to {COUNT_ALL})",
            ranges::MAX_COUNT
        )
    })?;
    crate::run::ranges::count(n)
}

/// `--solvers --help`: the solver list's syntax and native's settings, from the engine's
/// options table (`cdcl_engine::options::SETTINGS`).
fn solvers_long_help() -> String {
    let defaults = cdcl_engine::Options::default();
    let mut help = String::from(
        "Comma-separated solver names (`bench solvers` lists them). `NAME:key=value,...` is \
         a configuration, a solver of its own in every table (cadical-lib takes `config` \
         and its integer options). native's settings, with their default:\n",
    );
    for s in cdcl_engine::options::SETTINGS {
        help.push_str(&format!(
            "  {:<19} {}; default {}\n",
            s.key,
            s.allowed(),
            s.value_in(&defaults)
        ));
    }
    help
}
