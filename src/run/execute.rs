//! Executing a prepared run: a fixed set of workers, each pinned to its core, take the
//! tasks in plan order; each task goes through its runner ([`super::attempt`]) to one
//! finished value, which is judged ([`crate::judge::judge`]), made a row
//! ([`super::row::build`]) and appended to results.csv at once by the one writer.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::judge;
use crate::results::{ResultsWriter, Row};
use crate::text::terminal;

use super::attempt::{Attempt, Context, WorkerState, attempt};
use super::corpus::Source;
use super::finished::Finished;
use super::plan::Plan;
use super::prepare::Prepared;
use super::{progress, row, solutions};

/// What executing the tasks gave: the new rows, the inputs that could not be built, and
/// the runs the machine could not start.
pub(crate) struct Executed {
    /// The new rows.
    pub rows: Vec<Row>,
    /// Why each formula that could not be built failed, by unit.
    pub failures: BTreeMap<usize, String>,
    /// Runs not started (no row: a resume runs them), by why: how many.
    pub not_started: BTreeMap<String, usize>,
}

/// Where each finished run goes: appended to results.csv at once (the one writer), its
/// grids to `solutions/`, counted in the progress line, kept for the summary.
struct Sink<'a> {
    writer: Mutex<ResultsWriter>,
    solution_files: Option<solutions::SolutionFiles>,
    rows: Mutex<Vec<Row>>,
    progress: &'a progress::Progress,
    write_error: Mutex<Option<std::io::Error>>,
}

impl Sink<'_> {
    /// Takes one finished run: judged, made a row, appended to results.csv (its verified
    /// grids to `solutions/`); false when it could not be written (a full disk: stop
    /// taking runs).
    fn take(&self, plan: &Plan, which: &row::Which<'_>, finished: &Finished) -> bool {
        let instance = which.instance;
        let puzzle = matches!(instance.source, Source::Puzzle(_));
        let answer = finished.answer();
        let judged = judge::judge(&answer, &instance.records, puzzle, plan.count);
        let grids = judge::verified(&answer, &judged);
        let row = row::build(plan, which, finished, judged);
        if let Some(files) = &self.solution_files
            && row.run == 1
            && let Err(e) = files.record(
                instance,
                &row.solver,
                &row.encoding,
                row.status.as_str(),
                grids,
            )
        {
            eprintln!(
                "bench: {}",
                terminal(&format!("writing the solution of {}: {e}", row.instance))
            );
        }
        if let Err(e) = lock_any(&self.writer).write(&row) {
            *lock_any(&self.write_error) = Some(e);
            return false;
        }
        self.progress.record(&row);
        lock_any(&self.rows).push(row);
        true
    }

    /// Ends the writing: the solution files sorted, a write error said with what to do,
    /// the rows taken.
    fn close(self, prepared: &Prepared) -> anyhow::Result<Vec<Row>> {
        if let Some(files) = &self.solution_files
            && let Err(e) = files.finish()
        {
            eprintln!("bench: sorting the solution files: {e}");
        }
        if let Some(e) = self
            .write_error
            .into_inner()
            .unwrap_or_else(|p| p.into_inner())
        {
            return Err(anyhow::Error::from(e).context(format!(
                "writing {} (every row before this one is kept: make room, then \
                 `bench run --resume {}` runs what is missing)",
                prepared.csv_path.display(),
                prepared.out_dir.display()
            )));
        }
        Ok(self.rows.into_inner().unwrap_or_else(|p| p.into_inner()))
    }

    fn failed(&self) -> bool {
        lock_any(&self.write_error).is_some()
    }
}

/// A mutex's guard, poisoned or not (a panicking worker must not lose the others' rows).
fn lock_any<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Executes the tasks on `plan.jobs` workers that take them in plan order; every finished
/// run is written at once.
pub(crate) fn execute(
    plan: &Plan,
    prepared: &Prepared,
    interrupt: &Arc<AtomicBool>,
) -> anyhow::Result<Executed> {
    let progress = progress::Progress::new(prepared.tasks.len());
    let sink = Sink {
        writer: Mutex::new(ResultsWriter::append(&prepared.csv_path)?),
        solution_files: plan
            .solutions
            .then(|| solutions::SolutionFiles::new(&prepared.out_dir, plan.alphabet)),
        rows: Mutex::new(Vec::new()),
        progress: &progress,
        write_error: Mutex::new(None),
    };
    let failures: Mutex<BTreeMap<usize, String>> = Mutex::new(BTreeMap::new());
    let not_started: Mutex<BTreeMap<String, usize>> = Mutex::new(BTreeMap::new());
    // Set when --strict meets an input that cannot be built: no further task starts.
    let strict_stop = AtomicBool::new(false);
    let next = AtomicUsize::new(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.jobs)
        .build()?;
    let cpus: &[usize] = prepared
        .record
        .execution
        .as_ref()
        .map_or(&[], |e| &e.measurement.worker_cpus);
    let workers = AtomicUsize::new(0);
    let config = plan.solver_config();
    let cx = Context {
        plan,
        config: &config,
        read_budget: prepared.read_budget.as_ref(),
        interrupt,
    };
    pool.scope(|scope| {
        for _ in 0..plan.jobs {
            scope.spawn(|_| {
                // Each worker on its own core: the solvers it starts inherit the pin.
                let worker = workers.fetch_add(1, Ordering::Relaxed);
                if let Some(&cpu) = cpus.get(worker)
                    && let Err(e) = crate::machine::pin_current_thread(cpu)
                {
                    eprintln!("bench: could not pin worker {worker} to CPU {cpu}: {e}");
                }
                let mut worker_state = WorkerState::default();
                while !interrupt.load(Ordering::Relaxed)
                    && !sink.failed()
                    && !strict_stop.load(Ordering::Relaxed)
                {
                    let Some(task) = prepared.tasks.get(next.fetch_add(1, Ordering::Relaxed))
                    else {
                        break;
                    };
                    let unit = &prepared.units[task.unit];
                    let instance = &prepared.instances[unit.instance];
                    let solver = prepared.solvers[task.solver].as_ref();
                    match attempt(&cx, task, unit, instance, solver, &mut worker_state) {
                        Attempt::Finished(finished) => {
                            let encoding = unit.encoding_name();
                            let which = row::Which {
                                instance,
                                encoding: &encoding,
                                solver: solver.name(),
                                run: task.run,
                            };
                            if !sink.take(plan, &which, &finished) {
                                break;
                            }
                        }
                        Attempt::Unbuildable(why) => {
                            lock_any(&failures).entry(task.unit).or_insert(why);
                            progress.skip();
                            if plan.strict {
                                strict_stop.store(true, Ordering::Relaxed);
                            }
                        }
                        Attempt::NotStarted(why) => {
                            *lock_any(&not_started).entry(why).or_insert(0) += 1;
                            progress.skip();
                        }
                        Attempt::Interrupted => {}
                    }
                }
            });
        }
    });
    progress.finish();
    let rows = sink.close(prepared)?;
    Ok(Executed {
        rows,
        failures: failures.into_inner().unwrap_or_else(|p| p.into_inner()),
        not_started: not_started.into_inner().unwrap_or_else(|p| p.into_inner()),
    })
}
