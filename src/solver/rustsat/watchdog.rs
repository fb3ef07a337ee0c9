//! The watchdog of an in-process library solver: a thread that fires the solver's
//! asynchronous interrupt when the deadline of the running call passes, the solving
//! thread's CPU clock (`pthread_getcpuclockid`) reaches the call's CPU limit, or bench's
//! interrupt flag (Ctrl-C) is set; it remembers which limit it fired at. While a call is
//! armed it wakes at the deadline, from the earliest instant the CPU limit can be reached
//! every [`TICK`], and every [`FLAG_LOOK`] for the flag (so a call stops at its deadline,
//! within a few milliseconds of its CPU limit, plus the solver's own reaction time), and
//! not more often: a session arms thousands of calls a second. After a while with nothing
//! armed it sleeps until the next arm, so idle sessions cost nothing. Arming and disarming
//! take a lock and nothing else: no thread wakes per call while calls follow each other
//! closely (an arm wakes it only when the call needs a look before its wait ends).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::solver::{LimitHit, Limits};

/// How often an armed watchdog looks at a CPU limit that may have been reached.
pub const TICK: Duration = Duration::from_millis(5);

/// How often an armed watchdog looks at bench's interrupt flag (Ctrl-C).
pub const FLAG_LOOK: Duration = Duration::from_millis(25);

/// Looks with nothing armed, [`FLAG_LOOK`] apart, before the thread sleeps (200 ms).
const IDLE_LOOKS: u32 = 8;

struct Armed {
    deadline: Option<Instant>,
    /// The solving thread's CPU clock, and the value at which the call stops.
    cpu: Option<(libc::clockid_t, Duration)>,
    /// The earliest instant the CPU limit can be reached (a thread's CPU clock runs no
    /// faster than the wall clock): no look at the CPU clock before.
    cpu_earliest: Option<Instant>,
    flag: Option<Arc<AtomicBool>>,
}

impl Armed {
    /// When to look next, looking `now`: at the deadline, at the earliest instant the
    /// CPU limit can be reached and every [`TICK`] after it, and every [`FLAG_LOOK`] for
    /// the interrupt flag.
    fn next_look(&self, now: Instant) -> Instant {
        let cpu = self.cpu_earliest.map(|at| at.max(now + TICK));
        let flag = self.flag.as_ref().map(|_| now + FLAG_LOOK);
        [self.deadline, cpu, flag]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(now + FLAG_LOOK)
    }
}

/// The CPU clock of the calling thread, and its value now.
fn own_cpu_clock() -> Option<(libc::clockid_t, Duration)> {
    let mut clock: libc::clockid_t = 0;
    // SAFETY: pthread_self is always valid for the calling thread; the call only writes
    // the clock id passed.
    if unsafe { libc::pthread_getcpuclockid(libc::pthread_self(), &mut clock) } != 0 {
        return None;
    }
    read_clock(clock).map(|now| (clock, now))
}

/// The value of CPU clock `clock`.
fn read_clock(clock: libc::clockid_t) -> Option<Duration> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the timespec passed.
    (unsafe { libc::clock_gettime(clock, &mut ts) } == 0).then(|| {
        Duration::new(
            ts.tv_sec.max(0) as u64,
            ts.tv_nsec.clamp(0, 999_999_999) as u32,
        )
    })
}

struct State {
    armed: Option<Armed>,
    /// When the interrupt fired during the current (or last) armed call.
    fired: Option<Instant>,
    /// The limit it fired at (None: bench's interrupt flag).
    fired_by: Option<LimitHit>,
    /// The thread sleeps until notified.
    sleeping: bool,
    /// When the thread's current wait ends, if it waits with a timeout: an arm that needs
    /// an earlier look wakes it.
    wake_at: Option<Instant>,
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
                fired_by: None,
                sleeping: true,
                wake_at: None,
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

    /// Arms `deadline`, the CPU limit of `limits` (on the calling thread's CPU clock: call
    /// it on the thread that solves, or move the clock there with
    /// [`Stopper::cpu_clock_here`]) and its interrupt flag for the call about to start.
    pub fn arm(&self, deadline: Option<Instant>, limits: &Limits) {
        let cpu = limits
            .cpu_limit
            .and_then(|c| own_cpu_clock().map(|(clock, now)| (clock, now + c)));
        let (m, cv) = &*self.shared;
        let mut s = lock(m);
        s.fired = None;
        s.fired_by = None;
        if deadline.is_none() && cpu.is_none() && limits.interrupt.is_none() {
            s.armed = None;
            return;
        }
        let armed = Armed {
            deadline,
            cpu,
            cpu_earliest: limits.cpu_limit.map(|c| Instant::now() + c),
            flag: limits.interrupt.clone(),
        };
        // The thread wakes for this call unless its current wait ends in time.
        let wake = s.sleeping
            || s.wake_at.is_none_or(|at| {
                let now = Instant::now();
                armed.next_look(now) < at
            });
        s.armed = Some(armed);
        if wake {
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

    /// The limit the interrupt fired at during the last armed call: the CPU limit, else
    /// the wall deadline (also when it did not fire: a call that came back stopped
    /// without it was stopped at the deadline the solver looks at itself).
    pub fn limit_hit(&self) -> LimitHit {
        lock(&self.shared.0).fired_by.unwrap_or(LimitHit::Wall)
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
    /// Moves the armed call's CPU limit to the calling thread's CPU clock (a call solved
    /// on a thread of its own, see `abandon.rs`), keeping what is left of it.
    pub fn cpu_clock_here(&self) {
        let mut s = lock(&self.0.0);
        let Some(armed) = s.armed.as_mut() else {
            return;
        };
        if let (Some((old, at)), Some((clock, now))) = (armed.cpu, own_cpu_clock()) {
            let left = at.saturating_sub(read_clock(old).unwrap_or(at));
            armed.cpu = Some((clock, now + left));
            armed.cpu_earliest = Some(Instant::now() + left);
            // Sooner than the watchdog's wait may end: it looks again now.
            self.0.1.notify_one();
        }
    }

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
            // Armed: until the next instant a limit can be reached or the flag is due a
            // look (not every tick: a session makes thousands of calls a second, each
            // armed, and a wake costs the machine); idle: a flag look, counted to sleep.
            let now = Instant::now();
            let at = s
                .armed
                .as_ref()
                .map_or(now + FLAG_LOOK, |a| a.next_look(now));
            s.wake_at = Some(at);
            cv.wait_timeout(s, at.saturating_duration_since(now))
                .unwrap_or_else(|p| p.into_inner())
                .0
        };
        s.wake_at = None;
        if s.stop {
            return;
        }
        match &s.armed {
            Some(a) => {
                idle = 0;
                let late = a.deadline.is_some_and(|d| Instant::now() >= d);
                let spent = a
                    .cpu
                    .is_some_and(|(clock, at)| read_clock(clock).is_some_and(|now| now >= at));
                let flagged = a.flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed));
                if late || spent || flagged {
                    if let Some(f) = &s.interrupt {
                        f();
                    }
                    s.fired = Some(Instant::now());
                    s.fired_by = if spent {
                        Some(LimitHit::Cpu)
                    } else {
                        late.then_some(LimitHit::Wall)
                    };
                    s.armed = None;
                }
            }
            None => {
                idle += 1;
                if idle >= IDLE_LOOKS {
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
        // Waits for the watchdog to fire, however loaded the machine (a hang guard only).
        let fired = |w: &Watchdog| {
            let t = Instant::now();
            while w.fired_at().is_none() && t.elapsed() < Duration::from_secs(120) {
                std::thread::sleep(Duration::from_millis(5));
            }
        };
        w.arm(Some(Instant::now() + Duration::from_millis(20)), &limits);
        fired(&w);
        assert!(w.fired_at().is_some());
        assert!(w.disarm());
        assert_eq!(hits.load(Ordering::SeqCst), 1);
        // Disarmed before a deadline no load reaches: it never fires.
        w.arm(Some(Instant::now() + Duration::from_secs(600)), &limits);
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
        fired(&w);
        assert!(w.disarm());
        assert_eq!(hits.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn an_earlier_deadline_wakes_a_watchdog_waiting_for_a_later_one() {
        let w = Watchdog::new(Box::new(|| {}));
        let limits = Limits::default();
        // Armed with a deadline no test reaches: the thread waits for it, looking at
        // nothing before (no flag, no CPU limit).
        w.arm(Some(Instant::now() + Duration::from_secs(3600)), &limits);
        std::thread::sleep(Duration::from_millis(20));
        assert!(!w.disarm());
        // The next call's deadline comes first: the arm wakes the thread, which fires at it
        // (a hang guard only, far below the hour).
        w.arm(Some(Instant::now() + Duration::from_millis(10)), &limits);
        let t = Instant::now();
        while w.fired_at().is_none() && t.elapsed() < Duration::from_secs(120) {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(w.disarm());
        assert_eq!(w.limit_hit(), LimitHit::Wall);
    }

    #[test]
    fn fires_at_the_cpu_limit_of_the_solving_thread_alone() {
        let w = Watchdog::new(Box::new(|| {}));
        let cpu = Limits {
            cpu_limit: Some(Duration::from_millis(50)),
            ..Limits::default()
        };
        // Sleeping spends no CPU: no fire, however long the sleep.
        w.arm(None, &cpu);
        std::thread::sleep(Duration::from_millis(100));
        assert!(w.fired_at().is_none());
        // Spinning does: it fires, at the CPU limit.
        let mut x = 0u64;
        let t = Instant::now();
        while w.fired_at().is_none() && t.elapsed() < Duration::from_secs(120) {
            x = x.wrapping_add(std::hint::black_box(1));
        }
        std::hint::black_box(x);
        assert!(w.disarm());
        assert_eq!(w.limit_hit(), LimitHit::Cpu);
    }
}
