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
    /// Why a `corrupt` shard is: its results.csv was written by two processes.
    pub problem: Option<String>,
}

/// Complete rows in a results CSV: the records after the header up to the last newline
/// (a last row cut short by a kill does not count, as [`results::read_rows`] drops it).
/// Records, not lines: a quoted field may hold newlines; streamed, so a big shard is not
/// read into memory. Every row is held to the rules every reader holds it to
/// ([`results::each_row`]): `Err` names the file and line of a row that breaks one, or of
/// a second header (two writers made the file).
pub fn count_rows(path: &Path) -> Result<usize, String> {
    use std::io::{Read, Seek, SeekFrom};
    let Ok(mut file) = std::fs::File::open(path) else {
        return Ok(0);
    };
    let Ok(whole) = results::whole_lines(&mut file) else {
        return Ok(0);
    };
    if file.seek(SeekFrom::Start(0)).is_err() {
        return Ok(0);
    }
    let mut n = 0;
    let reader = std::io::BufReader::new(file.take(whole));
    results::each_row(reader, &path.display().to_string(), |_| {
        n += 1;
        Ok(())
    })
    .map_err(|e| e.to_string())?;
    Ok(n)
}

/// The status of every shard of the study in `study`.
pub fn status(study: &Path, plan: &StudyPlan) -> Vec<ShardStatus> {
    (0..plan.shards())
        .map(|k| {
            let shard = Shard {
                k,
                n: plan.shards(),
            };
            let dir = shard_dir(study, shard);
            let planned = plan.shard_runs()[k];
            let meta = crate::run::record::read_run(&dir);
            let execution = meta.as_ref().and_then(|m| m.execution.as_ref());
            let counted = count_rows(&dir.join("results.csv"));
            let done = *counted.as_ref().unwrap_or(&0);
            let ended = execution.is_some_and(|e| e.end.is_some());
            let interrupted = execution.is_some_and(|e| e.interrupted);
            let (state, problem) = if let Err(why) = counted {
                ("corrupt", Some(why))
            } else if done > planned {
                (
                    "corrupt",
                    Some(format!(
                        "{} rows in a shard of {planned} runs: written twice",
                        done
                    )),
                )
            } else if done == planned {
                ("done", None)
            } else if meta.is_none() && done == 0 {
                ("not started", None)
            } else if interrupted {
                ("interrupted", None)
            } else if ended {
                ("ended, runs missing", None)
            } else {
                ("running or stopped", None)
            };
            ShardStatus {
                shard,
                planned,
                done: done.min(planned),
                state,
                problem,
                host: execution.and_then(|e| e.machine().host),
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
        if let Some(problem) = &s.problem {
            out.push_str(&format!("  {problem}\n"));
        }
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
        let header = String::from_utf8(crate::results::header_line()).unwrap();
        let mut row = crate::results::Row {
            status: crate::solver::Status::Timeout,
            timeout_s: 1.0,
            ..Default::default()
        };
        let line = |row: &crate::results::Row| {
            let mut w = csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(Vec::new());
            w.serialize(row).unwrap();
            String::from_utf8(w.into_inner().unwrap()).unwrap()
        };
        let plain = line(&row);
        row.instance = "two\nlines".into();
        let quoted = line(&row);
        assert!(quoted.matches('\n').count() > 1, "{quoted}");
        let count = |text: &str| {
            std::fs::write(&path, text).unwrap();
            count_rows(&path)
        };
        assert_eq!(count_rows(&dir.path().join("missing.csv")), Ok(0));
        assert_eq!(count(""), Ok(0));
        assert_eq!(count(&header), Ok(0));
        // A quoted newline is one row, not two.
        assert_eq!(count(&format!("{header}{quoted}{plain}")), Ok(2));
        // Killed while writing: the last row has no newline, whole fields or not.
        assert_eq!(count(&format!("{header}{plain}{}", &plain[..20])), Ok(1));
        // A row whose columns contradict each other: named by file and line.
        let wrong = plain.replacen("TIMEOUT,unchecked", "SAT,model-wrong", 1);
        assert_ne!(wrong, plain);
        let err = count(&format!("{header}{plain}{wrong}")).unwrap_err();
        assert!(err.contains("results.csv:3: check model-wrong"), "{err}");
    }
}
