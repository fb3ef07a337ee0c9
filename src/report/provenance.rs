//! What a report's results came from: the command, date, machine, bench's and each
//! solver's version and the containment of the run, as `bench run` recorded them in the
//! `run.json` beside `results.csv`. Read defensively, through `serde_json::Value`: a field
//! that is missing, renamed or moved into a nested object leaves that line blank (each
//! is looked for by name at any depth), and an unreadable file is no provenance at all,
//! never an error, since the rows alone make a report.

use std::path::Path;

use serde_json::Value;

/// One run's record, as far as its `run.json` tells it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Provenance {
    /// The command line, words joined by spaces.
    pub command: Option<String>,
    /// When the run started (RFC 3339).
    pub started: Option<String>,
    /// Host, CPU model, cores, memory and kernel, in words.
    pub machine: Option<String>,
    /// bench's version.
    pub bench_version: Option<String>,
    /// Each solver's name and version, in the run's order.
    pub solvers: Vec<(String, Option<String>)>,
    /// The containment's one name (`cgroup-v1`, `subreaper`, …).
    pub containment: Option<String>,
    /// Parallel runs, when the record says.
    pub jobs: Option<u64>,
    /// bench's own CPU per run, ms (`overhead_cpu_ms_per_run`).
    pub overhead_ms: Option<f64>,
}

impl Provenance {
    /// The `run.json` in `dir`, if there is a readable one.
    pub fn in_dir(dir: &Path) -> Option<Provenance> {
        let path = dir.join("run.json");
        let text = crate::bounded::read_to_string(&path, crate::bounded::MAX_RUN_JSON).ok()?;
        let value: Value = serde_json::from_str(&text).ok()?;
        Some(Provenance::from_value(&value))
    }

    /// The `run.json` beside a results CSV.
    pub fn beside(csv: &Path) -> Option<Provenance> {
        let dir = csv.parent().filter(|p| !p.as_os_str().is_empty());
        Provenance::in_dir(dir.unwrap_or(Path::new(".")))
    }

    /// What `value` (a parsed run.json) says.
    pub fn from_value(value: &Value) -> Provenance {
        let text = |key: &str| find(value, key).and_then(as_text);
        let command = ["command_line", "command", "argv"]
            .into_iter()
            .find_map(|k| find(value, k))
            .and_then(|c| match c {
                Value::Array(words) => Some(
                    words
                        .iter()
                        .filter_map(as_text)
                        .map(|w| quote(&w))
                        .collect::<Vec<_>>()
                        .join(" "),
                ),
                other => as_text(other),
            });
        let machine = find(value, "machine").map(|m| {
            let part = |key: &str| find(m, key).and_then(as_text);
            let mut words = Vec::new();
            if let Some(host) = part("host") {
                words.push(host);
            }
            if let Some(cpu) = part("cpu_model") {
                words.push(cpu);
            }
            let cores = ["cores", "logical_cpus"]
                .into_iter()
                .find_map(|k| find(m, k));
            if let Some(cores) = cores.and_then(Value::as_u64) {
                words.push(format!("{cores} cores"));
            }
            if let Some(kb) = find(m, "mem_total_kb").and_then(Value::as_u64) {
                words.push(format!("{:.1} GiB", kb as f64 / (1u64 << 20) as f64));
            }
            if let Some(kernel) = part("kernel") {
                words.push(format!("Linux {kernel}"));
            }
            words.join(", ")
        });
        let solvers = find(value, "solvers")
            .and_then(Value::as_array)
            .map(|list| {
                list.iter()
                    .filter_map(|s| match s {
                        Value::String(name) => Some((name.clone(), None)),
                        Value::Object(_) => Some((
                            find(s, "name").and_then(as_text)?,
                            find(s, "version").and_then(as_text),
                        )),
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default();
        Provenance {
            command,
            started: text("start").or_else(|| text("started")),
            machine: machine.filter(|m| !m.is_empty()),
            bench_version: text("bench_version"),
            solvers,
            containment: text("containment"),
            jobs: find(value, "jobs").and_then(Value::as_u64),
            overhead_ms: find(value, "overhead_cpu_ms_per_run").and_then(Value::as_f64),
        }
    }
}

/// The first value under `key` in `value`, breadth first (the shallowest wins).
fn find<'a>(value: &'a Value, key: &str) -> Option<&'a Value> {
    let mut level = vec![value];
    while !level.is_empty() {
        let mut next = Vec::new();
        for v in level {
            match v {
                Value::Object(map) => {
                    if let Some(found) = map.get(key).filter(|f| !f.is_null()) {
                        return Some(found);
                    }
                    next.extend(map.values());
                }
                Value::Array(items) => next.extend(items),
                _ => {}
            }
        }
        level = next;
    }
    None
}

/// A string or a number as text.
fn as_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A command-line word as a shell would need it.
fn quote(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./,:=+@%".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_json_as_bench_writes_it() {
        let value: Value = serde_json::from_str(
            r#"{"command_line": ["bench", "run", "corpora/hard.txt", "--solver", "x=/a b {cnf}"],
                "bench_version": "0.1.0",
                "solvers": [{"name": "native", "version": null},
                            {"name": "minisat", "version": "2.2.1", "path": "/usr/bin/minisat"}],
                "machine": {"host": "vm", "cores": 2, "cpu_model": "AMD EPYC",
                            "mem_total_kb": 24684092, "kernel": "6.1"},
                "start": "2026-11-25T12:44:14Z", "containment": "cgroup-v1"}"#,
        )
        .unwrap();
        let p = Provenance::from_value(&value);
        assert_eq!(
            p.command.as_deref(),
            Some("bench run corpora/hard.txt --solver 'x=/a b {cnf}'")
        );
        assert_eq!(p.started.as_deref(), Some("2026-11-25T12:44:14Z"));
        assert_eq!(
            p.machine.as_deref(),
            Some("vm, AMD EPYC, 2 cores, 23.5 GiB, Linux 6.1")
        );
        assert_eq!(p.bench_version.as_deref(), Some("0.1.0"));
        assert_eq!(
            p.solvers,
            [
                ("native".to_string(), None),
                ("minisat".to_string(), Some("2.2.1".to_string()))
            ]
        );
        assert_eq!(p.containment.as_deref(), Some("cgroup-v1"));
        assert_eq!(p.jobs, None);
    }

    #[test]
    fn moved_renamed_or_missing_fields_leave_blanks() {
        let value: Value = serde_json::from_str(
            r#"{"plan": {"command": "bench run x.txt", "options": {"jobs": 4}},
                "environment": {"containment": "subreaper"}}"#,
        )
        .unwrap();
        let p = Provenance::from_value(&value);
        assert_eq!(p.command.as_deref(), Some("bench run x.txt"));
        assert_eq!(p.jobs, Some(4));
        assert_eq!(p.containment.as_deref(), Some("subreaper"));
        assert_eq!(p.machine, None);
        assert!(p.solvers.is_empty());
        assert_eq!(Provenance::from_value(&Value::Null), Provenance::default());
    }
}
