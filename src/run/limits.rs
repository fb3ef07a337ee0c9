//! A plan's limits of every run as one typed value ([`RunLimits`]): the wall-clock limit
//! (`--timeout`), the CPU-time limit (`--cpu-limit`) and the memory limit
//! (`--mem-limit`), validated once ([`RunLimits::of`] from the command line,
//! [`RunLimits::check_ranges`] from run.json) and carried as such. In run.json they are
//! the plan's fields `timeout_s`, `cpu_limit_s` (left out when none, so a plan without one
//! keeps its fingerprint) and `mem_limit_mb`.
//!
//! Given one time limit, the other follows a stated convention:
//! - `--cpu-limit C` alone: the wall limit is `2 × C + 10 s` ([`wall_for_cpu`]), a backstop
//!   for a solver that sleeps or waits, far enough above C that a solver sharing its core
//!   with one other process (half a core) still reaches its CPU limit first;
//! - `--timeout W` alone: no CPU limit, runs are held to the wall clock alone;
//! - neither: `--timeout 100`, no CPU limit.
//!
//! The limit runs are scored against ([`RunLimits::score_limit_s`]) is the CPU limit when
//! there is one, else the wall limit.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::ranges;

/// The wall-clock limit when none is given and no CPU limit either, seconds.
pub const DEFAULT_TIMEOUT_S: f64 = 100.0;

/// The wall limit that goes with CPU limit `cpu_s` alone: `2 × cpu_s + 10 s`, at most
/// the longest timeout.
pub fn wall_for_cpu(cpu_s: f64) -> f64 {
    (2.0 * cpu_s + 10.0).min(ranges::MAX_TIMEOUT_S)
}

/// The limits of each run of a plan.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunLimits {
    /// Wall-clock limit, seconds.
    pub timeout_s: f64,
    /// CPU-time limit (user + system, over the run's whole process tree; an in-process
    /// solver's thread), seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_limit_s: Option<f64>,
    /// Memory limit, MiB.
    pub mem_limit_mb: Option<u64>,
}

impl Default for RunLimits {
    fn default() -> RunLimits {
        RunLimits {
            timeout_s: DEFAULT_TIMEOUT_S,
            cpu_limit_s: None,
            mem_limit_mb: None,
        }
    }
}

impl RunLimits {
    /// The limits the command line gives (each already in range, see `cli/ranges.rs`),
    /// with the convention above for a time limit not given.
    pub fn of(
        timeout_s: Option<f64>,
        cpu_limit_s: Option<f64>,
        mem_limit_mb: Option<u64>,
    ) -> Result<RunLimits, String> {
        let timeout_s = match (timeout_s, cpu_limit_s) {
            (Some(t), _) => t,
            (None, Some(c)) => wall_for_cpu(c),
            (None, None) => DEFAULT_TIMEOUT_S,
        };
        let limits = RunLimits {
            timeout_s,
            cpu_limit_s,
            mem_limit_mb,
        };
        limits.check_ranges()?;
        Ok(limits)
    }

    /// The wall-clock limit.
    pub fn wall(&self) -> Duration {
        Duration::from_secs_f64(self.timeout_s)
    }

    /// The CPU-time limit, if any.
    pub fn cpu(&self) -> Option<Duration> {
        self.cpu_limit_s.map(Duration::from_secs_f64)
    }

    /// The limit a run is scored against (PAR-2's penalty is twice it): the CPU limit
    /// when there is one, else the wall limit.
    pub fn score_limit_s(&self) -> f64 {
        self.cpu_limit_s.unwrap_or(self.timeout_s)
    }

    /// Holds each limit to its range (the command line's): `Err` names the field.
    pub fn check_ranges(&self) -> Result<(), String> {
        let field = |name: &str, r: Result<(), String>| r.map_err(|e| format!("{name}: {e}"));
        field("timeout_s", ranges::timeout(self.timeout_s).map(drop))?;
        if let Some(c) = self.cpu_limit_s {
            field("cpu_limit_s", ranges::timeout(c).map(drop))?;
        }
        if let Some(mb) = self.mem_limit_mb {
            field("mem_limit_mb", ranges::mem_limit(mb).map(drop))?;
        }
        Ok(())
    }

    /// The limits in words, for the start of a run: `wall 100 s`, `CPU 10 s (wall 30 s)`.
    pub fn describe(&self) -> String {
        let time = match self.cpu_limit_s {
            Some(c) => format!("CPU {c} s, wall {} s", self.timeout_s),
            None => format!("wall {} s", self.timeout_s),
        };
        match self.mem_limit_mb {
            Some(mb) => format!("{time}, memory {mb} MiB"),
            None => time,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_convention_for_a_limit_not_given() {
        let cpu_only = RunLimits::of(None, Some(10.0), None).unwrap();
        assert_eq!(
            (cpu_only.timeout_s, cpu_only.cpu_limit_s),
            (30.0, Some(10.0))
        );
        assert_eq!(cpu_only.score_limit_s(), 10.0);
        let wall_only = RunLimits::of(Some(5.0), None, Some(100)).unwrap();
        assert_eq!((wall_only.timeout_s, wall_only.cpu_limit_s), (5.0, None));
        assert_eq!(wall_only.score_limit_s(), 5.0);
        assert_eq!(
            RunLimits::of(None, None, None).unwrap(),
            RunLimits::default()
        );
        let both = RunLimits::of(Some(3.0), Some(20.0), None).unwrap();
        assert_eq!((both.timeout_s, both.cpu_limit_s), (3.0, Some(20.0)));
        assert!(RunLimits::of(None, Some(-1.0), None).is_err());
        assert_eq!(
            RunLimits::of(None, Some(ranges::MAX_TIMEOUT_S), None)
                .unwrap()
                .timeout_s,
            ranges::MAX_TIMEOUT_S
        );
    }

    #[test]
    fn no_cpu_limit_is_left_out_of_the_json() {
        let json = serde_json::to_value(RunLimits::default()).unwrap();
        assert!(json.get("cpu_limit_s").is_none(), "{json}");
        let back: RunLimits = serde_json::from_value(json).unwrap();
        assert_eq!(back, RunLimits::default());
    }
}
