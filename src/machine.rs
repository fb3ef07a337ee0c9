//! The machine as far as it bears on measurements, and the placing of runs on it.
//!
//! [`Description`] records what a paper states about its machine (CPU model, physical and
//! logical cores, frequency governor and turbo where the kernel shows them, memory, swap,
//! kernel) and [`warnings`] says, before a run, what would skew its times: more jobs than
//! physical cores, runs on the hyper-threads of one core, a power-saving governor, swap in
//! use, other work keeping the cores busy. [`Placement`] gives each worker its own
//! physical core, as BenchExec does: a worker thread pinned with `sched_setaffinity` keeps
//! the pin for the solver it runs in-process and hands it, through fork and exec, to every
//! solver process it starts (affinity is inherited), so a run never migrates or shares a
//! core with another run. [`sha256_file`] fingerprints the solver binaries.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Read;
use std::path::Path;

use anyhow::bail;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// A logical CPU and the physical core it belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cpu {
    /// The logical CPU number (what `taskset` and `Cpus_allowed_list` name).
    pub id: usize,
    /// (package, core): CPUs with the same pair are hyper-thread siblings.
    pub core: (usize, usize),
}

/// The logical CPUs this process may run on, with their cores, by CPU number.
pub fn allowed_cpus() -> Vec<Cpu> {
    let read = |cpu: usize, what: &str| {
        std::fs::read_to_string(format!("/sys/devices/system/cpu/cpu{cpu}/topology/{what}"))
            .ok()
            .and_then(|s| s.trim().parse::<usize>().ok())
    };
    allowed_ids()
        .into_iter()
        .map(|id| Cpu {
            id,
            // Without topology, every CPU counts as its own core.
            core: (
                read(id, "physical_package_id").unwrap_or(0),
                read(id, "core_id").unwrap_or(id),
            ),
        })
        .collect()
}

/// The CPU numbers in this thread's affinity mask.
fn allowed_ids() -> Vec<usize> {
    // SAFETY: cpu_set_t is plain data; sched_getaffinity fills it for the calling thread.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            let n = std::thread::available_parallelism().map_or(1, |n| n.get());
            return (0..n).collect();
        }
        (0..libc::CPU_SETSIZE as usize)
            .filter(|&c| libc::CPU_ISSET(c, &set))
            .collect()
    }
}

/// Pins the calling thread (and what it starts from now on) to the logical CPU `cpu`.
pub fn pin_current_thread(cpu: usize) -> std::io::Result<()> {
    // SAFETY: as above; the set holds one CPU below CPU_SETSIZE (checked by the caller's
    // placement, which only hands out allowed CPUs).
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// A list of logical CPUs, as `--cores` takes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CpuList(pub Vec<usize>);

/// Parses `--cores` (see [`parse_cpu_list`]).
pub fn cpu_list(text: &str) -> Result<CpuList, String> {
    parse_cpu_list(text).map(CpuList)
}

/// Parses a CPU list as `taskset -c` and `/proc/*/status` write it: `0,2,4-7`.
pub fn parse_cpu_list(text: &str) -> Result<Vec<usize>, String> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let number = |s: &str| {
            s.trim()
                .parse::<usize>()
                .map_err(|_| format!("`{s}` in `{text}` is not a CPU number"))
        };
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (number(a)?, number(b)?);
                if a > b {
                    return Err(format!("`{part}` in `{text}` runs backwards"));
                }
                out.extend(a..=b);
            }
            None => out.push(number(part)?),
        }
    }
    if out.is_empty() {
        return Err("an empty CPU list".into());
    }
    let mut seen = out.clone();
    seen.sort_unstable();
    seen.dedup();
    if seen.len() < out.len() {
        return Err(format!("`{text}` names a CPU twice"));
    }
    Ok(out)
}

/// What the command line asks of the placing of workers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CoreChoice {
    /// `--cores`: the logical CPUs to run on, worker i on the i-th.
    pub cores: Option<Vec<usize>>,
    /// `--allow-siblings`: accept hyper-thread siblings of one core in `cores`.
    pub allow_siblings: bool,
}

/// Which logical CPU each worker runs on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Worker i runs on `cpus[i]`; empty: not pinned.
    pub cpus: Vec<usize>,
    /// What was decided, in words (for run.json and the terminal).
    pub describe: String,
    /// Warnings about it.
    pub warnings: Vec<String>,
}

/// Places `jobs` workers on `cpus` (the allowed CPUs): on `cores` when given (refused if
/// two are hyper-thread siblings, unless `siblings`), else one physical core each when
/// there are enough, else not at all.
pub fn place(
    jobs: usize,
    cpus: &[Cpu],
    cores: Option<&[usize]>,
    siblings: bool,
) -> anyhow::Result<Placement> {
    let physical: BTreeMap<(usize, usize), Vec<usize>> =
        cpus.iter().fold(BTreeMap::new(), |mut m, c| {
            m.entry(c.core).or_insert_with(Vec::new).push(c.id);
            m
        });
    let mut warnings = Vec::new();
    match cores {
        Some(list) => {
            for c in list {
                if !cpus.iter().any(|a| a.id == *c) {
                    let allowed: Vec<String> = cpus.iter().map(|c| c.id.to_string()).collect();
                    bail!(
                        "--cores: CPU {c} is not one this process may use (allowed: {})",
                        allowed.join(",")
                    );
                }
            }
            if list.len() < jobs {
                bail!(
                    "--cores names {} CPU(s) for {jobs} jobs: name one per job, or lower --jobs",
                    list.len()
                );
            }
            let core_of = |id: usize| cpus.iter().find(|c| c.id == id).map(|c| c.core);
            let mut shared = Vec::new();
            for (i, a) in list[..jobs].iter().enumerate() {
                for b in &list[i + 1..jobs] {
                    if core_of(*a) == core_of(*b) {
                        shared.push(format!("{a} and {b}"));
                    }
                }
            }
            if !shared.is_empty() {
                let pairs = shared.join(", ");
                if !siblings {
                    bail!(
                        "--cores: CPUs {pairs} are hyper-thread siblings of one physical core: \
                         two runs there slow each other down; pass --allow-siblings to do it \
                         anyway"
                    );
                }
                warnings.push(format!(
                    "CPUs {pairs} are hyper-thread siblings: runs on them share a physical core \
                     and slow each other down"
                ));
            }
            Ok(Placement {
                cpus: list[..jobs].to_vec(),
                describe: format!("pinned: worker i on CPU {} (--cores)", join(&list[..jobs])),
                warnings,
            })
        }
        None if jobs <= physical.len() => {
            // The first sibling of each physical core, cores in order.
            let chosen: Vec<usize> = physical.values().map(|ids| ids[0]).take(jobs).collect();
            Ok(Placement {
                describe: format!(
                    "pinned: one physical core per worker, CPUs {}",
                    join(&chosen)
                ),
                cpus: chosen,
                warnings,
            })
        }
        None => {
            warnings.push(format!(
                "{jobs} jobs on {} physical core(s): runs share cores and their times grow; \
                 use --jobs {} or fewer for measurements to publish",
                physical.len(),
                physical.len()
            ));
            Ok(Placement {
                cpus: Vec::new(),
                describe: format!(
                    "not pinned: {jobs} jobs over {} physical core(s)",
                    physical.len()
                ),
                warnings,
            })
        }
    }
}

fn join(ids: &[usize]) -> String {
    ids.iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// What `run.json` records about how a run was measured.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Measurement {
    /// The git commit bench was built from (none outside a git checkout).
    pub bench_commit: Option<String>,
    /// The machine.
    pub machine: Description,
    /// Where the workers ran, in words.
    pub placement: String,
    /// The logical CPU of each worker (empty: not pinned).
    pub worker_cpus: Vec<usize>,
    /// What could skew the times, as warned before the run.
    pub warnings: Vec<String>,
}

impl Measurement {
    /// The machine now and the placing of `jobs` workers by `choice`, with every warning.
    pub fn new(jobs: usize, choice: &CoreChoice) -> anyhow::Result<Measurement> {
        let machine = describe();
        let placement = place(
            jobs,
            &allowed_cpus(),
            choice.cores.as_deref(),
            choice.allow_siblings,
        )?;
        let mut warnings = placement.warnings;
        warnings.extend(self::warnings(&machine));
        Ok(Measurement {
            bench_commit: Some(env!("BENCH_COMMIT").to_string()).filter(|c| !c.is_empty()),
            machine,
            placement: placement.describe,
            worker_cpus: placement.cpus,
            warnings,
        })
    }
}

/// The machine's description: run.json's one machine record. A record written by an older
/// bench also holds a shorter one in `execution.machine` (with `cores` for the logical
/// CPUs); it reads as this type too, and fills what the newer one lacks
/// ([`Description::or`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Description {
    /// Host name.
    pub host: Option<String>,
    /// CPU model from /proc/cpuinfo.
    pub cpu_model: Option<String>,
    /// Logical CPUs this process may use.
    #[serde(alias = "cores")]
    pub logical_cpus: usize,
    /// Physical cores among them.
    pub physical_cores: usize,
    /// The frequency governor of the first CPU (`performance`, `powersave`, ...), if the
    /// kernel shows it.
    pub governor: Option<String>,
    /// Turbo (boost) on or off, if the kernel shows it.
    pub turbo: Option<bool>,
    /// Total memory, KiB.
    pub mem_total_kb: Option<u64>,
    /// Swap in use, KiB.
    pub swap_used_kb: Option<u64>,
    /// The 1-minute load average before the run.
    pub load_average: Option<f64>,
    /// Kernel release.
    pub kernel: Option<String>,
}

impl Description {
    /// This description, each field it lacks taken from `older`.
    pub fn or(self, older: Description) -> Description {
        Description {
            host: self.host.or(older.host),
            cpu_model: self.cpu_model.or(older.cpu_model),
            logical_cpus: if self.logical_cpus > 0 {
                self.logical_cpus
            } else {
                older.logical_cpus
            },
            physical_cores: if self.physical_cores > 0 {
                self.physical_cores
            } else {
                older.physical_cores
            },
            governor: self.governor.or(older.governor),
            turbo: self.turbo.or(older.turbo),
            mem_total_kb: self.mem_total_kb.or(older.mem_total_kb),
            swap_used_kb: self.swap_used_kb.or(older.swap_used_kb),
            load_average: self.load_average.or(older.load_average),
            kernel: self.kernel.or(older.kernel),
        }
    }
}

/// The host name, if the kernel tells it.
pub fn host() -> Option<String> {
    read_trim("/proc/sys/kernel/hostname")
}

/// A file's trimmed text, if it has any.
pub fn read_trim(path: &str) -> Option<String> {
    std::fs::read_to_string(path)
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

/// The CPU model that /proc/cpuinfo names.
pub fn cpu_model() -> Option<String> {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    cpuinfo
        .lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string())
}

/// The KiB of a /proc/meminfo field (`"MemTotal:"`) in `meminfo`, its text.
pub fn meminfo_field(meminfo: &str, name: &str) -> Option<u64> {
    meminfo
        .lines()
        .find(|l| l.starts_with(name))
        .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
}

/// Reads the machine's description.
pub fn describe() -> Description {
    let cpus = allowed_cpus();
    let mut cores: Vec<(usize, usize)> = cpus.iter().map(|c| c.core).collect();
    cores.sort_unstable();
    cores.dedup();
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let field = |name: &str| meminfo_field(&meminfo, name);
    let first = cpus.first().map_or(0, |c| c.id);
    let governor = read_trim(&format!(
        "/sys/devices/system/cpu/cpu{first}/cpufreq/scaling_governor"
    ));
    let turbo = read_trim("/sys/devices/system/cpu/intel_pstate/no_turbo")
        .map(|v| v == "0")
        .or_else(|| read_trim("/sys/devices/system/cpu/cpufreq/boost").map(|v| v == "1"));
    Description {
        host: host(),
        cpu_model: cpu_model(),
        logical_cpus: cpus.len(),
        physical_cores: cores.len(),
        governor,
        turbo,
        mem_total_kb: field("MemTotal:"),
        swap_used_kb: field("SwapTotal:")
            .zip(field("SwapFree:"))
            .map(|(t, f)| t.saturating_sub(f)),
        load_average: read_trim("/proc/loadavg")
            .and_then(|l| l.split_whitespace().next()?.parse().ok()),
        kernel: read_trim("/proc/sys/kernel/osrelease"),
    }
}

/// What in `d` would skew the times of a run.
pub fn warnings(d: &Description) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(g) = &d.governor
        && g != "performance"
    {
        out.push(format!(
            "the CPU frequency governor is `{g}`: clock speed varies with load; `performance` \
             gives steadier times"
        ));
    }
    if d.turbo == Some(true) {
        out.push(
            "turbo boost is on: the clock speed depends on how many cores are busy and how \
             hot they are"
                .into(),
        );
    }
    if let Some(swap) = d.swap_used_kb
        && swap > 0
    {
        out.push(format!(
            "{} MiB of swap in use: a run paged out is timed at disk speed",
            swap / 1024
        ));
    }
    if let Some(load) = d.load_average
        && load >= 1.0
    {
        out.push(format!(
            "load average {load:.1} before the run: other work is using the CPUs"
        ));
    }
    out
}

/// The SHA-256 of the file at `path`, in hex.
pub fn sha256_file(path: &Path) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut buffer)?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
    }
    let mut hex = String::with_capacity(64);
    for byte in hasher.finalize() {
        let _ = write!(hex, "{byte:02x}");
    }
    Ok(hex)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cpus(cores: &[(usize, usize)]) -> Vec<Cpu> {
        cores
            .iter()
            .enumerate()
            .map(|(id, &core)| Cpu { id, core })
            .collect()
    }

    #[test]
    fn cpu_lists() {
        assert_eq!(parse_cpu_list("0,2,4-6").unwrap(), [0, 2, 4, 5, 6]);
        assert!(parse_cpu_list("3-1").is_err());
        assert!(parse_cpu_list("1,1").is_err());
        assert!(parse_cpu_list("x").is_err());
    }

    #[test]
    fn one_physical_core_per_worker() {
        // Four cores with two hyper-threads each: CPUs 0-3 and 4-7 are siblings.
        let machine = cpus(&[
            (0, 0),
            (0, 1),
            (0, 2),
            (0, 3),
            (0, 0),
            (0, 1),
            (0, 2),
            (0, 3),
        ]);
        let p = place(3, &machine, None, false).unwrap();
        assert_eq!(p.cpus, [0, 1, 2]);
        assert!(p.warnings.is_empty());
        let p = place(6, &machine, None, false).unwrap();
        assert!(p.cpus.is_empty() && p.warnings[0].contains("6 jobs on 4 physical"));
        let err = place(2, &machine, Some(&[0, 4]), false).unwrap_err();
        assert!(err.to_string().contains("siblings"), "{err}");
        let p = place(2, &machine, Some(&[0, 4]), true).unwrap();
        assert_eq!((p.cpus.as_slice(), p.warnings.len()), (&[0, 4][..], 1));
        assert!(place(2, &machine, Some(&[9]), false).is_err());
        assert!(place(2, &machine, Some(&[1]), false).is_err());
    }

    #[test]
    fn sha256_of_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("abc");
        std::fs::write(&path, "abc").unwrap();
        assert_eq!(
            sha256_file(&path).unwrap(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
