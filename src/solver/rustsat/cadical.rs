//! `cadical-lib`: CaDiCaL from the `rustsat-cadical` crate. Settings are CaDiCaL's own
//! options (`cadical --help` lists them) with integer values, plus `config=default|plain|
//! sat|unsat` (CaDiCaL's configurations). CaDiCaL clamps an out-of-range value silently,
//! so bench reads the option back and rejects a value that did not stick, naming the
//! bound CaDiCaL clamped it to.

use rustsat_cadical::{CaDiCaL, Config};

use super::Family;
use crate::solver::config::ConfigError;

/// The cadical family.
pub struct CadicalLib;

impl Family for CadicalLib {
    type Engine = CaDiCaL<'static, 'static>;

    fn engine(
        spec: &str,
        settings: &[(String, String)],
    ) -> Result<CaDiCaL<'static, 'static>, ConfigError> {
        let mut s = CaDiCaL::default();
        for (key, value) in settings {
            let range = |r: String| ConfigError::Range {
                solver: spec.to_string(),
                key: key.clone(),
                value: value.clone(),
                range: r,
            };
            if key == "config" {
                let config = match value.as_str() {
                    "default" => Config::Default,
                    "plain" => Config::Plain,
                    "sat" => Config::Sat,
                    "unsat" => Config::Unsat,
                    _ => return Err(range("default, plain, sat or unsat".into())),
                };
                s.set_configuration(config)
                    .map_err(|e| range(format!("{e:#}")))?;
                continue;
            }
            let v: i32 = match value.as_str() {
                "true" => 1,
                "false" => 0,
                _ => value
                    .parse()
                    .map_err(|_| range("an integer (or true/false)".into()))?,
            };
            if s.set_option(key, v).is_err() {
                return Err(ConfigError::UnknownKey {
                    solver: spec.to_string(),
                    key: key.clone(),
                    known: "config, or an option of `cadical --help`".into(),
                });
            }
            match s.get_option(key) {
                Ok(got) if got == v => {}
                Ok(got) => {
                    let bound = if got < v { "at most" } else { "at least" };
                    return Err(range(format!("{bound} {got} (CaDiCaL's bound)")));
                }
                Err(e) => return Err(range(format!("{e:#}"))),
            }
        }
        Ok(s)
    }
}
