//! `sandbox-exec`: the exec helper alone (`crates/sandbox/src/exec_helper.rs`), with none
//! of bench's other code: starting it costs a run a small part of the CPU that starting
//! bench's own binary in helper mode does. bench uses it when it finds it beside its own
//! binary (`sandbox::run::helper`), else serves as its own helper.

fn main() {
    sandbox::exec_helper::run_if_requested();
    eprintln!(
        "sandbox-exec: the exec helper of bench, started by bench \
         (`sandbox-exec bench-exec --report FD --control FD ... -- PROGRAM ARGS`), not by hand"
    );
    std::process::exit(2);
}
