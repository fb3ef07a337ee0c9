//! The ranges of the numeric options, checked by clap as the command line is read: a value
//! outside its range is refused at the door with the range in the message (and `--help`
//! states each range), so nothing the command line accepts can overflow or panic later
//! (`Duration::from_secs_f64(1e308)`, `k * k` of a huge box, a pool of 100,000 threads).

use crate::run::ranges as plan;
pub use crate::run::ranges::{
    JOBS_PER_CORE, MAX_COUNT, MAX_MEM_LIMIT_MB, MAX_REPEAT, MAX_SHARDS, MAX_TIMEOUT_S,
    MIN_MEM_LIMIT_MB, MIN_TIMEOUT_S, cores, max_jobs,
};

/// The largest `bench gen --count` and `--pool`.
pub const MAX_GEN_COUNT: usize = 10_000_000;
/// The largest `--shuffles`.
pub const MAX_SHUFFLES: usize = 1_000;

fn number<T: std::str::FromStr>(s: &str, what: &str) -> Result<T, String> {
    s.trim().parse().map_err(|_| format!("`{s}` is not {what}"))
}

/// `--timeout`: seconds, from a millisecond to a year.
pub fn timeout(s: &str) -> Result<f64, String> {
    plan::timeout(number(s, "a number of seconds")?)
}

/// `--jobs`: 1 to [`JOBS_PER_CORE`] times the cores; past the cores, runs share cores and
/// their times suffer, which is said on stderr.
pub fn jobs(s: &str) -> Result<usize, String> {
    let n = plan::jobs(number(s, "a number of jobs")?)?;
    if n > cores() {
        eprintln!(
            "bench: warning: --jobs {n} is more than the {} cores: runs share cores, and \
             their times are not those of a run alone",
            cores()
        );
    }
    Ok(n)
}

/// `--mem-limit`: MiB, from [`MIN_MEM_LIMIT_MB`] to [`MAX_MEM_LIMIT_MB`].
pub fn mem_limit(s: &str) -> Result<u64, String> {
    plan::mem_limit(number(s, "a number of MiB")?)
}

/// A whole number in `lo..=hi`.
fn ranged<T>(s: &str, lo: T, hi: T) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy,
{
    plan::ranged(number(s, "a whole number")?, lo, hi)
}

/// `--repeat`: 1 to [`MAX_REPEAT`].
pub fn repeat(s: &str) -> Result<u32, String> {
    ranged(s, 1, MAX_REPEAT)
}

/// `--shards`, `--max-parallel`: 1 to [`MAX_SHARDS`].
pub fn shards(s: &str) -> Result<usize, String> {
    ranged(s, 1, MAX_SHARDS)
}

/// `bench gen --count`, `--pool`: 1 to [`MAX_GEN_COUNT`].
pub fn gen_count(s: &str) -> Result<usize, String> {
    ranged(s, 1, MAX_GEN_COUNT)
}

/// `--shuffles`: 1 to [`MAX_SHUFFLES`].
pub fn shuffles(s: &str) -> Result<usize, String> {
    ranged(s, 1, MAX_SHUFFLES)
}

/// `--box`: 2 to the largest box whose square is a side bench reads.
pub fn box_size(s: &str) -> Result<usize, String> {
    ranged(s, 2, crate::puzzle::MAX_SIDE.isqrt())
}

/// `--side`: 2 to [`crate::puzzle::MAX_SIDE`].
pub fn side(s: &str) -> Result<usize, String> {
    ranged(s, 2, crate::puzzle::MAX_SIDE)
}

/// `--givens`: 0 to the cells of two largest boards.
pub fn givens(s: &str) -> Result<usize, String> {
    ranged(s, 0, 2 * crate::puzzle::MAX_SIDE * crate::puzzle::MAX_SIDE)
}

/// `--min-rating`: a finite number ≥ 0.
pub fn rating(s: &str) -> Result<f64, String> {
    let r: f64 = number(s, "a number")?;
    if r.is_finite() && r >= 0.0 {
        Ok(r)
    } else {
        Err(format!("{s} is out of range: give a finite number ≥ 0"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges() {
        assert!(timeout("1e308").is_err());
        assert!(timeout("NaN").is_err());
        assert!(timeout("inf").is_err());
        assert!(timeout("0").is_err());
        assert_eq!(timeout("31536000"), Ok(MAX_TIMEOUT_S));
        assert!(mem_limit("0").is_err());
        assert_eq!(mem_limit("4"), Ok(4));
        assert!(jobs("0").is_err());
        assert!(jobs("100000").is_err());
        assert_eq!(jobs("1"), Ok(1));
        assert_eq!(box_size("31"), Ok(31));
        assert!(box_size("32").is_err());
        assert!(box_size("18446744073709551615").is_err());
    }
}
