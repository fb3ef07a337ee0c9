//! How much memory a formula may take while it is read, and what may stop a read early.
//!
//! The budget counts the bytes of the clause arrays a reader holds, by their capacity, and
//! counts a growth as the old and the new array together (a reallocation holds both for a
//! moment): the arrays never pass it. It is `--mem-limit` where given, else half of the
//! memory the machine has available (`MemAvailable`); either way no more than half of the
//! address space left under bench's own `RLIMIT_AS` (`ulimit -v`), so a read refused for
//! size ends as a row, never as an abort. Beyond the arrays a read holds a fixed amount:
//! three 64 KiB buffers, a gzip window (32 KiB) or an xz dictionary (at most
//! [`XZ_MEMLIMIT`]), a `c bench` line of at most [`MAX_BENCH_LINE`] bytes.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The most memory the xz decoder may use (its dictionary): `xz -9` needs 65 MiB to
/// decode; a file asking for more is refused as unreadable.
pub const XZ_MEMLIMIT: u64 = 256 << 20;

/// The longest `c bench` comment line kept (bench writes a puzzle there: a 1000×1000
/// pair is well under this). Other comment lines are skipped, never held.
pub const MAX_BENCH_LINE: usize = 16 << 20;

/// The longest `p cnf` header line.
pub const MAX_HEADER_LINE: usize = 1024;

/// The limits of one read.
#[derive(Clone, Copy, Debug)]
pub struct ReadLimits<'a> {
    /// Bytes the clause arrays may take (None: no budget beyond what allocation allows;
    /// a failed allocation is still an error, never an abort).
    pub budget: Option<u64>,
    /// Set by Ctrl-C: the read stops, looked at every 64 KiB of input.
    pub interrupt: Option<&'a AtomicBool>,
    /// The read stops at this instant, looked at every 64 KiB of input.
    pub deadline: Option<Instant>,
}

impl Default for ReadLimits<'_> {
    /// The machine's budget ([`machine_budget`] without a memory limit), nothing else.
    fn default() -> Self {
        ReadLimits {
            budget: machine_budget(None),
            interrupt: None,
            deadline: None,
        }
    }
}

impl ReadLimits<'_> {
    /// Why the read must stop now, if it must.
    pub(super) fn stop(&self) -> Option<&'static str> {
        if self.interrupt.is_some_and(|i| i.load(Ordering::Relaxed)) {
            return Some("interrupted");
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some("the time limit passed");
        }
        None
    }
}

/// The budget of a read: `mem_limit_mb` MiB where given, else half of `MemAvailable`;
/// never more than half the address space left under `RLIMIT_AS`. None when nothing is
/// known (no /proc, no limit).
pub fn machine_budget(mem_limit_mb: Option<u64>) -> Option<u64> {
    let room = address_space_left().map(|b| b / 2);
    let wanted = match mem_limit_mb {
        Some(mb) => Some(mb.saturating_mul(1 << 20)),
        None => mem_available().map(|b| b / 2),
    };
    match (wanted, room) {
        (Some(w), Some(r)) => Some(w.min(r)),
        (w, r) => w.or(r),
    }
}

/// `MemAvailable` of /proc/meminfo, bytes.
fn mem_available() -> Option<u64> {
    proc_field("/proc/meminfo", "MemAvailable:")
}

/// `RLIMIT_AS` less the address space bench already uses (`VmSize`), bytes; None when
/// unlimited.
fn address_space_left() -> Option<u64> {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct it is given.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut lim) } != 0
        || lim.rlim_cur == libc::RLIM_INFINITY
    {
        return None;
    }
    let used = proc_field("/proc/self/status", "VmSize:").unwrap_or(0);
    Some(lim.rlim_cur.saturating_sub(used))
}

/// A `NAME: N kB` field of a /proc file, in bytes.
fn proc_field(file: &str, name: &str) -> Option<u64> {
    let text = std::fs::read_to_string(file).ok()?;
    let kb: u64 = text
        .lines()
        .find(|l| l.starts_with(name))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(kb * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_memory_limit_is_the_budget_within_the_machine() {
        assert!(machine_budget(Some(100)).is_some_and(|b| b <= 100 << 20));
        assert!(machine_budget(None).is_some_and(|b| b > 0));
    }
}
