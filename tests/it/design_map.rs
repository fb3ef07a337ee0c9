//! docs/design.md's module map names every source file: each `.rs` file under `src/` (and
//! under `crates/*/src/`, when there are crates) is covered by an entry of the map.
//!
//! The rule: an entry is the first word of a line of the map's code block that starts at
//! the left margin with `src/` or `crates/`. An entry ending in `/` (`src/report/`) covers
//! every file below that folder; an entry naming a file (`src/cli.rs`) covers that file and
//! the files of its submodules, below the folder of the same name (`src/cli/ranges.rs`).
//! Each entry must exist, so that the map names no file that has gone.

use std::fs;
use std::path::{Path, PathBuf};

/// The map's entries, as paths relative to the repository.
fn entries(design: &str) -> Vec<String> {
    let start = design
        .find("## Module map")
        .expect("docs/design.md has a section `## Module map`");
    let block = design[start..]
        .split("```")
        .nth(1)
        .expect("the module map is a code block");
    block
        .lines()
        .filter(|l| l.starts_with("src/") || l.starts_with("crates/"))
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

/// Every `.rs` file below `dir`, relative to `root`, with `/` separators.
fn rust_files(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let Ok(list) = fs::read_dir(dir) else {
        return;
    };
    for entry in list {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let relative = path.strip_prefix(root).unwrap();
            out.push(relative.to_string_lossy().replace('\\', "/"));
        }
    }
}

/// The source folders: `src/`, and `crates/*/src/`.
fn source_dirs(root: &Path) -> Vec<PathBuf> {
    let mut dirs = vec![root.join("src")];
    if let Ok(crates) = fs::read_dir(root.join("crates")) {
        for c in crates {
            let src = c.unwrap().path().join("src");
            if src.is_dir() {
                dirs.push(src);
            }
        }
    }
    dirs
}

/// True when `entry` covers `file` by the rule above.
fn covers(entry: &str, file: &str) -> bool {
    if entry.ends_with('/') {
        return file.starts_with(entry);
    }
    file == entry
        || entry
            .strip_suffix(".rs")
            .is_some_and(|module| file.starts_with(&format!("{module}/")))
}

#[test]
fn the_module_map_names_every_source_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let design = fs::read_to_string(root.join("docs/design.md")).unwrap();
    let entries = entries(&design);
    assert!(entries.len() > 10, "too few entries: {entries:?}");
    for entry in &entries {
        assert!(
            root.join(entry).exists(),
            "docs/design.md's module map names `{entry}`, which does not exist"
        );
    }
    let mut files = Vec::new();
    for dir in source_dirs(root) {
        rust_files(root, &dir, &mut files);
    }
    files.sort();
    let missing: Vec<&String> = files
        .iter()
        .filter(|f| !entries.iter().any(|e| covers(e, f)))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/design.md's module map does not name these files (add an entry for each, or \
         for its folder): {missing:?}"
    );
}

#[test]
fn the_rule_by_example() {
    assert!(covers("src/report/", "src/report/charts/cactus.rs"));
    assert!(covers("src/cli.rs", "src/cli.rs"));
    assert!(covers("src/cli.rs", "src/cli/ranges.rs"));
    assert!(!covers("src/cli.rs", "src/cli_extra.rs"));
    assert!(!covers("src/run/", "src/runner.rs"));
    let map = "## Module map\n\n```\nsrc/a.rs   x\n           src/b.rs in a description\nsrc/c/     y\n```\n";
    assert_eq!(entries(map), ["src/a.rs", "src/c/"]);
}
