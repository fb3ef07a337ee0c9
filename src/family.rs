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
//!
//! `bench run --families FILE` writes the file's families into the `family` column (the
//! plan records the file by path and content digest, so a resume or a shard gives the
//! same column or refuses); `bench report --families FILE` applies it over the column.
//! Either way a line of the file that names no instance of the rows or the corpus is
//! warned of, with its file and line.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

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

/// One family of a families file, and the line that gave it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    family: String,
    line: usize,
}

/// A families file, read.
#[derive(Clone, Debug, Default)]
pub struct Families {
    /// What the file is called in messages.
    name: String,
    /// Family by hash.
    by_hash: HashMap<String, Entry>,
    /// Family by path, paths without a leading `./`.
    by_path: HashMap<String, Entry>,
}

/// A families file as a plan records it: its absolute path and the SHA-256 of its
/// content, so a resumed run or a study's shard reads the same families or refuses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FamiliesFile {
    /// The file, absolute.
    pub path: PathBuf,
    /// The SHA-256 of its bytes, hex.
    pub sha256: String,
}

impl FamiliesFile {
    /// Reads and parses the file at `path` (relative to `cwd`): its record and its
    /// families.
    pub fn read(cwd: &Path, path: &Path) -> anyhow::Result<(FamiliesFile, Families)> {
        let abs = std::path::absolute(cwd.join(path))
            .with_context(|| format!("resolving {}", path.display()))?;
        let text = crate::bounded::read_to_string(&abs, crate::bounded::MAX_FAMILIES)?;
        let families = Families::parse(&text, &path.display().to_string())?;
        let file = FamiliesFile {
            path: abs,
            sha256: hex_sha256(text.as_bytes()),
        };
        Ok((file, families))
    }

    /// The families of the recorded file, refused if its content is not the one recorded.
    pub fn families(&self) -> anyhow::Result<Families> {
        let text = crate::bounded::read_to_string(&self.path, crate::bounded::MAX_FAMILIES)?;
        let now = hex_sha256(text.as_bytes());
        if now != self.sha256 {
            bail!(
                "{}: the families file changed since the run was planned (SHA-256 {} then, \
                 {now} now): its family column would differ between rows",
                self.path.display(),
                self.sha256
            );
        }
        Families::parse(&text, &self.path.display().to_string())
    }
}

fn hex_sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A path without a leading `./` and without a trailing `/`.
fn normal(path: &str) -> &str {
    let p = path.strip_prefix("./").unwrap_or(path);
    p.strip_suffix('/').unwrap_or(p)
}

fn is_hash(s: &str) -> bool {
    s.len() == 32 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The paths that may name an instance, most particular first: `corpus/instance`, the
/// id, for a puzzle (id `file:line`) its file `corpus/file` and `file`, then every folder
/// above its path (its corpus among them: a sub-folder names what is below it); with
/// `root` (the folder the corpus is named from) each of them absolute too.
fn path_keys(corpus: &str, instance: &str, root: Option<&Path>) -> Vec<String> {
    let corpus = normal(corpus);
    let file = instance
        .rsplit_once(':')
        .filter(|(f, line)| !f.is_empty() && line.bytes().all(|b| b.is_ascii_digit()))
        .map(|(f, _)| f);
    let joined = format!("{corpus}/{instance}");
    let mut keys = vec![joined.clone(), instance.to_string()];
    let full = match file {
        Some(f) => {
            let full = format!("{corpus}/{f}");
            keys.extend([full.clone(), f.to_string()]);
            full
        }
        None => joined,
    };
    let folders = Path::new(&full)
        .ancestors()
        .skip(1)
        .filter_map(Path::to_str)
        .filter(|a| !a.is_empty() && *a != "." && *a != "/")
        .map(str::to_string)
        .collect::<Vec<_>>();
    keys.extend(folders);
    match root {
        // Each path, then the same absolute.
        Some(root) => keys
            .into_iter()
            .flat_map(|k| {
                let abs = (!Path::new(&k).is_absolute()).then(|| lexical(&root.join(&k)));
                std::iter::once(k).chain(abs)
            })
            .collect(),
        None => keys,
    }
}

/// `path` with its `.` and `..` components folded (`/a/./b/../c` → `/a/c`), the file
/// system left alone.
fn lexical(path: &Path) -> String {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out.display().to_string()
}

impl Families {
    /// Reads a families file; a bad line is an error naming `file:line`.
    pub fn read(path: &Path) -> anyhow::Result<Families> {
        let text = crate::bounded::read_to_string(path, crate::bounded::MAX_FAMILIES)?;
        Families::parse(&text, &path.display().to_string())
    }

    /// Parses families text; `name` names it in errors.
    pub fn parse(text: &str, name: &str) -> anyhow::Result<Families> {
        let mut families = Families {
            name: name.to_string(),
            ..Families::default()
        };
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
            match map.get(&key) {
                Some(before) if before.family != family => bail!(
                    "{name}:{}: `{key}` is already in family `{}` (line {}), not `{family}`",
                    n + 1,
                    before.family,
                    before.line
                ),
                Some(_) => {}
                None => {
                    let entry = Entry {
                        family: family.to_string(),
                        line: n + 1,
                    };
                    map.insert(key, entry);
                }
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
    /// instance's path `corpus/instance`, its id, for a puzzle its file `corpus/file` and
    /// `file`, then its corpus). None: not named.
    pub fn family_of(&self, hash: Option<&str>, corpus: &str, instance: &str) -> Option<&str> {
        self.entry_of(hash, corpus, instance, None)
            .map(|e| e.family.as_str())
    }

    /// As [`Families::family_of`], with `root` (the folder the corpus is named from): an
    /// absolute path in the file names an instance too.
    fn entry_of(
        &self,
        hash: Option<&str>,
        corpus: &str,
        instance: &str,
        root: Option<&Path>,
    ) -> Option<&Entry> {
        if let Some(h) = hash
            && let Some(e) = self.by_hash.get(&h.to_ascii_lowercase())
        {
            return Some(e);
        }
        path_keys(corpus, instance, root)
            .iter()
            .find_map(|k| self.by_path.get(normal(k)))
    }

    /// The line of every entry no instance takes, in file order: `(line, key, family)`.
    /// `instances` gives each instance's hash (None: unknown), corpus and id; `root` the
    /// folder its corpus is named from, when known.
    pub fn unmatched<'a>(
        &self,
        instances: impl IntoIterator<Item = (Option<&'a str>, &'a str, &'a str)>,
        root: Option<&Path>,
    ) -> Vec<String> {
        let mut taken = BTreeSet::new();
        for (hash, corpus, instance) in instances {
            // Every entry that names it counts as matched, not only the one that wins.
            if let Some(h) = hash
                && let Some(e) = self.by_hash.get(&h.to_ascii_lowercase())
            {
                taken.insert(e.line);
            }
            for k in path_keys(corpus, instance, root) {
                if let Some(e) = self.by_path.get(normal(&k)) {
                    taken.insert(e.line);
                }
            }
        }
        let mut left: Vec<(usize, &str, &Entry)> = self
            .by_hash
            .iter()
            .chain(&self.by_path)
            .filter(|(_, e)| !taken.contains(&e.line))
            .map(|(k, e)| (e.line, k.as_str(), e))
            .collect();
        left.sort_by_key(|(line, _, _)| *line);
        left.into_iter()
            .map(|(line, key, e)| {
                format!(
                    "{}:{line}: `{key}` (family `{}`) names no instance of the {}",
                    self.name,
                    e.family,
                    if root.is_some() { "corpus" } else { "results" }
                )
            })
            .collect()
    }

    /// The family it gives an instance of a run from `root`: as
    /// [`Families::family_of`], absolute paths matched too.
    pub fn family_from(
        &self,
        hash: Option<&str>,
        corpus: &str,
        instance: &str,
        root: &Path,
    ) -> Option<&str> {
        self.entry_of(hash, corpus, instance, Some(root))
            .map(|e| e.family.as_str())
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

    #[test]
    fn folders_absolute_paths_and_unmatched_lines() {
        let h = "0123456789abcdef0123456789abcdef";
        let text = format!(
            "sat/php,pigeons\n/w/data/sat/rand/r1.cnf,random\n/w/puz/sub/l.txt,latin\n\
             {h},hashed\nsat/missing.cnf,ghost\n/elsewhere/x.cnf,far\n"
        );
        let f = Families::parse(&text, "fam.csv").unwrap();
        let root = Path::new("/w/data");
        // A sub-folder names every instance below it.
        assert_eq!(f.family_of(None, "sat", "php/php-7-6.cnf"), Some("pigeons"));
        assert_eq!(
            f.family_of(None, "./sat/", "php/deep/p.cnf"),
            Some("pigeons")
        );
        // An absolute path names the instance of a run from `root`, `..` folded.
        assert_eq!(f.family_of(None, "sat", "rand/r1.cnf"), None);
        assert_eq!(
            f.family_from(None, "sat", "rand/r1.cnf", root),
            Some("random")
        );
        assert_eq!(
            f.family_from(None, "../data/sat", "rand/r1.cnf", root),
            Some("random")
        );
        // A puzzle's file, below a folder corpus.
        assert_eq!(
            f.family_from(None, "../puz", "sub/l.txt:3", root),
            Some("latin")
        );
        let instances = [
            (None, "sat", "php/php-7-6.cnf"),
            (None, "sat", "rand/r1.cnf"),
            (None, "../puz", "sub/l.txt:3"),
            (Some(h), "sat", "other.cnf"),
        ];
        let left = f.unmatched(instances, Some(root));
        assert_eq!(left.len(), 2, "{left:?}");
        assert!(
            left[0].starts_with("fam.csv:5: `sat/missing.cnf` (family `ghost`) names no instance"),
            "{left:?}"
        );
        assert!(
            left[1].starts_with("fam.csv:6: `/elsewhere/x.cnf`"),
            "{left:?}"
        );
        // Without the root, absolute lines name nothing.
        assert_eq!(f.unmatched(instances, None).len(), 4);
    }
}
