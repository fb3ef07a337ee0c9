//! `sandbox-exec`: the exec helper alone (`crates/sandbox/src/exec_helper.rs`), with none
//! of bench's other code: starting it costs a run a small part of the CPU that starting
//! bench's own binary in helper mode does. bench uses it when it finds it beside its own
//! binary (`sandbox::run::helper`), else serves as its own helper.
//!
//! Its `main` is the C one (`no_main`): Rust's start-up (the main thread's stack bounds
//! read from `/proc/self/maps`, the stack-overflow handler's alternate stack, SIGPIPE
//! ignored) is work the helper, started for every run, has no use for; it ignores SIGPIPE
//! itself, and std's arguments and I/O work without that start-up.

// `cargo test` builds this file with the test harness's `main` instead.
#![cfg_attr(not(test), no_main)]

/// The process's entry, called by the C runtime.
#[cfg(not(test))]
#[unsafe(no_mangle)]
pub extern "C" fn main(
    _argc: std::ffi::c_int,
    _argv: *const *const std::ffi::c_char,
) -> std::ffi::c_int {
    sandbox::exec_helper::run_if_requested();
    eprintln!(
        "sandbox-exec: the exec helper of bench, started by bench \
         (`sandbox-exec bench-exec --report FD --control FD ... -- PROGRAM ARGS`), not by hand"
    );
    2
}
