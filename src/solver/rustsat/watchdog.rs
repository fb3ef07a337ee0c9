//! The watchdog of an in-process library solver: a thread that fires the solver's
//! asynchronous interrupt when the deadline of the running call passes or bench's
//! interrupt flag (Ctrl-C) is set. While a call is armed it looks every
//! [`TICK`] (so a call stops within a few milliseconds of its deadline, plus the solver's
//! own reaction time); after a while with nothing armed it sleeps until the next arm, so
//! idle sessions cost nothing. Arming and disarming take a lock and nothing else: no thread
//! wakes per call while calls follow each other closely.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::solver::Limits;

/// How often an armed watchdog looks.
pub const TICK: Duration = Duration::from_millis(5);

/// Ticks with nothing armed before the thread sleeps.
const IDLE_TICKS: u32 = 40;

struct Armed {
    deadline: Option<Instant>,
    flag: Option<Arc<AtomicBool>>,
}

struct State {
    armed: Option<Armed>,
    /// When the interrupt fired during the current (or last) armed call.
    fired: Option<Instant>,
    /// The thread sleeps until notified.
    sleeping: bool,
    /// The owner is gone: the thread ends and never calls `interrupt` again.
    stop: bool,
    interrupt: Option<Box<dyn Fn() + Send>>,
}

/// Fires an interrupt at the deadline of the armed call.
pub struct Watchdog {
    shared: Arc<(Mutex<State>, Condvar)>,
}

fn lock(m: &Mutex<State>) -> MutexGuard<'_, State> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Watchdog {
    /// A watchdog that calls `interrupt` to stop the solver.
    pub fn new(interrupt: Box<dyn Fn() + Send>) -> Watchdog {
        let shared = Arc::new((
            Mutex::new(State {
                armed: None,
                fired: None,
                sleeping: true,
                stop: false,
                interrupt: Some(interrupt),
            }),
            Condvar::new(),
        ));
        let inner = shared.clone();
        // If no thread can be made, calls run without a limit: say so rather than fail.
        if std::thread::Builder::new()
            .name("bench-watchdog".into())
            .spawn(move || watch(&inner))
            .is_err()
        {
            eprintln!(
                "bench: no watchdog thread: in-process solver calls run without a time limit"
            );
        }
        Watchdog { shared }
    }

    /// Arms `deadline` and the interrupt flag of `limits` for the call about to start.
    pub fn arm(&self, deadline: Option<Instant>, limits: &Limits) {
        let (m, cv) = &*self.shared;
        let mut s = lock(m);
        s.fired = None;
        if deadline.is_none() && limits.interrupt.is_none() {
            s.armed = None;
            return;
        }
        s.armed = Some(Armed {
            deadline,
            flag: limits.interrupt.clone(),
        });
        if s.sleeping {
            s.sleeping = false;
            cv.notify_one();
        }
    }

    /// Disarms after the call; true if the interrupt fired.
    pub fn disarm(&self) -> bool {
        let mut s = lock(&self.shared.0);
        s.armed = None;
        s.fired.is_some()
    }

    /// When the interrupt fired during the armed call, if it did.
    pub fn fired_at(&self) -> Option<Instant> {
        lock(&self.shared.0).fired
    }

    /// Ends the thread; the interrupt is never called again.
    pub fn stop(&self) {
        self.stopper().stop();
    }

    /// What stops this watchdog from another thread (the one that frees the solver).
    pub fn stopper(&self) -> Stopper {
        Stopper(self.shared.clone())
    }
}

/// Stops a [`Watchdog`] from anywhere: after [`Stopper::stop`] the interrupt is never
/// called again, so the solver it interrupts may be freed.
pub struct Stopper(Arc<(Mutex<State>, Condvar)>);

impl Stopper {
    /// Ends the watchdog's thread; the interrupt is never called again.
    pub fn stop(&self) {
        let (m, cv) = &*self.0;
        let mut s = lock(m);
        s.stop = true;
        s.armed = None;
        s.interrupt = None;
        cv.notify_one();
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.stop();
    }
}

fn watch(shared: &(Mutex<State>, Condvar)) {
    let (m, cv) = shared;
    let mut idle = 0;
    let mut s = lock(m);
    loop {
        if s.stop {
            return;
        }
        s = if s.sleeping {
            cv.wait(s).unwrap_or_else(|p| p.into_inner())
        } else {
            cv.wait_timeout(s, TICK)
                .unwrap_or_else(|p| p.into_inner())
                .0
        };
        if s.stop {
            return;
        }
        match &s.armed {
            Some(a) => {
                idle = 0;
                let late = a.deadline.is_some_and(|d| Instant::now() >= d);
                let flagged = a.flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed));
                if late || flagged {
                    if let Some(f) = &s.interrupt {
                        f();
                    }
                    s.fired = Some(Instant::now());
                    s.armed = None;
                }
            }
            None => {
                idle += 1;
                if idle >= IDLE_TICKS {
                    s.sleeping = true;
                    idle = 0;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_at_the_deadline_and_not_after_disarm() {
        let hits = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let h = hits.clone();
        let w = Watchdog::new(Box::new(move || {
            h.fetch_add(1, Ordering::SeqCst);
        }));
        let limits = Limits::default();
        let soon = || Some(Instant::now() + Duration::from_millis(20));
        w.arm(soon(), &limits);
        std::thread::sleep(Duration::from_millis(80));
        assert!(w.fired_at().is_some());
        assert!(w.disarm());
        assert_eq!(hits.load(Ordering::SeqCst), 1);
        w.arm(soon(), &limits);
        assert!(!w.disarm());
        std::thread::sleep(Duration::from_millis(60));
        assert_eq!(hits.load(Ordering::SeqCst), 1);
        let flag = Arc::new(AtomicBool::new(true));
        w.arm(
            None,
            &Limits {
                interrupt: Some(flag),
                ..Limits::default()
            },
        );
        std::thread::sleep(Duration::from_millis(40));
        assert!(w.disarm());
        assert_eq!(hits.load(Ordering::SeqCst), 2);
    }
}
