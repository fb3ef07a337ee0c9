//! Merging several results CSVs into one set of rows.
//!
//! Rows join by instance (its content hash), so two CSVs of different solvers on the same corpus become one
//! comparison. A run is identified by its key (instance, encoding, solver, run): a key
//! seen again, from the same file given twice or from a copy, is counted once. When the two
//! rows of one key differ (two separate benchmarks that both call their run 1), the first
//! is kept and the clash is reported, since silently mixing them would double-count.

use std::path::{Path, PathBuf};

use crate::report::rows::Row;

/// The rows of several sources, deduplicated.
#[derive(Debug, Default)]
pub struct Merged {
    /// Every distinct run, in source order.
    pub rows: Vec<Row>,
    /// Rows dropped because an identical row came earlier.
    pub duplicates: usize,
    /// Rows dropped because a different row with the same key came earlier, described.
    pub conflicts: Vec<String>,
    /// UNSAT answers that a verified model of the same instance contradicts (in any of
    /// the sources), now WRONG.
    pub contradicted: usize,
}

impl Merged {
    /// Lines for the summary's notes about what merging dropped.
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if self.contradicted > 0 {
            notes.push(format!(
                "{} UNSAT answer(s) contradicted by a verified model of the same instance: WRONG",
                self.contradicted
            ));
        }
        if self.duplicates > 0 {
            notes.push(format!(
                "{} duplicate row(s) (same run, same result) counted once",
                self.duplicates
            ));
        }
        const SHOWN: usize = 5;
        for conflict in self.conflicts.iter().take(SHOWN) {
            notes.push(conflict.clone());
        }
        if self.conflicts.len() > SHOWN {
            notes.push(format!(
                "... and {} more runs recorded twice with different results",
                self.conflicts.len() - SHOWN
            ));
        }
        notes
    }
}

/// Merges `sources` (a name for messages, and its rows) in order. Rows are told apart by
/// the order of their cells ([`crate::report::outcome::CellOrder`]: by instance,
/// encoding, solver, repetition, then place, so the first of a key comes first) rather
/// than by a map of copied keys: 4 bytes a row.
pub fn merge(sources: Vec<(String, Vec<Row>, Vec<u32>)>) -> Merged {
    let mut names = Vec::new();
    // Where each source's rows start.
    let mut starts = Vec::new();
    let mut rows: Vec<Row> = Vec::new();
    let mut digests: Vec<u32> = Vec::new();
    for (name, part, part_digests) in sources {
        names.push(name);
        starts.push(rows.len());
        if rows.is_empty() {
            rows = part; // moved, not copied: one source is the usual case
            digests = part_digests;
        } else {
            rows.extend(part);
            digests.extend(part_digests);
        }
    }
    let source_of = |row: usize| starts.partition_point(|&start| start <= row) - 1;
    let cells = crate::report::outcome::CellOrder::of(&rows);
    let same_key = |a: &Row, b: &Row| cells.same_cell(a, b) && a.run() == b.run();
    let mut keep = vec![true; rows.len()];
    let mut merged = Merged::default();
    // (the kept row, the clashing row) of each clash
    let mut clashes: Vec<(usize, usize)> = Vec::new();
    for runs in cells
        .order
        .chunk_by(|&a, &b| same_key(&rows[a as usize], &rows[b as usize]))
    {
        let kept = runs[0] as usize;
        for &again in &runs[1..] {
            let again = again as usize;
            keep[again] = false;
            if rows[again] == rows[kept] && digests[again] == digests[kept] {
                merged.duplicates += 1;
            } else {
                clashes.push((kept, again));
            }
        }
    }
    drop((cells, digests));
    clashes.sort_by_key(|&(_, again)| rows[again].key()); // stable: a key's in row order
    for (kept, again) in clashes {
        let row = &rows[again];
        merged.conflicts.push(format!(
            "{} on {} ({}, run {}) is in {} and again, different, in {}: the first is kept",
            row.solver(),
            row.instance(),
            row.encoding(),
            row.run(),
            names[source_of(kept)],
            names[source_of(again)]
        ));
    }
    let mut index = 0;
    rows.retain(|_| {
        index += 1;
        keep[index - 1]
    });
    // One judgement wherever rows meet: an UNSAT in one file against a verified model in
    // another is as wrong as within one run.
    let before = rows.iter().filter(|r| r.wrong).count();
    crate::results::cross_check_unsat(&mut rows);
    merged.contradicted = rows.iter().filter(|r| r.wrong).count() - before;
    merged.rows = rows;
    merged
}

/// Reads every CSV (strictly: a malformed row is an error naming `file:line`) and merges.
/// A SAT Competition results file (told by its header) is read as the rows of another
/// machine (see [`crate::report::satcomp`]).
pub fn read_and_merge(paths: &[PathBuf]) -> anyhow::Result<Merged> {
    let mut sources = Vec::new();
    for path in paths {
        let (rows, digests) = if crate::report::satcomp::is_satcomp(path)? {
            let full = crate::report::satcomp::read(path)?;
            let digests = full.iter().map(crate::report::rows::digest).collect();
            (crate::report::rows::of(&full), digests)
        } else {
            crate::report::rows::read(path)?
        };
        sources.push((display(path), rows, digests));
    }
    Ok(merge(sources))
}

fn display(path: &Path) -> String {
    path.display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_rows::row;

    #[test]
    fn the_same_run_twice_counts_once_and_a_clash_is_reported() {
        let a = vec![
            row("i1", "minimal", "x", "SAT", 1.0),
            row("i2", "minimal", "x", "SAT", 1.0),
        ];
        let b = vec![
            row("i1", "minimal", "x", "SAT", 1.0),
            row("i2", "minimal", "x", "SAT", 2.0),
            row("i1", "minimal", "y", "SAT", 3.0),
        ];
        let (da, db) = (vec![0; a.len()], vec![0; b.len()]);
        let merged = merge(vec![("a.csv".into(), a, da), ("b.csv".into(), b, db)]);
        assert_eq!(merged.rows.len(), 3);
        assert_eq!(merged.duplicates, 1);
        assert_eq!(merged.conflicts.len(), 1);
        assert!(
            merged.conflicts[0].contains("a.csv"),
            "{:?}",
            merged.conflicts
        );
        assert_eq!(merged.rows[1].wall_s, 1.0, "the first of a clash is kept");
    }

    #[test]
    fn a_clash_names_the_sources_of_both_rows() {
        let a = vec![row("i1", "minimal", "x", "SAT", 1.0)];
        let b = vec![row("i2", "minimal", "x", "SAT", 1.0)];
        let c = vec![
            row("i2", "minimal", "x", "SAT", 1.0),
            row("i2", "minimal", "x", "SAT", 5.0),
            row("i1", "minimal", "x", "SAT", 4.0),
        ];
        let digests = |rows: &Vec<_>| vec![0; rows.len()];
        let (da, db, dc) = (digests(&a), digests(&b), digests(&c));
        let merged = merge(vec![
            ("a.csv".into(), a, da),
            ("b.csv".into(), b, db),
            ("c.csv".into(), c, dc),
        ]);
        assert_eq!((merged.rows.len(), merged.duplicates), (2, 1));
        assert_eq!(merged.conflicts.len(), 2, "{:?}", merged.conflicts);
        assert!(merged.conflicts[0].contains("in a.csv and again, different, in c.csv"));
        assert!(merged.conflicts[1].contains("in b.csv and again, different, in c.csv"));
        assert_eq!(
            merged.rows.iter().map(|r| r.wall_s).collect::<Vec<_>>(),
            [1.0, 1.0]
        );
    }
}
