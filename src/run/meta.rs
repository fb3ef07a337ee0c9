//! What a benchmark ran with, for `run.json` (see `record.rs`): each solver's version and
//! path, and the times it started and ended. The machine is `crate::machine`'s
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
    fn stamps() {
        let t = UNIX_EPOCH + Duration::from_secs(1_795_268_709);
        assert_eq!(utc_stamps(t).0, "2026-11-21T13:45:09Z");
        assert_eq!(utc_stamps(UNIX_EPOCH).1, "19700101-000000");
    }
}
