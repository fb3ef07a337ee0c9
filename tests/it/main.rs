//! The integration tests, as one test binary (`cargo test --test it`): each module below
//! was once a binary of its own, and its tests are named after it (`run::…`,
//! `native_gates::…`), so `cargo test --test it -- report_` runs a part. What the modules
//! share (the one `bench()` command, the one rule for a missing external tool, instances
//! and corpora builders) is in `support/`. One binary links the library once, instead of
//! once per file.

mod support;

// `bench run` and the study commands, end to end.
mod contain;
mod corpora_wild;
mod count_zero;
mod counts;
mod dedicated;
mod dedicated_process;
mod design_map;
mod encode_check;
mod families;
mod generate;
mod inputs;
mod modes;
mod option_ranges;
mod pinning;
mod proof_chain;
mod public_shapes;
mod puzzle_formats;
mod readme;
mod run;
mod same_fault;
mod seams;
mod shard;
mod shrink;
mod slurm;
mod untrusted;
mod verdicts;
mod wall_clock;

// The checker and the DIMACS reader, by properties.
mod check_props;
mod dimacs_props;

// External solvers as child processes.
mod cpu_limit;
mod external_faults;
mod external_measure;
mod external_solvers;
mod group_reuse;

// In-process solvers: native's incremental paths, and the library solvers (feature
// `rustsat-solvers`), which scripts/test.sh runs in release.
mod inprocess;
mod inprocess_lib;

// The native CDCL solver and the DPLL baseline.
mod native_differential;
mod native_dpll;
mod native_gates;
mod native_incremental;
mod native_inprocessing;
mod native_limits;
mod native_props;
mod native_ternary;

// `bench report`.
mod escaping;
mod report_compare;
mod report_errors;
mod report_files;
mod report_merge;
mod report_numbers;
mod report_satcomp;
mod report_scale;
mod report_stats;

// Work counters (every solver's, end to end) and the noise of repetitions.
mod work_counters;
