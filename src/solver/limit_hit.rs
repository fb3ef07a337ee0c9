//! Which limit ended a run (the `limit` column of the results CSV): the wall-clock limit
//! (`--timeout`), the CPU-time limit (`--cpu-limit`) or the memory limit (`--mem-limit`).
//! A TIMEOUT row names `wall` or `cpu`, a MEMOUT row `memory`; every other row none. CSVs
//! written before bench recorded it have no such column: their TIMEOUT rows read as ended
//! by an unknown limit (empty), which the report takes as the wall limit, the only one
//! bench had then.

use std::time::Duration;

/// The limit that ended a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LimitHit {
    /// The wall-clock limit.
    Wall,
    /// The CPU-time limit (user + system, the run's whole process tree, or an in-process
    /// solver's thread).
    Cpu,
    /// The memory limit.
    Memory,
}

impl LimitHit {
    /// The name in the CSV: `wall`, `cpu` or `memory`.
    pub fn as_str(self) -> &'static str {
        match self {
            LimitHit::Wall => "wall",
            LimitHit::Cpu => "cpu",
            LimitHit::Memory => "memory",
        }
    }
}

impl std::fmt::Display for LimitHit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A solve's time limits, as an in-process solver holds them on its own thread: a wall
/// deadline and a value of the thread's CPU clock (`CLOCK_THREAD_CPUTIME_ID`), each
/// optional; [`Clocks::passed`] says which one has passed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clocks {
    /// Stop after this instant.
    pub wall: Option<std::time::Instant>,
    /// Stop when the calling thread's CPU clock reaches this.
    pub cpu: Option<Duration>,
}

impl Clocks {
    /// The clocks of a solve that starts now on this thread, held to `wall` and `cpu`.
    pub fn starting_now(wall: Option<Duration>, cpu: Option<Duration>) -> Clocks {
        Clocks {
            wall: wall.and_then(|t| std::time::Instant::now().checked_add(t)),
            cpu: cpu.and_then(|c| super::thread_cpu_time().map(|now| now + c)),
        }
    }

    /// Which limit has passed, if one has: the wall deadline, else the thread's CPU
    /// clock (read only when it is limited: a system call).
    pub fn passed(&self) -> Option<LimitHit> {
        if self.wall.is_some_and(|d| std::time::Instant::now() >= d) {
            return Some(LimitHit::Wall);
        }
        let cpu = self.cpu?;
        super::thread_cpu_time()
            .is_some_and(|now| now >= cpu)
            .then_some(LimitHit::Cpu)
    }
}
