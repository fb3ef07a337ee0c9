//! How the numbers were measured, from the run's `run.json` (beside the results CSV): the
//! machine in detail (CPU model, physical and logical cores, governor, turbo, memory,
//! kernel), where the workers ran, the load average at the start and the end, the
//! warnings given before the run, and every solver's version, path and SHA-256. A report of merged or foreign CSVs without a `run.json` has
//! no such section. Fields are looked up by name inside the record's `measurement`, so a
//! record written before it existed simply shows less.

use maud::{Markup, html};
use serde_json::Value;

use crate::report::table::{Align, Cell, Exporter, Html, Markdown, Table};

/// The machine as (what, value) lines.
fn machine_lines(run: &Value) -> Vec<(&'static str, String)> {
    let m = &run["measurement"]["machine"];
    let text = |v: &Value| match v {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(if *b { "on".into() } else { "off".into() }),
        other => Some(other.to_string()),
    };
    let mut out = Vec::new();
    let mut push = |what: &'static str, value: Option<String>| {
        if let Some(v) = value {
            out.push((what, v));
        }
    };
    push("CPU", text(&m["cpu_model"]));
    push(
        "cores",
        m["physical_cores"]
            .as_u64()
            .zip(m["logical_cpus"].as_u64())
            .map(|(p, l)| format!("{p} physical, {l} logical (usable by the run)")),
    );
    push("frequency governor", text(&m["governor"]));
    push("turbo", text(&m["turbo"]));
    push(
        "memory",
        m["mem_total_kb"]
            .as_u64()
            .map(|kb| format!("{:.1} GiB", kb as f64 / 1024.0 / 1024.0)),
    );
    push("kernel", text(&m["kernel"]));
    push("workers", text(&run["measurement"]["placement"]));
    let load = |key: &str| {
        let l = &run[key];
        Some(format!(
            "{:.2} / {:.2} / {:.2}",
            l["one"].as_f64()?,
            l["five"].as_f64()?,
            l["fifteen"].as_f64()?
        ))
    };
    push(
        "load average (1 / 5 / 15 min)",
        match (load("load_start"), load("load_end")) {
            (Some(a), Some(b)) => Some(format!("{a} at the start, {b} at the end")),
            (Some(a), None) => Some(format!("{a} at the start")),
            _ => None,
        },
    );
    push(
        "bench",
        text(&run["bench_version"]).map(|v| match text(&run["measurement"]["bench_commit"]) {
            Some(c) => format!("{v}, commit {c}"),
            None => v,
        }),
    );
    out
}

/// The solvers: name, version, path, SHA-256.
fn solvers_table(run: &Value) -> Table {
    let text = |v: &Value| Cell::Text(v.as_str().unwrap_or("–").to_string());
    Table {
        columns: vec![
            ("solver", Align::Left),
            ("version", Align::Left),
            ("binary", Align::Left),
            ("SHA-256", Align::Left),
        ],
        rows: run["solvers"]
            .as_array()
            .map(|solvers| {
                solvers
                    .iter()
                    .map(|s| {
                        vec![
                            text(&s["name"]),
                            text(&s["version"]),
                            text(&s["path"]),
                            text(&s["sha256"]),
                        ]
                    })
                    .collect()
            })
            .unwrap_or_default(),
        note: None,
    }
}

fn warnings(run: &Value) -> Vec<String> {
    run["measurement"]["warnings"]
        .as_array()
        .map(|w| {
            w.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The section of `summary.md`.
pub fn markdown(run: Option<&Value>) -> String {
    let Some(run) = run else {
        return String::new();
    };
    if run["measurement"].is_null() && run["solvers"].is_null() {
        return String::new();
    }
    let mut out = String::from("## Machine and solvers\n\n");
    for (what, value) in machine_lines(run) {
        out += &format!("- {what}: {value}\n");
    }
    for w in warnings(run) {
        out += &format!("- warning before the run: {w}\n");
    }
    out.push('\n');
    out += &Markdown.table(&solvers_table(run));
    out.push('\n');
    out
}

/// The section of `index.html`.
pub fn html(run: Option<&Value>) -> Markup {
    html! {
        @if let Some(run) = run.filter(|r| !(r["measurement"].is_null() && r["solvers"].is_null())) {
            h2 id="machine" { "Machine and solvers" }
            table {
                @for (what, value) in machine_lines(run) {
                    tr { th { (what) } td { (value) } }
                }
            }
            @let warnings = warnings(run);
            @if !warnings.is_empty() {
                p class="note" { "Warned before the run:" }
                ul class="note" { @for w in &warnings { li { (w) } } }
            }
            (Html.markup(&solvers_table(run)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_a_run_json() {
        let run: Value = serde_json::from_str(
            r#"{"bench_version":"0.1.0",
                "solvers":[{"name":"minisat","version":"2.2.1","path":"/usr/bin/minisat",
                            "sha256":"ab12"}],
                "measurement":{"machine":{"cpu_model":"AMD EPYC","physical_cores":2,
                    "logical_cpus":4,"governor":null,"turbo":true,"mem_total_kb":1048576,
                    "kernel":"6.1"},"bench_commit":"abc123","placement":"pinned","warnings":["swap in use"]}}"#,
        )
        .unwrap();
        let md = markdown(Some(&run));
        assert!(
            md.contains("- CPU: AMD EPYC\n- cores: 2 physical, 4 logical"),
            "{md}"
        );
        assert!(
            md.contains("- turbo: on") && !md.contains("governor"),
            "{md}"
        );
        assert!(
            md.contains("| minisat | 2.2.1 | /usr/bin/minisat | ab12 |"),
            "{md}"
        );
        assert!(md.contains("warning before the run: swap in use"), "{md}");
        assert!(md.contains("- bench: 0.1.0, commit abc123"), "{md}");
        assert!(html(None).into_string().is_empty());
    }
}
