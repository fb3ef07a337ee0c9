//! An in-process solver call on a thread of its own, for the calls whose single steps may
//! be long: loading millions of literals, a library's preprocessing, glucose's searches
//! between two looks at its interrupt. The caller waits for the answer until [`GRACE`]
//! past the call's deadline (or past the moment it saw the interrupt flag); past that the
//! call is abandoned: its row is TIMEOUT (UNKNOWN when interrupted) and says so, and the
//! thread finishes alone and frees what it holds. So a row records at most its timeout
//! plus [`GRACE`] and a few milliseconds, however loaded the machine: a loaded machine
//! stretches every step, and no step is then short enough.
//!
//! A later call waits, before its clock starts, until no abandoned call is still running
//! ([`wait_for_leftovers`]), so no measured run shares the machine or the memory budget
//! with a leftover.

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::thread_cpu_time;

/// How long past its deadline (or the interrupt) a call is waited for before it is
/// abandoned. Half the margin the README promises (a row at most 1 s past its timeout):
/// the other half is for the caller's own wake-up on a loaded machine.
pub const GRACE: Duration = Duration::from_millis(500);

/// Formulas of this many literals and clauses together or more are solved apart
/// ([`apart`]): loading them alone takes milliseconds, far more than the thread costs
/// (about 75 µs; a 9×9 sudoku's whole solve is about 100 µs).
pub const APART_FROM: usize = 1 << 20;

/// True when a fresh call on `cnf` runs on a thread of its own.
pub fn apart(cnf: &crate::cnf::Cnf) -> bool {
    cnf.num_lits() + cnf.num_clauses() >= APART_FROM
}

/// How often the caller looks at the clock and the interrupt flag while it waits.
const LOOK: Duration = Duration::from_millis(10);

/// Abandoned calls still running, process-wide.
static LEFT: (Mutex<usize>, Condvar) = (Mutex::new(0), Condvar::new());

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Waits until no abandoned call is still running (or `interrupt` is set).
pub fn wait_for_leftovers(interrupt: Option<&AtomicBool>) {
    let (m, cv) = &LEFT;
    let mut left = lock(m);
    while *left > 0 && !interrupt.is_some_and(|f| f.load(Ordering::Relaxed)) {
        left = cv
            .wait_timeout(left, LOOK)
            .unwrap_or_else(|p| p.into_inner())
            .0;
    }
}

/// What a call gave back.
pub enum Call<T> {
    /// It returned: its value, and the CPU time of the thread that ran it.
    Done {
        /// What the work returned.
        value: T,
        /// The CPU time of the call.
        cpu: Option<Duration>,
    },
    /// It was abandoned [`GRACE`] past its deadline or interrupt, with the CPU time its
    /// thread had used by then.
    Abandoned {
        /// The CPU time of the call until it was abandoned.
        cpu: Option<Duration>,
    },
}

/// The outcome of a call abandoned past the grace (TIMEOUT, or UNKNOWN when interrupted,
/// saying so), with the CPU time it had used.
pub fn abandoned(limits: &super::Limits, cpu: Option<Duration>) -> super::Outcome {
    let note = format!(
        "the solver did not stop within {:.1} s of its deadline or interrupt: abandoned",
        GRACE.as_secs_f64()
    );
    let mut outcome = super::Outcome::stopped(limits);
    outcome.error = Some(match outcome.error.take() {
        Some(e) => format!("{e}; {note}"),
        None => note,
    });
    outcome.cpu = cpu;
    outcome
}

enum Slot<T> {
    Waiting,
    Done(T, Option<Duration>),
    Abandoned,
}

type Shared<T> = Arc<(Mutex<Slot<T>>, Condvar)>;

/// When the call ends, as the caller sees it.
pub struct Ends<'a> {
    /// The call's deadline.
    pub deadline: Option<Instant>,
    /// Bench's interrupt flag (Ctrl-C).
    pub interrupt: Option<&'a AtomicBool>,
}

/// Runs `work` on a thread of its own and waits for it until [`GRACE`] past `ends`; an
/// abandoned call's value, when it comes, goes to `leftover` on that thread (which must
/// free it safely: stop what may still touch it first). Runs on the calling thread when
/// no thread can be made.
pub fn run<T, W, L>(work: W, ends: Ends<'_>, leftover: L) -> Call<T>
where
    T: Send + 'static,
    W: FnOnce() -> T + Send + 'static,
    L: FnOnce(T) + Send + 'static,
{
    let shared: Shared<T> = Arc::new((Mutex::new(Slot::Waiting), Condvar::new()));
    let theirs = shared.clone();
    // The work, taken by the thread (or, if none starts, back by the caller).
    let slot = Arc::new(Mutex::new(Some(work)));
    let slot_theirs = slot.clone();
    let spawned = std::thread::Builder::new()
        .name("bench-solve".into())
        .spawn(move || {
            let Some(work) = lock(&slot_theirs).take() else {
                return;
            };
            let start = thread_cpu_time();
            let value = work();
            let cpu = start
                .zip(thread_cpu_time())
                .map(|(a, b)| b.saturating_sub(a));
            let (m, cv) = &*theirs;
            let mut s = lock(m);
            if matches!(*s, Slot::Abandoned) {
                drop(s);
                // Nobody waits: the leftover frees what it holds.
                let _ = std::panic::catch_unwind(AssertUnwindSafe(|| leftover(value)));
                let (m, cv) = &LEFT;
                *lock(m) -= 1;
                cv.notify_all();
            } else {
                *s = Slot::Done(value, cpu);
                cv.notify_one();
            }
        });
    let Ok(handle) = spawned else {
        // No thread: the work was never taken; run it here.
        let work = lock(&slot)
            .take()
            .expect("the work stays when no thread started");
        let start = thread_cpu_time();
        let value = work();
        let cpu = start
            .zip(thread_cpu_time())
            .map(|(a, b)| b.saturating_sub(a));
        return Call::Done { value, cpu };
    };
    let mut interrupted_at: Option<Instant> = None;
    let (m, cv) = &*shared;
    let mut s = lock(m);
    loop {
        match std::mem::replace(&mut *s, Slot::Waiting) {
            Slot::Done(value, cpu) => {
                drop(s);
                // A panic in the work is the caller's again.
                let _ = handle.join();
                return Call::Done { value, cpu };
            }
            Slot::Abandoned => unreachable!("only this caller abandons"),
            Slot::Waiting => {}
        }
        let now = Instant::now();
        if interrupted_at.is_none() && ends.interrupt.is_some_and(|f| f.load(Ordering::Relaxed)) {
            interrupted_at = Some(now);
        }
        let until = [ends.deadline, interrupted_at]
            .into_iter()
            .flatten()
            .min()
            .map(|t| t + GRACE);
        if until.is_some_and(|u| now >= u) {
            *s = Slot::Abandoned;
            *lock(&LEFT.0) += 1;
            return Call::Abandoned {
                cpu: cpu_of(&handle),
            };
        }
        // The thread ended without an answer: the work panicked, and the panic is the
        // caller's, as it would be had the work run here.
        if handle.is_finished() {
            drop(s);
            match handle.join() {
                Err(panic) => std::panic::resume_unwind(panic),
                Ok(()) => unreachable!("a thread that returns leaves its answer"),
            }
        }
        let wait = until.map_or(LOOK, |u| u.saturating_duration_since(now).min(LOOK));
        s = cv
            .wait_timeout(s, wait)
            .unwrap_or_else(|p| p.into_inner())
            .0;
    }
}

/// The CPU time a running thread has used (its handle, not yet joined or detached, keeps
/// its id valid).
fn cpu_of(handle: &std::thread::JoinHandle<()>) -> Option<Duration> {
    use std::os::unix::thread::JoinHandleExt;
    let mut clock: libc::clockid_t = 0;
    // SAFETY: the thread is joinable (its handle is held), so its pthread_t is valid;
    // both calls only write the values passed.
    unsafe {
        if libc::pthread_getcpuclockid(handle.as_pthread_t(), &mut clock) != 0 {
            return None;
        }
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        (libc::clock_gettime(clock, &mut ts) == 0)
            .then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A call that cannot return before the test releases it (or 600 s pass), whatever
    /// the machine's load: so an abandoned call is known to have been abandoned, not slow.
    fn blocked() -> (std::sync::mpsc::Sender<()>, impl FnOnce() + Send + 'static) {
        let (release, wait) = std::sync::mpsc::channel::<()>();
        let call = move || {
            let _ = wait.recv_timeout(Duration::from_secs(600));
        };
        (release, call)
    }

    #[test]
    fn a_call_that_returns_is_done_and_one_that_overruns_is_abandoned() {
        // A deadline no load reaches for a call that returns at once.
        let far = Ends {
            deadline: Some(Instant::now() + Duration::from_secs(600)),
            interrupt: None,
        };
        match run(|| 7, far, drop) {
            Call::Done { value, .. } => assert_eq!(value, 7),
            Call::Abandoned { .. } => panic!("abandoned a call that returned"),
        }
        let freed = Arc::new(AtomicBool::new(false));
        let flag = freed.clone();
        let (release, call) = blocked();
        let near = Ends {
            deadline: Some(Instant::now() + Duration::from_millis(50)),
            interrupt: None,
        };
        let outcome = run(call, near, move |()| flag.store(true, Ordering::SeqCst));
        // The call was still blocked: abandoned at the deadline plus the grace.
        assert!(matches!(outcome, Call::Abandoned { .. }));
        release.send(()).unwrap();
        wait_for_leftovers(None);
        assert!(freed.load(Ordering::SeqCst), "the leftover frees its value");
    }

    #[test]
    fn the_interrupt_starts_the_grace_too() {
        let flag = AtomicBool::new(true);
        let ends = Ends {
            deadline: None,
            interrupt: Some(&flag),
        };
        let (release, call) = blocked();
        let outcome = run(call, ends, drop);
        assert!(matches!(outcome, Call::Abandoned { .. }));
        release.send(()).unwrap();
        wait_for_leftovers(None);
    }
}
