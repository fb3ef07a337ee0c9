//! `--shard K/N`: the K-th of N disjoint parts of a plan, for running one study on many
//! machines (SLURM array tasks, GNU parallel, a shell loop).
//!
//! The unit of the split is the instance, so an instance's encodings are built once, in one
//! shard. The partition depends only on the instances (their corpus, id and weight, the
//! number of runs each brings), never on the machine or the time, so every node computes the
//! same one. Algorithm: sort the instances by (weight, heaviest first; corpus; id; position
//! in the corpus) and deal them round-robin to shards 0, 1, …, N−1, 0, 1, … Dealing makes
//! the parts disjoint and complete; every shard holds ⌊M/N⌋ or ⌈M/N⌉ of the M instances;
//! and as instances of one weight are dealt one after another, every shard also holds within
//! one of its share of each weight, so the runs are balanced too. K counts from 0, like
//! `$SLURM_ARRAY_TASK_ID`.

use std::fmt;
use std::str::FromStr;

use super::corpus::{Instance, Source};

/// One part of N: `K/N` on the command line, `K-of-N` as a folder name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which part, from 0.
    pub k: usize,
    /// How many parts.
    pub n: usize,
}

/// A `--shard` value that is not `K/N` with 0 ≤ K < N.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("--shard {0}: expected K/N with 0 <= K < N (K counts from 0, like SLURM_ARRAY_TASK_ID)")]
pub struct BadShard(pub String);

impl FromStr for Shard {
    type Err = BadShard;

    fn from_str(s: &str) -> Result<Shard, BadShard> {
        let bad = || BadShard(s.to_string());
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let k: usize = k.trim().parse().map_err(|_| bad())?;
        let n: usize = n.trim().parse().map_err(|_| bad())?;
        if n == 0 || k >= n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl serde::Serialize for Shard {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Shard {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Shard, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl Shard {
    /// The shard's folder name inside a study: `K-of-N`.
    pub fn dir_name(&self) -> String {
        format!("{}-of-{}", self.k, self.n)
    }
}

/// The formulas an instance brings to the plan: one per encoding for a puzzle, one for a
/// DIMACS file. Its runs are this × solvers × repetitions.
pub fn units<P>(instance: &Instance<P>, encodings: usize) -> usize {
    match instance.source {
        Source::Puzzle(_) => encodings,
        Source::Dimacs(_) => 1,
    }
}

/// The shard (0..n) of every instance, by position in `instances`.
pub fn assign<P>(instances: &[Instance<P>], encodings: usize, n: usize) -> Vec<usize> {
    let n = n.max(1);
    let mut order: Vec<usize> = (0..instances.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&instances[a], &instances[b]);
        units(y, encodings)
            .cmp(&units(x, encodings))
            .then_with(|| x.corpus.cmp(&y.corpus))
            .then_with(|| x.id.cmp(&y.id))
            .then_with(|| a.cmp(&b))
    });
    let mut shard_of = vec![0; instances.len()];
    for (dealt, &i) in order.iter().enumerate() {
        shard_of[i] = dealt % n;
    }
    shard_of
}

/// The instances of `shard`, in their corpus order.
pub fn select(instances: Vec<Instance>, encodings: usize, shard: Shard) -> Vec<Instance> {
    let shard_of = assign(&instances, encodings, shard.n);
    instances
        .into_iter()
        .zip(shard_of)
        .filter(|(_, s)| *s == shard.k)
        .map(|(i, _)| i)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::format::{ReadOptions, read_str};
    use std::path::PathBuf;

    fn dimacs(id: &str) -> Instance {
        Instance {
            corpus: "cnf".into(),
            id: id.into(),
            hash: id.into(),
            source: Source::Dimacs(PathBuf::from(id)),
            records: Vec::new(),
            format: None,
            family: None,
        }
    }

    fn puzzle(id: &str) -> Instance {
        let text =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n";
        let file = read_str(text, "p.txt", &ReadOptions::default()).unwrap();
        let p = file.entries.into_iter().next().unwrap().unwrap().puzzle;
        Instance {
            corpus: "p.txt".into(),
            id: id.into(),
            hash: id.into(),
            source: Source::Puzzle(p),
            records: Vec::new(),
            format: None,
            family: None,
        }
    }

    #[test]
    fn parse_and_show() {
        assert_eq!("3/8".parse(), Ok(Shard { k: 3, n: 8 }));
        assert_eq!(Shard { k: 3, n: 8 }.to_string(), "3/8");
        assert_eq!(Shard { k: 3, n: 8 }.dir_name(), "3-of-8");
        for bad in ["8/8", "1/0", "x/2", "3", "-1/4", "1/2/3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn disjoint_complete_balanced_and_deterministic() {
        for (m, n) in [
            (0, 3),
            (1, 3),
            (7, 3),
            (100, 7),
            (1000, 100),
            (5, 5),
            (3, 10),
        ] {
            let instances: Vec<Instance> = (0..m).map(|i| dimacs(&format!("f{i}.cnf"))).collect();
            let shard_of = assign(&instances, 1, n);
            let mut count = vec![0; n];
            for &s in &shard_of {
                count[s] += 1;
            }
            assert_eq!(count.iter().sum::<usize>(), m);
            assert!(
                count.iter().all(|&c| c <= m.div_ceil(n) && c >= m / n),
                "{count:?}"
            );
            // The same instances in another order: the same shard for each.
            let mut reversed = instances.clone();
            reversed.reverse();
            let again = assign(&reversed, 1, n);
            for (i, s) in again.iter().enumerate() {
                assert_eq!(*s, shard_of[m - 1 - i]);
            }
            // select() over all shards gives every instance exactly once.
            let mut ids: Vec<String> = (0..n)
                .flat_map(|k| select(instances.clone(), 1, Shard { k, n }))
                .map(|i| i.id)
                .collect();
            ids.sort();
            let mut all: Vec<String> = instances.iter().map(|i| i.id.clone()).collect();
            all.sort();
            assert_eq!(ids, all);
        }
    }

    #[test]
    fn runs_are_balanced_when_weights_differ() {
        // 40 puzzles (3 encodings each) and 61 DIMACS files over 4 shards.
        let mut instances: Vec<Instance> = (0..40).map(|i| puzzle(&format!("p.txt:{i}"))).collect();
        instances.extend((0..61).map(|i| dimacs(&format!("f{i}.cnf"))));
        let shard_of = assign(&instances, 3, 4);
        let mut units_per_shard = [0; 4];
        for (i, &s) in shard_of.iter().enumerate() {
            units_per_shard[s] += units(&instances[i], 3);
        }
        let (lo, hi) = (
            *units_per_shard.iter().min().unwrap(),
            *units_per_shard.iter().max().unwrap(),
        );
        assert!(hi - lo <= 3 + 1, "{units_per_shard:?}");
    }
}
