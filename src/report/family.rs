//! The report broken down by instance family (see [`crate::family`]): per family, its
//! instances, the virtual best solver's solved count and PAR-2, and every solver ×
//! encoding's solved count and PAR-2 there; and, with `bench report --by family`, a cactus
//! plot per family.
//!
//! A row's family is the families file's (`--families`), else the row's own `family`
//! column (what `bench run` decided), else the default rule of [`crate::family::default_family`] (results written
//! before the column existed). Figures are per instance, as in the virtual best solver:
//! with repetitions an instance is solved only if every repetition was, at the median time;
//! PAR-2 is the mean over the family's instances the configuration ran of its time if
//! solved, else twice the timeout.

use std::collections::HashMap;

use maud::{Markup, html};
use serde::Serialize;

use crate::family::{Families, default_family};
use crate::report::config::Config;
use crate::report::mode::Modes;
use crate::report::outcome::Outcome;
use crate::report::rows::{Name, NameMap, Row};
use crate::report::table::{Align, Cell, Exporter, Html, Markdown, Table, seconds};
use crate::report::vbs::virtual_best;

use Align::{Left, Right};

/// The family of `row`.
pub fn family_of(row: &Row, families: Option<&Families>) -> String {
    let hash = Some(row.hash().as_str()).filter(|h| !h.is_empty());
    if let Some(f) = families.and_then(|f| f.family_of(hash, &row.corpus(), &row.instance())) {
        return f.to_string();
    }
    if !row.family().is_empty() {
        return row.family().to_string();
    }
    default_family(&row.corpus(), row.kind(), &row.instance())
}

/// The family of every instance, by its key (names, 8 bytes an instance).
pub fn families_by_instance(rows: &[Row], families: Option<&Families>) -> NameMap<Name, Name> {
    let mut out = NameMap::default();
    for r in rows {
        out.entry(r.instance_name())
            .or_insert_with(|| Name::new(&family_of(r, families)));
    }
    out
}

/// One solver × encoding in one family.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FamilyScore {
    /// The configuration.
    #[serde(flatten)]
    pub config: Config,
    /// The family's instances it ran.
    pub ran: usize,
    /// Of those, solved.
    pub solved: usize,
    /// PAR-2 over those, seconds.
    pub par2: f64,
}

/// One family.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Family {
    /// Its name.
    pub family: String,
    /// Its instances.
    pub instances: usize,
    /// The instances the virtual best solver solves.
    pub vbs_solved: usize,
    /// The virtual best solver's PAR-2 over them, seconds.
    pub vbs_par2: f64,
    /// Per solver × encoding, in order of first appearance.
    pub scores: Vec<FamilyScore>,
}

/// The outcomes of each family, families in name order: the outcomes' indices, family
/// after family, so that a study's outcomes cost 4 bytes each here and are not copied.
pub struct Split<'o> {
    outcomes: &'o [Outcome],
    /// Each family's name and its part of `members`.
    families: Vec<(String, std::ops::Range<usize>)>,
    members: Vec<u32>,
}

impl<'o> Split<'o> {
    /// Each family's name and its outcomes, in name order.
    pub fn iter(
        &self,
    ) -> impl Iterator<Item = (&str, impl Iterator<Item = &'o Outcome> + Clone + '_)> {
        self.families.iter().map(|(name, range)| {
            let members = self.members[range.clone()].iter();
            (name.as_str(), members.map(|&i| &self.outcomes[i as usize]))
        })
    }

    /// How many families.
    pub fn len(&self) -> usize {
        self.families.len()
    }

    /// True when there are no outcomes.
    pub fn is_empty(&self) -> bool {
        self.families.is_empty()
    }
}

/// Splits `outcomes` by family (`family_of` by instance key; a key it lacks is in the
/// family with the empty name).
pub fn split<'o>(outcomes: &'o [Outcome], family_of: &NameMap<Name, Name>) -> Split<'o> {
    let none = Name::default();
    let family = |o: &Outcome| *family_of.get(&o.key()).unwrap_or(&none);
    // The families in name order, and each one's outcomes counted.
    let mut count: NameMap<Name, usize> = NameMap::default();
    for o in outcomes {
        *count.entry(family(o)).or_default() += 1;
    }
    let mut names: Vec<(Name, usize)> = count.into_iter().collect();
    names.sort_unstable_by(|a, b| a.0.as_str().cmp(b.0.as_str()));
    let mut start: NameMap<Name, usize> = NameMap::default();
    let mut families = Vec::with_capacity(names.len());
    let mut at = 0;
    for (name, n) in names {
        start.insert(name, at);
        families.push((name.to_string(), at..at + n));
        at += n;
    }
    let mut members = vec![0u32; outcomes.len()];
    for (i, o) in outcomes.iter().enumerate() {
        let next = start.get_mut(&family(o)).expect("every family counted");
        members[*next] = i as u32;
        *next += 1;
    }
    Split {
        outcomes,
        families,
        members,
    }
}

/// The per-family figures, families in name order, each score labelled with its mode.
pub fn families(
    split: &Split,
    solvers: &[String],
    encodings: &[String],
    modes: &Modes,
) -> Vec<Family> {
    split
        .iter()
        .map(|(family, outcomes)| {
            let vbs = virtual_best(outcomes.clone());
            // Per solver × encoding: (ran, solved, the sum of its PAR-2 scores).
            let mut tally: HashMap<(&str, &str), (usize, usize, f64)> = HashMap::new();
            for o in outcomes {
                let t = tally
                    .entry((o.solver().as_str(), o.encoding().as_str()))
                    .or_default();
                t.0 += 1;
                if o.answer().solved() {
                    t.1 += 1;
                    t.2 += o.time;
                } else {
                    t.2 += 2.0 * o.timeout();
                }
            }
            let mut scores = Vec::new();
            for solver in solvers {
                for encoding in encodings {
                    let Some(&(ran, solved, total)) =
                        tally.get(&(solver.as_str(), encoding.as_str()))
                    else {
                        continue;
                    };
                    scores.push(FamilyScore {
                        config: modes.config(solver, encoding),
                        ran,
                        solved,
                        par2: total / ran as f64,
                    });
                }
            }
            Family {
                family: family.to_string(),
                instances: vbs.instances,
                vbs_solved: vbs.solved,
                vbs_par2: vbs.par2,
                scores,
            }
        })
        .collect()
}

/// The note under the tables.
const NOTE: &str = "Per instance: solved only if every repetition was (every right answer \
                    counts, certified or not); PAR-2 over the \
                    family's instances the configuration ran, the time if solved, else twice \
                    the timeout. Families: the corpus file for puzzles, the first folder level \
                    for DIMACS files, or a --families file.";

/// The long table: one row per family × solver × encoding, and the VBS's per family.
pub fn table(families: &[Family], several_encodings: bool) -> Table {
    let mut rows = Vec::new();
    for f in families {
        rows.push(vec![
            Cell::Text(f.family.clone()),
            Cell::Text("virtual best solver".into()),
            Cell::Count(f.instances),
            Cell::Count(f.vbs_solved),
            Cell::Seconds(f.vbs_par2),
        ]);
        for s in &f.scores {
            let name = s.config.label(several_encodings);
            rows.push(vec![
                Cell::Text(f.family.clone()),
                Cell::Text(name),
                Cell::Count(s.ran),
                Cell::Count(s.solved),
                Cell::Seconds(s.par2),
            ]);
        }
    }
    Table {
        columns: vec![
            ("family", Left),
            ("solver", Left),
            ("instances", Right),
            ("solved", Right),
            ("PAR-2 (s)", Right),
        ],
        rows,
        note: Some(NOTE.into()),
    }
}

/// The section of `summary.md` (none for a single family).
pub fn markdown(families: &[Family], several_encodings: bool) -> String {
    if families.len() < 2 {
        return String::new();
    }
    format!(
        "## Per family\n\n{}\n",
        Markdown.table(&table(families, several_encodings))
    )
}

/// The most configurations one matrix of the page holds: a wider one is split into
/// several, each repeating the family columns, so that none runs off a 1,400 px window.
pub const MATRIX_COLUMNS: usize = 6;

/// The section of `index.html`: a matrix of families × solver × encoding (solved / ran and
/// PAR-2; the best PAR-2 of a family in bold), then the long table folded away. Puzzle
/// families and DIMACS families (all of whose runs read a DIMACS file) get a matrix each,
/// of the configurations that ran on them, at most [`MATRIX_COLUMNS`] at a time.
pub fn html(families: &[Family], several_encodings: bool) -> Markup {
    let is_cnf = |f: &&Family| {
        !f.scores.is_empty() && f.scores.iter().all(|s| s.config.encoding == "dimacs")
    };
    let (cnf, puzzles): (Vec<&Family>, Vec<&Family>) = families.iter().partition(is_cnf);
    let both = !cnf.is_empty() && !puzzles.is_empty();
    let groups = [("Puzzles", puzzles), ("DIMACS files", cnf)];
    html! {
        @if families.len() >= 2 {
            h2 id="families" { "Per family" }
            p class="note" {
                "Each cell: solved / instances ran, and below, PAR-2 in seconds; the best PAR-2 of each family in bold. "
                (NOTE)
            }
            @for (title, group) in &groups {
                @if !group.is_empty() {
                    @if both { h3 { (title) } }
                    @for part in configurations(group).chunks(MATRIX_COLUMNS) {
                        (matrix(group, part, several_encodings))
                    }
                }
            }
            details {
                summary { "As one long table" }
                (Html.markup(&table(families, several_encodings)))
            }
        }
    }
}

/// The configurations that ran on `families`, in order of first appearance.
fn configurations<'f>(families: &[&'f Family]) -> Vec<&'f Config> {
    let mut out: Vec<&Config> = Vec::new();
    for f in families {
        for s in &f.scores {
            if !out.contains(&&s.config) {
                out.push(&s.config);
            }
        }
    }
    out
}

/// One matrix: `families` by `configurations`.
fn matrix(families: &[&Family], configurations: &[&Config], several_encodings: bool) -> Markup {
    html! {
        table {
            tr {
                th { "family" } th { "instances" } th { "virtual best" }
                @for c in configurations { th { (c.label(several_encodings)) } }
            }
            @for f in families {
                @let best = f.scores.iter().map(|s| s.par2).fold(f64::INFINITY, f64::min);
                tr {
                    td { (f.family) }
                    td class="n" { (f.instances) }
                    td class="n" { (f.vbs_solved) br; (seconds(f.vbs_par2)) }
                    @for c in configurations {
                        @if let Some(s) = f.scores.iter().find(|s| s.config == **c) {
                            td class="n" {
                                (s.solved) "/" (s.ran) br;
                                @if s.par2 == best { b { (seconds(s.par2)) } } @else { (seconds(s.par2)) }
                            }
                        } @else {
                            td style="background:#f6f6f6" {}
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::outcome::outcomes;
    use crate::report::score::Scoring;
    use crate::report::test_rows::{full_row, row};

    #[test]
    fn a_csv_without_the_family_column_gets_the_default_rule() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("results.csv");
        let mut w = crate::results::ResultsWriter::append(&path).unwrap();
        let mut r = crate::report::test_rows::full_row("php/a.cnf", "dimacs", "x", "SAT", 1.0);
        r.corpus = "sat".into();
        r.kind = crate::results::InstanceKind::Cnf;
        r.family = "written".into();
        w.write(&r).unwrap();
        drop(w);
        let text = std::fs::read_to_string(&path).unwrap();
        let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
        let at = header
            .iter()
            .position(|c| *c == "family")
            .expect("a family column");
        let rows = crate::results::parse_rows(&text, "new.csv").unwrap();
        assert_eq!(family_of(&Row::from(&rows[0]), None), "written");
        // The same without its family column, as bench wrote it before.
        let old: String = text
            .lines()
            .map(|l| {
                let mut cells: Vec<&str> = l.split(',').collect();
                cells.remove(at);
                cells.join(",") + "\n"
            })
            .collect();
        let rows = crate::results::parse_rows(&old, "old.csv").unwrap();
        assert_eq!(rows[0].family, "");
        assert_eq!(family_of(&Row::from(&rows[0]), None), "php");
    }

    #[test]
    fn per_family_by_hand() {
        let cnf = |instance: &str, solver: &str, status: &str, t: f64| {
            let mut full = full_row(instance, "dimacs", solver, status, t);
            full.corpus = "sat".into();
            full.kind = crate::results::InstanceKind::Cnf;
            Row::from(&full)
        };
        let rows = vec![
            cnf("php/a.cnf", "x", "UNSAT", 1.0),
            cnf("php/a.cnf", "y", "TIMEOUT", 10.0),
            cnf("php/b.cnf", "x", "TIMEOUT", 10.0),
            cnf("php/b.cnf", "y", "TIMEOUT", 10.0),
            cnf("rand/c.cnf", "x", "SAT", 2.0),
            cnf("rand/c.cnf", "y", "SAT", 0.5),
        ];
        let outcomes = outcomes(&rows, Scoring::default());
        let by = families_by_instance(&rows, None);
        let split = split(&outcomes, &by);
        let f = families(
            &split,
            &["x".into(), "y".into()],
            &["dimacs".into()],
            &Modes::default(),
        );
        assert_eq!(f.len(), 2);
        assert_eq!(
            (f[0].family.as_str(), f[0].instances, f[0].vbs_solved),
            ("php", 2, 1)
        );
        // VBS php: (1 + 20) / 2; x: (1 + 20) / 2, 1 solved; y: 20, none.
        assert!((f[0].vbs_par2 - 10.5).abs() < 1e-12);
        assert_eq!((f[0].scores[0].solved, f[0].scores[1].solved), (1, 0));
        assert!((f[0].scores[1].par2 - 20.0).abs() < 1e-12);
        assert_eq!((f[1].family.as_str(), f[1].vbs_solved), ("rand", 1));
        assert!((f[1].vbs_par2 - 0.5).abs() < 1e-12);
        // A families file moves b into its own family.
        let file = Families::parse("path,family\nsat/php/b.cnf,hard\n", "f").unwrap();
        let by = families_by_instance(&rows, Some(&file));
        assert_eq!(by[&Name::new("php/b.cnf")], "hard");
        assert_eq!(by[&Name::new("php/a.cnf")], "php");
        let html = html(&f, false).into_string();
        assert!(html.contains("<b>0.500</b>"), "{html}");
    }

    /// A mixed run's matrix comes in parts that fit: puzzle families and DIMACS families
    /// apart, each with the configurations that ran on it, at most `MATRIX_COLUMNS` a
    /// table.
    #[test]
    fn the_page_splits_a_wide_matrix() {
        let mut rows = Vec::new();
        for solver in ["a", "b", "c", "d"] {
            let mut full = full_row("php/a.cnf", "dimacs", solver, "SAT", 1.0);
            full.corpus = "sat".into();
            full.kind = crate::results::InstanceKind::Cnf;
            rows.push(Row::from(&full));
            for encoding in ["minimal", "extended"] {
                rows.push(row("p.txt:1", encoding, solver, "SAT", 1.0));
            }
        }
        let outcomes = outcomes(&rows, Scoring::default());
        let split = split(&outcomes, &families_by_instance(&rows, None));
        let solvers: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        let encodings: Vec<String> = ["minimal", "extended", "dimacs"].map(String::from).to_vec();
        let f = families(&split, &solvers, &encodings, &Modes::of(&rows));
        let page = html(&f, true).into_string();
        let matrices: Vec<&str> = page.split("<table>").skip(1).collect();
        // Puzzles: 8 configurations in two tables (6 + 2); DIMACS files: 4 in one; then the
        // long table.
        assert_eq!(matrices.len(), 4, "{page}");
        let heads = |t: &str| t[..t.find("</tr>").unwrap()].matches("<th>").count() - 3;
        let widths: Vec<usize> = matrices[..3].iter().map(|t| heads(t)).collect();
        assert_eq!(widths, [6, 2, 4]);
        assert!(!matrices[0].contains("dimacs") && !matrices[2].contains("minimal"));
        assert!(page.contains("<h3>Puzzles</h3>") && page.contains("<h3>DIMACS files</h3>"));
    }
}
