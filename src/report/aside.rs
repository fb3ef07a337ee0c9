//! Values a report row holds by number: sets of 64-bit words that most rows share (a
//! formula's size) or few rows have (a `--count`'s times, work counters too large for 4
//! bytes), each distinct set stored once for the whole process, so that a row holds 4
//! bytes instead of the words, and rows with the same values hold the same number (they
//! still compare equal as numbers).

use std::sync::{Mutex, OnceLock};

use std::hash::{BuildHasher, BuildHasherDefault};

use hashbrown::HashTable;
use rustc_hash::FxHasher;

/// The distinct sets of `N` words, by number; number 0 is the one given at the start.
/// Reading a number's values takes no lock: they are stored in chunks that are filled
/// once and never moved (chunk `k` holds numbers `2^k` to `2^(k+1) - 1`).
pub(crate) struct Aside<const N: usize> {
    first: [u64; N],
    chunks: [OnceLock<Chunk<N>>; 32],
    /// The numbers given, found by their values' hash (4 bytes a number: the values are
    /// read from the chunks).
    index: Mutex<HashTable<u32>>,
}

impl<const N: usize> Aside<N> {
    /// A store whose number 0 is `first`.
    pub(crate) const fn new(first: [u64; N]) -> Aside<N> {
        Aside {
            first,
            chunks: [const { OnceLock::new() }; 32],
            index: Mutex::new(HashTable::new()),
        }
    }

    /// The number of `values` (stored if new).
    pub(crate) fn number(&self, values: [u64; N]) -> u32 {
        if values == self.first {
            return 0;
        }
        let mut index = self.index.lock().unwrap_or_else(|e| e.into_inner());
        let hash = hash_of(&values);
        if let Some(&number) = index.find(hash, |&n| self.get(n) == values) {
            return number;
        }
        let number = u32::try_from(index.len() + 1)
            .ok()
            .filter(|&n| n < u32::MAX)
            .expect("fewer than 2^32 - 1 distinct values aside");
        let (chunk, slot) = place(number);
        self.chunks[chunk].get_or_init(|| (0..1usize << chunk).map(|_| OnceLock::new()).collect())
            [slot]
            .set(values)
            .expect("a new number's slot is empty");
        index.insert_unique(hash, number, |&n| hash_of(&self.get(n)));
        number
    }

    /// The values of `number` (one [`Aside::number`] gave).
    pub(crate) fn get(&self, number: u32) -> [u64; N] {
        if number == 0 {
            return self.first;
        }
        let (chunk, slot) = place(number);
        *self.chunks[chunk]
            .get()
            .and_then(|c| c[slot].get())
            .expect("a number's values are stored before the number is given")
    }
}

/// The hash of a set of values.
fn hash_of<const N: usize>(values: &[u64; N]) -> u64 {
    BuildHasherDefault::<FxHasher>::default().hash_one(values)
}

/// A chunk of the values' slots, each filled once.
type Chunk<const N: usize> = Box<[OnceLock<[u64; N]>]>;

/// The chunk and the slot in it of a number from 1.
fn place(number: u32) -> (usize, usize) {
    let chunk = number.ilog2();
    (chunk as usize, (number - (1 << chunk)) as usize)
}

#[cfg(test)]
mod tests {
    use super::Aside;

    #[test]
    fn equal_values_get_one_number() {
        static STORE: Aside<2> = Aside::new([0, 0]);
        assert_eq!(STORE.number([0, 0]), 0);
        let a = STORE.number([1, u64::MAX]);
        assert_eq!(STORE.number([1, u64::MAX]), a);
        let b = STORE.number([2, 3]);
        assert_ne!(a, b);
        assert_eq!(
            (STORE.get(a), STORE.get(b), STORE.get(0)),
            ([1, u64::MAX], [2, 3], [0, 0])
        );
    }
}
