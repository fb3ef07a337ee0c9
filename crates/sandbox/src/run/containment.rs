//! What containment runs get on this machine (control groups v2 or v1, else a child
//! subreaper, else a process group), detected once, and the temporary folders of runs.

use std::io;
use std::sync::OnceLock;

use super::DEFAULT_PIDS_LIMIT;
use super::helper::helper;
use crate::cgroup::{self, Parents};

/// How a run is contained, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A control group (v2) of its own: memory limit and measures over all its processes.
    CgroupV2,
    /// A control group (v1) of its own.
    CgroupV1,
    /// The exec helper as child subreaper: address-space limit per process, CPU time
    /// summed over reaped descendants.
    Subreaper,
    /// A process group of its own, no helper.
    ProcessGroup,
}

impl Kind {
    /// The name on stderr and in run.json: `cgroup-v2`, `cgroup-v1`, `subreaper` or
    /// `process-group`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::CgroupV2 => "cgroup-v2",
            Kind::CgroupV1 => "cgroup-v1",
            Kind::Subreaper => "subreaper",
            Kind::ProcessGroup => "process-group",
        }
    }
}

/// How runs are contained on this machine: detected once per process.
#[derive(Clone, Debug)]
pub struct Containment {
    /// Where run groups are made, if they can be.
    pub parents: Option<Parents>,
    /// Why no group can be made (the fallback's reason).
    pub fallback_reason: Option<String>,
}

impl Containment {
    /// One line for `bench run`'s start and run.json's `containment_detail`: the
    /// [`kind`](Self::kind), then what it means here.
    pub fn describe(&self) -> String {
        let detail = match (&self.parents, helper()) {
            (_, None) => "no usable exec helper ($BENCH_EXEC names none that speaks this \
                          bench's protocol): each solver runs in a process group of its \
                          own, with an address-space limit per process"
                .to_string(),
            (Some(p), Some(_)) => format!(
                "{}: one group per run, memory limit and measures over all its processes, \
                 at most {DEFAULT_PIDS_LIMIT} processes",
                p.describe()
            ),
            (None, Some(_)) => format!(
                "no cgroups ({}): process group and child subreaper, address-space limit \
                 per process, CPU time summed over reaped descendants",
                self.fallback_reason.as_deref().unwrap_or("unavailable")
            ),
        };
        format!("{}: {detail}", self.kind())
    }

    /// The state's one name, on stderr and in run.json alike: `cgroup-v2`, `cgroup-v1`,
    /// `subreaper` or `process-group`.
    pub fn kind(&self) -> &'static str {
        self.contained().as_str()
    }

    /// The [`Kind`] of the runs through the helper here.
    pub fn contained(&self) -> Kind {
        match (&self.parents, helper()) {
            (_, None) => Kind::ProcessGroup,
            (Some(p), _) if p.version == cgroup::Version::V2 => Kind::CgroupV2,
            (Some(_), _) => Kind::CgroupV1,
            (None, _) => Kind::Subreaper,
        }
    }
}

/// The containment runs get here (cgroups are looked for once; `BENCH_NO_CGROUPS=1`
/// turns them off).
pub fn containment() -> &'static Containment {
    static CONTAINMENT: OnceLock<Containment> = OnceLock::new();
    CONTAINMENT.get_or_init(|| match cgroup::detect() {
        Ok(p) => Containment {
            parents: Some(p),
            fallback_reason: None,
        },
        Err(e) => Containment {
            parents: None,
            fallback_reason: Some(e),
        },
    })
}

/// The prefix of every temporary folder bench makes: `bench-run-<pid>-`, so that a later
/// bench can tell the folders of a killed one ([`remove_stale`]).
pub fn temp_prefix() -> String {
    format!("bench-run-{}-", std::process::id())
}

/// A new temporary folder named with [`temp_prefix`].
pub fn temp_dir() -> io::Result<tempfile::TempDir> {
    tempfile::Builder::new().prefix(&temp_prefix()).tempdir()
}

/// Removes the temporary folders (`bench-run-<pid>-*`) and control groups
/// (`bench-<pid>-*`) of bench processes that no longer exist; returns how many of each.
pub fn remove_stale() -> (usize, usize) {
    let mut dirs = 0;
    if let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if cgroup::owner_pid(&name, "bench-run-").is_some_and(|p| !cgroup::alive(p))
                && e.file_type().is_ok_and(|t| t.is_dir())
                && std::fs::remove_dir_all(e.path()).is_ok()
            {
                dirs += 1;
            }
        }
    }
    let groups = containment()
        .parents
        .as_ref()
        .map_or(0, cgroup::remove_stale);
    (dirs, groups)
}
