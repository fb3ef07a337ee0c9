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
//!
//! Reads that run at once (the workers of a run) may share one [`Account`]: each growth
//! reserves its bytes there first, and a read gives back all it holds when it ends, so
//! several reads together stay within the one budget (their fixed parts aside).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
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
    /// The account shared with the other reads in progress, if any: every growth is
    /// reserved there too.
    pub account: Option<&'a Account>,
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
            account: None,
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

/// One budget shared by the reads in progress: bytes reserved against a limit, atomically.
#[derive(Debug)]
pub struct Account {
    limit: u64,
    reserved: AtomicU64,
}

impl Account {
    /// An account of `limit` bytes, none reserved.
    pub fn new(limit: u64) -> Account {
        Account {
            limit,
            reserved: AtomicU64::new(0),
        }
    }

    /// The limit, bytes.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Bytes reserved now, by all the reads.
    pub fn reserved(&self) -> u64 {
        self.reserved.load(Ordering::Acquire)
    }

    /// Reserves up to `want` bytes (as many as are free); returns how many.
    fn take_up_to(&self, want: u64) -> u64 {
        let mut now = self.reserved.load(Ordering::Acquire);
        loop {
            let got = want.min(self.limit.saturating_sub(now));
            if got == 0 {
                return 0;
            }
            match self.reserved.compare_exchange_weak(
                now,
                now + got,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return got,
                Err(seen) => now = seen,
            }
        }
    }

    fn give_back(&self, bytes: u64) {
        self.reserved.fetch_sub(bytes, Ordering::AcqRel);
    }
}

/// What one read holds in an [`Account`]; given back when dropped (the read ended, well
/// or not).
#[derive(Debug)]
pub struct Held<'a> {
    account: Option<&'a Account>,
    bytes: u64,
}

impl<'a> Held<'a> {
    /// Nothing held yet in `account` (None: no account, nothing to hold).
    pub fn new(account: Option<&'a Account>) -> Held<'a> {
        Held { account, bytes: 0 }
    }

    /// Makes room to grow an array of `old` bytes to at most `new` bytes, the two held
    /// together while it grows: the bytes granted for the new array (`new` when there is
    /// no account), which [`Held::grown`] or [`Held::not_grown`] must settle.
    pub fn reserve(&mut self, old: u64, new: u64) -> u64 {
        match self.account {
            None => new,
            Some(a) if new > old => {
                let got = a.take_up_to(new);
                self.bytes += got;
                got
            }
            Some(_) => 0,
        }
    }

    /// The array grew to `used` of the `granted` bytes and its `old` bytes are free.
    pub fn grown(&mut self, old: u64, used: u64, granted: u64) {
        self.release(old + granted.saturating_sub(used));
    }

    /// The array could not grow: the `granted` bytes go back.
    pub fn not_grown(&mut self, granted: u64) {
        self.release(granted);
    }

    fn release(&mut self, bytes: u64) {
        if let Some(a) = self.account {
            let bytes = bytes.min(self.bytes);
            a.give_back(bytes);
            self.bytes -= bytes;
        }
    }
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        let bytes = self.bytes;
        self.release(bytes);
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
pub fn address_space_left() -> Option<u64> {
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

    #[test]
    fn reads_share_one_account_and_give_back_what_they_held() {
        let account = Account::new(1000);
        let mut a = Held::new(Some(&account));
        let mut b = Held::new(Some(&account));
        // a grows 0 → 600 bytes.
        assert_eq!(a.reserve(0, 600), 600);
        a.grown(0, 600, 600);
        // b may have only what is left.
        assert_eq!(b.reserve(0, 800), 400);
        b.grown(0, 400, 400);
        assert_eq!(account.reserved(), 1000);
        // a's next growth finds nothing free.
        assert_eq!(a.reserve(600, 1200), 0);
        a.not_grown(0);
        drop(b);
        assert_eq!(account.reserved(), 600);
        // Growing 600 → 900 holds both (1500) for a moment: only 400 are free.
        assert_eq!(a.reserve(600, 900), 400);
        a.not_grown(400);
        drop(a);
        assert_eq!(account.reserved(), 0);
    }
}
