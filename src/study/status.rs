//! `bench status`: how far a study is, per shard and in total, from the files alone (the
//! plan's runs per shard, the rows in each shard's results.csv, its run.json): no corpus is
//! read and no scheduler is asked, so it is instant and works for any engine.

use std::path::Path;

use crate::results;
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

/// Complete rows in a results CSV: the records after the header up to the last newline
/// (a last row cut short by a kill does not count, as [`results::read_rows`] drops it).
/// Records, not lines: a quoted field may hold newlines; streamed, so a big shard is not
/// read into memory.
pub fn count_rows(path: &Path) -> usize {
    use std::io::{Read, Seek, SeekFrom};
    let Ok(mut file) = std::fs::File::open(path) else {
        return 0;
    };
    let Ok(whole) = results::whole_lines(&mut file) else {
        return 0;
    };
    if file.seek(SeekFrom::Start(0)).is_err() {
        return 0;
    }
    csv::Reader::from_reader(file.take(whole))
        .byte_records()
        .take_while(Result::is_ok)
        .count()
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

#[cfg(test)]
mod tests {
    use super::count_rows;

    #[test]
    fn rows_are_records_and_a_cut_last_one_does_not_count() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("results.csv");
        let count = |text: &str| {
            std::fs::write(&path, text).unwrap();
            count_rows(&path)
        };
        assert_eq!(count_rows(&dir.path().join("missing.csv")), 0);
        assert_eq!(count(""), 0);
        assert_eq!(count("a,b,error\n"), 0);
        // A quoted newline is one row, not two.
        assert_eq!(count("a,b,error\n1,2,\"two\nlines\"\n3,4,\n"), 2);
        // Killed while writing: the last row has no newline, whole fields or not.
        assert_eq!(count("a,b,error\n1,2,x\n3,4,cut"), 1);
        assert_eq!(count("a,b,error\n1,2,x\n3,"), 1);
    }
}
