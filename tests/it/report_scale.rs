//! Reports of large studies. A real run's rows replicated with distinct instances (each
//! copy its own id and hash, as `scripts/study-bench.sh` builds its 10-million-row study)
//! give the figures of the run itself wherever they must: solved counts and wins scaled by
//! the copies, PAR-2s, the virtual best solver's PAR-2, paired differences and median
//! speed-ups equal. The page of the large one holds the first `MAX_ROWS` instance rows and
//! links `instances.csv`, which holds them all.

use bench::report::instances::{CSV_NAME, MAX_ROWS};
use bench::report::{ReportFile, ReportOptions, render_report};
use bench::results::Row;
use serde_json::Value;

use crate::support::root;

fn file<'a>(files: &'a [ReportFile], name: &str) -> &'a [u8] {
    &files.iter().find(|f| f.name == name).unwrap().bytes
}

fn close(a: &Value, b: &Value) {
    let (a, b) = (a.as_f64().unwrap(), b.as_f64().unwrap());
    assert!((a - b).abs() <= 1e-9 * a.abs().max(1.0), "{a} != {b}");
}

/// `copies` copies of `rows`, copy c of an instance named `cC/ID` with hash `HASH-C`.
fn replicated(rows: &[Row], copies: usize) -> Vec<Row> {
    let mut out = Vec::with_capacity(rows.len() * copies);
    for c in 0..copies {
        for r in rows {
            let mut r = r.clone();
            r.instance = format!("c{c}/{}", r.instance).into();
            r.hash = format!("{}-{c}", r.hash).into();
            out.push(r);
        }
    }
    out
}

#[test]
fn a_replicated_run_reports_the_same_figures_and_a_capped_table() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let run = crate::support::bench()
        .current_dir(root())
        .args(["run", "corpora/easy.txt", "--solvers", "native,dpll"])
        .args(["--encodings", "minimal,extended", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let rows = bench::results::read_rows(&out.join("results.csv"), false).unwrap();
    let instances = rows.len() / 4;
    let copies = MAX_ROWS / (2 * instances) + 1;
    let big = replicated(&rows, copies);
    let opts = ReportOptions::default();
    let (small, large) = (
        render_report(&rows, &opts).unwrap(),
        render_report(&big, &opts).unwrap(),
    );
    let json = |files: &[ReportFile]| -> Value {
        serde_json::from_slice(file(files, "summary.json")).unwrap()
    };
    let (s, l) = (json(&small), json(&large));
    let n = copies as u64;
    assert_eq!(
        l["instances"].as_u64(),
        s["instances"].as_u64().map(|i| i * n)
    );
    for (a, b) in s["scores"]
        .as_array()
        .unwrap()
        .iter()
        .zip(l["scores"].as_array().unwrap())
    {
        assert_eq!(b["solved"].as_u64(), a["solved"].as_u64().map(|x| x * n));
        close(&a["par2"], &b["par2"]);
        close(&a["median_s"], &b["median_s"]);
    }
    close(&s["virtual_best"]["par2"], &l["virtual_best"]["par2"]);
    let pairs = |v: &Value| v["stats"]["pairs"].as_array().unwrap().clone();
    assert_eq!(pairs(&s).len(), 6);
    for (a, b) in pairs(&s).iter().zip(&pairs(&l)) {
        for count in ["instances", "a_wins", "b_wins", "ties"] {
            assert_eq!(
                b[count].as_u64(),
                a[count].as_u64().map(|x| x * n),
                "{count}"
            );
        }
        close(&a["par2_difference"], &b["par2_difference"]);
        // More instances, the same spread: the interval holds the difference and narrows.
        let d = b["par2_difference"].as_f64().unwrap();
        let (lo, hi) = (
            b["difference_low"].as_f64().unwrap(),
            b["difference_high"].as_f64().unwrap(),
        );
        assert!(lo <= d && d <= hi, "{lo} {d} {hi}");
        let width = |v: &Value| {
            v["difference_high"].as_f64().unwrap() - v["difference_low"].as_f64().unwrap()
        };
        assert!(width(b) <= width(a), "{} > {}", width(b), width(a));
    }
    for (a, b) in s["speedups"]
        .as_array()
        .unwrap()
        .iter()
        .zip(l["speedups"].as_array().unwrap())
    {
        close(&a["median"], &b["median"]);
    }

    // The page: every instance row of the run; of the copies, the first MAX_ROWS and a link.
    let page =
        |files: &[ReportFile]| String::from_utf8(file(files, "index.html").to_vec()).unwrap();
    let lines = |files: &[ReportFile]| {
        file(files, CSV_NAME)
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .count()
    };
    assert!(!page(&small).contains("instance rows;"));
    assert_eq!(lines(&small), 2 * instances + 1);
    let rows_total = 2 * instances * copies;
    assert!(page(&large).contains(&format!(
        "The first {MAX_ROWS} of {rows_total} instance rows"
    )));
    assert!(page(&large).contains(&format!("href=\"{CSV_NAME}\"")));
    let table_rows = |files: &[ReportFile]| {
        let page = page(files);
        let table = &page[page.find("<table id=\"instances\"").unwrap()..];
        table[..table.find("</table>").unwrap()]
            .matches("<tr>")
            .count()
    };
    assert_eq!(table_rows(&small), 2 * instances + 1);
    assert_eq!(table_rows(&large), MAX_ROWS + 1);
    assert_eq!(lines(&large), rows_total + 1);
    // Solvers in the order they first appear in the rows (the run's two workers decide it).
    let table = String::from_utf8(file(&large, CSV_NAME).to_vec()).unwrap();
    let header = table.lines().next().unwrap();
    assert!(
        [
            "instance,encoding,solved_by,native,native_s,dpll,dpll_s",
            "instance,encoding,solved_by,dpll,dpll_s,native,native_s"
        ]
        .contains(&header),
        "{header}"
    );
}
