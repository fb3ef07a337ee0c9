//! The trust level of every row and the verified proof chain, end to end with the real
//! solvers, the real `rate` and the real cake_lpr: every UNSAT of native, kissat, cadical
//! and glucose under `--proofs` is `proof-verified` with the checkers' cost in the row; a
//! corrupted DRAT proof and a corrupted LRAT proof are WRONG naming their checker; a
//! checker out of time or memory leaves the row `proof-timeout`, neither wrong nor
//! certified; without cake_lpr rows stay `proof-checked` and bench says so once; cake_lpr
//! is found like a solver; a CSV without the `trust` column still reads.

use std::path::{Path, PathBuf};
use std::process::Output;

use bench::results::{Row, Trust, read_rows};

use crate::support::external::{pigeonhole, require_all, script};
use crate::support::{bench, require_tool, root};

/// The proof-writing solvers the chain covers.
const PROVERS: &str = "native,kissat,cadical,glucose";

/// The solvers and tools the chain needs, all found (else the test is skipped, or fails
/// where required).
fn chain_tools() -> bool {
    require_all(&["kissat", "cadical", "glucose"])
        && require_tool("rate").is_some()
        && require_tool("cake_lpr").is_some()
}

/// `bench run CORPORA --proofs --solvers SOLVERS EXTRA --out OUT`.
fn run(corpora: &[PathBuf], solvers: &str, extra: &[&str], out: &Path) -> Output {
    bench()
        .arg("run")
        .args(corpora)
        .args([
            "--proofs",
            "--timeout",
            "60",
            "--jobs",
            "1",
            "--solvers",
            solvers,
        ])
        .args(extra)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn rows(out: &Path) -> Vec<Row> {
    read_rows(&out.join("results.csv"), false).unwrap()
}

/// corpora/cnf's pigeonhole formulas, one of its random 3-SAT UNSAT ones, and two
/// pigeonhole formulas generated here.
fn unsat_corpus(dir: &Path) -> Vec<PathBuf> {
    let generated = dir.join("generated");
    std::fs::create_dir_all(&generated).unwrap();
    for (p, h) in [(6, 5), (7, 5)] {
        let file = std::fs::File::create(generated.join(format!("php-{p}-{h}.cnf"))).unwrap();
        bench::cnf::dimacs::write_cnf(file, &pigeonhole(p, h), &[]).unwrap();
    }
    let cnf = root().join("corpora/cnf");
    let mut corpora: Vec<PathBuf> = ["php-7-6", "php-8-7", "php-9-8", "rand3-150-639-s1"]
        .iter()
        .map(|n| cnf.join(format!("{n}.cnf")))
        .collect();
    corpora.push(generated);
    corpora
}

#[test]
fn every_unsat_is_proof_verified_with_the_checkers_cost_and_certified() {
    if !chain_tools() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let result = run(&unsat_corpus(dir.path()), PROVERS, &[], &out);
    assert_eq!(result.status.code(), Some(0), "{}", text(&result));
    let rows = rows(&out);
    assert_eq!(rows.len(), 6 * 4);
    for r in &rows {
        assert_eq!(r.status.as_str(), "UNSAT", "{r:?}");
        assert_eq!(r.trust, Some(Trust::ProofVerified), "{r:?}");
        assert!(r.check_s.is_some_and(|s| s > 0.0), "{r:?}");
        assert!(r.check_rss_kb.is_some_and(|kb| kb > 0), "{r:?}");
        assert!(!r.wrong && r.check.as_str() == "proof-ok", "{r:?}");
    }
    // The scores give certified beside plain, in the terminal, summary.md and
    // summary.json alike.
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(
        summary.contains("| certified | certified PAR-2 (s) |"),
        "{summary}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let scores = json["scores"].as_array().expect("scores in summary.json");
    assert_eq!(scores.len(), 4);
    for s in scores {
        assert_eq!(
            (s["solved"].as_u64(), s["certified"].as_u64()),
            (Some(6), Some(6)),
            "{s}"
        );
        assert_eq!(s["par2"], s["certified_par2"], "{s}");
    }
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(html.contains("certified PAR-2 (s)"));
}

#[test]
fn a_corrupted_drat_or_lrat_proof_is_wrong_naming_its_checker() {
    if !chain_tools() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let php = root().join("corpora/cnf/php-8-7.cnf");
    // kissat's command line, a right answer, and a DRAT proof that proves nothing.
    let kissat = script(
        dir.path(),
        "kissat",
        "[ \"$1\" = --version ] && { echo fake; exit 0; }\n\
         for last; do :; done\nprintf 'd 1 0\\n' > \"$last\"\necho 's UNSATISFIABLE'\nexit 20",
    );
    let out = dir.path().join("drat");
    let path = format!("kissat={}", kissat.display());
    let result = run(
        std::slice::from_ref(&php),
        "kissat",
        &["--solver-path", &path],
        &out,
    );
    assert_eq!(result.status.code(), Some(1), "{}", text(&result));
    let r = &rows(&out)[0];
    assert!(r.wrong && r.check.as_str() == "proof-failed", "{r:?}");
    assert!(
        r.error.starts_with("rate rejected the DRAT proof: "),
        "{r:?}"
    );
    assert_eq!(r.trust(), Trust::Unchecked);

    // The real rate, whose LRAT loses its second half on the way to cake_lpr.
    let rate = require_tool("rate").unwrap();
    let spoiler = script(
        dir.path(),
        "rate",
        &format!(
            "'{}' \"$@\" || exit $?\nprev=\nfor a; do [ \"$prev\" = -L ] && lrat=$a; prev=$a; done\n\
             [ -n \"$lrat\" ] || exit 0\nn=$(wc -l < \"$lrat\")\n\
             head -n $((n / 2)) \"$lrat\" > \"$lrat.half\" && mv \"$lrat.half\" \"$lrat\"",
            rate.display()
        ),
    );
    let out = dir.path().join("lrat");
    let path = format!("rate={}", spoiler.display());
    let result = run(&[php], "cadical", &["--solver-path", &path], &out);
    assert_eq!(result.status.code(), Some(1), "{}", text(&result));
    let r = &rows(&out)[0];
    assert!(r.wrong && r.check.as_str() == "proof-failed", "{r:?}");
    assert!(
        r.error.starts_with("cake_lpr rejected the LRAT proof")
            && r.error.contains("empty clause not derived"),
        "{r:?}"
    );
    assert!(text(&result).contains("WRONG"), "{}", text(&result));
}

#[test]
fn a_checker_out_of_time_or_memory_leaves_the_row_uncertified_not_wrong() {
    if !chain_tools() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let php = root().join("corpora/cnf/php-9-8.cnf");
    // rate needs far more than a millisecond to read pigeonhole 9/8's proof, and more
    // than 24 MiB; cadical solves it in less.
    let cases: [(&[&str], &str); 2] = [
        (
            &["--checker-timeout", "0.001"],
            "rate did not finish within the checker's 0.001 s",
        ),
        (
            &["--mem-limit", "24"],
            "rate ran out of memory (limit 24 MiB)",
        ),
    ];
    for (i, (extra, why)) in cases.into_iter().enumerate() {
        let out = dir.path().join(format!("out{i}"));
        let result = run(std::slice::from_ref(&php), "cadical", extra, &out);
        assert_eq!(result.status.code(), Some(0), "{}", text(&result));
        let r = &rows(&out)[0];
        assert_eq!(r.status.as_str(), "UNSAT", "{r:?}");
        assert!(!r.wrong && r.check.as_str() == "unchecked", "{r:?}");
        assert_eq!(r.trust, Some(Trust::ProofTimeout), "{r:?}");
        assert_eq!(r.error, why, "{r:?}");
        assert!(r.check_s.is_some(), "{r:?}");
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap())
                .unwrap();
        let s = &json["scores"][0];
        assert_eq!(
            (s["solved"].as_u64(), s["certified"].as_u64()),
            (Some(1), Some(0)),
            "{s}"
        );
        assert_eq!(s["certified_par2"].as_f64(), Some(120.0), "{s}");
    }
}

#[test]
fn without_cake_lpr_proofs_are_checked_by_rate_and_bench_says_so_once() {
    if !require_all(&["cadical"]) || require_tool("rate").is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cnf = root().join("corpora/cnf");
    let corpora = [cnf.join("php-7-6.cnf"), cnf.join("php-8-7.cnf")];
    let out = dir.path().join("out");
    let nowhere = format!("cake_lpr={}", dir.path().join("no/cake_lpr").display());
    let result = run(
        &corpora,
        "native,cadical",
        &["--solver-path", &nowhere],
        &out,
    );
    assert_eq!(result.status.code(), Some(0), "{}", text(&result));
    let said = String::from_utf8_lossy(&result.stderr)
        .matches("cake_lpr not found")
        .count();
    assert_eq!(said, 1, "{}", text(&result));
    for r in rows(&out) {
        assert_eq!(r.trust, Some(Trust::ProofChecked), "{r:?}");
        assert!(
            !r.wrong && r.check.as_str() == "proof-ok" && r.check_s.is_some(),
            "{r:?}"
        );
        assert!(!r.certified(), "{r:?}");
    }
}

#[test]
fn cake_lpr_is_found_like_a_solver_and_listed_with_its_version() {
    let Some(cake_lpr) = require_tool("cake_lpr") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let line = |o: Output| {
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        out.lines()
            .find(|l| l.starts_with("cake_lpr "))
            .unwrap_or_else(|| panic!("no cake_lpr line:\n{out}"))
            .split_whitespace()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    // --solver-path beats everything; the binary has no version flag, and bench says so.
    let copy = dir.path().join("mine");
    std::fs::create_dir_all(&copy).unwrap();
    std::fs::copy(&cake_lpr, copy.join("cake_lpr")).unwrap();
    let explicit = copy.join("cake_lpr");
    let words = line(
        bench()
            .args(["solvers", "--solver-path"])
            .arg(format!("cake_lpr={}", explicit.display()))
            .output()
            .unwrap(),
    );
    let path = explicit.display().to_string();
    assert_eq!(
        words,
        ["cake_lpr", "found", "no", "version", "flag", path.as_str()]
    );
    // $BENCH_SOLVERS_DIR comes before .solvers/bin and PATH.
    let words = line(
        bench()
            .arg("solvers")
            .env("BENCH_SOLVERS_DIR", &copy)
            .output()
            .unwrap(),
    );
    assert_eq!(words.last().map(String::as_str), Some(path.as_str()));
    // A path that names nothing: missing, and said so.
    let words = line(
        bench()
            .args(["solvers", "--solver-path"])
            .arg(format!("cake_lpr={}", dir.path().join("none").display()))
            .output()
            .unwrap(),
    );
    assert_eq!(words[..2], ["cake_lpr", "missing"]);
}

#[test]
fn a_csv_without_the_trust_column_reads_with_its_level_derived() {
    let dir = tempfile::tempdir().unwrap();
    let mut rows = vec![
        crate::support::report::row("a", "extended", "s", "SAT", 1.0),
        crate::support::report::row("b", "extended", "s", "UNSAT", 2.0),
        crate::support::report::row("c", "extended", "s", "UNSAT", 3.0),
        crate::support::report::row("d", "extended", "s", "TIMEOUT", 10.0),
    ];
    rows[0].check = bench::results::Check::ModelOk;
    rows[1].check = bench::results::Check::ProofOk;
    let path = crate::support::report::write_csv(&dir.path().join("new.csv"), &rows);
    // The CSV an older bench wrote: the same without the three columns trust, check_s
    // and check_rss_kb.
    let new = std::fs::read_to_string(&path).unwrap();
    let header: Vec<&str> = new.lines().next().unwrap().split(',').collect();
    let at = header
        .iter()
        .position(|c| *c == "trust")
        .expect("a trust column");
    assert_eq!(header[at..at + 3], ["trust", "check_s", "check_rss_kb"]);
    let old: String = new
        .lines()
        .map(|l| {
            let mut cells: Vec<&str> = l.split(',').collect();
            assert_eq!(cells.len(), header.len(), "{l}");
            cells.drain(at..at + 3);
            format!("{}\n", cells.join(","))
        })
        .collect();
    assert!(old.starts_with("corpus,") && !old.contains("trust"));
    let old_path = dir.path().join("old.csv");
    std::fs::write(&old_path, old).unwrap();
    let read = read_rows(&old_path, false).unwrap();
    let levels: Vec<Trust> = read.iter().map(Row::trust).collect();
    assert_eq!(
        levels,
        [
            Trust::ModelChecked,
            Trust::ProofChecked,
            Trust::CrossChecked,
            Trust::Unchecked
        ]
    );
    // Its report gives certified beside plain: only the checked model is certified.
    let out = dir.path().join("report");
    let report = bench()
        .arg("report")
        .arg(&old_path)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(report.status.code(), Some(0), "{}", text(&report));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let s = &json["scores"][0];
    assert_eq!(
        (s["solved"].as_u64(), s["certified"].as_u64()),
        (Some(3), Some(1)),
        "{s}"
    );
}
