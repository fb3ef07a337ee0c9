//! Several results CSVs make one report: two CSVs of disjoint solvers on the same corpus
//! merge into one comparison with both, and the same CSV given twice is counted once.

use crate::support::report::{bench, corpus_rows, write_csv};

fn summary(dir: &std::path::Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap()
}

#[test]
fn disjoint_solvers_on_one_corpus_merge_into_one_report() {
    let dir = tempfile::tempdir().unwrap();
    let (native, others): (Vec<_>, Vec<_>) = corpus_rows()
        .into_iter()
        .partition(|r| r.solver == "native");
    let a = write_csv(&dir.path().join("a.csv"), &native);
    let b = write_csv(&dir.path().join("b.csv"), &others);
    let out = dir.path().join("merged");
    let result = bench()
        .arg("report")
        .args([&a, &b])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(result.status.code(), Some(0), "{result:?}");
    let json = summary(&out);
    assert_eq!(
        json["solvers"],
        serde_json::json!(["native", "minisat", "kissat"])
    );
    assert_eq!(json["instances"], 10);
    assert_eq!(json["rows"], 60);
    assert_eq!(json["scores"].as_array().unwrap().len(), 6);
    for chart in [
        "scatter-minisat-vs-native.svg",
        "scatter-kissat-vs-native.svg",
    ] {
        assert!(out.join(chart).exists(), "{chart}");
    }
    // The VBS of the merged report equals the VBS of the same rows in one CSV.
    let one = write_csv(&dir.path().join("one.csv"), &corpus_rows());
    let single = dir.path().join("single");
    let result = bench()
        .arg("report")
        .arg(&one)
        .arg("--out")
        .arg(&single)
        .output()
        .unwrap();
    assert_eq!(result.status.code(), Some(0));
    assert_eq!(
        summary(&out)["virtual_best"],
        summary(&single)["virtual_best"]
    );
}

#[test]
fn the_same_csv_twice_is_counted_once() {
    let dir = tempfile::tempdir().unwrap();
    let csv = write_csv(&dir.path().join("results.csv"), &corpus_rows());
    let result = bench().arg("report").args([&csv, &csv]).output().unwrap();
    assert_eq!(result.status.code(), Some(0), "{result:?}");
    let json = summary(dir.path());
    assert_eq!(json["rows"], 60);
    assert!(
        json["scores"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["runs"] == 10)
    );
    let notes = json["notes"].to_string();
    assert!(notes.contains("60 duplicate"), "{notes}");
}
