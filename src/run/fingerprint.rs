//! The plan's fingerprint: one hex string that changes when the corpus contents or any option
//! that decides the runs or their answers changes, recorded in every `run.json`. Shards of
//! one study must all carry the study's fingerprint; `bench merge` refuses any that does not.
//!
//! What goes in: every instance's corpus, id and source (a puzzle file's whole contents once;
//! a DIMACS file's size and its first and last 4 KiB, which hold its header and comments and
//! change with any edit that changes its size, without reading gigabytes on every node),
//! the solvers with where they are looked up, the encodings, at-most-one encoding, timeout,
//! repetitions, memory limit, proofs, seed, count, strictness, input format and kind, and
//! the number of shards. What stays out: `--jobs`, the output folder and which shard runs.
//! Reading the files also checks that the corpus is readable before any run starts.
//!
//! The hash is 64-bit FNV-1a, twice (with two offset bases) for 128 bits: stable across
//! machines, builds and Rust versions, which the standard library's hasher is not. It
//! guards against mistakes, not against an adversary.

use std::collections::BTreeSet;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use anyhow::Context;

use super::RunOptions;
use super::corpus::{Instance, Source};

/// 128-bit FNV-1a (two 64-bit lanes).
struct Fnv([u64; 2]);

impl Fnv {
    const PRIME: u64 = 0x0000_0100_0000_01b3;

    fn new() -> Fnv {
        Fnv([0xcbf2_9ce4_8422_2325, 0x6c62_272e_07bb_0142])
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for lane in &mut self.0 {
            let mut h = *lane;
            for &b in bytes {
                h ^= u64::from(b);
                h = h.wrapping_mul(Self::PRIME);
            }
            *lane = h;
        }
    }

    /// A field: its bytes and a separator, so that ("ab", "c") and ("a", "bc") differ.
    fn field(&mut self, s: &str) {
        self.bytes(&(s.len() as u64).to_le_bytes());
        self.bytes(s.as_bytes());
    }

    fn hex(&self) -> String {
        format!("{:016x}{:016x}", self.0[0], self.0[1])
    }
}

/// Bytes of a DIMACS file's head and tail that go into the fingerprint.
const SAMPLE: u64 = 4096;

/// Hashes a DIMACS file: its size, first and last [`SAMPLE`] bytes.
fn hash_dimacs(h: &mut Fnv, path: &Path) -> anyhow::Result<()> {
    let unreadable = || format!("corpus file {} is not readable", path.display());
    let mut file = File::open(path).with_context(unreadable)?;
    let size = file.metadata().with_context(unreadable)?.len();
    h.bytes(&size.to_le_bytes());
    let mut buf = vec![0; SAMPLE.min(size) as usize];
    file.read_exact(&mut buf).with_context(unreadable)?;
    h.bytes(&buf);
    if size > SAMPLE {
        let tail = SAMPLE.min(size - SAMPLE);
        file.seek(SeekFrom::Start(size - tail))
            .with_context(unreadable)?;
        buf.resize(tail as usize, 0);
        file.read_exact(&mut buf).with_context(unreadable)?;
        h.bytes(&buf);
    }
    Ok(())
}

/// The fingerprint of the plan of `opts` over `instances` (all of them, not one shard's),
/// split into `shards` parts (1 for a run that is not sharded).
pub fn plan(opts: &RunOptions, instances: &[Instance], shards: usize) -> anyhow::Result<String> {
    let mut h = Fnv::new();
    h.field("bench-plan-1");
    h.field(&shards.to_string());
    h.field(&opts.solvers.join(","));
    for (name, path) in &opts.config.paths {
        h.field(&format!("path {name}={}", path.display()));
    }
    for (name, command) in &opts.config.commands {
        h.field(&format!("command {name}={command}"));
    }
    let encodings: Vec<String> = opts.encodings.iter().map(|e| e.to_string()).collect();
    h.field(&encodings.join(","));
    h.field(&format!("{:?}", opts.amo));
    h.field(&opts.timeout.as_secs_f64().to_string());
    h.field(&opts.repeat.to_string());
    h.field(&format!("{:?}", opts.mem_limit_mb));
    h.field(&opts.proofs.to_string());
    h.field(&opts.seed.to_string());
    h.field(&opts.count.to_string());
    h.field(&opts.strict.to_string());
    h.field(&format!("{:?}", opts.read.format.map(|f| f.to_string())));
    h.field(&format!("{:?}", opts.read.kind.map(|k| k.to_string())));
    if let Some(alphabet) = &opts.read.alphabet {
        h.field(&format!("{alphabet:?}"));
    }
    let mut puzzle_files = BTreeSet::new();
    h.field(&instances.len().to_string());
    for instance in instances {
        h.field(&instance.corpus);
        h.field(&instance.id);
        match &instance.source {
            Source::Puzzle(_) => {
                puzzle_files.insert(instance.corpus.as_str());
            }
            Source::Dimacs(path) => hash_dimacs(&mut h, path)?,
        }
    }
    for file in puzzle_files {
        let bytes =
            std::fs::read(file).with_context(|| format!("corpus file {file} is not readable"))?;
        h.field(file);
        h.bytes(&bytes);
    }
    Ok(h.hex())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_is_the_published_one() {
        // FNV-1a 64 of "a" (from the FNV reference test vectors).
        let mut h = Fnv::new();
        h.bytes(b"a");
        assert_eq!(h.0[0], 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn dimacs_sample_sees_size_head_and_tail() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.cnf");
        let hash = |bytes: &[u8]| {
            std::fs::write(&path, bytes).unwrap();
            let mut h = Fnv::new();
            hash_dimacs(&mut h, &path).unwrap();
            h.hex()
        };
        let mut big = vec![b'1'; 20_000];
        let base = hash(&big);
        big[19_999] = b'2';
        assert_ne!(hash(&big), base, "the tail counts");
        big[19_999] = b'1';
        big[0] = b'2';
        assert_ne!(hash(&big), base, "the head counts");
        big[0] = b'1';
        big.push(b'1');
        assert_ne!(hash(&big), base, "the size counts");
        assert_eq!(hash(&vec![b'1'; 20_000]), base, "stable");
        assert!(hash(b"p cnf 1 1\n1 0\n").len() == 32);
        let missing = dir.path().join("gone.cnf");
        let err = hash_dimacs(&mut Fnv::new(), &missing).unwrap_err();
        assert!(format!("{err:#}").contains("gone.cnf"), "{err:#}");
    }
}
