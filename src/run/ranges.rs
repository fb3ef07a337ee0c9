//! The range of every numeric value of a plan, checked on a typed value: the one
//! validation that the command line (whose parsers in `cli/ranges.rs` call these) and
//! run.json (read back by `--resume`, `--study`, `bench merge` and `bench status`, see
//! [`super::plan::Plan::check_ranges`]) both pass through, so a value no command line may
//! give cannot reach the runner from a file either (`Duration::from_secs_f64(1e308)`, a
//! pool of 100,000 threads, 4e9 repetitions).

use std::sync::OnceLock;

/// The longest `--timeout`: a year, in seconds.
pub const MAX_TIMEOUT_S: f64 = 365.0 * 24.0 * 3600.0;
/// The shortest `--timeout`: a millisecond.
pub const MIN_TIMEOUT_S: f64 = 0.001;
/// The smallest `--mem-limit`, MiB: below it no solver (and no dynamic loader) starts.
pub const MIN_MEM_LIMIT_MB: u64 = 4;
/// The largest `--mem-limit`, MiB (16 TiB): larger values overflow byte counts nowhere,
/// but no machine has them.
pub const MAX_MEM_LIMIT_MB: u64 = 16 << 20;
/// `--jobs` may be up to this many times the cores (with a warning past the cores).
pub const JOBS_PER_CORE: usize = 4;
/// The largest `--repeat`.
pub const MAX_REPEAT: u32 = 10_000;
/// The largest `--count` as a number.
pub const MAX_COUNT: u32 = 1_000_000;
/// `--count all`: count up to this many solutions.
pub const COUNT_ALL: u32 = 10_000;
/// The largest `--shards` and `--max-parallel`.
pub const MAX_SHARDS: usize = 1_000_000;

/// The cores bench may use (1 if unknown).
pub fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The largest `--jobs` on this machine.
pub fn max_jobs() -> usize {
    cores() * JOBS_PER_CORE
}

/// A timeout: seconds, from a millisecond to a year.
pub fn timeout(t: f64) -> Result<f64, String> {
    if (MIN_TIMEOUT_S..=MAX_TIMEOUT_S).contains(&t) {
        Ok(t)
    } else {
        Err(format!(
            "{t} s is out of range: give {MIN_TIMEOUT_S} to {MAX_TIMEOUT_S} seconds (a year)"
        ))
    }
}

/// Parallel jobs: 1 to [`JOBS_PER_CORE`] times the cores.
pub fn jobs(n: usize) -> Result<usize, String> {
    let max = max_jobs();
    if (1..=max).contains(&n) {
        Ok(n)
    } else {
        Err(format!(
            "{n} is out of range: give 1 to {max} ({JOBS_PER_CORE} × the {} cores)",
            cores()
        ))
    }
}

/// A memory limit: MiB, from [`MIN_MEM_LIMIT_MB`] to [`MAX_MEM_LIMIT_MB`].
pub fn mem_limit(n: u64) -> Result<u64, String> {
    if (MIN_MEM_LIMIT_MB..=MAX_MEM_LIMIT_MB).contains(&n) {
        Ok(n)
    } else {
        Err(format!(
            "{n} MiB is out of range: give {MIN_MEM_LIMIT_MB} to {MAX_MEM_LIMIT_MB} MiB"
        ))
    }
}

/// A whole number in `lo..=hi`.
pub fn ranged<T: PartialOrd + std::fmt::Display + Copy>(n: T, lo: T, hi: T) -> Result<T, String> {
    if n >= lo && n <= hi {
        Ok(n)
    } else {
        Err(format!("{n} is out of range: give {lo} to {hi}"))
    }
}

/// Repetitions: 1 to [`MAX_REPEAT`].
pub fn repeat(n: u32) -> Result<u32, String> {
    ranged(n, 1, MAX_REPEAT)
}

/// Shards: 1 to [`MAX_SHARDS`].
pub fn shards(n: usize) -> Result<usize, String> {
    ranged(n, 1, MAX_SHARDS)
}

/// Solutions to count: 1 to [`MAX_COUNT`].
pub fn count(n: u32) -> Result<u32, String> {
    if (1..=MAX_COUNT).contains(&n) {
        Ok(n)
    } else {
        Err(format!(
            "{n} is not a count: give a number from 1 to {MAX_COUNT}, or `all` (up to \
             {COUNT_ALL})"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges() {
        assert!(timeout(1e308).is_err());
        assert!(timeout(f64::NAN).is_err());
        assert!(timeout(-1.0).is_err());
        assert_eq!(timeout(MAX_TIMEOUT_S), Ok(MAX_TIMEOUT_S));
        assert!(jobs(100_000).is_err());
        assert!(jobs(0).is_err());
        assert!(repeat(4_000_000_000).is_err());
        assert!(count(0).is_err());
        assert_eq!(count(COUNT_ALL), Ok(COUNT_ALL));
        assert!(shards(0).is_err());
        assert!(mem_limit(3).is_err());
    }
}
