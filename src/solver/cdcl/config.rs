//! Options by name: `key=value` settings of [`Options`] as a configuration string such as
//! `elim=false,vivify=false`, for command lines and benchmark scripts to switch the
//! techniques of the native solver on and off without code.
//!
//! Booleans take `true/false/1/0/on/off`; numbers are decimal. An unknown key or a bad
//! value is an error naming it. `NativeSolver` also applies the string in the environment
//! variable `BENCH_NATIVE_OPTIONS`, so that scripts can compare configurations through
//! `bench solve` (and `-proc` runs) until the CLI takes solver configuration strings.

use super::solver::Options;

/// The keys [`Options::set`] knows, for help texts and error messages.
pub const KEYS: &[&str] = &[
    "inprocess",
    "elim",
    "subsume",
    "probe",
    "vivify",
    "elim_bound",
    "elim_clause_limit",
    "elim_occ_limit",
    "inprocess_interval",
    "inprocess_effort",
    "seed",
    "random_var_freq",
    "random_polarity",
];

fn boolean(key: &str, value: &str) -> Result<bool, String> {
    match value {
        "true" | "1" | "on" | "yes" => Ok(true),
        "false" | "0" | "off" | "no" => Ok(false),
        _ => Err(format!("native option {key}: `{value}` is not a boolean")),
    }
}

fn number<T: std::str::FromStr>(key: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("native option {key}: `{value}` is not a number"))
}

impl Options {
    /// Sets the option named `key` from its text `value`.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        match key {
            "inprocess" => self.inprocess = boolean(key, value)?,
            "elim" => self.elim = boolean(key, value)?,
            "subsume" => self.subsume = boolean(key, value)?,
            "probe" => self.probe = boolean(key, value)?,
            "vivify" => self.vivify = boolean(key, value)?,
            "elim_bound" => self.elim_bound = number(key, value)?,
            "elim_clause_limit" => self.elim_clause_limit = number(key, value)?,
            "elim_occ_limit" => self.elim_occ_limit = number(key, value)?,
            "inprocess_interval" => self.inprocess_interval = number(key, value)?,
            "inprocess_effort" => self.inprocess_effort = number(key, value)?,
            "seed" => self.seed = number(key, value)?,
            "random_var_freq" => self.random_var_freq = number(key, value)?,
            "random_polarity" => self.random_polarity = boolean(key, value)?,
            _ => {
                return Err(format!(
                    "unknown native option `{key}` (known: {})",
                    KEYS.join(", ")
                ));
            }
        }
        Ok(())
    }

    /// Applies a comma-separated list of `key=value` settings (empty items are ignored).
    pub fn apply(&mut self, settings: &str) -> Result<(), String> {
        for item in settings.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| format!("native option `{item}`: expected key=value"))?;
            self.set(key.trim(), value.trim())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_apply_and_errors_name_the_key() {
        let mut o = Options::default();
        o.apply("elim=false, vivify=off,inprocess_interval=500")
            .unwrap();
        assert!(!o.elim && !o.vivify && o.subsume);
        assert_eq!(o.inprocess_interval, 500);
        assert!(o.apply("elim=maybe").unwrap_err().contains("elim"));
        assert!(o.apply("bogus=1").unwrap_err().contains("bogus"));
        assert!(o.apply("elim").unwrap_err().contains("key=value"));
        for key in KEYS {
            let value = if o.clone().set(key, "1").is_ok() {
                "1"
            } else {
                "0.5"
            };
            o.clone().set(key, value).unwrap();
        }
    }
}
