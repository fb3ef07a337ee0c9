//! Reading results back: scores, the virtual best solver, speedups with bootstrap
//! intervals, charts, and the summary in Markdown, JSON and one HTML page.
//!
//! Everything is computed from result rows alone (the CSV), so `bench report` can redraw
//! any past run and merge several. The exporters ([`render_report`] and what it calls)
//! return text and do no I/O; [`write_report`] is the one function that writes files, and
//! it writes them all to a staging folder first, so that a failure never leaves a report
//! that looks complete but is not.

pub(crate) mod aside;
pub mod bootstrap;
pub mod charts;
pub mod compare;
pub mod config;
pub mod counter_rank;
pub mod family;
pub mod html;
pub mod instances;
pub mod measurement;
pub mod memory;
pub mod merge;
pub mod mode;
pub mod noise;
pub mod outcome;
pub mod provenance;
pub mod ratios;
pub mod rows;
pub mod satcomp;
pub mod score;
pub mod speedup;
pub mod stats;
pub mod summary;
pub mod table;
pub mod tables;
#[cfg(test)]
pub(crate) mod test_rows;
pub mod vbs;
pub mod work;

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

pub use crate::results::TimeBasis;
use charts::ChartData;
use outcome::first_appearance;
use rows::Row;
use score::Scoring;
use score::WrongAnswer;
use summary::Summary;

/// True if `solver` ran as a child process (its rows carry an exit code).
fn runs_as_child(rows: &[Row], solver: &str) -> bool {
    rows.iter()
        .any(|r| r.solver() == solver && r.exit_code().is_some())
}

/// The default baseline of speedups and scatter plots: the first solver run as a child
/// process (its rows carry an exit code) when in-process solvers are there too, since
/// those pay no process start and would flatter every comparison; else the first solver.
fn default_baseline(rows: &[Row], solvers: &[String]) -> Option<String> {
    if solvers.len() < 2 {
        return None;
    }
    let child = |s: &String| runs_as_child(rows, s);
    let in_process = solvers.iter().any(|s| !child(s));
    let pick = if in_process {
        solvers.iter().find(|s| child(s))
    } else {
        None
    };
    Some(pick.unwrap_or(&solvers[0]).clone())
}

/// How to build a report.
#[derive(Clone, Debug, Default)]
pub struct ReportOptions {
    /// Compare every solver against this one (scatter plots and speedups). None: every
    /// pair of solvers is plotted, and speedups are against the first solver in the rows.
    pub baseline: Option<String>,
    /// The timeout for scoring and charts, seconds. None: each row's own `timeout_s`.
    pub timeout: Option<f64>,
    /// Remarks for the summary (inputs skipped by the run, duplicates merged away).
    pub notes: Vec<String>,
    /// Score and draw CPU time (the default) or wall time.
    pub time: TimeBasis,
    /// Families from a families file, over the rows' own.
    pub families: Option<crate::family::Families>,
    /// Draw a cactus plot per family too.
    pub by_family: bool,
    /// What the page says was run, one record per run (`bench report` reads the run.json
    /// beside each CSV). Empty: [`write_report`] reads the run.json in the output folder,
    /// if there is one (`bench run` and `bench merge` write the report beside it).
    pub provenance: Vec<provenance::Provenance>,
    /// The run's record (`run.json`'s `execution`), when the rows are one run's: the
    /// machine in detail and the solvers' checksums go on the page.
    pub run_json: Option<serde_json::Value>,
    /// Rank the configurations by this work counter too (`--score COUNTER`).
    pub score: Option<crate::solver::work::Counter>,
}

/// One output file: its name inside the report folder and its content.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportFile {
    /// File name, no folders.
    pub name: String,
    /// Content.
    pub bytes: Vec<u8>,
}

/// What [`write_report`] wrote.
#[derive(Clone, Debug)]
pub struct ReportFiles {
    /// The report folder.
    pub dir: PathBuf,
    /// Every file written, in writing order (`index.html` last).
    pub files: Vec<PathBuf>,
}

impl ReportFiles {
    /// The path of `index.html`.
    pub fn index(&self) -> PathBuf {
        self.dir.join("index.html")
    }
}

/// Builds the report from `rows` and writes it into `out_dir` (created if missing):
/// `cactus.svg`, `scatter-A-vs-B.svg` per compared pair, `times.svg`, `encodings.svg` when
/// there are several encodings, `summary.md`, `summary.json`, `instances.csv` (the
/// per-instance table) and `index.html`. The files
/// are written to a staging folder inside `out_dir` as they are made (a study's
/// per-instance table is not held in memory) and renamed into place at the end, so
/// an error leaves the folder as it was. Returns the files and the summary drawn (what
/// the terminal shows is read from it, not worked out again).
pub fn write_report<'a>(
    rows: impl rows::IntoReportRows<'a>,
    out_dir: &Path,
    opts: &ReportOptions,
) -> anyhow::Result<(ReportFiles, Summary)> {
    let beside;
    let opts = if opts.provenance.is_empty()
        && let Some(found) = provenance::Provenance::in_dir(out_dir)
    {
        beside = ReportOptions {
            provenance: vec![found],
            ..opts.clone()
        };
        &beside
    } else {
        opts
    };
    let mut staging = Staging::in_dir(out_dir)?;
    let summary = render(rows, opts, &mut staging)?;
    Ok((staging.finish()?, summary))
}

/// Where the report's files go as they are made.
trait Sink {
    /// Takes the file `name`, whose bytes `write` writes.
    fn file(
        &mut self,
        name: &str,
        write: &mut dyn FnMut(&mut dyn std::io::Write) -> anyhow::Result<()>,
    ) -> anyhow::Result<()>;
}

/// Files kept in memory ([`render_report`]).
impl Sink for Vec<ReportFile> {
    fn file(
        &mut self,
        name: &str,
        write: &mut dyn FnMut(&mut dyn std::io::Write) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        let mut bytes = Vec::new();
        write(&mut bytes)?;
        self.push(ReportFile {
            name: name.into(),
            bytes,
        });
        Ok(())
    }
}

/// Files written to a staging folder inside the report folder (made with the first
/// file), moved into place by [`Staging::finish`] (dropped unfinished, the folder and
/// what it holds go).
struct Staging {
    out_dir: PathBuf,
    folder: Option<tempfile::TempDir>,
    names: Vec<String>,
}

impl Staging {
    fn in_dir(out_dir: &Path) -> anyhow::Result<Staging> {
        Ok(Staging {
            out_dir: out_dir.to_path_buf(),
            folder: None,
            names: Vec::new(),
        })
    }

    /// The staging folder, made on first use.
    fn folder(&mut self) -> anyhow::Result<PathBuf> {
        if self.folder.is_none() {
            let out_dir = &self.out_dir;
            fs::create_dir_all(out_dir)
                .with_context(|| format!("creating {}", out_dir.display()))?;
            let folder = tempfile::Builder::new()
                .prefix(".bench-report-")
                .tempdir_in(out_dir)
                .with_context(|| format!("creating a staging folder in {}", out_dir.display()))?;
            self.folder = Some(folder);
        }
        Ok(self
            .folder
            .as_ref()
            .expect("made above")
            .path()
            .to_path_buf())
    }

    /// Moves every file into place, in writing order (`index.html`, the page people
    /// open, comes last); same file system, so each rename is atomic.
    fn finish(mut self) -> anyhow::Result<ReportFiles> {
        let folder = self.folder()?;
        let mut written = Vec::new();
        for name in &self.names {
            let target = self.out_dir.join(name);
            fs::rename(folder.join(name), &target)
                .with_context(|| format!("moving {} into place", target.display()))?;
            written.push(target);
        }
        Ok(ReportFiles {
            dir: self.out_dir,
            files: written,
        })
    }
}

impl Sink for Staging {
    fn file(
        &mut self,
        name: &str,
        write: &mut dyn FnMut(&mut dyn std::io::Write) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        // Two files of one name would overwrite each other.
        if self.names.iter().any(|n| n == name) {
            bail!("internal: two report files named {name}");
        }
        let path = self.folder()?.join(name);
        let file =
            fs::File::create(&path).with_context(|| format!("writing {}", path.display()))?;
        let mut out = std::io::BufWriter::new(file);
        write(&mut out)
            .and_then(|()| Ok(std::io::Write::flush(&mut out)?))
            .with_context(|| format!("writing {}", path.display()))?;
        self.names.push(name.into());
        Ok(())
    }
}

/// Writes `files` into `out_dir` (created if missing), through a staging folder inside it
/// and renamed into place at the end, so that a failure never leaves a report that looks
/// complete but is not.
pub fn write_files(files: &[ReportFile], out_dir: &Path) -> anyhow::Result<ReportFiles> {
    // Two files of one name are refused by the staging folder, before any is moved.
    let mut staging = Staging::in_dir(out_dir)?;
    for file in files {
        staging.file(&file.name, &mut |w| Ok(w.write_all(&file.bytes)?))?;
    }
    staging.finish()
}

/// Builds every file of the report, in memory, `index.html` last.
pub fn render_report<'a>(
    rows: impl rows::IntoReportRows<'a>,
    opts: &ReportOptions,
) -> anyhow::Result<Vec<ReportFile>> {
    let mut files = Vec::new();
    render(rows, opts, &mut files)?;
    Ok(files)
}

/// Builds every file of the report into `sink` as it is made, `index.html` last. What is
/// read from the rows alone comes first; then the outcomes are made and the rows, when
/// they were given, are let go: the figures of outcomes never hold both. Returns the
/// summary drawn.
fn render<'a>(
    rows: impl rows::IntoReportRows<'a>,
    opts: &ReportOptions,
    sink: &mut dyn Sink,
) -> anyhow::Result<Summary> {
    let rows = rows.into_report_rows();
    if rows.is_empty() {
        bail!("no result rows to report on");
    }
    let scoring = Scoring {
        time: opts.time,
        timeout: opts.timeout,
    };
    if let Some(t) = opts.timeout
        && !(t.is_finite() && t > 0.0)
    {
        bail!("the timeout must be a positive number of seconds, not {t}");
    }
    let of_rows = RowFigures::of(&rows, opts, scoring)?;
    let cells = outcome::CellOrder::of(&rows);
    // Without repetitions every configuration has one row per instance, one outcome per
    // row: no spread to measure, and no need to group the rows again.
    let noise = if cells.repeats(&rows) {
        noise::spreads(&rows, scoring, &of_rows.modes)
    } else {
        Vec::new()
    };
    let row_count = rows.len();
    // Rows lent are copied (the report's own tests); rows given are taken.
    let outcomes = outcome::outcomes_taking(rows.into_owned(), cells, scoring);
    of_outcomes(of_rows, outcomes, (noise, row_count), opts, sink)
}

/// What the report reads from the rows themselves, not from the outcomes.
struct RowFigures {
    solvers: Vec<String>,
    encodings: Vec<String>,
    baseline: Option<String>,
    modes: mode::Modes,
    notes: Vec<String>,
    /// The timeout the charts mark, and the shortest one, seconds.
    timeouts: (f64, f64),
    family_names: rows::NameMap<rows::Name, rows::Name>,
    sizes: charts::encodings::EncodingSizes,
    work: Vec<work::WorkFigures>,
    ranking: Option<counter_rank::CounterRanking>,
    wrong_answers: Vec<WrongAnswer>,
    scores: Vec<score::Score>,
    about: html::About,
}

impl RowFigures {
    fn of(rows: &[Row], opts: &ReportOptions, scoring: Scoring) -> anyhow::Result<RowFigures> {
        let solvers = first_appearance(rows.iter().map(|r| r.solver().as_str()));
        let encodings = first_appearance(rows.iter().map(|r| r.encoding().as_str()));
        if let Some(b) = &opts.baseline
            && !solvers.contains(b)
        {
            bail!(
                "the baseline `{b}` is not in the results (solvers: {})",
                solvers.join(", ")
            );
        }
        let baseline = opts
            .baseline
            .clone()
            .or_else(|| default_baseline(rows, &solvers));
        let modes = mode::Modes::of(rows);
        let mut notes = time_notes(rows, opts);
        let (shortest, longest) = rows
            .iter()
            .map(|r| scoring.timeout_of(r))
            .fold((f64::INFINITY, 0.0f64), |(lo, hi), t| {
                (lo.min(t), hi.max(t))
            });
        let timeout = opts.timeout.unwrap_or(longest);
        let shortest_timeout = opts.timeout.unwrap_or(shortest.min(longest));
        notes.extend(modes.notes());
        Ok(RowFigures {
            family_names: family::families_by_instance(rows, opts.families.as_ref()),
            sizes: charts::encodings::EncodingSizes::of(rows, &encodings, &modes),
            work: work::figures(rows, &modes),
            ranking: opts
                .score
                .map(|counter| counter_rank::ranking(rows, counter, scoring, &modes)),
            wrong_answers: WrongAnswer::all(rows),
            scores: score::scores_in(rows, scoring, &modes),
            about: about(rows, opts, &solvers, &modes),
            solvers,
            encodings,
            baseline,
            modes,
            notes,
            timeouts: (timeout, shortest_timeout),
        })
    }
}

/// The rest of the report, from the outcomes and what was read from the rows: the
/// virtual best solver, families, charts, speedups, statistics, the files; returns the
/// summary.
fn of_outcomes(
    of_rows: RowFigures,
    outcomes: Vec<outcome::Outcome>,
    (noise, rows): (Vec<noise::Spread>, usize),
    opts: &ReportOptions,
    sink: &mut dyn Sink,
) -> anyhow::Result<Summary> {
    let RowFigures {
        solvers,
        encodings,
        baseline,
        modes,
        mut notes,
        timeouts: (timeout, shortest_timeout),
        family_names,
        sizes,
        work,
        ranking,
        wrong_answers,
        scores,
        about,
    } = of_rows;
    let mut virtual_best = vbs::virtual_best(&outcomes);
    for c in &mut virtual_best.contributions {
        c.config.mode = modes.label(&c.config.solver, &c.config.encoding);
    }
    let by_family = family::split(&outcomes, &family_names);
    let families = family::families(&by_family, &solvers, &encodings, &modes);
    drop(family_names);
    // Kept for the charts only when they draw a plot per family.
    let by_family = opts.by_family.then_some(by_family);
    let charts = {
        let names = (solvers.clone(), encodings.clone());
        let data = ChartData::new(&sizes, &outcomes, names, timeout, opts.time, &modes);
        draw_charts(opts, &data, &virtual_best, by_family.as_ref())?
    };
    drop(by_family);

    let speedups = match &baseline {
        Some(b) => speedup::speedups(&outcomes, b, (&solvers, &encodings), &modes),
        None => Vec::new(),
    };
    let stats = stats::statistics(&outcomes, (&solvers, &encodings), &modes);
    notes.extend(noise::warnings(&noise, encodings.len() > 1));
    let summary = Summary {
        wrong_answers,
        rows,
        instances: virtual_best.instances,
        solvers,
        encodings,
        timeout_s: timeout,
        shortest_timeout_s: shortest_timeout,
        timeout_given: opts.timeout.is_some(),
        scores,
        virtual_best,
        baseline,
        speedups,
        stats,
        families,
        work,
        noise,
        ranking,
        run: opts.run_json.clone(),
        bootstrap: Summary::bootstrap_settings(),
        time: opts.time,
        notes,
        charts: charts.iter().map(|(name, _)| name.clone()).collect(),
    };
    files(&outcomes, &summary, &about, charts, &modes, sink)?;
    Ok(summary)
}

/// The rows of each configuration (solver, encoding), by instance: the rows sorted by
/// (solver, encoding, instance) with each configuration's range, so that a cell is a slice
/// and no map of a million small vectors is built.
pub(crate) struct Cells<'r> {
    rows: Vec<&'r Row>,
    configs: std::collections::BTreeMap<(&'r str, &'r str), std::ops::Range<usize>>,
}

/// The rows of one configuration, by instance (in the order of their keys).
pub(crate) struct Instances<'c, 'r>(&'c [&'r Row]);

impl<'c, 'r> Instances<'c, 'r> {
    /// Each instance's key and its rows, in row order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&'r str, &'c [&'r Row])> + use<'c, 'r> {
        self.0
            .chunk_by(|a, b| a.instance_name() == b.instance_name())
            .map(|runs| (runs[0].instance_key(), runs))
    }

    /// Each instance's rows.
    pub(crate) fn values(&self) -> impl Iterator<Item = &'c [&'r Row]> + use<'c, 'r> {
        self.iter().map(|(_, runs)| runs)
    }
}

impl<'r> Cells<'r> {
    /// The rows of `config` (solver, encoding), if it ran.
    pub(crate) fn get(&self, config: &(&str, &str)) -> Option<Instances<'_, 'r>> {
        let range = self.configs.get(config)?;
        Some(Instances(&self.rows[range.clone()]))
    }
}

/// Groups `rows` by configuration (solver, encoding) and, within one, by instance.
pub(crate) fn cells(rows: &[Row]) -> Cells<'_> {
    let ranks = rows::Ranks::of(
        rows.iter()
            .flat_map(|r| [r.solver(), r.encoding(), r.instance_name()]),
    );
    let mut order: Vec<(u32, u32, u32, u32)> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            (
                ranks.of_name(r.solver()),
                ranks.of_name(r.encoding()),
                ranks.of_name(r.instance_name()),
                i as u32,
            )
        })
        .collect();
    order.sort_unstable();
    let sorted: Vec<&Row> = order.iter().map(|k| &rows[k.3 as usize]).collect();
    drop(order);
    let mut configs = std::collections::BTreeMap::new();
    let mut start = 0;
    for group in sorted.chunk_by(|a, b| a.solver() == b.solver() && a.encoding() == b.encoding()) {
        let r = group[0];
        configs.insert(
            (r.solver().as_str(), r.encoding().as_str()),
            start..start + group.len(),
        );
        start += group.len();
    }
    Cells {
        rows: sorted,
        configs,
    }
}

/// The notes on the time basis: runs without a CPU time, and which limit ended a run.
fn time_notes(rows: &[Row], opts: &ReportOptions) -> Vec<String> {
    let mut notes = opts.notes.clone();
    let no_cpu = rows.iter().filter(|r| r.cpu_s().is_none()).count();
    if opts.time == TimeBasis::Cpu && no_cpu > 0 {
        notes.push(format!(
            "{no_cpu} run(s) have no CPU time: their wall time stands in (--time wall scores \
             wall time throughout)"
        ));
    }
    notes.extend(limit_note(rows, opts.time));
    notes
}

/// Every chart, by its file name (unique by construction: names that collide once made
/// file-safe, or that are too long, get a short one of their own).
fn draw_charts(
    opts: &ReportOptions,
    data: &ChartData,
    virtual_best: &vbs::VirtualBest,
    by_family: Option<&family::Split>,
) -> anyhow::Result<Vec<(String, String)>> {
    let mut file_names = charts::FileNames::new(&[
        "cactus.svg",
        charts::cactus::CNF_FILE,
        "times.svg",
        "encodings.svg",
        "summary.md",
        "summary.json",
        instances::CSV_NAME,
        "index.html",
    ]);
    let mut charts = charts::cactus::cactus_charts(data, virtual_best)?;
    for (x_solver, y_solver) in scatter_pairs(&data.solvers, opts.baseline.as_deref()) {
        if !charts::scatter::in_common(data, x_solver, y_solver) {
            continue;
        }
        let name = format!(
            "scatter-{}-vs-{}",
            charts::file_safe(y_solver),
            charts::file_safe(x_solver)
        );
        charts.push((
            file_names.unique(&name, "svg"),
            charts::scatter::scatter(data, x_solver, y_solver)?,
        ));
    }
    if let Some(by_family) = by_family {
        for (name, members) in by_family.iter() {
            let vbs = vbs::virtual_best(members.clone());
            let outcomes: Vec<outcome::Outcome> = members.cloned().collect();
            let names = (data.solvers.clone(), data.encodings.clone());
            let family_data = ChartData::new(
                data.sizes,
                &outcomes,
                names,
                data.timeout,
                opts.time,
                &data.modes,
            );
            let title = format!("Cactus plot of family {name}: instances solved within a time");
            charts.push((
                file_names.unique(&format!("cactus-family-{}", charts::file_safe(name)), "svg"),
                charts::cactus::cactus_titled(&family_data, &vbs, &title)?,
            ));
        }
    }
    charts.push(("times.svg".into(), charts::times::times(data)?));
    if charts::encodings::has_several_encodings(data) {
        charts.push(("encodings.svg".into(), charts::encodings::encodings(data)?));
    }
    Ok(charts)
}

/// What the page says about the runs: corpora, jobs, which solvers ran as children.
fn about(
    rows: &[Row],
    opts: &ReportOptions,
    solvers: &[String],
    modes: &mode::Modes,
) -> html::About {
    let (child, in_process): (Vec<String>, Vec<String>) = solvers
        .iter()
        .cloned()
        .partition(|s| runs_as_child(rows, s));
    // Rows share a few settings: each distinct value once, not a copy a row.
    let mut jobs: Vec<u32> = Vec::new();
    for r in rows {
        let j = r.jobs();
        if jobs.last() != Some(&j) && !jobs.contains(&j) {
            jobs.push(j);
        }
    }
    jobs.sort_unstable();
    html::About {
        runs: opts.provenance.clone(),
        corpora: first_appearance(rows.iter().map(|r| r.corpus().as_str())),
        jobs,
        in_process,
        child,
        modes: solvers
            .iter()
            .map(|s| (s.clone(), modes.of_solver(s)))
            .collect(),
    }
}

/// The report's files, into `sink`: the charts, the per-instance CSV, summary.md,
/// summary.json and the page.
fn files(
    outcomes: &[outcome::Outcome],
    summary: &Summary,
    about: &html::About,
    charts: Vec<(String, String)>,
    modes: &mode::Modes,
    sink: &mut dyn Sink,
) -> anyhow::Result<()> {
    for (name, svg) in &charts {
        sink.file(name, &mut |w| Ok(w.write_all(svg.as_bytes())?))?;
    }
    let table_rows = instances::table_rows(outcomes);
    sink.file(instances::CSV_NAME, &mut |w| {
        instances::write_csv(w, &table_rows, &summary.solvers)
    })?;
    let instances = instances::section(&table_rows, &summary.solvers, modes, summary.time.words());
    drop(table_rows);
    let page = html::page(summary, about, &charts, instances);
    drop(charts);
    let text = |t: String| move |w: &mut dyn std::io::Write| Ok(w.write_all(t.as_bytes())?);
    sink.file("summary.md", &mut text(summary.to_markdown()))?;
    sink.file("summary.json", &mut text(summary.to_json()))?;
    sink.file(
        "index.html",
        &mut text(crate::text::document(&page).into_owned()),
    )?;
    Ok(())
}

/// The (x solver, y solver) pairs to plot: each solver against the baseline, or every
/// pair in order of first appearance (the earlier one on x).
fn scatter_pairs<'a>(solvers: &'a [String], baseline: Option<&'a str>) -> Vec<(&'a str, &'a str)> {
    match baseline {
        Some(b) => solvers
            .iter()
            .filter(|s| *s != b)
            .map(|s| (b, s.as_str()))
            .collect(),
        None => {
            let mut pairs = Vec::new();
            for (i, x) in solvers.iter().enumerate() {
                for y in &solvers[i + 1..] {
                    pairs.push((x.as_str(), y.as_str()));
                }
            }
            pairs
        }
    }
}

/// What the report says of CPU limits: which limit scores the runs that had one (their CPU
/// limit on CPU time, their wall limit on wall time), and how many TIMEOUTs each limit
/// ended. None when no run had a CPU limit.
fn limit_note(rows: &[Row], time: TimeBasis) -> Option<String> {
    let limited = rows.iter().filter(|r| r.cpu_limit_s().is_some()).count();
    if limited == 0 {
        return None;
    }
    let ended = |hit| {
        rows.iter()
            .filter(|r| r.status == crate::solver::Status::Timeout && r.limit() == Some(hit))
            .count()
    };
    let (cpu, wall) = (
        ended(crate::solver::LimitHit::Cpu),
        ended(crate::solver::LimitHit::Wall),
    );
    let scored = match time {
        TimeBasis::Cpu => "scored on CPU time against their CPU limit",
        TimeBasis::Wall => "scored on wall time against their wall limit (--time wall)",
    };
    Some(format!(
        "{limited} run(s) had a CPU limit (--cpu-limit), {scored}; timeouts ended by the CPU \
         limit: {cpu}, by the wall limit: {wall}"
    ))
}

#[cfg(test)]
mod write_tests {
    use super::{ReportFile, write_files};

    /// A report that fails while its files are written (here a name no file system
    /// takes, or the same name twice) leaves the folder as it was: the earlier page
    /// stands, and no staging folder is left behind.
    #[test]
    fn a_failed_write_leaves_the_folder_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("index.html"), "earlier").unwrap();
        let file = |name: &str| ReportFile {
            name: name.into(),
            bytes: b"new".to_vec(),
        };
        for files in [
            vec![
                file("cactus.svg"),
                file(&"x".repeat(300)),
                file("index.html"),
            ],
            vec![file("a.svg"), file("a.svg"), file("index.html")],
        ] {
            assert!(write_files(&files, dir.path()).is_err());
            let left: Vec<_> = std::fs::read_dir(dir.path())
                .unwrap()
                .map(|e| e.unwrap().file_name())
                .collect();
            assert_eq!(left, ["index.html"]);
            let page = std::fs::read_to_string(dir.path().join("index.html")).unwrap();
            assert_eq!(page, "earlier");
        }
        let written = write_files(&[file("cactus.svg"), file("index.html")], dir.path());
        assert_eq!(written.unwrap().files.len(), 2);
    }
}
