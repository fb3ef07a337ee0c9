//! Restarts: when to give up the current decisions and start again from level 0 (keeping
//! learnt clauses, activities and saved phases).
//!
//! Two policies. **Luby** (MiniSat): restart after `unit · luby(i)` conflicts, the sequence
//! 1 1 2 1 1 2 4 1 1 2 … that is within a log factor of any optimal restart schedule
//! for unknown run-time distributions. **Glucose**: restart as soon as the learnt clauses
//! get worse than usual — when the mean LBD of the last 50 conflicts, scaled by `k = 0.8`,
//! exceeds the mean LBD over the whole run. Glucose also *blocks* a restart when the trail
//! is much longer than recently (`> 1.4 ×` the mean of the last 5000 conflicts): the solver
//! may be close to a model, which matters on satisfiable instances. The glucose policy
//! suits structured instances (puzzles, factoring); measured on random 3-SAT it needed
//! fewer conflicts than Luby's as well, and colouring formulas wanted Luby's.
//!
//! **Modes** (Kissat's and CaDiCaL's mode switching) alternates the two: a *focused*
//! phase under glucose's restarts, then a *stable* phase under Luby's (where
//! `rephase.rs` steers decisions by the target phases), and so on. The first focused
//! phase lasts [`MODE_INIT`] conflicts; the `k`-th phase after it (of either mode) lasts
//! `MODE_INIT · m²` conflicts, `m = ⌈k / 2⌉ + 1`, so both modes get about the same share
//! of the conflicts and the phases get longer as the search settles. Focused search
//! proves unsatisfiability fast on structured formulas (ordering, pigeonhole, Tseitin);
//! stable search with target phases finds models of satisfiable ones (colouring) that
//! frequent restarts keep tearing down. A switch happens at the first restart point
//! after the phase's conflicts are spent (the switch is itself a restart). Modes are
//! native's default (with target phases); `Options::plain()`, the plain engine the
//! puzzle generator uses, keeps glucose's.

/// Which restart policy the solver follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RestartPolicy {
    /// `unit · luby(i)` conflicts between restarts.
    Luby {
        /// Conflicts of the first (shortest) run.
        unit: u32,
    },
    /// Glucose's dynamic restarts on the LBD of recent learnt clauses.
    #[default]
    Glucose,
    /// Never restart.
    Never,
    /// Focused (glucose) and stable (Luby, `unit`) phases in turn (see the module note).
    Modes {
        /// Conflicts of the shortest Luby run in the stable phases.
        unit: u32,
    },
}

/// A fixed-size window of recent values with their running sum.
#[derive(Clone, Debug)]
struct Window {
    /// The values, used as a ring.
    values: Vec<u32>,
    /// The next slot to write.
    next: usize,
    /// Values stored (up to capacity).
    len: usize,
    /// Sum of the stored values.
    sum: u64,
}

impl Window {
    fn new(capacity: usize) -> Window {
        Window {
            values: vec![0; capacity],
            next: 0,
            len: 0,
            sum: 0,
        }
    }

    fn push(&mut self, x: u32) {
        if self.len == self.values.len() {
            self.sum -= self.values[self.next] as u64;
        } else {
            self.len += 1;
        }
        self.values[self.next] = x;
        self.sum += x as u64;
        self.next = (self.next + 1) % self.values.len();
    }

    fn is_full(&self) -> bool {
        self.len == self.values.len()
    }

    fn mean(&self) -> f64 {
        self.sum as f64 / self.len.max(1) as f64
    }

    fn clear(&mut self) {
        self.next = 0;
        self.len = 0;
        self.sum = 0;
    }
}

/// The restart state of one solver.
#[derive(Clone, Debug)]
pub struct Restarts {
    /// The policy.
    policy: RestartPolicy,
    /// Luby: conflicts since the last restart.
    conflicts_in_run: u64,
    /// Luby: index into the Luby sequence of the current run.
    luby_index: u32,
    /// Glucose: LBDs of the last 50 conflicts.
    recent_lbd: Window,
    /// Glucose: trail lengths at the last 5000 conflicts (restart blocking).
    recent_trail: Window,
    /// Glucose: sum of all LBDs, for the global mean.
    lbd_sum: u64,
    /// Glucose: conflicts seen (under glucose's restarts).
    conflicts: u64,
    /// Modes: the current phase is stable.
    stable: bool,
    /// Modes: phases ended so far.
    switches: u64,
    /// Modes: conflicts seen, all phases.
    total: u64,
    /// Modes: the value of `total` at which the current phase ends.
    next_switch: u64,
}

/// Conflicts of the first focused phase under [`RestartPolicy::Modes`].
pub const MODE_INIT: u64 = 1_000;

/// Glucose's margin: restart when recent LBDs exceed the global mean by 1/K.
const GLUCOSE_K: f64 = 0.8;
/// Glucose's blocking margin on the trail length.
const GLUCOSE_R: f64 = 1.4;
/// No blocking before this many conflicts (as in glucose).
const BLOCK_AFTER: u64 = 10_000;

impl Restarts {
    /// A fresh state for `policy`.
    pub fn new(policy: RestartPolicy) -> Restarts {
        Restarts {
            policy,
            conflicts_in_run: 0,
            luby_index: 0,
            recent_lbd: Window::new(50),
            recent_trail: Window::new(5000),
            lbd_sum: 0,
            conflicts: 0,
            stable: false,
            switches: 0,
            total: 0,
            next_switch: MODE_INIT,
        }
    }

    /// True under [`RestartPolicy::Modes`].
    pub fn switches_modes(&self) -> bool {
        matches!(self.policy, RestartPolicy::Modes { .. })
    }

    /// Mode switches so far (0 unless the policy is [`RestartPolicy::Modes`]).
    pub fn switches(&self) -> u64 {
        self.switches
    }

    /// Records a conflict whose learnt clause has `lbd`, with `trail_len` literals
    /// assigned when it happened.
    pub fn on_conflict(&mut self, lbd: u32, trail_len: usize) {
        self.conflicts_in_run += 1;
        self.total += 1;
        // Glucose's rule decides the restarts whenever the search is not stable.
        if !self.is_stable() {
            self.conflicts += 1;
            self.lbd_sum += lbd as u64;
            self.recent_trail.push(trail_len as u32);
            if self.conflicts > BLOCK_AFTER
                && self.recent_lbd.is_full()
                && trail_len as f64 > GLUCOSE_R * self.recent_trail.mean()
            {
                self.recent_lbd.clear();
            }
            self.recent_lbd.push(lbd);
        }
    }

    /// True under a policy of rare restarts (Luby or none): a *stable* search, as
    /// opposed to glucose's focused one (see `rephase.rs`).
    pub fn is_stable(&self) -> bool {
        match self.policy {
            RestartPolicy::Glucose => false,
            RestartPolicy::Modes { .. } => self.stable,
            _ => true,
        }
    }

    /// True when a restart is due.
    pub fn should_restart(&self) -> bool {
        match self.policy {
            RestartPolicy::Luby { unit } => self.luby_due(unit),
            RestartPolicy::Glucose => self.glucose_due(),
            RestartPolicy::Never => false,
            RestartPolicy::Modes { unit } => {
                self.phase_over()
                    || if self.stable {
                        self.luby_due(unit)
                    } else {
                        self.glucose_due()
                    }
            }
        }
    }

    /// Luby's rule: the current run has had its `unit · luby(i)` conflicts.
    fn luby_due(&self, unit: u32) -> bool {
        self.conflicts_in_run >= unit as u64 * luby(self.luby_index)
    }

    /// Modes: the current phase has had its conflicts.
    fn phase_over(&self) -> bool {
        self.switches_modes() && self.total >= self.next_switch
    }

    /// Glucose's rule: the recent LBDs are worse than the global mean.
    fn glucose_due(&self) -> bool {
        self.recent_lbd.is_full()
            && self.recent_lbd.mean() * GLUCOSE_K > self.lbd_sum as f64 / self.conflicts as f64
    }

    /// Records that the solver restarted (and switches modes when the phase is over).
    /// Returns true when the mode switched.
    pub fn restarted(&mut self) -> bool {
        self.conflicts_in_run = 0;
        self.recent_lbd.clear();
        if self.phase_over() {
            self.switches += 1;
            self.stable = !self.stable;
            let m = self.switches.div_ceil(2) + 1;
            self.next_switch = self.total + MODE_INIT * m * m;
            return true;
        }
        if self.is_stable() {
            self.luby_index += 1;
        }
        false
    }
}

/// The `i`-th element (0-based) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ….
pub fn luby(i: u32) -> u64 {
    // Find the finite subsequence 2^k - 1 long that contains index i, then descend.
    let mut size = 1u64;
    let mut seq = 0u32;
    let mut x = i as u64;
    while size < x + 1 {
        seq += 1;
        size = 2 * size + 1;
    }
    while size - 1 != x {
        size = (size - 1) >> 1;
        seq -= 1;
        x %= size;
    }
    1u64 << seq
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luby_sequence() {
        let got: Vec<u64> = (0..15).map(luby).collect();
        assert_eq!(got, vec![1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn luby_restarts_after_unit_times_luby() {
        let mut r = Restarts::new(RestartPolicy::Luby { unit: 10 });
        for _ in 0..9 {
            r.on_conflict(3, 10);
            assert!(!r.should_restart());
        }
        r.on_conflict(3, 10);
        assert!(r.should_restart());
        r.restarted();
        assert!(!r.should_restart());
    }

    #[test]
    fn modes_alternate_focused_and_stable_phases() {
        let mut r = Restarts::new(RestartPolicy::Modes { unit: 10 });
        assert!(!r.is_stable() && r.switches_modes());
        // Focused: steady LBDs never ask for a restart until the phase is spent.
        for _ in 0..MODE_INIT - 1 {
            r.on_conflict(4, 100);
            assert!(!r.should_restart());
        }
        r.on_conflict(4, 100);
        assert!(r.should_restart(), "the phase is over");
        r.restarted();
        assert!(r.is_stable() && r.switches() == 1);
        // Stable: Luby's runs of `unit` conflicts, whatever the LBDs.
        for _ in 0..9 {
            r.on_conflict(40, 100);
            assert!(!r.should_restart());
        }
        r.on_conflict(40, 100);
        assert!(r.should_restart());
        r.restarted();
        assert!(r.is_stable(), "a Luby restart is not a switch");
        // The second phase lasts MODE_INIT · 2² conflicts in all.
        let mut restarts = 0;
        while r.switches() == 1 {
            r.on_conflict(4, 100);
            if r.should_restart() {
                r.restarted();
                restarts += 1;
            }
        }
        assert!(!r.is_stable() && restarts > 1);
        assert_eq!(r.total, MODE_INIT + 4 * MODE_INIT);
    }

    #[test]
    fn glucose_restarts_when_recent_lbd_is_worse() {
        let mut r = Restarts::new(RestartPolicy::Glucose);
        for _ in 0..1000 {
            r.on_conflict(4, 100);
        }
        assert!(!r.should_restart(), "steady LBD: no restart");
        for _ in 0..50 {
            r.on_conflict(20, 100);
        }
        assert!(r.should_restart());
        r.restarted();
        assert!(
            !r.should_restart(),
            "the window starts empty after a restart"
        );
    }
}
