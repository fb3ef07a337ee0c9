//! Watch lists: two watched literals per clause, each watcher carrying a blocker literal.
//!
//! A clause needs attention only when one of its first two literals (the watches) becomes
//! false: as long as both are non-false it cannot be unit or conflicting. `watches[l]` lists
//! the clauses that watch literal `l` and is visited when `l` becomes false. Each watcher
//! also holds a *blocker*, some other literal of the clause: if the blocker is true the
//! clause is satisfied and propagation skips it without touching the clause's memory
//! (MiniSat 2.2's main cache saving). Binary clauses live in their own lists, where the
//! blocker is the other literal itself: a binary clause is propagated from the watcher
//! alone and its memory is read only during conflict analysis.

use super::clause::{CRef, ClauseArena};

/// One entry of a watch list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Watcher {
    /// The watched clause.
    pub cref: CRef,
    /// A literal code of the clause other than the watched one: when it is true the
    /// clause is satisfied. For binary clauses, the other literal.
    pub blocker: u32,
}

/// Drops every watcher of a deleted clause from the long and binary lists of the
/// literals in `smudged` (the lists of the other literals must hold none), and empties it.
pub fn purge_lists(
    smudged: &mut Vec<u32>,
    watches: &mut [Vec<Watcher>],
    bin_watches: &mut [Vec<Watcher>],
    arena: &ClauseArena,
) {
    smudged.sort_unstable();
    smudged.dedup();
    for &l in smudged.iter() {
        watches[l as usize].retain(|w| !arena.is_deleted(w.cref));
        bin_watches[l as usize].retain(|w| !arena.is_deleted(w.cref));
    }
    smudged.clear();
    debug_assert!(
        watches
            .iter()
            .chain(bin_watches.iter())
            .flatten()
            .all(|w| !arena.is_deleted(w.cref)),
        "a watcher of a deleted clause outside the smudged lists"
    );
}

/// Rewrites every watcher to its clause's place in the compacted arena `to`.
pub fn relocate_all(lists: &mut [Vec<Watcher>], from: &mut ClauseArena, to: &mut ClauseArena) {
    for list in lists {
        for w in list.iter_mut() {
            w.cref = from.relocate(w.cref, to);
        }
    }
}
