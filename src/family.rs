//! Instance families: the groups a study breaks its tables down by, as SAT competition
//! analyses break theirs down by benchmark family.
//!
//! By default an instance's family is its corpus: the file for puzzles (`hard.txt`, or
//! `sub/hard.txt` for a file in a folder named on the command line), the first folder
//! level below the folder named on the command line for DIMACS files
//! (`sat/php/php-7-6.cnf` under `sat` is in `php`), the folder itself for files directly
//! in it, and the file's folder for a DIMACS file named alone. `bench run` writes it into
//! the `family` column; results written before that column get it by the same rule. A families file overrides
//! it: a CSV of `hash,family` (as GBD exports its `family` attribute) or `path,family`,
//! with or without that header line (without one, a first field of 32 hex digits is a
//! hash, anything else a path).

use std::collections::HashMap;
use std::path::Path;

use anyhow::bail;

use crate::cnf::dimacs::is_dimacs_name;
use crate::results::InstanceKind;

/// The default family of an instance of `corpus` (as named on the command line) of `kind`
/// (`cnf` for DIMACS) with id `instance`.
pub fn default_family(corpus: &str, kind: InstanceKind, instance: &str) -> String {
    let corpus_path = Path::new(corpus);
    let name_of = |p: &Path| {
        p.file_name()
            .and_then(|n| n.to_str())
            .map(str::to_string)
            .unwrap_or_else(|| corpus.to_string())
    };
    if kind.is_puzzle() {
        // The id is `file:line`: the file.
        return match instance.rsplit_once(':') {
            Some((file, _)) if !file.is_empty() => file.to_string(),
            _ => name_of(corpus_path),
        };
    }
    if is_dimacs_name(corpus_path) {
        // A file named alone: its folder.
        return match corpus_path.parent().filter(|p| !p.as_os_str().is_empty()) {
            Some(parent) => name_of(parent),
            None => ".".into(),
        };
    }
    match instance.split_once('/') {
        Some((first, _)) => first.to_string(),
        None => name_of(corpus_path),
    }
}

/// How a families file names instances.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyKind {
    /// By content hash (GBD's).
    Hash,
    /// By path: the instance's file (or id), or its whole corpus.
    Path,
}

/// A families file, read.
#[derive(Clone, Debug, Default)]
pub struct Families {
    /// Family by hash.
    by_hash: HashMap<String, String>,
    /// Family by path, paths without a leading `./`.
    by_path: HashMap<String, String>,
}

/// A path without a leading `./` and without a trailing `/`.
fn normal(path: &str) -> &str {
    let p = path.strip_prefix("./").unwrap_or(path);
    p.strip_suffix('/').unwrap_or(p)
}

fn is_hash(s: &str) -> bool {
    s.len() == 32 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

impl Families {
    /// Reads a families file; a bad line is an error naming `file:line`.
    pub fn read(path: &Path) -> anyhow::Result<Families> {
        let text = crate::bounded::read_to_string(path, crate::bounded::MAX_FAMILIES)?;
        Families::parse(&text, &path.display().to_string())
    }

    /// Parses families text; `name` names it in errors.
    pub fn parse(text: &str, name: &str) -> anyhow::Result<Families> {
        let mut families = Families::default();
        let mut header: Option<KeyKind> = None;
        let mut first = true;
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = if line.contains(',') {
                line.split(',').map(str::trim).collect()
            } else {
                line.split_whitespace().collect()
            };
            let (key, family) = match fields.as_slice() {
                [key, family] if !key.is_empty() && !family.is_empty() => (*key, *family),
                _ => bail!(
                    "{name}:{}: expected `hash,family` or `path,family`, found `{line}`",
                    n + 1
                ),
            };
            if std::mem::take(&mut first) {
                match (
                    key.to_ascii_lowercase().as_str(),
                    family.to_ascii_lowercase().as_str(),
                ) {
                    ("hash", "family") => {
                        header = Some(KeyKind::Hash);
                        continue;
                    }
                    ("path" | "instance" | "file", "family") => {
                        header = Some(KeyKind::Path);
                        continue;
                    }
                    _ => {}
                }
            }
            let kind = header.unwrap_or(if is_hash(key) {
                KeyKind::Hash
            } else {
                KeyKind::Path
            });
            let map = match kind {
                KeyKind::Hash => &mut families.by_hash,
                KeyKind::Path => &mut families.by_path,
            };
            let key = match kind {
                KeyKind::Hash => key.to_ascii_lowercase(),
                KeyKind::Path => normal(key).to_string(),
            };
            if let Some(before) = map.insert(key.clone(), family.to_string())
                && before != family
            {
                bail!(
                    "{name}:{}: `{key}` is already in family `{before}`, not `{family}`",
                    n + 1
                );
            }
        }
        if families.is_empty() {
            bail!("{name}: no families in it");
        }
        Ok(families)
    }

    /// True when it names no instance.
    pub fn is_empty(&self) -> bool {
        self.by_hash.is_empty() && self.by_path.is_empty()
    }

    /// True when it names instances by hash.
    pub fn has_hashes(&self) -> bool {
        !self.by_hash.is_empty()
    }

    /// The family it gives an instance: by `hash` (when known), else by path (the
    /// instance's path `corpus/instance`, its id, then its corpus). None: not named.
    pub fn family_of(&self, hash: Option<&str>, corpus: &str, instance: &str) -> Option<&str> {
        if let Some(h) = hash
            && let Some(f) = self.by_hash.get(&h.to_ascii_lowercase())
        {
            return Some(f);
        }
        let corpus = normal(corpus);
        let joined = format!("{corpus}/{instance}");
        [joined.as_str(), instance, corpus]
            .into_iter()
            .find_map(|k| self.by_path.get(normal(k)))
            .map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults() {
        use crate::puzzle::Kind;
        assert_eq!(
            default_family(
                "corpora/hard.txt",
                InstanceKind::Puzzle(Kind::Sudoku),
                "hard.txt:3"
            ),
            "hard.txt"
        );
        assert_eq!(
            default_family("corpora", InstanceKind::Puzzle(Kind::Latin), "sub/l.txt:3"),
            "sub/l.txt"
        );
        assert_eq!(
            default_family("sat", InstanceKind::Cnf, "php/php-7-6.cnf"),
            "php"
        );
        assert_eq!(
            default_family("sat/", InstanceKind::Cnf, "a/b/x.cnf.xz"),
            "a"
        );
        assert_eq!(
            default_family("corpora/cnf", InstanceKind::Cnf, "php-7-6.cnf"),
            "cnf"
        );
        assert_eq!(
            default_family("corpora/cnf/php-7-6.cnf", InstanceKind::Cnf, "php-7-6.cnf"),
            "cnf"
        );
        assert_eq!(default_family("x.cnf", InstanceKind::Cnf, "x.cnf"), ".");
    }

    #[test]
    fn files_by_hash_and_by_path() {
        let h = "0123456789abcdef0123456789ABCDEF";
        let f = Families::parse(&format!("hash,family\n{h},pigeons\n"), "f.csv").unwrap();
        assert!(f.has_hashes());
        assert_eq!(
            f.family_of(Some(&h.to_lowercase()), "c", "i"),
            Some("pigeons")
        );
        assert_eq!(f.family_of(None, "c", "i"), None);
        // No header, whitespace as GBD prints, paths of a file and of a corpus.
        let f = Families::parse(
            "./sat/php/php-7-6.cnf pigeons\ncorpora/easy.txt easy-sudoku\n",
            "f.txt",
        )
        .unwrap();
        assert_eq!(f.family_of(None, "sat", "php/php-7-6.cnf"), Some("pigeons"));
        assert_eq!(
            f.family_of(None, "corpora/easy.txt", "easy.txt:4"),
            Some("easy-sudoku")
        );
        assert_eq!(f.family_of(None, "sat", "php/php-8-7.cnf"), None);
        let err = Families::parse("path,family\na,x\nb\n", "f.csv").unwrap_err();
        assert!(err.to_string().starts_with("f.csv:3:"), "{err}");
        let err = Families::parse("a,x\na,y\n", "f.csv").unwrap_err();
        assert!(err.to_string().contains("f.csv:2: `a` is already"), "{err}");
        assert!(Families::parse("hash,family\n", "f.csv").is_err());
    }
}
