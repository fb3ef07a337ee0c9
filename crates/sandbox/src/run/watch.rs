//! A spawned run being watched by one poll loop on the caller's thread: its stdout drained
//! into the caller's consumer and its stderr's tail kept as they arrive (so a chatty child
//! never blocks on a full pipe), and its exit seen through a pidfd (or, on a kernel
//! without pidfds, by asking every 20 ms); the wait for its exit, its deadline, its
//! CPU-time limit or the interrupt; its end. No thread is started for a run.

use std::fs::File;
use std::io::{self, Read};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::{POLL, STDERR_TAIL, Spec, StdoutConsumer, Stop, cpu, kill_group};
use crate::reap::{has_exited, reap};

/// What was read of a run's output: (stdout as kept, its full length, complete, stderr
/// tail).
pub(super) type Drained = (Vec<u8>, u64, bool, Vec<u8>);

/// How often a run is asked whether it has exited when there is no pidfd.
const NO_PIDFD_POLL: Duration = Duration::from_millis(20);

/// The size of the buffer a run's output is read through.
const BUF: usize = 64 << 10;

std::thread_local! {
    /// The read buffer of the thread's last run, for its next (a new one is zeroed: 64 KiB
    /// written for every run).
    static SPARE: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// A read buffer of [`BUF`] bytes: the thread's spare one, else a new one.
fn take_buffer() -> Vec<u8> {
    let spare = SPARE.take();
    if spare.len() == BUF {
        spare
    } else {
        vec![0u8; BUF]
    }
}

/// Keeps `buf` as the thread's spare read buffer.
fn give_back_buffer(buf: Vec<u8>) {
    SPARE.set(buf);
}

/// Waits for the child's exit, the deadline, the CPU-time limit (`cpu_used`: the run's CPU
/// time so far) or the interrupt, whichever comes first, draining its output meanwhile;
/// returns why bench stopped it (None: it exited by itself) and when it exited.
pub(super) fn wait_for<C: StdoutConsumer>(
    spec: &Spec,
    start: Instant,
    watch: &mut Watch<C>,
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
        if let Some(at) = watch.pump(now + slice) {
            return (None, Some(at));
        }
    }
}

/// One output pipe being read.
struct Pipe {
    file: Option<File>,
}

impl Pipe {
    fn new(fd: OwnedFd) -> Pipe {
        Pipe {
            file: Some(File::from(fd)),
        }
    }

    fn fd(&self) -> libc::c_int {
        self.file.as_ref().map_or(-1, |f| f.as_raw_fd())
    }

    /// Reads what is there (the caller polled it readable) into `buf`; None at its end
    /// (or on an error), which closes it.
    fn read<'b>(&mut self, buf: &'b mut [u8]) -> Option<&'b [u8]> {
        let file = self.file.as_mut()?;
        loop {
            match file.read(buf) {
                Ok(0) => break,
                Ok(n) => return Some(&buf[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        self.file = None;
        None
    }
}

/// A spawned run being watched: its process group leader, its pidfd, the pipes of its
/// stdout and stderr and what was read of them. Both ways of running a program, through
/// the exec helper or directly, go through it: start watching, wait ([`wait_for`],
/// [`Watch::pump`]), then [`Watch::end`] kills what is left of the group, reaps, and reads
/// the pipes to their end.
pub(super) struct Watch<C> {
    /// The leader (the child spawned), also the process group id.
    pub(super) pid: libc::pid_t,
    /// Readable once the leader has exited (None: no pidfd, ask with `waitid`).
    pidfd: Option<OwnedFd>,
    /// When the leader's exit was seen.
    exited: Option<Instant>,
    out: Pipe,
    err: Pipe,
    consumer: C,
    /// The stdout consumer's total so far is its own; the stderr tail is kept here.
    err_tail: Vec<u8>,
    /// The read buffer.
    buf: Vec<u8>,
}

impl<C: StdoutConsumer> Watch<C> {
    /// Starts watching the child `pid` (its process group leader, which nobody else
    /// waits on) through the read ends of its stdout and stderr.
    pub(super) fn start(
        pid: libc::pid_t,
        stdout: OwnedFd,
        stderr: OwnedFd,
        consumer: C,
    ) -> Watch<C> {
        // SAFETY: plain syscall; the pid is our unreaped child, so it names this process.
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
        // SAFETY: a non-negative result is a new descriptor that nothing else owns.
        let pidfd = (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd as libc::c_int) });
        Watch {
            pid,
            pidfd,
            exited: None,
            out: Pipe::new(stdout),
            err: Pipe::new(stderr),
            consumer,
            err_tail: Vec::new(),
            buf: take_buffer(),
        }
    }

    /// Reads the output as it comes until the leader has exited (returns when it was
    /// seen to) or `until` passes (returns None).
    pub(super) fn pump(&mut self, until: Instant) -> Option<Instant> {
        loop {
            if self.exited.is_some() {
                return self.exited;
            }
            let now = Instant::now();
            if self.pidfd.is_none() && has_exited(self.pid, false).unwrap_or(true) {
                self.exited = Some(now);
                return self.exited;
            }
            if now >= until {
                return None;
            }
            let mut wait = until - now;
            if self.pidfd.is_none() {
                wait = wait.min(NO_PIDFD_POLL);
            }
            let exit_fd = self.pidfd.as_ref().map_or(-1, |f| f.as_raw_fd());
            if self.poll_once(exit_fd, wait)[2] {
                self.exited = Some(Instant::now());
            }
        }
    }

    /// One `poll` of stdout, stderr and `exit_fd` for at most `wait` (rounded up to a
    /// millisecond), reading what is ready; returns which of the three were ready.
    fn poll_once(&mut self, exit_fd: libc::c_int, wait: Duration) -> [bool; 3] {
        let ms = wait.as_micros().div_ceil(1000).min(i32::MAX as u128) as libc::c_int;
        let mut fds = [self.out.fd(), self.err.fd(), exit_fd].map(|fd| libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        });
        // SAFETY: poll reads and writes the three pollfds we own (a negative fd is skipped).
        let n = unsafe { libc::poll(fds.as_mut_ptr(), 3, ms) };
        let ready = fds.map(|p| n > 0 && p.fd >= 0 && p.revents != 0);
        if ready[0]
            && let Some(chunk) = self.out.read(&mut self.buf)
        {
            self.consumer.feed(chunk);
        }
        if ready[1]
            && let Some(chunk) = self.err.read(&mut self.buf)
        {
            self.err_tail.extend_from_slice(chunk);
            // Trim in batches (at twice the tail) so a long stderr costs amortised
            // linear time, not a memmove per read.
            if self.err_tail.len() > 2 * STDERR_TAIL {
                self.err_tail.drain(..self.err_tail.len() - STDERR_TAIL);
            }
        }
        ready
    }

    /// After the leader's exit (or its stop): kills whatever is left of its group, reaps
    /// it, and reads its output to the end (waiting at most `grace`, at least 1 s, for
    /// pipes a fugitive still holds). Returns the wait status, the leader's resource
    /// usage, the output and the consumer (None when stdout did not reach its end).
    #[allow(clippy::type_complexity)]
    pub(super) fn end(
        mut self,
        grace: Duration,
    ) -> io::Result<(libc::c_int, libc::rusage, Drained, Option<C>)> {
        // The leader is a zombie (not yet reaped), so the group id cannot have been reused.
        kill_group(self.pid, libc::SIGKILL);
        let (status, usage) = reap(self.pid)?;
        let until = Instant::now() + grace.max(Duration::from_secs(1));
        while self.out.file.is_some() || self.err.file.is_some() {
            let now = Instant::now();
            if now >= until {
                break;
            }
            self.poll_once(-1, until - now);
        }
        let out_ok = self.out.file.is_none();
        if self.err_tail.len() > STDERR_TAIL {
            self.err_tail.drain(..self.err_tail.len() - STDERR_TAIL);
        }
        let (kept, total) = if out_ok {
            self.consumer.finish()
        } else {
            (Vec::new(), 0)
        };
        give_back_buffer(std::mem::take(&mut self.buf));
        let consumer = out_ok.then_some(self.consumer);
        Ok((
            status,
            usage,
            (kept, total, out_ok, self.err_tail),
            consumer,
        ))
    }
}

/// Reads `r` to its end into `consumer`, 64 KiB at a time.
pub fn read_into(mut r: impl Read, consumer: &mut dyn StdoutConsumer) {
    let mut chunk = take_buffer();
    loop {
        match r.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => consumer.feed(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    give_back_buffer(chunk);
}

#[cfg(test)]
mod tests {
    use super::super::Capped;
    use super::*;

    #[test]
    fn the_capped_reader() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i % 251) as u8).collect();
        let mut capped = Capped::new(100);
        read_into(&data[..], &mut capped);
        let (kept, total) = capped.finish();
        assert_eq!(total, 1000);
        assert_eq!(kept, &data[..100]);
    }
}
