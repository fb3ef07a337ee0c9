//! Verdicts against the real solvers: every installed solver × every encoding × both
//! at-most-one encodings × sudoku / Latin square / sudoku pair, with `--count 2`, every
//! answer model-ok and every solution count right.
//!
//! This is the test that would have caught kissat and cadical blamed as WRONG under
//! `pruned`: the pruned encoding leaves variables in no clause, and those two solvers set
//! some of them true, which a decoder that read every variable took for values in the grid.
//! A missing solver fails the test (scripts/install-solvers.sh installs them all).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;
use bench::results::read_rows;

/// Unique 9×9 sudokus: Norvig's "hardest" (the example), the first of the
/// generated hard set, and a minimal one.
const SUDOKUS: &str = "\
4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......
021600000900000004060008000000020006080400050006005200000030007007054010430007095
000040050001067000900013080000000309040700000200000014012005000064000075800000000
";

/// A 9×9 with several solutions (from corpora/multisolution.txt).
const AMBIGUOUS: &str =
    "000006020002500800008002004930700000010000070200400906000000500400309080007800000\n";

/// A 9×9 without a solution (from corpora/nosolution.txt).
const NO_SOLUTION: &str =
    "000809000006340000103000900000508004010000070407000800000000700700200015302005040\n";

/// A 4×4 sudoku with a unique solution.
const SMALL: &str = "1...\n..2.\n.3..\n...4\n";

/// Two unique 10×10 Latin squares (from corpora/latin-10.txt).
const LATIN: &str = "\
00A63200914060A3000005000A000760027050005000080200000000240083190000700000603A0002308700099074010050
407A0000000051700200260080047A0200035000800350260957064000200820000003000060008031A020070600100A0304
";

/// The solution count each corpus file's puzzles must have under every encoding.
fn corpus(dir: &Path) -> BTreeMap<&'static str, Option<u32>> {
    let pairs = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/pairs-4x4.csv"),
    )
    .unwrap();
    // The first two pairs of the generated 4×4 set: a comment, 8 rows, a blank line, a
    // comment, 8 rows.
    let first_pairs: String = pairs
        .lines()
        .skip(1)
        .take(19)
        .collect::<Vec<_>>()
        .join("\n");
    let files: [(&str, &str, Option<u32>); 6] = [
        ("sudoku.txt", SUDOKUS, Some(1)),
        ("ambiguous.txt", AMBIGUOUS, Some(2)),
        ("none.txt", NO_SOLUTION, None),
        ("small.txt", SMALL, Some(1)),
        ("latin.txt", LATIN, Some(1)),
        ("pairs.csv", &first_pairs, Some(1)),
    ];
    let mut expected = BTreeMap::new();
    for (name, text, count) in files {
        std::fs::write(dir.join(name), format!("{text}\n")).unwrap();
        expected.insert(name, count);
    }
    expected
}

#[test]
fn every_solver_encoding_amo_and_kind_is_model_ok_with_the_right_count() {
    if !crate::support::external::require_all(crate::support::external::INSTALLED) {
        return;
    }
    let solvers = format!("native,{}", crate::support::external::INSTALLED.join(","));
    let dir = tempfile::tempdir().unwrap();
    let expected = corpus(dir.path());
    let mut seen = 0;
    for amo in ["pairwise", "sequential"] {
        let out = dir.path().join(format!("out-{amo}"));
        let mut cmd = Command::cargo_bin("bench").unwrap();
        cmd.arg("run");
        for name in expected.keys() {
            cmd.arg(dir.path().join(name));
        }
        let result = cmd
            .args(["--solvers", &solvers])
            .args(["--encodings", "minimal,efficient,extended,pruned"])
            .args(["--amo", amo, "--count", "2", "--timeout", "60"])
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&result.stdout);
        assert_eq!(
            result.status.code(),
            Some(0),
            "--amo {amo}:\n{stdout}{}",
            String::from_utf8_lossy(&result.stderr)
        );
        assert!(
            !stdout
                .lines()
                .any(|l| l.starts_with("WRONG ") || l.starts_with("ENCODING OPEN")),
            "{stdout}"
        );
        let rows = read_rows(&out.join("results.csv"), false).unwrap();
        // 3 + 1 + 1 + 1 sudokus, 2 Latin squares, 2 pairs; 4 encodings; 7 solvers.
        assert_eq!(rows.len(), 10 * 4 * 7, "--amo {amo}");
        for r in &rows {
            let file = r.instance.split(':').next().unwrap();
            let want = expected[file];
            let what = format!("--amo {amo}: {r:?}");
            assert!(!r.wrong, "{what}");
            match want {
                Some(count) => {
                    assert_eq!(
                        (r.status.as_str(), r.check.as_str()),
                        ("SAT", "model-ok"),
                        "{what}"
                    );
                    assert_eq!(r.solutions, Some(count), "{what}");
                }
                None => assert_eq!(r.status.as_str(), "UNSAT", "{what}"),
            }
            seen += 1;
        }
    }
    assert_eq!(seen, 2 * 10 * 4 * 7);
}

/// `bench report` over a CSV written before the fix shows its rows as they were recorded:
/// the check happened at run time, and a later version does not rewrite history.
#[test]
fn an_old_wrong_row_is_reported_as_recorded() {
    if !crate::support::external::require_all(&["minisat", "kissat"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("results.csv");
    std::fs::write(
        &csv,
        "corpus,instance,kind,side,encoding,vars,clauses,solver,run,status,check,wall_s,cpu_s,\
         max_rss_kb,exit_code,timeout_s,jobs,error,wrong,solutions,givens\n\
         p1.txt,p1.txt:1,sudoku,9,pruned,729,2000,kissat,1,SAT,model-wrong,0.003,0.002,5000,10,\
         60,1,cell r1c1 holds both 1 and 2,true,,17\n\
         p1.txt,p1.txt:1,sudoku,9,pruned,729,2000,minisat,1,SAT,model-ok,0.004,0.003,5000,10,\
         60,1,,false,,17\n",
    )
    .unwrap();
    let out = dir.path().join("report");
    let result = Command::cargo_bin("bench")
        .unwrap()
        .arg("report")
        .arg(&csv)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&result.stdout),
        String::from_utf8_lossy(&result.stderr)
    );
    assert!(
        said.contains("WRONG kissat on p1.txt:1 (pruned, run 1): SAT — cell r1c1 holds both"),
        "{said}"
    );
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(summary.contains("WRONG answers (1)"), "{summary}");
}
