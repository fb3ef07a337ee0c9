//! The SAT Competition's results format: `bench report --export satcomp` of a real run (and
//! of hand-made rows with timeouts, an error and a WRONG answer) reads back into the same
//! solved counts and PAR-2 per solver, and a hand-written competition file joins a real
//! run's rows by GBD hash in one report.

use std::path::Path;

use crate::support::report::{bench, corpus_rows, write_csv};
use crate::support::require_tool;

fn summary(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap()
}

fn ok(cmd: &mut std::process::Command) -> String {
    let out = cmd.output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// (solver, encoding) -> (solved, PAR-2) of a report's summary.json.
fn scores(json: &serde_json::Value) -> Vec<(String, String, u64, f64)> {
    json["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["solver"].as_str().unwrap().to_string(),
                s["encoding"].as_str().unwrap().to_string(),
                s["solved"].as_u64().unwrap(),
                s["par2"].as_f64().unwrap(),
            )
        })
        .collect()
}

/// Exports `csv`, reads the export back, and holds every solver's solved count and PAR-2
/// (and the certified total) against the original report's; `rename` names a configuration as read back.
fn round_trip(dir: &Path, csv: &Path, rename: impl Fn(&str, &str) -> String) {
    let original = dir.join("original");
    ok(bench().arg("report").arg(csv).arg("--out").arg(&original));
    let exported = dir.join("exported.csv");
    ok(bench()
        .arg("report")
        .arg(csv)
        .arg("--export")
        .arg("satcomp")
        .arg(&exported));
    let text = std::fs::read_to_string(&exported).unwrap();
    assert!(
        text.starts_with("solverid,instanceid,runtime,status,score,vresult\n"),
        "{text}"
    );
    let back = dir.join("back");
    ok(bench().arg("report").arg(&exported).arg("--out").arg(&back));
    let (original, back) = (summary(&original), summary(&back));
    // The certified counts too: a verified status read back is as certified as it was.
    let certified = |json: &serde_json::Value| -> u64 {
        json["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["certified"].as_u64().unwrap())
            .sum()
    };
    assert_eq!(certified(&back), certified(&original), "certified");
    let before = scores(&original);
    let after = scores(&back);
    assert_eq!(before.len(), after.len(), "{before:?} vs {after:?}");
    for (solver, encoding, solved, par2) in &before {
        let name = rename(solver, encoding);
        let Some(again) = after.iter().find(|s| s.0 == name) else {
            panic!("{name} is not read back: {after:?}")
        };
        assert_eq!(again.2, *solved, "{name}: solved");
        assert!(
            (again.3 - par2).abs() <= 1e-5 * par2.max(1.0),
            "{name}: PAR-2 {} vs {par2}",
            again.3
        );
    }
}

#[test]
fn hand_made_rows_round_trip_through_the_competitions_format() {
    let dir = tempfile::tempdir().unwrap();
    let csv = write_csv(&dir.path().join("results.csv"), &corpus_rows());
    round_trip(dir.path(), &csv, |s, e| format!("{s}+{e}@exported"));
    let text = std::fs::read_to_string(dir.path().join("exported.csv")).unwrap();
    // The WRONG model, the timeouts and the error as the competition spells them; a
    // puzzle's UNSAT without a proof is not verified.
    for status in [
        "sat-wrong",
        "solver-timeout",
        "solver-error",
        "unsat-unverified",
        "sat-verified",
    ] {
        assert!(text.contains(&format!(",{status},")), "{status}: {text}");
    }
    assert!(!text.contains("unsat-verified"), "{text}");
}

#[test]
fn a_real_run_round_trips_and_a_competition_file_joins_it_by_hash() {
    if require_tool("minisat").is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cnf = crate::support::root().join("corpora/cnf");
    let out = dir.path().join("run");
    ok(bench()
        .arg("run")
        .arg(cnf.join("php-7-6.cnf"))
        .arg(cnf.join("rand3-150-639-s1.cnf"))
        .arg(cnf.join("rand3-150-639-s2.cnf"))
        .args([
            "--solvers",
            "native,minisat",
            "--timeout",
            "60",
            "--jobs",
            "1",
        ])
        .arg("--out")
        .arg(&out));
    let csv = out.join("results.csv");
    let rows = bench::results::read_rows(&csv, false).unwrap();
    assert_eq!(rows.len(), 6);
    assert!(rows.iter().all(|r| r.status.is_solved() && !r.wrong));
    round_trip(dir.path(), &csv, |s, _| format!("{s}@exported"));

    // A competition file, written by hand: a solver of theirs on two of the run's
    // instances (php-7-6 UNSAT, rand3-150-639-s2 SAT) (by GBD hash) and one instance the run does not have.
    let hash = |name: &str| {
        rows.iter()
            .find(|r| r.instance.ends_with(name))
            .unwrap()
            .hash
            .to_string()
    };
    let php = hash("php-7-6.cnf");
    let rand = hash("rand3-150-639-s2.cnf");
    assert_eq!(php.len(), 32, "a GBD hash: {php}");
    let comp = dir.path().join("sc2026.csv");
    std::fs::write(
        &comp,
        format!(
            "# published results\n\
             solverid,instanceid,runtime,status,score,vresult\n\
             kissat-ref,{php},0.5,unsat-verified,0.5,unsat\n\
             kissat-ref,{rand},0.25,sat-verified,0.25,sat\n\
             kissat-ref,00000000000000000000000000000000,5000.1,solver-timeout,10000,\n"
        ),
    )
    .unwrap();
    let joined = dir.path().join("joined");
    let printed = ok(bench()
        .arg("report")
        .arg(&csv)
        .arg(&comp)
        .arg("--out")
        .arg(&joined));
    let json = summary(&joined);
    assert_eq!(
        json["solvers"],
        serde_json::json!(["native", "minisat", "kissat-ref@sc2026"])
    );
    // Three instances of the run, one more of the competition's: two joined by hash.
    assert_eq!(json["instances"], 4, "{printed}");
    let theirs = scores(&json)
        .into_iter()
        .find(|s| s.0 == "kissat-ref@sc2026")
        .unwrap();
    assert_eq!(theirs.2, 2);
    // (0.5 + 0.25 + 2·5000) / 3: the limit read from the unsolved row's score.
    assert!((theirs.3 - 10000.75 / 3.0).abs() < 1e-6, "{theirs:?}");
    assert!(json["wrong_answers"].as_array().unwrap().is_empty());
}

#[test]
fn a_malformed_competition_row_names_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let comp = dir.path().join("scores.csv");
    std::fs::write(
        &comp,
        "solverid,instanceid,runtime,status,score,vresult\n\
         a,h1,1.0,sat-verified,1.0,sat\n\
         a,h2,fast,sat-verified,1.0,sat\n",
    )
    .unwrap();
    let out = bench().arg("report").arg(&comp).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("scores.csv:3") && err.contains("runtime"),
        "{err}"
    );
}
