//! The proof chain of an UNSAT answer, at the SAT Competition's standard: the solver's
//! DRAT proof goes to `rate`, which checks it and writes it as LRAT (`rate CNF DRAT -L
//! LRAT`), and the LRAT goes to cake_lpr, a checker verified in CakeML. Both run like a
//! solver (through the exec helper, contained, ended with bench) under the chain's own
//! limits: `--checker-timeout` for the two together and `--mem-limit` for each, with
//! cake_lpr's heap and stack (which it reserves whole at start) sized to fit.
//!
//! What the chain finds is a [`Verdict`]: `ProofVerified` (both accepted), `ProofOk`
//! (`rate` accepted; cake_lpr is not installed, or failed for a reason of its own), `ProofFailed` naming the checker and
//! its reason (a wrong answer), `ProofTimeout` when a checker ran out of time or memory
//! (neither wrong nor certified), `Unchecked` when no checker could run. cake_lpr exits 0
//! when it rejects a proof: only its stdout line `s VERIFIED UNSAT` means verified.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::cnf::Cnf;
use crate::judge::Verdict;
use crate::solver::external::run::{self as sandbox, Exit, Finished, Limit, Spec};
use crate::solver::{ProofStyle, SolverConfig};

/// The chain's limits: its own time (both checkers together), the memory of each
/// checker, and Ctrl-C.
#[derive(Clone, Copy, Debug)]
pub struct ChainLimits<'a> {
    /// Wall-clock time for `rate` and cake_lpr together.
    pub timeout: Duration,
    /// Memory of each checker, MiB (`--mem-limit`).
    pub mem_limit_mb: Option<u64>,
    /// Stops the checkers (Ctrl-C).
    pub interrupt: Option<&'a AtomicBool>,
}

/// What the checkers cost: their CPU time summed, their peak memory the larger.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CheckerCost {
    /// CPU seconds of every checker that ran (wall time where none was measured).
    pub cpu: Duration,
    /// The larger peak memory of the checkers, KiB, if measured.
    pub max_rss_kb: Option<u64>,
}

impl CheckerCost {
    /// Adds one checker's run.
    fn add(&mut self, done: &Finished) {
        self.cpu += done.cpu.unwrap_or(done.wall);
        self.max_rss_kb = match (self.max_rss_kb, done.max_rss_kb) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
    }
}

/// What the chain found, and what it cost (None when no checker ran).
#[derive(Clone, Debug)]
pub struct ChainResult {
    /// The verdict on the proof.
    pub verdict: Verdict,
    /// The checkers' cost.
    pub cost: Option<CheckerCost>,
}

/// The verified LRAT checker cake_lpr: at `--solver-path cake_lpr=PATH`, or found like
/// the solvers (`$BENCH_SOLVERS_DIR`, `.solvers/bin`, `PATH`).
pub fn find_cake_lpr(config: &SolverConfig) -> Option<PathBuf> {
    crate::solver::external::find_tool(&crate::solver::external::CAKE_LPR, config)
}

/// The memory cake_lpr reserves, in MiB, for a limit of `mem_limit_mb`: its heap and its
/// stack (`CML_HEAP_SIZE`, `CML_STACK_SIZE`), together 7/8 of the limit, leaving the rest
/// to its code and buffers; None without a limit (its defaults, 4096 each).
pub fn cake_lpr_sizes(mem_limit_mb: Option<u64>) -> Option<(u64, u64)> {
    let mb = mem_limit_mb?;
    Some(((mb * 3 / 4).max(1), (mb / 8).max(1)))
}

/// Checks the DRAT proof at `proof` of `cnf`'s unsatisfiability through the chain.
pub fn check_chain(
    cnf: &Cnf,
    proof: &Path,
    style: ProofStyle,
    limits: &ChainLimits<'_>,
    config: &SolverConfig,
) -> ChainResult {
    let unchecked = |why: String| ChainResult {
        verdict: Verdict::Unchecked(Some(format!("proof not checked: {why}"))),
        cost: None,
    };
    let Some(rate) = crate::solver::external::find_rate(config) else {
        return unchecked("rate is not installed (cargo install rate)".into());
    };
    let dir = match sandbox::temp_dir() {
        Ok(d) => d,
        Err(e) => return unchecked(e.to_string()),
    };
    let cnf_path = dir.path().join("f.cnf");
    let written = std::fs::File::create(&cnf_path)
        .map_err(|e| e.to_string())
        .and_then(|f| crate::cnf::dimacs::write_cnf(f, cnf, &[]).map_err(|e| e.to_string()));
    if let Err(e) = written {
        return unchecked(e);
    }
    let cake_lpr = find_cake_lpr(config);
    let lrat = dir.path().join("proof.lrat");
    let mut args: Vec<OsString> = Vec::new();
    if style.skip_unit_deletions {
        args.push("--skip-unit-deletions".into());
    }
    args.extend([cnf_path.clone().into(), proof.as_os_str().to_owned()]);
    if cake_lpr.is_some() {
        args.extend(["-L".into(), lrat.clone().into()]);
    }
    let mut cost = CheckerCost::default();
    let run = |program: &Path, args: &[OsString], env: &[(OsString, OsString)], left| {
        let mut spec = Spec::new(program, args);
        spec.timeout = Some(left);
        spec.mem_limit_mb = limits.mem_limit_mb;
        spec.interrupt = limits.interrupt;
        spec.tmp_dir = Some(dir.path());
        spec.env = env;
        sandbox::run(&spec)
    };
    let done = match run(&rate, &args, &[], limits.timeout) {
        Ok(done) => done,
        Err(e) => return unchecked(format!("rate could not start: {e}")),
    };
    cost.add(&done);
    let found = |verdict| ChainResult {
        verdict,
        cost: Some(cost),
    };
    if let Some(verdict) = judge_rate(&done, limits) {
        return found(verdict);
    }
    let Some(cake_lpr) = cake_lpr else {
        return found(Verdict::ProofOk(None));
    };
    let left = limits.timeout.saturating_sub(done.wall);
    let env: Vec<(OsString, OsString)> = match cake_lpr_sizes(limits.mem_limit_mb) {
        Some((heap, stack)) => vec![
            ("CML_HEAP_SIZE".into(), heap.to_string().into()),
            ("CML_STACK_SIZE".into(), stack.to_string().into()),
        ],
        None => Vec::new(),
    };
    let args = [cnf_path.into_os_string(), lrat.into_os_string()];
    let done = match run(&cake_lpr, &args, &env, left) {
        Ok(done) => done,
        Err(e) => return unchecked(format!("cake_lpr could not start: {e}")),
    };
    cost.add(&done);
    let verdict = judge_cake_lpr(&done, limits);
    ChainResult {
        verdict,
        cost: Some(cost),
    }
}

/// Why a checker's run ran out of its limits, if it did: its time, or its memory (the
/// control group's count, or the checker's own words for it in `memory_words`).
fn out_of_limits(
    name: &str,
    done: &Finished,
    limits: &ChainLimits<'_>,
    memory_words: &[&str],
) -> Option<String> {
    let stderr = String::from_utf8_lossy(&done.stderr_tail);
    let said = |w: &&str| stderr.contains(w);
    match done.ended_by() {
        Some(Limit::WallClock) => Some(format!(
            "{name} did not finish within the checker's {} s",
            crate::results::format_seconds(limits.timeout.as_secs_f64())
        )),
        Some(Limit::Interrupt) => Some(format!("{name} was interrupted")),
        // The checkers have no CPU limit of their own.
        Some(Limit::Cpu) => Some(format!("{name} reached its CPU-time limit")),
        Some(Limit::Memory) => Some(memory(name, limits)),
        None if memory_words.iter().any(said) => Some(memory(name, limits)),
        None => None,
    }
}

fn memory(name: &str, limits: &ChainLimits<'_>) -> String {
    match limits.mem_limit_mb {
        Some(mb) => format!("{name} ran out of memory (limit {mb} MiB)"),
        None => format!("{name} ran out of memory"),
    }
}

/// `rate`'s answer: None when it verified the proof (and wrote the LRAT), else the verdict.
fn judge_rate(done: &Finished, limits: &ChainLimits<'_>) -> Option<Verdict> {
    let words = [
        "memory allocation of",
        "out of memory",
        "Cannot allocate memory",
    ];
    if let Some(why) = out_of_limits("rate", done, limits, &words) {
        return Some(Verdict::ProofTimeout(why));
    }
    let out = String::from_utf8_lossy(&done.stdout);
    let said = |line: &str| out.lines().any(|l| l.trim() == line);
    if done.exit == Exit::Code(0) && said("s VERIFIED") {
        return None;
    }
    if said("s NOT VERIFIED") {
        return Some(Verdict::ProofFailed(format!(
            "rate rejected the DRAT proof: {}",
            rate_reason(&out)
        )));
    }
    Some(Verdict::Unchecked(Some(format!(
        "proof not checked: rate failed ({}): {}",
        exit_words(done.exit),
        tail(&done.stderr_tail)
    ))))
}

/// Why `rate` rejected a proof: its comment lines that are no statistic
/// (`c no conflict`, `c deleted clause is not present in the formula: 1 0`).
fn rate_reason(stdout: &str) -> String {
    let is_statistic = |text: &str| {
        text.starts_with("mode:")
            || text
                .rsplit_once(':')
                .is_some_and(|(_, v)| v.trim().parse::<f64>().is_ok())
    };
    let reasons: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("c "))
        .map(str::trim)
        .filter(|t| !t.is_empty() && !is_statistic(t))
        .collect();
    match reasons.len() {
        0 => "s NOT VERIFIED".into(),
        n => reasons[n.saturating_sub(2)..].join("; "),
    }
}

/// cake_lpr's answer on the LRAT proof.
fn judge_cake_lpr(done: &Finished, limits: &ChainLimits<'_>) -> Verdict {
    // Exit 1 and 2: its heap or stack ran out; 3: it could not reserve them.
    let words = [
        "heap space exhausted",
        "stack space exhausted",
        "failed to allocate sufficient",
        "Cannot allocate memory",
    ];
    if let Some(why) = out_of_limits("cake_lpr", done, limits, &words) {
        return Verdict::ProofTimeout(why);
    }
    let out = String::from_utf8_lossy(&done.stdout);
    if out.lines().any(|l| l.trim() == "s VERIFIED UNSAT") {
        return Verdict::ProofVerified;
    }
    if done.exit == Exit::Code(0) {
        // Its rejection: exit 0, nothing on stdout, the reason on stderr.
        let why = String::from_utf8_lossy(&done.stderr_tail)
            .lines()
            .map(|l| l.trim().trim_start_matches("c ").trim())
            .find(|l| !l.is_empty())
            .map_or("no `s VERIFIED UNSAT` line".to_string(), str::to_string);
        return Verdict::ProofFailed(format!(
            "cake_lpr rejected the LRAT proof rate made of the DRAT proof: {why}"
        ));
    }
    Verdict::ProofOk(Some(format!(
        "proof checked by rate alone: cake_lpr failed ({}): {}",
        exit_words(done.exit),
        tail(&done.stderr_tail)
    )))
}

fn exit_words(exit: Exit) -> String {
    match exit {
        Exit::Code(c) => format!("exit code {c}"),
        Exit::Signal(s) => format!("killed by {}", sandbox::signal_name(s)),
    }
}

/// The last non-empty line of a stderr tail.
fn tail(stderr: &[u8]) -> String {
    String::from_utf8_lossy(stderr)
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("nothing on stderr")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_reason_is_its_words_not_its_statistics() {
        let out = "c mode: RAT\nc formula-parsing time (s):   0.000\n\
                   c deleted clause is not present in the formula: 1 0\n\
                   c premise clauses:     297\nc memory (MB):  0\nc no conflict\ns NOT VERIFIED\n";
        assert_eq!(
            rate_reason(out),
            "deleted clause is not present in the formula: 1 0; no conflict"
        );
        assert_eq!(rate_reason("s NOT VERIFIED\n"), "s NOT VERIFIED");
    }

    #[test]
    fn cake_lpr_fits_in_the_memory_limit() {
        assert_eq!(cake_lpr_sizes(None), None);
        let (heap, stack) = cake_lpr_sizes(Some(2048)).unwrap();
        assert!(heap + stack < 2048 && heap >= 1024 && stack >= 128);
    }
}
