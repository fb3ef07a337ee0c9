//! A spawned run being watched: its stdout drained into the caller's consumer and its
//! stderr's tail kept, each on a thread of its own so that a chatty child never blocks on
//! a full pipe; the wait for its exit, its deadline, its CPU-time limit or the interrupt;
//! its end.

use std::io::{self, Read};
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use super::{POLL, STDERR_TAIL, Spec, StdoutConsumer, Stop, cpu, kill_group};
use crate::reap::{has_exited, reap};

/// What was read of a run's output: (stdout as kept, its full length, complete, stderr
/// tail).
pub(super) type Drained = (Vec<u8>, u64, bool, Vec<u8>);

/// What the stdout thread read: the kept text, the full length, the consumer.
type StdoutRead<C> = (Vec<u8>, u64, C);

/// The pipes and threads that drain a child's stdout and stderr.
struct Drains<C> {
    out: mpsc::Receiver<StdoutRead<C>>,
    err: mpsc::Receiver<Vec<u8>>,
}

impl<C: StdoutConsumer + 'static> Drains<C> {
    fn start(child: &mut std::process::Child, mut consumer: C) -> io::Result<Drains<C>> {
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| io::Error::other("no stdout pipe"))?;
        let stderr = child
            .stderr
            .take()
            .ok_or_else(|| io::Error::other("no stderr pipe"))?;
        let (out_tx, out) = mpsc::channel();
        thread::Builder::new()
            .name("child-stdout".into())
            .spawn(move || {
                read_into(stdout, &mut consumer);
                let (kept, total) = consumer.finish();
                let _ = out_tx.send((kept, total, consumer));
            })?;
        let (err_tx, err) = mpsc::channel();
        thread::Builder::new()
            .name("child-stderr".into())
            .spawn(move || {
                let _ = err_tx.send(read_tail(stderr, STDERR_TAIL));
            })?;
        Ok(Drains { out, err })
    }

    /// What was read, and the consumer back. The pipes reach EOF once every process
    /// holding them is dead; do not wait past `drain` for one that escaped.
    fn finish(self, drain: Duration) -> (Drained, Option<C>) {
        let (stdout, stdout_len, out_ok, consumer) = match self.out.recv_timeout(drain) {
            Ok((buf, len, consumer)) => (buf, len, true, Some(consumer)),
            Err(_) => (Vec::new(), 0, false, None),
        };
        let stderr_tail = self.err.recv_timeout(drain).unwrap_or_default();
        ((stdout, stdout_len, out_ok, stderr_tail), consumer)
    }
}

/// Waits for the child's exit (reported on `exit_rx`), the deadline, the CPU-time limit
/// (`cpu_used`: the run's CPU time so far) or the interrupt, whichever comes first;
/// returns why bench stopped it (None: it exited by itself) and when it exited.
pub(super) fn wait_for(
    spec: &Spec,
    start: Instant,
    exit_rx: &mpsc::Receiver<io::Result<()>>,
    cpu_used: &dyn Fn() -> Option<Duration>,
) -> (Option<Stop>, Option<Instant>) {
    let deadline = spec.timeout.map(|t| start + t);
    loop {
        let now = Instant::now();
        if deadline.is_some_and(|d| now >= d) {
            return (Some(Stop::Timeout), None);
        }
        if spec
            .interrupt
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
        {
            return (Some(Stop::Interrupt), None);
        }
        let mut slice = deadline.map_or(Duration::from_secs(3600), |d| d - now);
        if spec.interrupt.is_some() {
            slice = slice.min(POLL);
        }
        if let Some(limit) = spec.cpu_limit {
            match cpu_used() {
                Some(used) if used >= limit => return (Some(Stop::CpuLimit), None),
                Some(used) => slice = slice.min(cpu::poll(limit - used)),
                None => slice = slice.min(cpu::POLL_MAX),
            }
        }
        match exit_rx.recv_timeout(slice) {
            Ok(_) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                return (None, Some(Instant::now()));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
    }
}

/// A spawned run being watched: its process group leader, the threads draining its
/// stdout and stderr, and the thread that reports (without reaping) the leader's exit.
/// Both ways of running a program, through the exec helper or directly, go through it:
/// start watching, wait, then [`Watch::end`] kills what is left of the group and reaps.
pub(super) struct Watch<C> {
    /// The leader (the child spawned), also the process group id.
    pub(super) pid: libc::pid_t,
    /// The output being read.
    drains: Drains<C>,
    /// Receives once the leader has exited (it stays a zombie until reaped).
    pub(super) exit_rx: mpsc::Receiver<io::Result<()>>,
}

impl<C: StdoutConsumer + 'static> Watch<C> {
    /// Starts watching `child`, which std never waits on: the exit watcher and
    /// [`Watch::end`] own its exit. If the threads cannot start, the run cannot be
    /// watched: `before_kill` runs, then the group is killed and the leader reaped.
    pub(super) fn start(
        mut child: std::process::Child,
        consumer: C,
        before_kill: impl FnOnce(),
    ) -> io::Result<Watch<C>> {
        let pid = child.id() as libc::pid_t;
        let started = Drains::start(&mut child, consumer).and_then(|drains| {
            let (exit_tx, exit_rx) = mpsc::channel();
            thread::Builder::new()
                .name("child-exit".into())
                .spawn(move || {
                    let _ = exit_tx.send(has_exited(pid, true).map(drop));
                })?;
            Ok((drains, exit_rx))
        });
        drop(child);
        match started {
            Ok((drains, exit_rx)) => Ok(Watch {
                pid,
                drains,
                exit_rx,
            }),
            Err(e) => {
                before_kill();
                kill_group(pid, libc::SIGKILL);
                let _ = reap(pid);
                Err(e)
            }
        }
    }

    /// After the leader's exit (or its stop): kills whatever is left of its group, reaps
    /// it, and takes what was read of its output (waiting at most `grace`, at least 1 s,
    /// for pipes a fugitive still holds). Returns the wait status, the leader's resource
    /// usage, the output and the consumer.
    #[allow(clippy::type_complexity)]
    pub(super) fn end(
        self,
        grace: Duration,
    ) -> io::Result<(libc::c_int, libc::rusage, Drained, Option<C>)> {
        // The leader is a zombie (not yet reaped), so the group id cannot have been reused.
        kill_group(self.pid, libc::SIGKILL);
        let (status, usage) = reap(self.pid)?;
        let (output, consumer) = self.drains.finish(grace.max(Duration::from_secs(1)));
        Ok((status, usage, output, consumer))
    }
}

/// Reads `r` to its end into `consumer`, 64 KiB at a time.
pub fn read_into(mut r: impl Read, consumer: &mut dyn StdoutConsumer) {
    let mut chunk = vec![0u8; 64 << 10];
    loop {
        match r.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => consumer.feed(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
}

/// Reads `r` to its end, keeping the last `tail` bytes.
fn read_tail(mut r: impl Read, tail: usize) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut chunk = vec![0u8; 16 << 10];
    loop {
        match r.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => {
                kept.extend_from_slice(&chunk[..n]);
                // Trim in batches (at twice the tail) so a long stderr costs amortised
                // linear time, not a memmove per read.
                if kept.len() > 2 * tail {
                    kept.drain(..kept.len() - tail);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    if kept.len() > tail {
        kept.drain(..kept.len() - tail);
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::super::Capped;
    use super::*;

    #[test]
    fn capped_and_tail_readers() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i % 251) as u8).collect();
        let mut capped = Capped::new(100);
        read_into(&data[..], &mut capped);
        let (kept, total) = capped.finish();
        assert_eq!(total, 1000);
        assert_eq!(kept, &data[..100]);
        assert_eq!(read_tail(&data[..], 100), &data[900..]);
        assert_eq!(read_tail(&data[..10], 100), &data[..10]);
    }
}
