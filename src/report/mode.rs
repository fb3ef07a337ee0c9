//! The mode of each solver × encoding, as every table and legend labels it: `session` (in
//! bench's process, the encoding's rules loaded once and the givens assumed), `fresh` (in
//! bench's process, a formula per instance), `process` (a child process reading a DIMACS
//! file: its time includes the process start). A solver × encoding whose rows ran in
//! several modes (a 36×36 extended formula too big to keep in a session, say) is labelled
//! with each, joined by `+`.
//!
//! Rows from a CSV written before bench recorded the mode are given what can be told from
//! them: `process` for a solver whose rows carry an exit code, `fresh` under `pruned` and
//! for DIMACS input (neither ever ran in a session), else `in-process` (session or fresh,
//! not recorded).
//!
//! Times taken in different modes measure different things, so a comparison across modes
//! says so: [`Modes::notes`] for encodings, the speedup table's note for solvers.

use std::collections::{HashMap, HashSet};

use crate::report::config::{Config, ModeLabel};
use crate::report::rows::{Name, NameHasher, NameMap, Row};
use crate::results::Mode;
use std::hash::BuildHasherDefault;

/// The mode label of every solver × encoding of a set of rows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Modes {
    labels: HashMap<(String, String), ModeLabel>,
    /// Encodings in the order they first appear, with each solver's label under them.
    order: Vec<(String, String)>,
}

impl Modes {
    /// The modes of `rows`, inferred where a row does not record its own.
    pub fn of(rows: &[Row]) -> Modes {
        let child: HashSet<Name, BuildHasherDefault<NameHasher>> = rows
            .iter()
            .filter(|r| r.exit_code().is_some() || r.mode() == Some(Mode::Process))
            .map(|r| r.solver())
            .collect();
        let mut seen: NameMap<(Name, Name), ModeLabel> = NameMap::default();
        let mut order = Vec::new();
        for r in rows {
            let mode = match r.mode() {
                Some(m) => ModeLabel::of(m),
                None if child.contains(&r.solver()) => ModeLabel::of(Mode::Process),
                None if matches!(r.encoding().as_str(), "pruned" | "dimacs") => {
                    ModeLabel::of(Mode::Fresh)
                }
                None => ModeLabel::IN_PROCESS,
            };
            let key = (r.solver(), r.encoding());
            let label = seen.entry(key).or_default();
            if label.is_empty() {
                order.push((key.0.to_string(), key.1.to_string()));
            }
            *label = label.with(mode);
        }
        Modes {
            labels: seen
                .into_iter()
                .map(|((s, e), label)| ((s.to_string(), e.to_string()), label))
                .collect(),
            order,
        }
    }

    /// The label of `solver` under `encoding` (empty if it did not run).
    pub fn label(&self, solver: &str, encoding: &str) -> ModeLabel {
        self.labels
            .get(&(solver.to_string(), encoding.to_string()))
            .copied()
            .unwrap_or_default()
    }

    /// The configuration of `solver` under `encoding`, with its label.
    pub fn config(&self, solver: &str, encoding: &str) -> Config {
        Config::new(solver, encoding, self.label(solver, encoding))
    }

    /// The distinct labels of `solver` over its encodings, in order, joined by `, `.
    pub fn of_solver(&self, solver: &str) -> String {
        self.distinct(|(s, _)| s == solver)
    }

    /// The distinct labels of `encoding` over its solvers, in order, joined by `, `.
    pub fn of_encoding(&self, encoding: &str) -> String {
        self.distinct(|(_, e)| e == encoding)
    }

    /// The distinct labels of the kept solver × encodings in the modes' order (session,
    /// fresh, process, in-process, dedicated: as the tables explain them), joined by `, `.
    fn distinct(&self, keep: impl Fn(&(String, String)) -> bool) -> String {
        let mut out: Vec<ModeLabel> = Vec::new();
        for key in self.order.iter().filter(|k| keep(k)) {
            let label = self.labels[key];
            if !out.contains(&label) {
                out.push(label);
            }
        }
        out.sort_by_key(|l| l.order_key());
        out.iter()
            .map(ModeLabel::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The distinct labels of every solver × encoding, in order, joined by `, `.
    pub fn all(&self) -> String {
        self.distinct(|_| true)
    }

    /// True when every solver × encoding ran in one and the same mode.
    pub fn uniform(&self) -> bool {
        let mut labels = self.labels.values();
        let first = labels.next();
        labels.all(|l| Some(l) == first)
    }

    /// What a reader must know before comparing: for each solver whose puzzle encodings
    /// ran in different modes, a note naming them (their times differ by mode as well as
    /// by encoding).
    pub fn notes(&self) -> Vec<String> {
        let mut solvers: Vec<&str> = Vec::new();
        for (s, _) in &self.order {
            if !solvers.contains(&s.as_str()) {
                solvers.push(s);
            }
        }
        let mut notes = Vec::new();
        for solver in solvers {
            let encodings: Vec<(&str, ModeLabel)> = self
                .order
                .iter()
                .filter(|(s, e)| s == solver && e != "dimacs")
                .map(|k| (k.1.as_str(), self.labels[k]))
                .collect();
            let first = encodings.first().map(|e| e.1);
            if encodings.iter().all(|e| Some(e.1) == first) {
                continue;
            }
            let each: Vec<String> = encodings
                .iter()
                .map(|(e, m)| format!("{e} ran as {m}"))
                .collect();
            notes.push(format!(
                "{solver}: the encodings ran in different modes ({}): their times differ by \
                 mode as well as by encoding (a session loads the rules once and keeps what \
                 it learnt; a fresh formula starts from nothing); `bench run --no-incremental` \
                 runs every encoding fresh",
                each.join(", ")
            ));
        }
        notes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_rows::row;

    #[test]
    fn recorded_inferred_and_mixed() {
        let mut rows = vec![
            row("i1", "extended", "native", "SAT", 0.1),
            row("i2", "extended", "native", "SAT", 0.1),
            row("i1", "pruned", "native", "SAT", 0.1),
            row("i1", "extended", "minisat", "SAT", 0.1),
            row("i1", "minimal", "native", "SAT", 0.1),
        ];
        rows[0].set_mode(Some(Mode::Session));
        rows[1].set_mode(Some(Mode::Fresh));
        rows[3].set_exit_code(Some(10));
        let m = Modes::of(&rows);
        assert_eq!(m.label("native", "extended").to_string(), "session+fresh");
        assert_eq!(m.label("native", "pruned").to_string(), "fresh");
        assert_eq!(m.label("native", "minimal").to_string(), "in-process");
        assert_eq!(m.label("minisat", "extended").to_string(), "process");
        assert_eq!(m.of_solver("native"), "session+fresh, fresh, in-process");
        assert_eq!(m.of_encoding("extended"), "session+fresh, process");
        assert!(!m.uniform());
        // In the modes' order, not the rows': a dedicated solver's label last.
        let mut rows = vec![
            row("i1", "none", "gridsolve", "SAT", 0.1),
            row("i1", "minimal", "minisat", "SAT", 0.1),
            row("i1", "minimal", "native", "SAT", 0.1),
        ];
        rows[0].set_mode(Some(Mode::Dedicated));
        rows[1].set_mode(Some(Mode::Process));
        rows[2].set_mode(Some(Mode::Session));
        let later = Modes::of(&rows);
        assert_eq!(later.of_encoding("minimal"), "session, process");
        assert_eq!(later.all(), "session, process, dedicated");
        let notes = m.notes();
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].starts_with("native: the encodings ran in different modes (extended ran as session+fresh, pruned ran as fresh, minimal ran as in-process)"), "{}", notes[0]);
    }
}
