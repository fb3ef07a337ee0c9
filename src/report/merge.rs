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
/// sorting their indices by key (stable, so the first of a key comes first) rather than by
/// a map of copied keys: a million rows cost 4 MB of indices, not a copy of every key.
pub fn merge(sources: Vec<(String, Vec<Row>, Vec<u32>)>) -> Merged {
    let mut names = Vec::new();
    let mut source_of = Vec::new();
    let mut rows: Vec<Row> = Vec::new();
    let mut digests: Vec<u32> = Vec::new();
    for (source, (name, part, part_digests)) in sources.into_iter().enumerate() {
        names.push(name);
        source_of.extend(std::iter::repeat_n(source as u32, part.len()));
        if rows.is_empty() {
            rows = part; // moved, not copied: one source is the usual case
            digests = part_digests;
        } else {
            rows.extend(part);
            digests.extend(part_digests);
        }
    }
    // Keys compare by their interned names' numbers (equal texts, equal numbers; the order
    // of the sort does not matter, only which rows share a key), in 16 bytes.
    let mut keyed: Vec<((u32, u32, u32, u32), u32)> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let key = (
                r.instance_name().number(),
                r.encoding().number(),
                r.solver().number(),
                r.run(),
            );
            (key, i as u32)
        })
        .collect();
    keyed.sort_unstable();
    let order = |k: usize| keyed[k].1 as usize;
    let mut keep = vec![true; rows.len()];
    let mut merged = Merged::default();
    // (the kept row, the clashing row) of each clash, in the order of their keys' texts
    let mut clashes: Vec<(usize, usize)> = Vec::new();
    let mut first = 0;
    for k in 1..=keyed.len() {
        if k < keyed.len() && keyed[k].0 == keyed[first].0 {
            let (kept, again) = (order(first), order(k));
            keep[again] = false;
            if rows[again] == rows[kept] && digests[again] == digests[kept] {
                merged.duplicates += 1;
            } else {
                clashes.push((kept, again));
            }
        } else {
            first = k;
        }
    }
    drop((keyed, digests));
    clashes.sort_by_key(|&(_, again)| rows[again].key()); // stable: a key's in row order
    for (kept, again) in clashes {
        let row = &rows[again];
        merged.conflicts.push(format!(
            "{} on {} ({}, run {}) is in {} and again, different, in {}: the first is kept",
            row.solver(),
            row.instance(),
            row.encoding(),
            row.run(),
            names[source_of[kept] as usize],
            names[source_of[again] as usize]
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
}
