//! Solver configurations: `NAME:key=value,...` names a solver with settings, a solver of
//! its own in every table, chart and CSV row (the row's solver column holds the whole
//! spec). This file splits `--solvers` lists (whose commas also separate settings),
//! parses a spec, and maps native's setting names onto [`Options`], each value checked
//! against its allowed range, the range named in the error. native's simplification
//! techniques (see `cdcl::inprocess`) are settings too (all but `vivify` and `tiers` on by
//! default), so `--solvers native,native:elim=off,native:simplify=off` compares them
//! side by side.

use super::cdcl::Options;
use cdcl_engine::options::{SettingError, known_settings};

/// One solver of a plan as `--solvers` names it: a name, with `key=value` settings for a
/// configured solver (`native:restart=luby,phase=random`). Parsed once, from the command
/// line (clap's value parser, [`parse_solver_list`]) or from run.json, and carried typed;
/// written (run.json, a row's solver column) as its canonical name ([`SolverSpec::name`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SolverSpec {
    /// The solver (`native`, `cadical-lib`, ...).
    pub base: String,
    /// `key=value` settings, in the order written.
    pub settings: Vec<(String, String)>,
}

impl SolverSpec {
    /// Parses `NAME` or `NAME:key=value,key=value`; native's settings are held to their
    /// ranges here, so a plan holds no setting native refuses.
    pub fn parse(spec: &str) -> Result<SolverSpec, ConfigError> {
        let spec = spec.trim();
        let Some((base, rest)) = spec.split_once(':') else {
            if spec.is_empty() {
                return Err(ConfigError::Empty);
            }
            return Ok(SolverSpec {
                base: spec.to_string(),
                settings: Vec::new(),
            });
        };
        let mut settings = Vec::new();
        for part in rest.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| ConfigError::Syntax(spec.to_string(), part.to_string()))?;
            settings.push((k.trim().to_string(), v.trim().to_string()));
        }
        let parsed = SolverSpec {
            base: base.trim().to_string(),
            settings,
        };
        if parsed.base.is_empty() {
            return Err(ConfigError::Empty);
        }
        if parsed.base == "native" {
            native_options(&parsed.name(), &parsed.settings)?;
        }
        Ok(parsed)
    }

    /// The canonical name: `base` or `base:k=v,k=v`.
    pub fn name(&self) -> String {
        if self.settings.is_empty() {
            return self.base.clone();
        }
        let s: Vec<String> = self
            .settings
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        format!("{}:{}", self.base, s.join(","))
    }
}

impl std::fmt::Display for SolverSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

impl std::str::FromStr for SolverSpec {
    type Err = ConfigError;

    fn from_str(s: &str) -> Result<SolverSpec, ConfigError> {
        SolverSpec::parse(s)
    }
}

impl serde::Serialize for SolverSpec {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name())
    }
}

impl<'de> serde::Deserialize<'de> for SolverSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<SolverSpec, D::Error> {
        let text = String::deserialize(d)?;
        SolverSpec::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// The solvers of `--solvers`, each parsed, in order, a repeated one once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolverList(pub Vec<SolverSpec>);

/// Parses a `--solvers` list (clap's value parser): commas separate solvers and the
/// settings of a configured one ([`split_solver_list`]); a repeated solver counts once.
pub fn parse_solver_list(list: &str) -> Result<SolverList, ConfigError> {
    let mut out: Vec<SolverSpec> = Vec::new();
    for piece in split_solver_list(list) {
        let spec = SolverSpec::parse(&piece)?;
        if !out.contains(&spec) {
            out.push(spec);
        }
    }
    if out.is_empty() {
        return Err(ConfigError::Empty);
    }
    Ok(SolverList(out))
}

/// A configuration that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// A setting without `=`.
    #[error("solver `{0}`: setting `{1}` is not key=value")]
    Syntax(String, String),
    /// A key the solver does not have.
    #[error("solver `{solver}`: unknown setting `{key}` (known: {known})")]
    UnknownKey {
        /// The solver.
        solver: String,
        /// The key.
        key: String,
        /// The keys it has, with their ranges.
        known: String,
    },
    /// A value outside the key's range.
    #[error("solver `{solver}`: {key}={value} is out of range: {range}")]
    Range {
        /// The solver.
        solver: String,
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What is allowed.
        range: String,
    },
    /// A solver that takes no settings.
    #[error("solver `{0}` takes no settings ({1})")]
    NoSettings(String, String),
    /// No solver named.
    #[error("no solver named (an empty name, or an empty --solvers)")]
    Empty,
}

/// Splits a `--solvers` list: commas separate solvers, and also the settings of a
/// configured one, so a piece `key=value` without a `:` continues the solver before it
/// (`native:restart=luby,phase=random,kissat` is two solvers).
fn split_solver_list(list: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for piece in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let continues = piece.contains('=')
            && !piece.contains(':')
            && out.last().is_some_and(|prev| prev.contains(':'));
        match out.last_mut() {
            Some(prev) if continues => {
                prev.push(',');
                prev.push_str(piece);
            }
            _ => out.push(piece.to_string()),
        }
    }
    out
}

/// native's [`Options`] (`Options::default()`, what `native` runs) with `settings`
/// applied through the engine's options table (`cdcl_engine::options`).
pub fn native_options(solver: &str, settings: &[(String, String)]) -> Result<Options, ConfigError> {
    let pairs = settings.iter().map(|(k, v)| (k.as_str(), v.as_str()));
    Options::default()
        .with_settings(pairs)
        .map_err(|e| match e {
            SettingError::Unknown(key) => ConfigError::UnknownKey {
                solver: solver.to_string(),
                key,
                known: known_settings(),
            },
            SettingError::Value {
                key,
                value,
                allowed,
            } => ConfigError::Range {
                solver: solver.to_string(),
                key,
                value,
                range: allowed,
            },
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::cdcl::RestartPolicy;
    use cdcl_engine::options::SETTINGS;

    #[test]
    fn lists_keep_settings_with_their_solver() {
        assert_eq!(
            split_solver_list("native:restart=luby,phase=random,kissat, minisat"),
            vec!["native:restart=luby,phase=random", "kissat", "minisat"]
        );
        assert_eq!(split_solver_list("native,dpll"), vec!["native", "dpll"]);
    }

    #[test]
    fn a_list_parses_once_into_specs_written_canonically() {
        let list =
            parse_solver_list(" native: restart = luby, phase=random ,kissat,kissat").unwrap();
        let names: Vec<String> = list.0.iter().map(SolverSpec::name).collect();
        assert_eq!(names, ["native:restart=luby,phase=random", "kissat"]);
        let json = serde_json::to_string(&list.0).unwrap();
        assert_eq!(json, r#"["native:restart=luby,phase=random","kissat"]"#);
        let back: Vec<SolverSpec> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, list.0);
        // Refused at the door: a setting native lacks, a value out of range, no solver.
        for bad in [
            "native:speed=11",
            "kissat,native:var-decay=2",
            "",
            " , ",
            ":x=1",
        ] {
            assert!(parse_solver_list(bad).is_err(), "{bad}");
        }
        assert!(serde_json::from_str::<SolverSpec>(r#""native:speed=11""#).is_err());
    }

    #[test]
    fn specs_parse_and_print() {
        let s = SolverSpec::parse("native:restart=luby, luby-unit=50").unwrap();
        assert_eq!(s.base, "native");
        assert_eq!(s.name(), "native:restart=luby,luby-unit=50");
        assert!(matches!(
            SolverSpec::parse("native:restart"),
            Err(ConfigError::Syntax(..))
        ));
    }

    #[test]
    fn native_settings_are_range_checked() {
        let spec = SolverSpec::parse("native:restart=luby,luby-unit=50,phase=random").unwrap();
        let o = native_options("n", &spec.settings).unwrap();
        assert_eq!(o.restarts, RestartPolicy::Luby { unit: 50 });
        assert!(o.random_polarity);
        let err = native_options("n", &SolverSpec::parse("n:var-decay=1.5").unwrap().settings)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("var-decay=1.5 is out of range: a number 0.5..1"),
            "{err}"
        );
        let err = native_options("n", &SolverSpec::parse("n:speed=11").unwrap().settings)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("unknown setting `speed`") && err.contains("restart ("),
            "{err}"
        );
        assert!(
            native_options(
                "n",
                &SolverSpec::parse("n:restart=glucose,luby-unit=5")
                    .unwrap()
                    .settings
            )
            .is_err()
        );
        assert!(native_options("n", &SolverSpec::parse("n:luby-unit=5").unwrap().settings).is_ok());
    }

    #[test]
    fn techniques_are_on_by_default_and_switch_off_by_name() {
        let o = native_options("native", &[]).unwrap();
        assert!(o.inprocess && o.elim && o.subsume && o.probe && !o.vivify);
        assert!(!o.tiers && !o.rephase && o.reduce_activity && o.forget_between_calls);
        assert!(o.target_phase && !o.elim_long_bound && o.first_reduce == 1000);
        assert!(o.elim_lit_bound && o.elim_lit_slack == 1);
        assert!(o.bump_reasons && !o.mode_scores && !o.vivify_irred && o.focused_decay.is_none());
        assert_eq!(o.restarts, RestartPolicy::Modes { unit: 100 });
        // The plain engine's search choices, set by name.
        let spec = SolverSpec::parse(
            "n:restart=glucose,target=off,elim-long=on,elim-slack=0,first-reduce=2000,bump-reasons=off",
        );
        let o = native_options("n", &spec.unwrap().settings).unwrap();
        assert!(!o.target_phase && o.elim_long_bound && o.first_reduce == 2000);
        assert_eq!(o.elim_lit_slack, 0);
        assert!(!o.bump_reasons);
        assert_eq!(o.restarts, RestartPolicy::Glucose);
        let spec = SolverSpec::parse("n:mode-scores=on,focused-decay=0.8,vivify-irred=on").unwrap();
        let o = native_options("n", &spec.settings).unwrap();
        assert!(o.mode_scores && o.focused_decay == Some(0.8) && o.vivify_irred);
        let spec = SolverSpec::parse("native:forget=off").unwrap();
        assert!(
            !native_options("n", &spec.settings)
                .unwrap()
                .forget_between_calls
        );
        let spec = SolverSpec::parse("native:elim=off,vivify=on,inprocess-interval=500").unwrap();
        let o = native_options("n", &spec.settings).unwrap();
        assert!(o.inprocess && !o.elim && o.vivify && o.subsume && o.probe);
        assert_eq!(o.inprocess_interval, 500);
        let spec = SolverSpec::parse("native:reduce=lbd,restart=modes,luby-unit=64").unwrap();
        let o = native_options("n", &spec.settings).unwrap();
        assert!(!o.reduce_activity);
        assert_eq!(o.restarts, RestartPolicy::Modes { unit: 64 });
        let o =
            native_options("n", &SolverSpec::parse("n:simplify=off").unwrap().settings).unwrap();
        assert!(!o.inprocess);
        let err = native_options("n", &SolverSpec::parse("n:elim=maybe").unwrap().settings)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("elim=maybe is out of range: on or off"),
            "{err}"
        );
        for setting in SETTINGS {
            let key = setting.key;
            let known = native_options("n", &[(key.to_string(), "x".into())]).unwrap_err();
            assert!(matches!(known, ConfigError::Range { .. }), "{key}: {known}");
        }
    }

    #[test]
    fn the_docs_table_is_the_engines_table() {
        let doc = include_str!("../../docs/native-options.md");
        let marker = "<!-- table: generated from cdcl_engine::options::markdown_table() -->\n";
        let (_, table) = doc.split_once(marker).expect("the marker line");
        assert_eq!(
            table,
            cdcl_engine::options::markdown_table(),
            "docs/native-options.md: paste the table printed by this test's expected value"
        );
    }
}
