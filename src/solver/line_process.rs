//! A started puzzle-line program (see `lines.rs`), contained like any external solver:
//! where runs get control groups (`sandbox::run::containment`), the program joins a group
//! of its own between fork and exec, so every process it starts is inside; the group
//! holds the memory limit (all its processes together) and the process limit, its CPU
//! counter times each answer, its peak memory is the row's, its OOM and limit counters
//! turn a failure into MEMOUT, and ending the program empties and removes the group.
//! Without groups (the fallback), the program has a process group of its own, an
//! address-space limit per process, CPU time from the kernel's per-thread nanosecond
//! counters (`/proc/PID/task/*/schedstat`) and peak memory from `VmHWM`. One group serves
//! the program for its whole life (many puzzles): its peak is the program's so far. The
//! program is bench's child, not the exec helper's: if bench is killed, the program reads
//! the end of its input; one that stays on is in its group, which the next bench empties
//! and removes as it does any group of a bench that is gone.

use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use super::external::cgroup::Group;
use super::external::run::{self as sandbox_run, DEFAULT_PIDS_LIMIT, Kind};

/// A started program: its input, its output lines as a reader thread reads them, and its
/// control group where it has one.
pub(super) struct Running {
    child: Child,
    pub stdin: ChildStdin,
    pub lines: Receiver<std::io::Result<String>>,
    group: Option<Group>,
}

/// The memory counters of a group at one moment (zero without a group).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct MemoryHits {
    oom_kills: u64,
    limit_hits: u64,
}

impl MemoryHits {
    /// Why the program ran out of memory since `before`, if the counters say it did.
    pub fn since(self, before: MemoryHits) -> Option<String> {
        if self.oom_kills > before.oom_kills {
            Some(format!(
                "out of memory: the solver's processes together reached the memory limit \
                 (the OOM killer ended {} of them)",
                self.oom_kills - before.oom_kills
            ))
        } else if self.limit_hits > before.limit_hits {
            Some(
                "out of memory: the solver's processes together reached the memory limit \
                 (it could not get more)"
                    .to_string(),
            )
        } else {
            None
        }
    }
}

/// Whether programs started here go into control groups: where external runs do.
fn grouped() -> bool {
    matches!(
        sandbox_run::containment().contained(),
        Kind::CgroupV1 | Kind::CgroupV2
    )
}

impl Running {
    /// Starts `program` with `args` under the memory limit (MiB).
    pub fn start(
        program: &Path,
        args: &[String],
        mem_limit_mb: Option<u64>,
    ) -> std::io::Result<Running> {
        let group = if grouped() {
            sandbox_run::new_group(mem_limit_mb, Some(DEFAULT_PIDS_LIMIT))?
        } else {
            None
        };
        let join = group.as_ref().map(Group::join_files).unwrap_or_default();
        // With a group the limit is the group's; without, per process.
        let as_bytes = match group {
            Some(_) => None,
            None => mem_limit_mb.map(|mb| mb.saturating_mul(1 << 20)),
        };
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0);
        // SAFETY: between fork and exec, only open/write/close (joining the group, paths
        // built before the fork) and setrlimit, all async-signal-safe; nothing allocates.
        unsafe {
            command.pre_exec(move || {
                for file in &join {
                    sandbox::exec_helper::join_group(file)?;
                }
                sandbox::reap::limit_child(as_bytes)
            });
        }
        let mut child = match command.spawn() {
            Ok(c) => c,
            Err(e) => {
                if let Some(g) = &group {
                    let _ = g.remove();
                }
                return Err(e);
            }
        };
        let pipes = (child.stdin.take(), child.stdout.take());
        let (send, lines) = channel();
        let (Some(stdin), Some(stdout)) = pipes else {
            // Never: both were asked for as pipes.
            end(&mut child, group);
            return Err(std::io::ErrorKind::BrokenPipe.into());
        };
        let running = Running {
            child,
            stdin,
            lines,
            group,
        };
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if send.send(line).is_err() {
                    return;
                }
            }
        });
        Ok(running)
    }

    /// CPU time of the program so far: its group's counter (every process it started), or
    /// without a group its threads' nanosecond counters.
    pub fn cpu(&self) -> Option<Duration> {
        if let Some(g) = &self.group {
            return g.cpu_us().map(Duration::from_micros);
        }
        let dir = format!("/proc/{}/task", self.child.id());
        let mut total = 0u64;
        for task in std::fs::read_dir(dir).ok()? {
            let stat = std::fs::read_to_string(task.ok()?.path().join("schedstat")).ok()?;
            total += stat.split_whitespace().next()?.parse::<u64>().ok()?;
        }
        Some(Duration::from_nanos(total))
    }

    /// Peak memory of the program so far, KiB: its group's peak, or the main process's
    /// `VmHWM`.
    pub fn peak_kb(&self) -> Option<u64> {
        if let Some(g) = &self.group {
            return g.stats().peak_bytes.map(|b| b / 1024);
        }
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        status.lines().find_map(|l| {
            let kb = l.strip_prefix("VmHWM:")?.trim().strip_suffix("kB")?;
            kb.trim().parse().ok()
        })
    }

    /// The group's memory counters now.
    pub fn memory_hits(&self) -> MemoryHits {
        self.group.as_ref().map_or_else(MemoryHits::default, |g| {
            let s = g.stats();
            MemoryHits {
                oom_kills: s.oom_kills,
                limit_hits: s.mem_limit_hits,
            }
        })
    }

    /// Ends the program and everything it started (its group, else its process group).
    pub fn kill(mut self) {
        end(&mut self.child, self.group.take());
    }
}

/// Kills `child`'s process group and `group`'s every member, reaps the child and removes
/// the group.
fn end(child: &mut Child, group: Option<Group>) {
    let pid = child.id() as libc::pid_t;
    // SAFETY: signals the process group made for the child at its start.
    unsafe {
        libc::kill(-pid, libc::SIGKILL);
    }
    let _ = child.kill();
    if let Some(g) = group {
        g.kill_all(&mut || {
            let _ = child.try_wait();
        });
        let _ = child.wait();
        let _ = g.remove();
    } else {
        let _ = child.wait();
    }
}
