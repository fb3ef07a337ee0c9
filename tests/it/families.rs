//! `--families FILE` on `bench run`: the file's families go into the `family` column and
//! the run's own report, a line that names no instance of the corpus is warned of with
//! its file and line, the plan records the file (a resume with the file changed is
//! refused), and a bad file is refused before any output folder is made. `bench report
//! --families` warns of its unmatched lines too.

use std::collections::BTreeMap;
use std::path::Path;

use crate::support::{bench, root};

const PUZZLES: &str = "\
002593007005807000900002030006008143080130952009054000500089704020000005000705360
000987014400000000903045720530070800702000000000192030004520160050004089120860005
";

/// A corpus folder `sat` (php/ with two formulas, rand/ with one) and a puzzle file.
fn corpus(dir: &Path) {
    let cnf = root().join("corpora/cnf");
    for (from, to) in [
        ("php-7-6.cnf", "sat/php/php-7-6.cnf"),
        ("php-8-7.cnf", "sat/php/php-8-7.cnf"),
        ("rand3-150-639-s1.cnf", "sat/rand/r1.cnf"),
    ] {
        let to = dir.join(to);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(cnf.join(from), to).unwrap();
    }
    std::fs::write(dir.join("p.txt"), PUZZLES).unwrap();
}

fn run_in(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = bench().args(args).current_dir(dir).output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code(), text)
}

/// The family of each instance in a results CSV.
fn families_of(csv: &Path) -> BTreeMap<String, String> {
    bench::results::read_rows(csv, false)
        .unwrap()
        .into_iter()
        .map(|r| (r.instance.to_string(), r.family.to_string()))
        .collect()
}

#[test]
fn run_writes_the_files_families_and_warns_of_each_line_that_names_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    corpus(d);
    let hash = bench::identity::gbd_hash_file(&d.join("sat/php/php-8-7.cnf")).unwrap();
    let absolute = d.join("sat/rand/r1.cnf").canonicalize().unwrap();
    let lines = [
        "sat/php,pigeons".to_string(),
        format!("{},random", absolute.display()),
        format!("{hash},big"),
        "p.txt,puzzles".to_string(),
        "sat/missing.cnf,ghost".to_string(),
        "sat/rand/gone.cnf,ghost".to_string(),
    ];
    std::fs::write(d.join("fam.csv"), lines.join("\n") + "\n").unwrap();
    let args = [
        "run",
        "sat",
        "p.txt",
        "--solvers",
        "native",
        "--timeout",
        "60",
        "--families",
        "fam.csv",
        "--out",
        "r",
    ];
    let (code, text) = run_in(d, &args);
    assert_eq!(code, Some(0), "{text}");
    // One warning per line that names nothing, with its file and line; none for the rest.
    assert_eq!(text.matches("names no instance").count(), 2, "{text}");
    assert!(
        text.contains("fam.csv:5: `sat/missing.cnf` (family `ghost`) names no instance"),
        "{text}"
    );
    assert!(text.contains("fam.csv:6: `sat/rand/gone.cnf`"), "{text}");

    let expected: BTreeMap<String, String> = [
        ("php/php-7-6.cnf", "pigeons"),
        ("php/php-8-7.cnf", "big"),
        ("rand/r1.cnf", "random"),
        ("p.txt:1", "puzzles"),
        ("p.txt:2", "puzzles"),
    ]
    .into_iter()
    .map(|(i, f)| (i.to_string(), f.to_string()))
    .collect();
    assert_eq!(families_of(&d.join("r/results.csv")), expected);

    // The run's own report breaks its figures down by those families.
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("r/summary.json")).unwrap()).unwrap();
    let by_family: Vec<(String, u64)> = summary["families"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let name = f["family"].as_str().unwrap().to_string();
            (name, f["instances"].as_u64().unwrap())
        })
        .collect();
    let want = [("big", 1), ("pigeons", 1), ("puzzles", 2), ("random", 1)];
    let want: Vec<(String, u64)> = want.iter().map(|(f, n)| (f.to_string(), *n)).collect();
    assert_eq!(by_family, want);

    // The plan records the file by path and content; a resume reads the same families.
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("r/run.json")).unwrap()).unwrap();
    let recorded = &record["plan"]["families"];
    assert_eq!(
        Path::new(recorded["path"].as_str().unwrap()),
        d.join("fam.csv").canonicalize().unwrap().as_path(),
        "{record}"
    );
    assert_eq!(recorded["sha256"].as_str().unwrap().len(), 64, "{record}");
    let (code, text) = run_in(d, &["run", "--resume", "r"]);
    assert_eq!(code, Some(0), "{text}");
    // Edited since, the file would give the column other values: refused.
    std::fs::write(d.join("fam.csv"), "sat/php,other\n").unwrap();
    let (code, text) = run_in(d, &["run", "--resume", "r"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("the families file changed"), "{text}");
    assert_eq!(families_of(&d.join("r/results.csv")), expected);
}

#[test]
fn a_bad_families_file_is_refused_before_any_folder_is_made() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    corpus(d);
    std::fs::write(d.join("bad.csv"), "sat/php,pigeons\nsat/rand\n").unwrap();
    let (code, text) = run_in(d, &["run", "sat", "--families", "bad.csv", "--out", "r"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("bad.csv:2: expected"), "{text}");
    assert!(!d.join("r").exists());
    let (code, text) = run_in(d, &["run", "sat", "--families", "none.csv", "--out", "r"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("none.csv"), "{text}");
    assert!(!d.join("r").exists());
}

#[test]
fn report_warns_of_each_line_that_names_no_row() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    corpus(d);
    let (code, text) = run_in(
        d,
        &[
            "run",
            "sat",
            "--solvers",
            "native",
            "--timeout",
            "60",
            "--out",
            "r",
        ],
    );
    assert_eq!(code, Some(0), "{text}");
    std::fs::write(
        d.join("fam.csv"),
        "path,family\nsat/rand,random\nsat/php/php-9-8.cnf,absent\n",
    )
    .unwrap();
    let (code, text) = run_in(
        d,
        &[
            "report",
            "r/results.csv",
            "--families",
            "fam.csv",
            "--out",
            "rep",
        ],
    );
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(text.matches("names no instance").count(), 1, "{text}");
    assert!(
        text.contains(
            "fam.csv:3: `sat/php/php-9-8.cnf` (family `absent`) names no instance of the results"
        ),
        "{text}"
    );
}
