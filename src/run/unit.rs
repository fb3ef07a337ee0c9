//! The formulas of a plan: one [`Unit`] for each puzzle under each encoding and for each
//! DIMACS file, built (encoded or read) when its first run starts, shared by every solver
//! of it, and dropped when its last run ends, so memory holds only the formulas in flight.
//! A formula too big for memory is refused up front with its size (its runs are MEMOUT
//! rows); one that cannot be read is skipped. Encoding and reading look at the time limit
//! and at Ctrl-C/SIGTERM as they go: a formula not ready within the time limit makes every
//! run of it a TIMEOUT row, said so. With a dedicated solver in the plan, each puzzle also
//! has a unit of its own, unencoded (encoding `none`), that only dedicated solvers run.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::cnf::Cnf;
use crate::cnf::budget::{ReadLimits, machine_budget};
use crate::cnf::dimacs::{DimacsError, ParseOptions, read_path_within};
use crate::encode::header::BenchHeader;
use crate::encode::watched::{Stop, Watched};
use crate::encode::{EncodeOptions, encode};
use crate::puzzle::Puzzle;

use super::corpus::{Instance, Source};
use super::exec::Built;
use super::plan::Plan;

/// One instance under one encoding: built on first use, dropped after its last run.
pub(crate) struct Unit {
    /// The instance, by index.
    pub instance: usize,
    /// None for DIMACS input and for the puzzle itself.
    pub encoding: Option<EncodeOptions>,
    /// The puzzle itself, for dedicated solvers: no formula is built.
    pub direct: bool,
    state: Mutex<UnitState>,
    /// Runs of it still to do.
    pub remaining: AtomicUsize,
}

enum UnitState {
    Pending,
    Ready(Arc<Built>),
    Failed(BuildError),
    Done,
}

/// Why an instance could not be built.
#[derive(Clone, Debug)]
pub(crate) enum BuildError {
    /// Unreadable or malformed: the input is skipped.
    Bad(String),
    /// Too big to hold in memory: every run of it is a MEMOUT row with this reason.
    TooBig {
        reason: String,
        vars: u64,
        clauses: u64,
    },
    /// Building stopped: at the time limit (every run of it is a TIMEOUT row) or on
    /// Ctrl-C (no row).
    Stopped { stop: Stop, wall: Duration },
}

impl BuildError {
    /// Why, in words.
    pub fn message(&self) -> String {
        match self {
            BuildError::Bad(m) | BuildError::TooBig { reason: m, .. } => m.clone(),
            BuildError::Stopped {
                stop: Stop::Deadline,
                wall,
            } => format!(
                "the formula was not ready within the time limit (encoding or reading it \
                 stopped after {:.1} s)",
                wall.as_secs_f64()
            ),
            BuildError::Stopped { .. } => "interrupted".to_string(),
        }
    }
}

impl Unit {
    /// The encoding column (`dimacs` for a DIMACS file, [`NO_ENCODING`] for the puzzle
    /// itself).
    pub fn encoding_name(&self) -> String {
        match self.encoding {
            Some(e) => e.encoding.to_string(),
            None if self.direct => NO_ENCODING.to_string(),
            None => "dimacs".to_string(),
        }
    }

    /// The built formula, building it if this is the first run to need it.
    pub fn get(&self, instance: &Instance, read: &ReadLimits) -> Result<Arc<Built>, BuildError> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        match &*state {
            UnitState::Ready(b) => return Ok(b.clone()),
            UnitState::Failed(e) => return Err(e.clone()),
            UnitState::Done => {
                return Err(BuildError::Bad(
                    "internal: unit used after its last run".into(),
                ));
            }
            UnitState::Pending => {}
        }
        let built = build(instance, self.encoding, read).map(Arc::new);
        *state = match &built {
            Ok(b) => UnitState::Ready(b.clone()),
            Err(e) => UnitState::Failed(e.clone()),
        };
        built
    }

    /// Marks one run done; the last one frees the formula.
    pub fn release(&self) {
        if self.remaining.fetch_sub(1, Ordering::AcqRel) == 1 {
            let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
            if matches!(*state, UnitState::Ready(_)) {
                *state = UnitState::Done;
            }
        }
    }
}

/// Encodes a puzzle, or reads a DIMACS file. An encoding whose formula would take more
/// than half the memory available is refused up front, with its size; a DIMACS file is
/// read within `read`'s budget, and one that does not fit is refused the same way.
fn build(
    instance: &Instance,
    encoding: Option<EncodeOptions>,
    read: &ReadLimits,
) -> Result<Built, BuildError> {
    match (&instance.source, encoding) {
        (Source::Puzzle(p), Some(opts)) => {
            if let Some((reason, clauses)) = too_big(p, opts, None) {
                return Err(BuildError::TooBig {
                    reason,
                    vars: u64::from(crate::encode::grid_vars(p)),
                    clauses,
                });
            }
            let start = Instant::now();
            let mut cnf = Cnf::new(0);
            let mut watched = Watched::new(&mut cnf, read.deadline, read.interrupt);
            let vars = encode(p, opts, &mut watched);
            if let Some(stop) = watched.stop() {
                let wall = start.elapsed();
                return Err(BuildError::Stopped { stop, wall });
            }
            cnf.ensure_vars(vars);
            Ok(Built {
                cnf,
                header: Some(BenchHeader {
                    puzzle: p.clone(),
                    opts,
                }),
            })
        }
        (Source::Dimacs(path), _) => {
            let start = Instant::now();
            let d = read_path_within(path, ParseOptions::default(), read).map_err(|e| match e {
                DimacsError::Stopped { .. } => BuildError::Stopped {
                    stop: if read
                        .interrupt
                        .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
                    {
                        Stop::Interrupted
                    } else {
                        Stop::Deadline
                    },
                    wall: start.elapsed(),
                },
                DimacsError::TooBig {
                    declared_vars,
                    declared_clauses,
                    ..
                } => BuildError::TooBig {
                    reason: format!("refused: {e}"),
                    vars: declared_vars.into(),
                    clauses: declared_clauses,
                },
                e => BuildError::Bad(e.to_string()),
            })?;
            let header = match d.bench_header.as_deref().map(BenchHeader::parse) {
                Some(Ok(h)) => Some(h),
                Some(Err(e)) => {
                    return Err(BuildError::Bad(format!(
                        "{}: bad `c bench` line: {e}",
                        path.display()
                    )));
                }
                None => None,
            };
            Ok(Built { cnf: d.cnf, header })
        }
        (Source::Puzzle(_), None) => Err(BuildError::Bad(
            "internal: a puzzle without an encoding".into(),
        )),
    }
}

/// Why the encoding of `p` under `opts` is refused up front, with its clause count: its
/// flat formula (4 bytes a literal, 8 a clause start) would take more than the memory
/// bench may hold for it ([`machine_budget`]: `mem_limit_mb`, else half the memory
/// available, and never more than half the address space `ulimit -v` leaves). None when
/// it fits, or nothing is known of the machine.
pub(crate) fn too_big(
    p: &Puzzle,
    opts: EncodeOptions,
    mem_limit_mb: Option<u64>,
) -> Option<(String, u64)> {
    let (clauses, lits) = crate::encode::size_bound(p, opts);
    let bytes = lits
        .saturating_mul(4)
        .saturating_add(clauses.saturating_mul(8));
    let budget = machine_budget(mem_limit_mb).filter(|&b| bytes > b)?;
    let reason = format!(
        "refused: the {} encoding of this {}×{} puzzle has {}{clauses} clauses ({} MiB in \
         memory), more than the {} MiB bench may hold for it (half the memory available, \
         within ulimit -v)",
        opts.encoding,
        p.side(),
        p.side(),
        if opts.encoding == crate::encode::Encoding::Pruned {
            "up to "
        } else {
            ""
        },
        bytes >> 20,
        budget >> 20
    );
    Some((reason, clauses))
}

/// The encoding column of a dedicated solver's runs: it is given the puzzle, no formula.
pub const NO_ENCODING: &str = "none";

/// Every formula of the plan: each puzzle under each encoding, each DIMACS file once; and
/// with `dedicated` (a dedicated solver is in the plan) each puzzle itself.
pub(crate) fn units(plan: &Plan, instances: &[Instance], dedicated: bool) -> Vec<Unit> {
    let mut units = Vec::new();
    for (i, inst) in instances.iter().enumerate() {
        if dedicated && matches!(inst.source, Source::Puzzle(_)) {
            units.push(Unit {
                instance: i,
                encoding: None,
                direct: true,
                state: Mutex::new(UnitState::Pending),
                remaining: AtomicUsize::new(0),
            });
        }
        let encodings: Vec<Option<EncodeOptions>> = match inst.source {
            Source::Puzzle(_) => plan
                .encodings
                .iter()
                .map(|&encoding| {
                    Some(EncodeOptions {
                        encoding,
                        amo: plan.amo,
                    })
                })
                .collect(),
            Source::Dimacs(_) => vec![None],
        };
        for encoding in encodings {
            units.push(Unit {
                instance: i,
                encoding,
                direct: false,
                state: Mutex::new(UnitState::Pending),
                remaining: AtomicUsize::new(0),
            });
        }
    }
    units
}
