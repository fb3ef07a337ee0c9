//! Shared by the study tests (`shard`, `slurm`): a command's output as text, a command
//! that must succeed, and the runs of a results file by key and status.

#![allow(dead_code)]

use std::collections::BTreeSet;
use std::process::{Command, Output};

use bench::results::Row;

/// stdout then stderr, as text.
pub fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Runs `c`, which must succeed; its output as text.
pub fn ok(c: &mut Command) -> String {
    let o = c.output().unwrap();
    assert!(o.status.success(), "{c:?} failed:\n{}", text(&o));
    text(&o)
}

/// Every run as (instance, encoding, solver, run, status).
pub fn key_status(rows: &[Row]) -> BTreeSet<(String, String, String, u32, String)> {
    rows.iter()
        .map(|r| {
            let (i, e, s, n) = r.key();
            (
                i.to_string(),
                e.to_string(),
                s.to_string(),
                n,
                r.status.to_string(),
            )
        })
        .collect()
}
