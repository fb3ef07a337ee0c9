//! The tests that measure bench's peak memory (`cargo test --test memory`), in a test binary
//! of their own: a child's peak resident set (`ru_maxrss`) starts from the memory of the
//! process that started it, so these tests start bench from a small test process, not from
//! the one that runs every other integration test beside them.

#[path = "../it/support/mod.rs"]
#[allow(unused_imports)] // the shared support serves the other binary's modules too
mod support;

mod hostile_input;
mod huge_encoding;
mod padded_csv;
mod sizes;
