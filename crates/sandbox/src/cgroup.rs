//! Control groups: one per external run at a time, so that its limits and measures cover
//! all its processes and nothing of it outlives it, as BenchExec does (on v1 a group is
//! emptied, reset and reused by the next run: see `run/slots.rs`).
//!
//! [`detect`] finds where bench may make groups: cgroup v2 where the unified hierarchy
//! has the `memory` and `pids` controllers for bench's own group (and `cgroup.kill`),
//! else cgroup v1 where the `memory`, `pids`, `cpuacct` and `freezer` hierarchies are
//! mounted and writable. A run's [`Group`] is made under bench's own group in each
//! hierarchy, named `bench-<bench pid>-<n>`, with the memory limit (`memory.max`, or
//! `memory.limit_in_bytes` and its swap twin) and the process limit (`pids.max`) set
//! before any process joins it; the solver joins it between fork and exec (writing `0`
//! to each `cgroup.procs`), so its every descendant is born inside, whatever it does
//! (`setsid`, double forks). Ending the group: v2 writes `cgroup.kill`; v1 freezes the
//! group, SIGKILLs every member and thaws it, until no member is left (a fork bomb cannot
//! outrun a frozen group). The measures are the group's: CPU time (`cpu.stat` or
//! `cpuacct.usage`), peak memory (`memory.peak` or `memory.max_usage_in_bytes`), OOM kills
//! and limit hits (`memory.events` or `memory.oom_control`/`memory.failcnt`) and refused
//! forks (`pids.events`); a reused v1 group's files are kept open, read and reset through
//! `group_files.rs`. [`remove_stale`] removes the groups of a bench that was killed.
//!
//! This file uses nothing but std and libc: the exec helper uses it too.

use std::ffi::CString;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Setting this environment variable (to anything but empty or `0`) makes bench use no
/// control groups: the fallback containment, as where none can be made.
pub const NO_CGROUPS_ENV: &str = "BENCH_NO_CGROUPS";

/// The v1 controllers a run's group needs.
const V1_CONTROLLERS: [&str; 4] = ["memory", "pids", "cpuacct", "freezer"];

/// Which cgroup interface.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// The legacy interface: one hierarchy per controller.
    V1,
    /// The unified hierarchy.
    V2,
}

/// Where the groups of runs are made: for v2 one directory, for v1 one per controller
/// (`(controller, directory)`; v2's controller is `unified`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parents {
    /// The interface.
    pub version: Version,
    /// The parent directories.
    pub dirs: Vec<(String, PathBuf)>,
}

impl Parents {
    /// One line for messages and run.json.
    pub fn describe(&self) -> String {
        match self.version {
            Version::V2 => format!(
                "cgroup v2 under {}",
                self.dirs
                    .first()
                    .map_or(String::new(), |d| d.1.display().to_string())
            ),
            Version::V1 => {
                let dirs: Vec<String> = self
                    .dirs
                    .iter()
                    .map(|(c, d)| format!("{c}={}", d.display()))
                    .collect();
                format!("cgroup v1 ({})", dirs.join(", "))
            }
        }
    }
}

/// True when [`NO_CGROUPS_ENV`] asks for no cgroups.
pub fn disabled_by_env() -> bool {
    std::env::var_os(NO_CGROUPS_ENV).is_some_and(|v| !v.is_empty() && v != "0")
}

/// Finds where this process may make groups; the error says why it may not.
pub fn detect() -> Result<Parents, String> {
    if disabled_by_env() {
        return Err(format!("disabled by {NO_CGROUPS_ENV}"));
    }
    let mountinfo = fs::read_to_string("/proc/self/mountinfo")
        .map_err(|e| format!("cannot read /proc/self/mountinfo: {e}"))?;
    let own = fs::read_to_string("/proc/self/cgroup")
        .map_err(|e| format!("cannot read /proc/self/cgroup: {e}"))?;
    let mounts = parse_mounts(&mountinfo);
    let v2 = detect_v2(&mounts, &own);
    if let Ok(p) = v2 {
        return Ok(p);
    }
    let v1 = detect_v1(&mounts, &own);
    match (v2, v1) {
        (_, Ok(p)) => Ok(p),
        (Err(a), Err(b)) => Err(format!("{a}; {b}")),
        (Ok(_), Err(_)) => unreachable!("v2 returned above"),
    }
}

/// A cgroup mount: its type (`cgroup2` or `cgroup`), where it is, and its super options
/// (the controllers of a v1 hierarchy).
struct Mount {
    fstype: String,
    point: PathBuf,
    root: String,
    options: Vec<String>,
}

fn parse_mounts(mountinfo: &str) -> Vec<Mount> {
    let mut mounts = Vec::new();
    for line in mountinfo.lines() {
        let Some((left, right)) = line.split_once(" - ") else {
            continue;
        };
        let left: Vec<&str> = left.split(' ').collect();
        let right: Vec<&str> = right.split(' ').collect();
        if left.len() < 5 || right.len() < 3 {
            continue;
        }
        let fstype = right[0];
        if fstype != "cgroup" && fstype != "cgroup2" {
            continue;
        }
        mounts.push(Mount {
            fstype: fstype.to_string(),
            point: PathBuf::from(unescape_mount(left[4])),
            root: unescape_mount(left[3]),
            options: right[2].split(',').map(str::to_string).collect(),
        });
    }
    mounts
}

/// mountinfo escapes space, tab, newline and backslash as `\ooo`.
fn unescape_mount(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\'
            && i + 3 < bytes.len()
            && let Some(v) = std::str::from_utf8(&bytes[i + 1..i + 4])
                .ok()
                .and_then(|o| u8::from_str_radix(o, 8).ok())
        {
            out.push(v);
            i += 4;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The directory of this process's group in a hierarchy mounted at `mount`.
fn own_dir(mount: &Mount, path: &str) -> PathBuf {
    // The mount shows the hierarchy from `root` down; the group path is absolute.
    let rel = path
        .strip_prefix(mount.root.trim_end_matches('/'))
        .unwrap_or(path);
    let rel = rel.trim_start_matches('/');
    if rel.is_empty() {
        mount.point.clone()
    } else {
        mount.point.join(rel)
    }
}

fn detect_v2(mounts: &[Mount], own: &str) -> Result<Parents, String> {
    let mount = mounts
        .iter()
        .find(|m| m.fstype == "cgroup2")
        .ok_or("no cgroup v2 mounted")?;
    let path = own
        .lines()
        .find_map(|l| l.strip_prefix("0::"))
        .ok_or("not in a cgroup v2 group")?;
    let dir = own_dir(mount, path);
    let available = fs::read_to_string(dir.join("cgroup.controllers")).unwrap_or_default();
    for c in ["memory", "pids"] {
        if !available.split_whitespace().any(|w| w == c) {
            return Err(format!(
                "cgroup v2 at {} has no {c} controller",
                dir.display()
            ));
        }
    }
    let enabled = fs::read_to_string(dir.join("cgroup.subtree_control")).unwrap_or_default();
    if !["memory", "pids"]
        .iter()
        .all(|c| enabled.split_whitespace().any(|w| w == *c))
    {
        // Possible only where this group holds no process itself (or is the root).
        fs::write(dir.join("cgroup.subtree_control"), "+memory +pids").map_err(|e| {
            format!(
                "cannot enable memory and pids for groups under {}: {e}",
                dir.display()
            )
        })?;
    }
    let parents = Parents {
        version: Version::V2,
        dirs: vec![("unified".to_string(), dir)],
    };
    probe(&parents)?;
    Ok(parents)
}

fn detect_v1(mounts: &[Mount], own: &str) -> Result<Parents, String> {
    let mut dirs = Vec::new();
    for c in V1_CONTROLLERS {
        let mount = mounts
            .iter()
            .find(|m| m.fstype == "cgroup" && m.options.iter().any(|o| o == c))
            .ok_or_else(|| format!("no cgroup v1 {c} hierarchy"))?;
        let path = own
            .lines()
            .filter_map(|l| {
                let mut parts = l.splitn(3, ':');
                let _id = parts.next()?;
                let controllers = parts.next()?;
                let path = parts.next()?;
                controllers.split(',').any(|x| x == c).then_some(path)
            })
            .next()
            .ok_or_else(|| format!("not in a cgroup v1 {c} group"))?;
        dirs.push((c.to_string(), own_dir(mount, path)));
    }
    let parents = Parents {
        version: Version::V1,
        dirs,
    };
    probe(&parents)?;
    Ok(parents)
}

/// Makes and removes a group, to learn whether this process may.
fn probe(parents: &Parents) -> Result<(), String> {
    let name = format!("bench-{}-probe", std::process::id());
    match Group::create(parents, &name, Some(64 << 20), Some(64)) {
        Ok(g) => {
            let _ = g.remove();
            Ok(())
        }
        Err(e) => Err(format!("cannot make a group: {e}")),
    }
}

/// One run's group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The interface.
    pub version: Version,
    /// `(controller, directory)`, as in [`Parents`].
    pub dirs: Vec<(String, PathBuf)>,
}

/// What a group measured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// CPU time of every process that was in the group, microseconds.
    pub cpu_us: Option<u64>,
    /// Peak memory of the group together, bytes.
    pub peak_bytes: Option<u64>,
    /// Processes the kernel's OOM killer ended because the group hit its limit.
    pub oom_kills: u64,
    /// Times the group hit its memory limit (reclaim or OOM followed).
    pub mem_limit_hits: u64,
    /// Forks refused by the process limit.
    pub forks_refused: u64,
}

impl Group {
    /// Makes the group `name` under `parents`, with its limits set.
    pub fn create(
        parents: &Parents,
        name: &str,
        mem_bytes: Option<u64>,
        pids_max: Option<u64>,
    ) -> io::Result<Group> {
        let mut made = Group {
            version: parents.version,
            dirs: Vec::new(),
        };
        for (c, parent) in &parents.dirs {
            let dir = parent.join(name);
            if let Err(e) = fs::create_dir(&dir) {
                let _ = made.remove();
                return Err(io::Error::new(
                    e.kind(),
                    format!("mkdir {}: {e}", dir.display()),
                ));
            }
            made.dirs.push((c.clone(), dir));
        }
        if let Err(e) = made.set_limits(mem_bytes, pids_max) {
            let _ = made.remove();
            return Err(e);
        }
        Ok(made)
    }

    fn dir(&self, controller: &str) -> Option<&Path> {
        self.dirs
            .iter()
            .find(|(c, _)| c == controller || c == "unified")
            .map(|(_, d)| d.as_path())
    }

    fn write(&self, controller: &str, file: &str, value: &str) -> io::Result<()> {
        let dir = self
            .dir(controller)
            .ok_or_else(|| io::Error::other(format!("no {controller} hierarchy")))?;
        let path = dir.join(file);
        fs::write(&path, value)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
    }

    fn read(&self, controller: &str, file: &str) -> Option<String> {
        fs::read_to_string(self.dir(controller)?.join(file)).ok()
    }

    fn set_limits(&self, mem_bytes: Option<u64>, pids_max: Option<u64>) -> io::Result<()> {
        match self.version {
            Version::V2 => {
                if let Some(b) = mem_bytes {
                    self.write("memory", "memory.max", &b.to_string())?;
                    // No swap: a run over its limit is ended, not slowed to a crawl.
                    let _ = self.write("memory", "memory.swap.max", "0");
                }
                if let Some(p) = pids_max {
                    self.write("pids", "pids.max", &p.to_string())?;
                }
            }
            Version::V1 => {
                if let Some(b) = mem_bytes {
                    self.write("memory", "memory.limit_in_bytes", &b.to_string())?;
                    // memory+swap no higher than memory (absent without swap accounting).
                    let _ = self.write("memory", "memory.memsw.limit_in_bytes", &b.to_string());
                }
                if let Some(p) = pids_max {
                    self.write("pids", "pids.max", &p.to_string())?;
                }
            }
        }
        Ok(())
    }

    /// The group as one command-line argument (for the helper): `v1|c=dir|c=dir`.
    pub fn to_arg(&self) -> String {
        let mut s = String::from(match self.version {
            Version::V1 => "v1",
            Version::V2 => "v2",
        });
        for (c, d) in &self.dirs {
            s.push('|');
            s.push_str(c);
            s.push('=');
            s.push_str(&d.display().to_string());
        }
        s
    }

    /// The group back from [`Group::to_arg`].
    pub fn from_arg(arg: &str) -> Option<Group> {
        let mut parts = arg.split('|');
        let version = match parts.next()? {
            "v1" => Version::V1,
            "v2" => Version::V2,
            _ => return None,
        };
        let dirs = parts
            .map(|p| {
                let (c, d) = p.split_once('=')?;
                Some((c.to_string(), PathBuf::from(d)))
            })
            .collect::<Option<Vec<_>>>()?;
        (!dirs.is_empty()).then_some(Group { version, dirs })
    }

    /// The `cgroup.procs` files a process writes `0` into to join the group, ready for a
    /// `pre_exec` hook (which must not allocate).
    pub fn join_files(&self) -> Vec<CString> {
        self.dirs
            .iter()
            .filter_map(|(_, d)| {
                use std::os::unix::ffi::OsStrExt;
                CString::new(d.join("cgroup.procs").as_os_str().as_bytes()).ok()
            })
            .collect()
    }

    /// The processes in the group now.
    pub fn members(&self) -> Vec<libc::pid_t> {
        let controller = match self.version {
            Version::V1 => "freezer",
            Version::V2 => "unified",
        };
        self.read(controller, "cgroup.procs")
            .unwrap_or_default()
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect()
    }

    /// Sends `signal` to every member.
    pub fn signal(&self, signal: libc::c_int) {
        for pid in self.members() {
            // SAFETY: plain syscall.
            unsafe {
                libc::kill(pid, signal);
            }
        }
    }

    /// Kills every member, calling `reap` between rounds (dead children must be reaped to
    /// leave the group); true once the group is empty, false if it is not within 5 s.
    pub fn kill_all(&self, reap: &mut dyn FnMut()) -> bool {
        let until = Instant::now() + Duration::from_secs(5);
        loop {
            match self.version {
                Version::V2 => {
                    if self.write("unified", "cgroup.kill", "1").is_err() {
                        self.signal(libc::SIGKILL);
                    }
                }
                Version::V1 => {
                    let frozen = self.freeze();
                    self.signal(libc::SIGKILL);
                    if frozen {
                        let _ = self.write("freezer", "freezer.state", "THAWED");
                    }
                }
            }
            reap();
            if self.members().is_empty() {
                return true;
            }
            if Instant::now() > until {
                return false;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Freezes a v1 group (waits up to 1 s for it to settle); true when frozen.
    fn freeze(&self) -> bool {
        if self.write("freezer", "freezer.state", "FROZEN").is_err() {
            return false;
        }
        let until = Instant::now() + Duration::from_secs(1);
        while Instant::now() < until {
            if self
                .read("freezer", "freezer.state")
                .is_some_and(|s| s.trim() == "FROZEN")
            {
                return true;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        true
    }

    /// The CPU time of every process that was in the group so far, microseconds: one read
    /// of `cpu.stat` (v2) or `cpuacct.usage` (v1), cheap enough for a run's wait loop.
    pub fn cpu_us(&self) -> Option<u64> {
        match self.version {
            Version::V2 => self.read("unified", "cpu.stat").and_then(|t| {
                t.lines().find_map(|l| {
                    let (k, v) = l.split_once(' ')?;
                    (k == "usage_usec").then(|| v.trim().parse::<u64>().ok())?
                })
            }),
            Version::V1 => self
                .read("cpuacct", "cpuacct.usage")
                .and_then(|t| t.trim().parse::<u64>().ok())
                .map(|ns| ns / 1000),
        }
    }

    /// What the group measured.
    pub fn stats(&self) -> Stats {
        match self.version {
            Version::V2 => Stats {
                cpu_us: self.cpu_us(),
                peak_bytes: number(self.read("memory", "memory.peak")),
                oom_kills: field(self.read("memory", "memory.events"), "oom_kill").unwrap_or(0),
                mem_limit_hits: field(self.read("memory", "memory.events"), "max").unwrap_or(0),
                forks_refused: field(self.read("pids", "pids.events"), "max").unwrap_or(0),
            },
            Version::V1 => Stats {
                cpu_us: self.cpu_us(),
                peak_bytes: number(self.read("memory", "memory.max_usage_in_bytes")),
                oom_kills: field(self.read("memory", "memory.oom_control"), "oom_kill")
                    .unwrap_or(0),
                mem_limit_hits: number(self.read("memory", "memory.failcnt")).unwrap_or(0),
                forks_refused: field(self.read("pids", "pids.events"), "max").unwrap_or(0),
            },
        }
    }

    /// Removes the group's directories (it must be empty); retries briefly, since a
    /// killed member may take a moment to leave.
    pub fn remove(&self) -> io::Result<()> {
        let mut last = Ok(());
        for (_, d) in &self.dirs {
            let mut tries = 0;
            loop {
                match fs::remove_dir(d) {
                    Ok(()) => break,
                    Err(e) if e.kind() == io::ErrorKind::NotFound => break,
                    Err(e) if tries < 100 => {
                        let _ = e;
                        tries += 1;
                        std::thread::sleep(Duration::from_millis(10));
                    }
                    Err(e) => {
                        last = Err(e);
                        break;
                    }
                }
            }
        }
        last
    }
}

/// The number a control file holds (`cpuacct.usage`, `memory.failcnt`, …).
pub(crate) fn number(text: Option<String>) -> Option<u64> {
    text.and_then(|t| t.trim().parse::<u64>().ok())
}

/// The number after `key ` in a control file of `key value` lines (`memory.events`, …).
pub(crate) fn field(text: Option<String>, key: &str) -> Option<u64> {
    text.and_then(|t| {
        t.lines().find_map(|l| {
            let (k, v) = l.split_once(' ')?;
            (k == key).then(|| v.trim().parse::<u64>().ok())?
        })
    })
}

/// The pid in a name `<prefix><pid>-…`, if it has one.
pub fn owner_pid(name: &str, prefix: &str) -> Option<libc::pid_t> {
    let rest = name.strip_prefix(prefix)?;
    let (pid, _) = rest.split_once('-')?;
    pid.parse().ok().filter(|&p: &libc::pid_t| p > 0)
}

/// True when a process `pid` exists.
pub fn alive(pid: libc::pid_t) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

/// Kills and removes the groups `bench-<pid>-*` under `parents` whose bench process is
/// gone (a bench killed with SIGKILL); returns how many.
pub fn remove_stale(parents: &Parents) -> usize {
    let mut names = std::collections::BTreeSet::new();
    for (_, dir) in &parents.dirs {
        let Ok(entries) = fs::read_dir(dir) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if owner_pid(&name, "bench-").is_some_and(|p| !alive(p)) {
                names.insert(name);
            }
        }
    }
    let mut removed = 0;
    for name in names {
        let group = Group {
            version: parents.version,
            dirs: parents
                .dirs
                .iter()
                .map(|(c, d)| (c.clone(), d.join(&name)))
                .filter(|(_, d)| d.is_dir())
                .collect(),
        };
        group.kill_all(&mut || {});
        if group.remove().is_ok() {
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mountinfo_and_own_groups() {
        let info = "35 24 0:30 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n\
                    36 24 0:31 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n\
                    37 24 0:32 / /a\\040b rw - cgroup cgroup rw,pids\n\
                    1 2 3:4 / / rw - ext4 /dev/vda rw\n";
        let m = parse_mounts(info);
        assert_eq!(m.len(), 3);
        assert_eq!(m[0].options, vec!["rw", "memory"]);
        assert_eq!(m[2].point, PathBuf::from("/a b"));
        assert_eq!(
            own_dir(&m[0], "/process_api/x"),
            PathBuf::from("/sys/fs/cgroup/memory/process_api/x")
        );
        assert_eq!(own_dir(&m[1], "/"), PathBuf::from("/sys/fs/cgroup/unified"));
    }

    #[test]
    fn group_argument_round_trip() {
        let g = Group {
            version: Version::V1,
            dirs: vec![
                (
                    "memory".into(),
                    PathBuf::from("/sys/fs/cgroup/memory/bench-1-2"),
                ),
                (
                    "pids".into(),
                    PathBuf::from("/sys/fs/cgroup/pids/bench-1-2"),
                ),
            ],
        };
        assert_eq!(Group::from_arg(&g.to_arg()), Some(g));
        assert_eq!(Group::from_arg("v3|x=y"), None);
        assert_eq!(owner_pid("bench-123-4", "bench-"), Some(123));
        assert_eq!(owner_pid("bench-run-123-ab", "bench-run-"), Some(123));
        assert_eq!(owner_pid("bench-probe", "bench-"), None);
    }
}
