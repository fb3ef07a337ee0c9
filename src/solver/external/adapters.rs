//! What bench knows about each external solver, in one table: how to invoke it quietly,
//! where its answer comes back and in which shape, what its exit codes mean, how it
//! reports running out of memory, how to ask its version, and its seed and proof flags. Every fact here was checked by running the binary on Debian bookworm (see
//! docs/design.md, "External solvers as they behave"); the rest of the module reads this table and never asks
//! "which solver is this?".
//!
//! Each solver is asked for its statistics (its default verbosity, or the flag it needs),
//! so that its work counters (conflicts, decisions, propagations) are read from stdout as
//! it streams (`output::stats`): the model still arrives as before, and the statistics
//! add a few kilobytes of `c` lines.
//!
//! Argument templates use placeholders: `{cnf}` the input file, `{res}` a result file
//! (minisat), `{proof}` the proof file, `{seed}` the seed.

use crate::solver::output::{OutputFormat, StatsSyntax};

/// How a solver writes a DRAT proof.
#[derive(Clone, Copy, Debug)]
pub struct ProofFlags {
    /// Arguments that ask for a proof into `{proof}`.
    pub args: &'static [&'static str],
    /// Extra arguments for binary DRAT; `None` if the solver cannot write it.
    pub binary: Option<&'static [&'static str]>,
    /// Extra arguments for text DRAT; `None` if the solver cannot write it.
    pub text: Option<&'static [&'static str]>,
    /// Its proofs delete unit clauses that are reasons: check them as drat-trim does.
    pub skip_unit_deletions: bool,
}

/// How to ask a binary for its version: run it with `args` and take the word after the
/// first occurrence of `marker` in its output (stdout and stderr), or the first word of
/// the output when `marker` is empty.
#[derive(Clone, Copy, Debug)]
pub struct VersionProbe {
    /// The arguments.
    pub args: &'static [&'static str],
    /// The text just before the version.
    pub marker: &'static str,
}

/// One external solver (or tool), as bench invokes it.
#[derive(Clone, Copy, Debug)]
pub struct Adapter {
    /// The name on bench's command line and in results.
    pub name: &'static str,
    /// Executable file names to look for, in order.
    pub binaries: &'static [&'static str],
    /// Arguments for a quiet run (templates).
    pub args: &'static [&'static str],
    /// Where the answer comes back, and in which shape.
    pub answer: OutputFormat,
    /// Exit code that goes with SAT.
    pub exit_sat: i32,
    /// Exit code that goes with UNSAT.
    pub exit_unsat: i32,
    /// Exit codes that go with an UNKNOWN / INDETERMINATE answer.
    pub exit_unknown: &'static [i32],
    /// Text in its stdout or stderr that, in a run without a SAT/UNSAT answer, means it
    /// ran out of memory (checked by running each with a tiny RLIMIT_AS).
    pub memout: &'static [&'static str],
    /// How to ask its version (`None`: it has no version flag).
    pub version: Option<VersionProbe>,
    /// How its statistics print on stdout, where `args` ask for them (`None`: bench reads
    /// no work counters from it).
    pub stats: Option<StatsSyntax>,
    /// Its seed flag (templates with `{seed}`), passed when the seed is not 0.
    pub seed: Option<&'static [&'static str]>,
    /// How it writes a DRAT proof (`None`: it cannot).
    pub proof: Option<ProofFlags>,
}

/// The `s`/`v` exit-code convention shared by the competition-format solvers.
const COMPETITION_UNKNOWN: &[i32] = &[0];

/// Every external solver bench knows.
pub static ADAPTERS: &[Adapter] = &[
    Adapter {
        name: "minisat",
        binaries: &["minisat"],
        // The model only ever goes to the result file; stdout carries statistics
        // (`-verb=1`, its default: a progress table, then `conflicts : N (… /sec)`).
        args: &["-verb=1", "{cnf}", "{res}"],
        answer: OutputFormat::Minisat,
        exit_sat: 10,
        exit_unsat: 20,
        exit_unknown: &[0],
        // A failed allocation: `INDETERMINATE` on stdout, exit 0, result file untouched.
        memout: &["INDETERMINATE"],
        // minisat 2.2 has no version flag.
        version: None,
        stats: Some(StatsSyntax::NameColonValue),
        seed: Some(&["-rnd-seed={seed}"]),
        proof: None,
    },
    Adapter {
        name: "kissat",
        binaries: &["kissat"],
        // Not `-q`, which silences its statistics (`c conflicts: N …`) too.
        args: &["{cnf}"],
        answer: OutputFormat::Competition,
        exit_sat: 10,
        exit_unsat: 20,
        exit_unknown: COMPETITION_UNKNOWN,
        // `kissat: fatal error: out-of-memory allocating …`, then abort (exit 134).
        memout: &["out-of-memory"],
        version: Some(VersionProbe {
            args: &["--version"],
            marker: "",
        }),
        stats: Some(StatsSyntax::NameColonValue),
        seed: Some(&["--seed={seed}"]),
        proof: Some(ProofFlags {
            args: &["{proof}"],
            binary: Some(&[]),
            text: Some(&["--no-binary"]),
            skip_unit_deletions: false,
        }),
    },
    Adapter {
        name: "cadical",
        binaries: &["cadical"],
        // Not `-q`, which silences its statistics (`c conflicts: N …`) too.
        args: &["{cnf}"],
        answer: OutputFormat::Competition,
        exit_sat: 10,
        exit_unsat: 20,
        exit_unknown: COMPETITION_UNKNOWN,
        // `terminate called after throwing an instance of 'std::bad_alloc'`, abort.
        memout: &["std::bad_alloc"],
        // Debian's cadical 1.5.3 calls itself `sc2021`.
        version: Some(VersionProbe {
            args: &["--version"],
            marker: "",
        }),
        stats: Some(StatsSyntax::NameColonValue),
        seed: Some(&["--seed={seed}"]),
        proof: Some(ProofFlags {
            args: &["{proof}"],
            binary: Some(&[]),
            text: Some(&["--no-binary"]),
            skip_unit_deletions: false,
        }),
    },
    Adapter {
        name: "picosat",
        binaries: &["picosat"],
        // `-v` prints its statistics (`c 3863 conflicts`) after the `s` line.
        args: &["-v", "{cnf}"],
        answer: OutputFormat::Competition,
        exit_sat: 10,
        exit_unsat: 20,
        exit_unknown: COMPETITION_UNKNOWN,
        // `*** picosat: out of memory in 'resize'` on stderr, abort.
        memout: &["out of memory"],
        version: Some(VersionProbe {
            args: &["--version"],
            marker: "",
        }),
        stats: Some(StatsSyntax::ValueName),
        seed: Some(&["-s", "{seed}"]),
        // Debian's picosat is built without trace support: no usable proof.
        proof: None,
    },
    Adapter {
        name: "cryptominisat",
        binaries: &["cryptominisat5"],
        // `--verb 1` prints its statistics (`c conflicts : N`; propagations above 20,000
        // in thousands, `132K`).
        args: &["--verb", "1", "{cnf}"],
        answer: OutputFormat::Competition,
        exit_sat: 10,
        exit_unsat: 20,
        // Its own limit: `s INDETERMINATE`, exit 15.
        exit_unknown: &[0, 15],
        memout: &["std::bad_alloc"],
        version: Some(VersionProbe {
            args: &["--version"],
            marker: "CryptoMiniSat version",
        }),
        stats: Some(StatsSyntax::NameColonValue),
        seed: Some(&["--random", "{seed}"]),
        // FRAT only, which `rate` does not read.
        proof: None,
    },
    Adapter {
        name: "glucose",
        binaries: &["glucose"],
        // `-model` or it prints no `v` line; `-verb=1` (its default) prints its statistics
        // (`c conflicts : N (… /sec)`).
        args: &["-verb=1", "-model", "{cnf}"],
        answer: OutputFormat::Competition,
        exit_sat: 10,
        exit_unsat: 20,
        exit_unknown: COMPETITION_UNKNOWN,
        // Like minisat: a bare `INDETERMINATE` (no `s`) on a failed allocation, exit 0.
        memout: &["INDETERMINATE"],
        // Any run prints `c This is glucose 4.2.1`; `--help` runs nothing else.
        version: Some(VersionProbe {
            args: &["--help"],
            marker: "This is glucose",
        }),
        stats: Some(StatsSyntax::NameColonValue),
        seed: Some(&["-rnd-seed={seed}"]),
        // Text DRAT only: with `-vbyte`, glucose 4.2.1 writes the final empty clause as a
        // text `0` line after the binary steps, and `rate` rejects the whole proof. Its
        // text proofs delete reason units (`rate` says "conflict claimed but not
        // detected" unless it skips unit deletions, as drat-trim does).
        proof: Some(ProofFlags {
            args: &["-certified", "-certified-output={proof}"],
            binary: None,
            text: Some(&[]),
            skip_unit_deletions: true,
        }),
    },
    Adapter {
        name: "zchaff",
        binaries: &["zchaff"],
        args: &["{cnf}"],
        answer: OutputFormat::Zchaff,
        // zchaff always exits 0; the verdict is the `RESULT:` line.
        exit_sat: 0,
        exit_unsat: 0,
        exit_unknown: &[0],
        memout: &["MEM OUT"],
        // With no arguments it prints `Z-Chaff Version: zChaff 2007.3.12` and its usage.
        version: Some(VersionProbe {
            args: &[],
            marker: "Version: zChaff",
        }),
        stats: None,
        seed: None,
        proof: None,
    },
];

/// Any solver given as `--solver NAME='cmd {cnf} …'`, or a `--solver-path` with a name
/// bench does not know: the competition format and its exit codes.
pub static GENERIC: Adapter = COMPETITION;

/// bench's own native solver run as a child (`native-proc`: `bench solve --solver
/// native`): the competition format, plus the `--proof` flags of `bench solve`.
pub static BENCH_NATIVE: Adapter = Adapter {
    name: "native-proc",
    proof: Some(ProofFlags {
        args: &["--proof", "{proof}"],
        binary: Some(&["--binary-proof"]),
        text: Some(&[]),
        skip_unit_deletions: false,
    }),
    ..BENCH_CHILD
};

/// bench's own dpll solver run as a child (`dpll-proc`).
pub static BENCH_DPLL: Adapter = Adapter {
    name: "dpll-proc",
    ..BENCH_CHILD
};

/// bench run as a child solver: the competition format; its version is bench's
/// (`bench --version` prints `bench 0.1.0`).
const BENCH_CHILD: Adapter = Adapter {
    version: Some(VersionProbe {
        args: &["--version"],
        marker: "bench ",
    }),
    // `bench solve` prints its counters as `c conflicts: N`.
    stats: Some(StatsSyntax::NameColonValue),
    ..COMPETITION
};

/// The competition format with nothing solver-specific: `s`/`v` lines, exit 10/20/0.
const COMPETITION: Adapter = Adapter {
    name: "competition",
    binaries: &[],
    args: &["{cnf}"],
    answer: OutputFormat::Competition,
    exit_sat: 10,
    exit_unsat: 20,
    exit_unknown: COMPETITION_UNKNOWN,
    memout: &[
        "std::bad_alloc",
        "out of memory",
        "out-of-memory",
        "Cannot allocate memory",
        // Python's failed allocation, and Rust's (`bench solve` as native-proc).
        "MemoryError",
        "memory allocation of",
        // bench's own reader past its memory budget (`bench solve` as native-proc).
        "bench may hold",
    ],
    version: None,
    stats: None,
    seed: None,
    proof: None,
};

/// A tool bench finds the same way as the solvers but does not run as one.
#[derive(Clone, Copy, Debug)]
pub struct Tool {
    /// Its name.
    pub name: &'static str,
    /// Executable file names to look for.
    pub binaries: &'static [&'static str],
    /// How to ask its version.
    pub version: Option<VersionProbe>,
}

/// The DRAT checker: `rate IN PROOF` prints `s VERIFIED` (exit 0) or `s NOT VERIFIED`.
pub static RATE: Tool = Tool {
    name: "rate",
    binaries: &["rate"],
    version: Some(VersionProbe {
        args: &["--version"],
        marker: "rate",
    }),
};

/// The verified LRAT checker: `cake_lpr CNF LRAT` prints `s VERIFIED UNSAT` when it
/// verifies the proof, and exits 0 when it rejects it too. It has no version flag.
pub static CAKE_LPR: Tool = Tool {
    name: "cake_lpr",
    binaries: &["cake_lpr"],
    version: None,
};

/// The adapter called `name`, if bench knows one (binary names count too:
/// `cryptominisat5` is `cryptominisat`).
pub fn adapter(name: &str) -> Option<&'static Adapter> {
    ADAPTERS
        .iter()
        .find(|a| a.name == name || a.binaries.contains(&name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_consistent() {
        for a in ADAPTERS {
            assert!(!a.binaries.is_empty(), "{}", a.name);
            assert!(a.args.contains(&"{cnf}"), "{}", a.name);
            assert_eq!(
                a.args.contains(&"{res}"),
                a.answer == OutputFormat::Minisat,
                "{}",
                a.name
            );
            if let Some(p) = a.proof {
                assert!(p.args.iter().any(|s| s.contains("{proof}")), "{}", a.name);
            }
        }
        assert_eq!(adapter("cryptominisat5").unwrap().name, "cryptominisat");
        assert!(adapter("nosuch").is_none());
    }
}
