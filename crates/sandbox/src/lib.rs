//! `sandbox`: run one program under limits and measure it, as BenchExec's runexec does,
//! knowing nothing of what the program prints. [`run`] starts the program (through the
//! exec helper when there is one), enforces the wall-clock limit, the memory limit and the
//! process limit, stops it on an interrupt, drains its stdout into the caller's
//! [`run::StdoutConsumer`] and keeps its stderr's tail, and returns a typed measurement
//! ([`run::Finished`]: wall and CPU time, peak memory, exit code or signal, the limit that
//! ended it, the containment it had). [`cgroup`] makes and reads the run's control group
//! ([`group_files`]: a reused group's files kept open), [`reap`] waits for processes and sets their limits, `vfork` starts the solver from the
//! helper without copying it, and [`exec_helper`] is the helper's
//! side: a binary that links this crate calls [`exec_helper::run_if_requested`] first thing
//! in `main` and so serves as its own helper.

pub mod cgroup;
pub mod exec_helper;
pub mod group_files;
pub mod reap;
pub mod run;
mod vfork;
