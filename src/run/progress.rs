//! Progress while a benchmark runs: a bar on a terminal (done/total, solved, timeouts,
//! memouts, errors, wrong, elapsed, ETA), plain lines with the same figures every few seconds when
//! stderr is not one.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use crate::results::Row;
use crate::solver::Status;

#[derive(Default)]
struct Counts {
    done: usize,
    solved: usize,
    timeouts: usize,
    memouts: usize,
    errors: usize,
    wrong: usize,
}

/// Counts runs as they finish and shows them.
pub struct Progress {
    total: usize,
    bar: Option<ProgressBar>,
    counts: Mutex<(Counts, Instant)>,
    start: Instant,
}

/// How often the plain-line mode prints.
const PLAIN_EVERY: Duration = Duration::from_secs(5);

impl Progress {
    /// A progress display for `total` runs.
    pub fn new(total: usize) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(total as u64);
            bar.set_style(
                ProgressStyle::with_template(
                    "{bar:30} {pos}/{len} {msg} [{elapsed_precise}, ETA {eta}]",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar
        });
        let now = Instant::now();
        Progress {
            total,
            bar,
            counts: Mutex::new((Counts::default(), now)),
            start: now,
        }
    }

    /// A run finished with this row.
    pub fn record(&self, row: &Row) {
        self.count(|c| {
            if row.wrong {
                c.wrong += 1;
            } else if row.solved() {
                c.solved += 1;
            } else if row.status == Status::Timeout {
                c.timeouts += 1;
            } else if row.status == Status::Memout {
                c.memouts += 1;
            } else {
                c.errors += 1;
            }
        });
    }

    /// A run that could not start (its input failed to build).
    pub fn skip(&self) {
        self.count(|c| c.errors += 1);
    }

    /// Counts one run done (`tally` says how it ended) and shows the counts: the bar's
    /// position moves before its message, so the two never disagree.
    fn count(&self, tally: impl FnOnce(&mut Counts)) {
        let mut guard = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        let (c, last) = &mut *guard;
        c.done += 1;
        tally(c);
        let msg = format!(
            "solved {} timeouts {} memouts {} errors {} WRONG {}",
            c.solved, c.timeouts, c.memouts, c.errors, c.wrong
        );
        match &self.bar {
            Some(bar) => {
                bar.inc(1);
                bar.set_message(msg);
            }
            None if last.elapsed() >= PLAIN_EVERY || c.done == self.total => {
                *last = Instant::now();
                let elapsed = self.start.elapsed().as_secs_f64();
                eprintln!(
                    "bench: {}/{} runs, {msg}, {elapsed:.0} s{}",
                    c.done,
                    self.total,
                    eta(elapsed, c.done, self.total)
                );
            }
            None => {}
        }
    }

    /// Clears the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// `, ETA 12 s` from the pace so far; empty when done or nothing has finished.
fn eta(elapsed: f64, done: usize, total: usize) -> String {
    if done == 0 || done >= total {
        return String::new();
    }
    let left = elapsed / done as f64 * (total - done) as f64;
    format!(", ETA {left:.0} s")
}

#[cfg(test)]
mod tests {
    use super::eta;

    #[test]
    fn the_plain_lines_eta_follows_the_pace() {
        assert_eq!(eta(10.0, 1, 4), ", ETA 30 s");
        assert_eq!(eta(10.0, 4, 4), "");
        assert_eq!(eta(0.0, 0, 4), "");
    }
}
