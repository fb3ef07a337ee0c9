//! The instances of a study's plan as the merge needs them: each instance's content hash
//! (its runs' key), its id (to name a missing run) and whether it is a puzzle (run under
//! every encoding) or a DIMACS file (run as `dimacs`), in corpus order.
//!
//! The strings are packed: all hashes in one text, all ids in another, each instance's
//! end offset beside them, so a plan of a million instances holds about 60 bytes an
//! instance, without one allocation an instance.

use crate::run::corpus::Instance;

/// Strings packed end to end, each found by its end offset.
#[derive(Debug, Default)]
struct Packed {
    text: String,
    ends: Vec<usize>,
}

impl Packed {
    fn with_capacity(strings: usize, bytes: usize) -> Packed {
        Packed {
            text: String::with_capacity(bytes),
            ends: Vec::with_capacity(strings),
        }
    }

    fn push(&mut self, s: &str) {
        self.text.push_str(s);
        self.ends.push(self.text.len());
    }

    fn get(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.text[start..self.ends[i]]
    }
}

/// The plan's instances, in corpus order (see the module's documentation).
#[derive(Debug, Default)]
pub struct Roster {
    hashes: Packed,
    ids: Packed,
    puzzle: Vec<bool>,
}

impl Roster {
    /// The roster of `instances`, in their order.
    pub fn of<P>(instances: &[Instance<P>]) -> Roster {
        let bytes = |f: fn(&Instance<P>) -> &str| instances.iter().map(|i| f(i).len()).sum();
        let mut roster = Roster {
            hashes: Packed::with_capacity(instances.len(), bytes(|i| &i.hash)),
            ids: Packed::with_capacity(instances.len(), bytes(|i| &i.id)),
            puzzle: Vec::with_capacity(instances.len()),
        };
        for i in instances {
            roster.hashes.push(&i.hash);
            roster.ids.push(&i.id);
            roster.puzzle.push(i.is_puzzle());
        }
        roster
    }

    /// How many instances.
    pub fn len(&self) -> usize {
        self.puzzle.len()
    }

    /// True when the plan has no instance.
    pub fn is_empty(&self) -> bool {
        self.puzzle.is_empty()
    }

    /// The content hash of instance `i`.
    pub fn hash(&self, i: usize) -> &str {
        self.hashes.get(i)
    }

    /// The id of instance `i`.
    pub fn id(&self, i: usize) -> &str {
        self.ids.get(i)
    }

    /// Instance `i` is a puzzle (else a DIMACS file).
    pub fn is_puzzle(&self, i: usize) -> bool {
        self.puzzle[i]
    }

    /// Every content hash, in corpus order.
    pub fn hashes(&self) -> impl Iterator<Item = &str> {
        (0..self.len()).map(|i| self.hash(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::corpus::{Hashed, Source};
    use std::path::PathBuf;

    #[test]
    fn holds_each_instance_as_given() {
        let instance = |id: &str, hash: &str, source: Source<Hashed>| Instance {
            corpus: "c".into(),
            id: id.into(),
            hash: hash.into(),
            source,
            records: Vec::new(),
            format: None,
            family: None,
        };
        let instances = [
            instance("a.txt:1", "h1", Source::Puzzle(Hashed)),
            instance("", "", Source::Puzzle(Hashed)),
            instance("x.cnf", "h3", Source::Dimacs(PathBuf::from("x.cnf"))),
        ];
        let roster = Roster::of(&instances);
        assert_eq!(roster.len(), 3);
        for (k, i) in instances.iter().enumerate() {
            assert_eq!(roster.id(k), i.id);
            assert_eq!(roster.hash(k), i.hash);
            assert_eq!(roster.is_puzzle(k), i.is_puzzle());
        }
        assert_eq!(roster.hashes().collect::<Vec<_>>(), ["h1", "", "h3"]);
        assert!(Roster::of::<Hashed>(&[]).is_empty());
    }
}
