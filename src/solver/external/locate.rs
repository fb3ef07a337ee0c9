//! Finding solver binaries and their versions.
//!
//! Lookup order, first hit wins: an explicit `--solver-path NAME=PATH`; the directory in
//! `$BENCH_SOLVERS_DIR`; the project's install location `.solvers/bin` (where
//! `scripts/install-solvers.sh` links kissat and glucose) relative to the current directory
//! and relative to the crate root bench was built from; then `$PATH`. An explicit
//! setting beats a convention, and the project's own copies beat whatever the system has.
//!
//! Versions come from running the binary with its version flag (the table in
//! `adapters.rs` says which), once per binary per process. A binary installed by a Debian
//! package also gets the package's upstream version: minisat 2.2 has no version flag at
//! all, and Debian's cadical 1.5.3 calls itself `sc2021`, so the package is the only
//! place that says which release ran.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use super::adapters::VersionProbe;
use super::run;

/// The environment variable naming a directory of solver binaries.
pub const SOLVERS_DIR_ENV: &str = "BENCH_SOLVERS_DIR";

/// The project's install location, relative to a root.
pub const INSTALL_DIR: &str = ".solvers/bin";

/// The directories searched after any explicit path, in order.
pub fn search_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(d) = std::env::var_os(SOLVERS_DIR_ENV).filter(|d| !d.is_empty()) {
        dirs.push(PathBuf::from(d));
    }
    if let Ok(cwd) = std::env::current_dir() {
        dirs.push(cwd.join(INSTALL_DIR));
    }
    dirs.push(Path::new(env!("CARGO_MANIFEST_DIR")).join(INSTALL_DIR));
    if let Some(path) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&path).filter(|p| !p.as_os_str().is_empty()));
    }
    dedup(dirs)
}

fn dedup(dirs: Vec<PathBuf>) -> Vec<PathBuf> {
    let mut seen = Vec::new();
    for d in dirs {
        if !seen.contains(&d) {
            seen.push(d);
        }
    }
    seen
}

/// The first executable called one of `binaries` in the search directories.
pub fn find_binary(binaries: &[&str]) -> Option<PathBuf> {
    let dirs = search_dirs();
    for dir in &dirs {
        for b in binaries {
            let candidate = dir.join(b);
            if is_executable(&candidate) {
                return Some(candidate);
            }
        }
    }
    None
}

/// Resolves a command's program word: a path as it is, a bare name through the search.
pub fn resolve_program(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        let p = PathBuf::from(program);
        is_executable(&p).then_some(p)
    } else {
        find_binary(&[program])
    }
}

use super::run::is_executable;

/// The version of `binary`: what it reports under `probe`, and the upstream version of
/// the Debian package that installed it when that says something else. Asked once per
/// binary per process.
pub fn version(binary: &Path, probe: Option<&VersionProbe>) -> Option<String> {
    static CACHE: OnceLock<Mutex<HashMap<PathBuf, Option<String>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(v) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(binary) {
        return v.clone();
    }
    let own = probe.and_then(|probe| ask_version(binary, probe));
    let found = combine_versions(own, debian_package_version(binary));
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(binary.to_path_buf(), found.clone());
    found
}

fn ask_version(binary: &Path, probe: &VersionProbe) -> Option<String> {
    let args: Vec<OsString> = probe.args.iter().map(OsString::from).collect();
    let mut spec = run::Spec::new(binary, &args);
    // A version flag answers at once; anything slower is not answering.
    spec.timeout = Some(Duration::from_secs(5));
    spec.grace = Duration::from_millis(200);
    spec.stdout_cap = 64 << 10;
    // Nothing to measure here: spare the extra process.
    spec.use_helper = false;
    let done = run::run(&spec).ok()?;
    if done.stopped.is_some() {
        return None;
    }
    let mut text = String::from_utf8_lossy(&done.stdout).into_owned();
    text.push('\n');
    text.push_str(&String::from_utf8_lossy(&done.stderr_tail));
    extract_version(&text, probe.marker)
}

/// The binary's own word, with the package's version beside it when that says more than
/// a repackaging suffix (`5.11.4` beside `5.11.4+dfsg1` says nothing new).
fn combine_versions(own: Option<String>, package: Option<String>) -> Option<String> {
    match (own, package) {
        (Some(own), Some(package)) if !package.starts_with(&own) => {
            Some(format!("{own} (deb {package})"))
        }
        (own, package) => own.or(package),
    }
}

/// The upstream version of the Debian package that owns `binary` (`1:2.2.1-5+b3` gives
/// `2.2.1`), or `None` off Debian or for a file no package installed.
fn debian_package_version(binary: &Path) -> Option<String> {
    let query = |args: &[&std::ffi::OsStr]| -> Option<String> {
        let out = std::process::Command::new("dpkg-query")
            .args(args)
            .stderr(std::process::Stdio::null())
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
    };
    // With merged /usr, dpkg may know the file under its link's name or its real one.
    let real = std::fs::canonicalize(binary).ok();
    let owner = [Some(binary), real.as_deref()]
        .into_iter()
        .flatten()
        .find_map(|path| query(&["-S".as_ref(), path.as_os_str()]))?;
    let package = owner.lines().next()?.split(':').next()?.trim().to_string();
    let version = query(&["-W".as_ref(), "-f=${Version}".as_ref(), package.as_ref()])?;
    upstream_version(&version)
}

/// `EPOCH:UPSTREAM-REVISION` → `UPSTREAM`.
fn upstream_version(debian: &str) -> Option<String> {
    let debian = debian.trim();
    let no_epoch = debian.split_once(':').map_or(debian, |(_, rest)| rest);
    let upstream = no_epoch.rsplit_once('-').map_or(no_epoch, |(up, _)| up);
    (!upstream.is_empty()).then(|| upstream.to_string())
}

/// The word after `marker` in `text` (the first word of `text` for an empty marker),
/// without trailing punctuation.
pub fn extract_version(text: &str, marker: &str) -> Option<String> {
    let after = match text.find(marker) {
        Some(i) => &text[i + marker.len()..],
        None => return None,
    };
    let word = after.split_whitespace().next()?;
    let word = word.trim_end_matches([',', ';', ':', ')']);
    (!word.is_empty()).then(|| word.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_from_real_outputs() {
        assert_eq!(extract_version("4.0.4\n", "").as_deref(), Some("4.0.4"));
        assert_eq!(extract_version("sc2021\n", "").as_deref(), Some("sc2021"));
        let cms = "c CryptoMiniSat version 5.11.4\nc CMS Copyright";
        assert_eq!(
            extract_version(cms, "CryptoMiniSat version").as_deref(),
            Some("5.11.4")
        );
        let glucose = "ERROR! Unknown flag\nc\nc This is glucose 4.2.1 --  based on MiniSAT";
        assert_eq!(
            extract_version(glucose, "This is glucose").as_deref(),
            Some("4.2.1")
        );
        let zchaff = "Z-Chaff Version: zChaff 2007.3.12\nUsage: zchaff cnf_file";
        assert_eq!(
            extract_version(zchaff, "Version: zChaff").as_deref(),
            Some("2007.3.12")
        );
        assert_eq!(extract_version("nothing", "rate"), None);
        assert_eq!(extract_version("", ""), None);
    }

    #[test]
    fn debian_versions() {
        assert_eq!(upstream_version("1:2.2.1-5+b3").as_deref(), Some("2.2.1"));
        assert_eq!(upstream_version("1.5.3-2\n").as_deref(), Some("1.5.3"));
        assert_eq!(upstream_version("965").as_deref(), Some("965"));
        let both = combine_versions(Some("sc2021".into()), Some("1.5.3".into()));
        assert_eq!(both.as_deref(), Some("sc2021 (deb 1.5.3)"));
        let same = combine_versions(Some("965".into()), Some("965".into()));
        assert_eq!(same.as_deref(), Some("965"));
        let repackaged = combine_versions(Some("5.11.4".into()), Some("5.11.4+dfsg1".into()));
        assert_eq!(repackaged.as_deref(), Some("5.11.4"));
        assert_eq!(
            combine_versions(None, Some("2.2.1".into())).as_deref(),
            Some("2.2.1")
        );
        assert_eq!(combine_versions(None, None), None);
    }

    #[test]
    fn search_order_puts_env_and_project_first() {
        let dirs = search_dirs();
        let project = Path::new(env!("CARGO_MANIFEST_DIR")).join(INSTALL_DIR);
        assert!(dirs.contains(&project));
        let path_dir = dirs.iter().position(|d| d == Path::new("/usr/bin"));
        let project_at = dirs.iter().position(|d| *d == project).unwrap();
        if let Some(p) = path_dir {
            assert!(project_at < p);
        }
    }
}
