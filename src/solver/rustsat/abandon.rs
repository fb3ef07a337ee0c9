//! A library solver's call on a thread of its own (on formulas of [`FROM_CLAUSES`] clauses
//! or more), for a solver that looks at its interrupt too rarely to stop near its deadline: glucose looks only between restarts,
//! and on a formula of millions of clauses (pigeonhole 201 into 200: four million) one
//! search between restarts ran two minutes past a 5 s timeout. The caller waits for the
//! answer until [`GRACE`] after the watchdog fired the interrupt (at the deadline, or on
//! Ctrl-C); past that the call is abandoned: it is TIMEOUT (UNKNOWN when interrupted) and
//! says so, and the solver's thread finishes alone, stops the watchdog and frees the
//! engine. A later library call waits, before its clock starts, until no abandoned call is
//! still running ([`wait_for_leftovers`]), so no measured run shares the machine or the
//! memory budget with a leftover.

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

use rustsat::solvers::{SolveIncremental, SolverResult};

use super::watchdog::Watchdog;
use crate::solver::thread_cpu_time;

/// How long after its interrupt fired a call is waited for before it is abandoned.
pub const GRACE: Duration = Duration::from_secs(1);

/// Calls on formulas of fewer clauses run on the caller's thread: a thread per call costs
/// about 75 µs of wall time (a 9×9 sudoku's whole solve is about 100 µs), and on small
/// formulas restarts come often enough. From this size a call propagates for far longer
/// than the thread costs.
pub const FROM_CLAUSES: u64 = 500_000;

/// How often the caller looks at the watchdog while it waits.
const LOOK: Duration = Duration::from_millis(20);

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
pub enum Call<E> {
    /// It returned: the engine, its result, and the CPU time of the thread that ran it.
    Done {
        /// The engine, for the next call.
        engine: E,
        /// Its answer.
        result: anyhow::Result<SolverResult>,
        /// The CPU time of the call.
        cpu: Option<Duration>,
    },
    /// It was abandoned [`GRACE`] after its interrupt fired (the engine goes with it),
    /// with the CPU time its thread had used by then.
    Abandoned {
        /// The CPU time of the call until it was abandoned.
        cpu: Option<Duration>,
    },
}

enum Slot<E> {
    Waiting,
    Done(E, anyhow::Result<SolverResult>, Option<Duration>),
    Abandoned,
}

type Shared<E> = Arc<(Mutex<Slot<E>>, Condvar)>;

/// Solves under `assumps` on a thread of its own, waiting until [`GRACE`] after
/// `watchdog` (armed by the caller) fired. Runs on the calling thread when no thread can
/// be made.
pub fn solve<E>(engine: E, assumps: Vec<rustsat::types::Lit>, watchdog: &Watchdog) -> Call<E>
where
    E: SolveIncremental + Send + 'static,
{
    let shared: Shared<E> = Arc::new((Mutex::new(Slot::Waiting), Condvar::new()));
    let theirs = shared.clone();
    let stopper = watchdog.stopper();
    // The work, taken by the thread (or, if none starts, back by the caller).
    let slot = Arc::new(Mutex::new(Some((engine, assumps))));
    let slot_theirs = slot.clone();
    let spawned = std::thread::Builder::new()
        .name("bench-lib-solve".into())
        .spawn(move || {
            let Some((mut engine, assumps)) = lock(&slot_theirs).take() else {
                return;
            };
            // The call's CPU limit is this thread's to spend.
            stopper.cpu_clock_here();
            let start = thread_cpu_time();
            let result =
                std::panic::catch_unwind(AssertUnwindSafe(|| engine.solve_assumps(&assumps)))
                    .unwrap_or_else(|_| Err(anyhow::anyhow!("the solver panicked")));
            let cpu = start
                .zip(thread_cpu_time())
                .map(|(a, b)| b.saturating_sub(a));
            let (m, cv) = &*theirs;
            let mut s = lock(m);
            if matches!(*s, Slot::Abandoned) {
                drop(s);
                // Nobody waits: the watchdog must never interrupt the freed engine.
                stopper.stop();
                drop(engine);
                let (m, cv) = &LEFT;
                *lock(m) -= 1;
                cv.notify_all();
            } else {
                *s = Slot::Done(engine, result, cpu);
                cv.notify_one();
            }
        });
    let Ok(handle) = spawned else {
        // No thread: the engine was never taken; solve here.
        let (mut engine, assumps) = lock(&slot)
            .take()
            .expect("the work stays when no thread started");
        let start = thread_cpu_time();
        let result = engine.solve_assumps(&assumps);
        let cpu = start
            .zip(thread_cpu_time())
            .map(|(a, b)| b.saturating_sub(a));
        return Call::Done {
            engine,
            result,
            cpu,
        };
    };
    let (m, cv) = &*shared;
    let mut s = lock(m);
    loop {
        match std::mem::replace(&mut *s, Slot::Waiting) {
            Slot::Done(engine, result, cpu) => {
                return Call::Done {
                    engine,
                    result,
                    cpu,
                };
            }
            Slot::Abandoned => unreachable!("only this caller abandons"),
            Slot::Waiting => {}
        }
        if watchdog.fired_at().is_some_and(|t| t.elapsed() >= GRACE) {
            *s = Slot::Abandoned;
            *lock(&LEFT.0) += 1;
            return Call::Abandoned {
                cpu: cpu_of(&handle),
            };
        }
        s = cv
            .wait_timeout(s, LOOK)
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
