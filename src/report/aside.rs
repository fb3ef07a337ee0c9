//! Values a report row holds by number: sets of 64-bit words that most rows share (a
//! formula's size) or few rows have (a `--count`'s times, work counters too large for 4
//! bytes), each distinct set stored once for the whole process, so that a row holds 4
//! bytes instead of the words, and rows with the same values hold the same number (they
//! still compare equal as numbers).

use std::collections::HashMap;
use std::sync::Mutex;

/// The distinct sets of `N` words, by number; number 0 is the one given at the start.
pub(crate) struct Aside<const N: usize>(Mutex<Values<N>>);

struct Values<const N: usize> {
    first: [u64; N],
    rest: Vec<[u64; N]>,
    index: Option<HashMap<[u64; N], u32>>,
}

impl<const N: usize> Aside<N> {
    /// A store whose number 0 is `first`.
    pub(crate) const fn new(first: [u64; N]) -> Aside<N> {
        Aside(Mutex::new(Values {
            first,
            rest: Vec::new(),
            index: None,
        }))
    }

    /// The number of `values` (stored if new).
    pub(crate) fn number(&self, values: [u64; N]) -> u32 {
        let mut store = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if values == store.first {
            return 0;
        }
        let Values { rest, index, .. } = &mut *store;
        *index
            .get_or_insert_with(HashMap::new)
            .entry(values)
            .or_insert_with(|| {
                rest.push(values);
                u32::try_from(rest.len()).expect("fewer than 2^32 distinct values aside")
            })
    }

    /// The values of `number` (one [`Aside::number`] gave).
    pub(crate) fn get(&self, number: u32) -> [u64; N] {
        let store = self.0.lock().unwrap_or_else(|e| e.into_inner());
        match number {
            0 => store.first,
            n => store.rest[n as usize - 1],
        }
    }
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
