//! Command templates: splitting `--solver NAME='/path/solver {cnf} --flags'` into words
//! (with shell-like quoting, no shell involved) and filling in the placeholders (`{cnf}`,
//! `{res}`, `{proof}`, `{seed}`, `{secs}`) of a template word.

use std::ffi::OsString;
use std::path::Path;

/// Splits a command line into words as a POSIX shell would, with no shell involved
/// (the `shell-words` crate): whitespace separates, `'…'` quotes literally, `"…"` quotes
/// with `\` escapes, `\x` outside quotes is `x`.
pub fn split_words(line: &str) -> Result<Vec<String>, String> {
    shell_words::split(line).map_err(|e| format!("{e} in `{line}`"))
}

/// The values placeholders stand for in one run.
#[derive(Clone, Debug, Default)]
pub struct Values<'a> {
    /// `{cnf}`: the input file.
    pub cnf: Option<&'a Path>,
    /// `{res}`: the result file.
    pub res: Option<&'a Path>,
    /// `{proof}`: the proof file.
    pub proof: Option<&'a Path>,
    /// `{seed}`.
    pub seed: Option<u64>,
    /// `{secs}`.
    pub secs: Option<u64>,
}

/// Fills in the placeholders of one template word. A placeholder with no value is an
/// error (a template that needs a proof file when none was asked for, say).
pub fn expand(word: &str, values: &Values) -> Result<OsString, String> {
    if !word.contains('{') {
        return Ok(OsString::from(word));
    }
    // Whole-word paths stay OsStrings (a path need not be UTF-8).
    match word {
        "{cnf}" => return path_of(values.cnf, word),
        "{res}" => return path_of(values.res, word),
        "{proof}" => return path_of(values.proof, word),
        _ => {}
    }
    let mut out = word.to_string();
    let mut replace = |key: &str, value: Option<String>| -> Result<(), String> {
        if out.contains(key) {
            let v = value.ok_or_else(|| format!("no value for {key}"))?;
            out = out.replace(key, &v);
        }
        Ok(())
    };
    let show = |p: Option<&Path>| p.map(|p| p.to_string_lossy().into_owned());
    replace("{cnf}", show(values.cnf))?;
    replace("{res}", show(values.res))?;
    replace("{proof}", show(values.proof))?;
    replace("{seed}", values.seed.map(|s| s.to_string()))?;
    replace("{secs}", values.secs.map(|s| s.to_string()))?;
    Ok(OsString::from(out))
}

fn path_of(p: Option<&Path>, key: &str) -> Result<OsString, String> {
    p.map(|p| p.as_os_str().to_owned())
        .ok_or_else(|| format!("no value for {key}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_quotes() {
        assert_eq!(
            split_words("  a {cnf}  --x=1 ").unwrap(),
            ["a", "{cnf}", "--x=1"]
        );
        assert_eq!(
            split_words(r#"'/my dir/s' "a \"b\"" c\ d"#).unwrap(),
            ["/my dir/s", "a \"b\"", "c d"]
        );
        assert_eq!(split_words("''").unwrap(), [""]);
        assert!(split_words("'open").is_err());
    }

    #[test]
    fn placeholders() {
        let v = Values {
            cnf: Some(Path::new("/t/in.cnf")),
            proof: Some(Path::new("/t/p.drat")),
            seed: Some(7),
            ..Values::default()
        };
        assert_eq!(expand("{cnf}", &v).unwrap(), "/t/in.cnf");
        assert_eq!(
            expand("-certified-output={proof}", &v).unwrap(),
            "-certified-output=/t/p.drat"
        );
        assert_eq!(expand("--seed={seed}", &v).unwrap(), "--seed=7");
        assert_eq!(expand("-q", &v).unwrap(), "-q");
        assert!(expand("{res}", &v).is_err());
    }
}
