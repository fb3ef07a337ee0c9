//! What a benchmark ran with, for `run.json` (see `record.rs`): each solver's version and
//! path, the times it started and ended, and the machine's load average at both. The machine is `crate::machine`'s
//! [`Description`](crate::machine::Description), recorded once, in `measurement`.

use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

/// One solver as the run found it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolverMeta {
    /// Name.
    pub name: String,
    /// Version, if known.
    pub version: Option<String>,
    /// Binary path (external solvers).
    pub path: Option<String>,
    /// SHA-256 of the binary (external solvers).
    #[serde(default)]
    pub sha256: Option<String>,
}

/// The machine's load averages over 1, 5 and 15 minutes, as `/proc/loadavg` gives them:
/// how much other work competed with the run's.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoadAverage {
    /// Over the last minute.
    pub one: f64,
    /// Over the last 5 minutes.
    pub five: f64,
    /// Over the last 15 minutes.
    pub fifteen: f64,
}

impl LoadAverage {
    /// The load average now (None where the kernel does not give it).
    pub fn now() -> Option<LoadAverage> {
        LoadAverage::parse(&std::fs::read_to_string("/proc/loadavg").ok()?)
    }

    /// `/proc/loadavg`'s text (`0.52 0.58 0.59 1/467 12345`) read.
    pub fn parse(text: &str) -> Option<LoadAverage> {
        let mut words = text.split_whitespace().map(|w| w.parse::<f64>().ok());
        let (one, five, fifteen) = (words.next()??, words.next()??, words.next()??);
        [one, five, fifteen]
            .iter()
            .all(|x| x.is_finite() && *x >= 0.0)
            .then_some(LoadAverage { one, five, fifteen })
    }
}

/// Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// A UTC time as (`2026-11-21T14:05:09Z`, `20261121-140509`).
pub fn utc_stamps(t: SystemTime) -> (String, String) {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()) as i64;
    let (y, mo, d) = civil_from_days(secs.div_euclid(86_400));
    let s = secs.rem_euclid(86_400);
    let (h, mi, se) = (s / 3600, s % 3600 / 60, s % 60);
    (
        format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{se:02}Z"),
        format!("{y:04}{mo:02}{d:02}-{h:02}{mi:02}{se:02}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn load_averages_read_from_the_kernel_text() {
        assert_eq!(
            LoadAverage::parse("0.52 1.58 2.59 1/467 12345\n"),
            Some(LoadAverage {
                one: 0.52,
                five: 1.58,
                fifteen: 2.59
            })
        );
        assert_eq!(LoadAverage::parse("0.52 x 1"), None);
        assert_eq!(LoadAverage::parse(""), None);
        assert_eq!(LoadAverage::parse("-1 0 0"), None);
    }

    #[test]
    fn stamps() {
        let t = UNIX_EPOCH + Duration::from_secs(1_795_268_709);
        assert_eq!(utc_stamps(t).0, "2026-11-21T13:45:09Z");
        assert_eq!(utc_stamps(UNIX_EPOCH).1, "19700101-000000");
    }
}
