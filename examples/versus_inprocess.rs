//! `versus_inprocess`: puzzles per second of in-process solvers, tdoku's way, side by side
//! in one run on one thread: per (solver, encoding) one session with the rules loaded
//! once, each puzzle's givens as assumptions, every solution decoded and checked against
//! the rules and the givens (a wrong one stops the program with exit code 1).
//!
//! ```text
//! versus_inprocess --solvers native,minisat-lib --encodings minimal,extended CORPUS...
//! ```
//! Each corpus is one set. The solvers and encodings take turns on chunks of 100 puzzles
//! (the order rotating from chunk to chunk), so that a change in the machine's load falls
//! on all of them alike. The time counted is the CPU time of this thread (solving,
//! building the assumptions, decoding and checking); loading the rules, once, is shown
//! apart. Prints a Markdown table: puzzles per second per set, encoding and solver, with
//! the conflicts, decisions and propagations per puzzle the solver reports ("-" where it
//! does not), and native's ratio to each other solver under that solver's best encoding.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use bench::encode::given_lits as givens;
use bench::encode::{Amo, EncodeOptions, Encoding};
use bench::puzzle::Puzzle;
use bench::puzzle::format::{ReadOptions, read_path};
use bench::run::incremental::{Loaded, load, solution};
use bench::solver::thread_cpu_time;
use bench::solver::{Limits, SolverConfig, Status, by_spec};

const CHUNK: usize = 100;

fn cpu() -> Duration {
    thread_cpu_time().unwrap_or_default()
}

fn main() -> anyhow::Result<()> {
    let mut solvers = "native".to_string();
    let mut encodings = "extended".to_string();
    let mut corpora: Vec<PathBuf> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--solvers" => solvers = args.next().context("--solvers needs a list")?,
            "--encodings" => encodings = args.next().context("--encodings needs a list")?,
            _ => corpora.push(PathBuf::from(a)),
        }
    }
    if corpora.is_empty() {
        bail!("usage: versus_inprocess [--solvers A,B] [--encodings E,F] CORPUS...");
    }
    let solvers: Vec<_> = bench::solver::config::parse_solver_list(&solvers)?
        .0
        .iter()
        .map(|spec| by_spec(spec, &SolverConfig::default()))
        .collect::<anyhow::Result<_>>()?;
    let encodings: Vec<Encoding> = encodings
        .split(',')
        .map(|e| Encoding::parse(e.trim()).with_context(|| format!("unknown encoding {e}")))
        .collect::<anyhow::Result<_>>()?;
    let limits = Limits {
        timeout: Some(Duration::from_secs(60)),
        ..Limits::default()
    };
    println!(
        "| set | puzzles | encoding | solver | puzzles/s | load ms | conflicts | decisions | propagations |"
    );
    println!("|---|---:|---|---|---:|---:|---:|---:|---:|");
    let mut best: BTreeMap<(String, String), f64> = BTreeMap::new();
    for path in &corpora {
        let set = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        let puzzles: Vec<Puzzle> = read_path(path, &ReadOptions::default())?
            .entries
            .into_iter()
            .map(|e| e.map(|e| e.puzzle))
            .collect::<Result<_, _>>()?;
        let first = puzzles.first().context("an empty corpus")?;
        // (solver, encoding) -> session, load time, CPU time spent, the solver's counts.
        let mut combos = Vec::new();
        for s in &solvers {
            for &encoding in &encodings {
                let opts = EncodeOptions {
                    encoding,
                    amo: Amo::Pairwise,
                };
                let start = Instant::now();
                let loaded: Loaded = load(s.as_ref(), first, opts, 0)
                    .with_context(|| format!("{} has no incremental session", s.name()))?;
                combos.push((
                    s.name().to_string(),
                    encoding,
                    loaded,
                    start.elapsed(),
                    Duration::ZERO,
                    BTreeMap::<String, u64>::new(),
                ));
            }
        }
        for (c, chunk) in puzzles.chunks(CHUNK).enumerate() {
            let k = combos.len();
            for i in 0..k {
                let (name, encoding, loaded, _, spent, counts) = &mut combos[(c + i) % k];
                let t0 = cpu();
                for p in chunk {
                    let assumptions = givens(p);
                    let out = loaded.session.solve(&assumptions, &limits);
                    match out.status {
                        Status::Sat => {
                            if let Err(e) = solution(p, &out) {
                                eprintln!("WRONG {name} ({encoding}) on {set}: {e}");
                                std::process::exit(1);
                            }
                        }
                        s => bail!("{name} ({encoding}) on {set}: {s}, not SAT"),
                    }
                    for (key, n) in &out.stats {
                        *counts.entry(key.clone()).or_default() += n;
                    }
                    if !loaded.session.usable() {
                        bail!("{name} ({encoding}): the session became unusable");
                    }
                }
                *spent += cpu().saturating_sub(t0);
            }
        }
        for (name, encoding, _, load_time, spent, counts) in &combos {
            let rate = puzzles.len() as f64 / spent.as_secs_f64().max(1e-9);
            let per = |key: &str| {
                counts.get(key).map_or("-".to_string(), |&n| {
                    format!("{:.1}", n as f64 / puzzles.len() as f64)
                })
            };
            println!(
                "| {set} | {} | {encoding} | {name} | {rate:.0} | {:.1} | {} | {} | {} |",
                puzzles.len(),
                load_time.as_secs_f64() * 1e3,
                per("conflicts"),
                per("decisions"),
                per("propagations"),
            );
            let b = best.entry((set.clone(), name.clone())).or_insert(0.0);
            *b = b.max(rate);
        }
    }
    println!();
    println!("| set | solver | best puzzles/s | native ÷ solver |");
    println!("|---|---|---:|---:|");
    for ((set, name), rate) in &best {
        let native = best.get(&(set.clone(), "native".to_string())).copied();
        let ratio = native.map_or("-".to_string(), |n| format!("{:.2}", n / rate));
        println!("| {set} | {name} | {rate:.0} | {ratio} |");
    }
    Ok(())
}
