//! `bench status`: how far a study is, per shard and in total, from the files alone (the
//! plan's runs per shard, the rows in each shard's results.csv, its run.json): no corpus is
//! read and no scheduler is asked, so it is instant and works for any engine.

use std::path::Path;

use crate::run::shard::Shard;

use super::plan::{StudyPlan, shard_dir};

/// Where one shard is.
#[derive(Clone, Debug, PartialEq)]
pub struct ShardStatus {
    /// The shard.
    pub shard: Shard,
    /// Runs in its plan.
    pub planned: usize,
    /// Rows in its results.csv.
    pub done: usize,
    /// not started, running or stopped, interrupted, ended, done.
    pub state: &'static str,
    /// The host it ran on, from its run.json.
    pub host: Option<String>,
}

/// The shard's run.json, if it has one.
pub fn shard_meta(dir: &Path) -> Option<serde_json::Value> {
    let text = std::fs::read_to_string(dir.join("run.json")).ok()?;
    serde_json::from_str(&text).ok()
}

/// Complete rows in a results CSV: newlines after the header's (a last line cut short by a
/// kill does not count).
pub fn count_rows(path: &Path) -> usize {
    match std::fs::read(path) {
        Ok(bytes) => bytes
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            .saturating_sub(1),
        Err(_) => 0,
    }
}

/// The status of every shard of the study in `study`.
pub fn status(study: &Path, plan: &StudyPlan) -> Vec<ShardStatus> {
    (0..plan.shards)
        .map(|k| {
            let shard = Shard { k, n: plan.shards };
            let dir = shard_dir(study, shard);
            let planned = plan.shard_runs[k];
            let meta = shard_meta(&dir);
            let done = count_rows(&dir.join("results.csv"));
            let ended = meta.as_ref().is_some_and(|m| !m["end"].is_null());
            let interrupted = meta
                .as_ref()
                .is_some_and(|m| m["interrupted"].as_bool() == Some(true));
            let state = if done >= planned {
                "done"
            } else if meta.is_none() && done == 0 {
                "not started"
            } else if interrupted {
                "interrupted"
            } else if ended {
                "ended, runs missing"
            } else {
                "running or stopped"
            };
            ShardStatus {
                shard,
                planned,
                done: done.min(planned),
                state,
                host: meta.and_then(|m| m["machine"]["host"].as_str().map(str::to_string)),
            }
        })
        .collect()
}

/// The status as text: one line per shard, then the total.
pub fn text(statuses: &[ShardStatus]) -> String {
    let mut out = String::from("shard       done / planned  state                host\n");
    for s in statuses {
        out.push_str(&format!(
            "{:<10} {:>6} / {:<7}  {:<20} {}\n",
            s.shard.dir_name(),
            s.done,
            s.planned,
            s.state,
            s.host.as_deref().unwrap_or("")
        ));
    }
    let done: usize = statuses.iter().map(|s| s.done).sum();
    let planned: usize = statuses.iter().map(|s| s.planned).sum();
    let complete = statuses.iter().filter(|s| s.state == "done").count();
    out.push_str(&format!(
        "total: {done} of {planned} runs done ({:.1} %), {} to do; {complete} of {} shards complete\n",
        if planned == 0 {
            100.0
        } else {
            100.0 * done as f64 / planned as f64
        },
        planned - done,
        statuses.len()
    ));
    out
}
