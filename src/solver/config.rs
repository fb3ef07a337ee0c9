//! Solver configurations: `NAME:key=value,...` names a solver with settings, a solver of
//! its own in every table, chart and CSV row (the row's solver column holds the whole
//! spec). This file splits `--solvers` lists (whose commas also separate settings),
//! parses a spec, and maps native's setting names onto [`Options`], each value checked
//! against its allowed range, the range named in the error. native's simplification
//! techniques (see `cdcl::inprocess`) are settings too (all but `vivify` and `tiers` on by
//! default), so `--solvers native,native:elim=off,native:simplify=off` compares them
//! side by side.

use super::cdcl::{Options, RestartPolicy};

/// A solver name with its settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The solver (`native`, `cadical-lib`, ...).
    pub base: String,
    /// `key=value` settings, in the order written.
    pub settings: Vec<(String, String)>,
}

impl Spec {
    /// Parses `NAME` or `NAME:key=value,key=value`.
    pub fn parse(spec: &str) -> Result<Spec, ConfigError> {
        let Some((base, rest)) = spec.split_once(':') else {
            return Ok(Spec {
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
        Ok(Spec {
            base: base.trim().to_string(),
            settings,
        })
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
}

/// Splits a `--solvers` list: commas separate solvers, and also the settings of a
/// configured one, so a piece `key=value` without a `:` continues the solver before it
/// (`native:restart=luby,phase=random,kissat` is two solvers).
pub fn split_solver_list(list: &str) -> Vec<String> {
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

/// native's settings: key, allowed values (for the error).
pub const NATIVE_KEYS: &[(&str, &str)] = &[
    (
        "restart",
        "luby, glucose or never, or modes (focused and stable in turn)",
    ),
    (
        "luby-unit",
        "an integer 1..=1000000 (conflicts of the shortest Luby run)",
    ),
    ("phase", "saved or random"),
    ("random-var-freq", "a number 0..=1"),
    ("var-decay", "a number 0.5..1 (exclusive)"),
    ("clause-decay", "a number 0.5..1 (exclusive)"),
    (
        "focused-decay",
        "a number 0.5..1 (exclusive; var-decay in focused search under restart=modes)",
    ),
    ("first-reduce", "an integer 1..=100000000 (conflicts)"),
    ("reduce-inc", "an integer 0..=100000000 (conflicts)"),
    ("seed", "an integer 0..=18446744073709551615"),
    (
        "simplify",
        "on or off (elim, subsume, probe and vivify at once)",
    ),
    ("elim", "on or off (bounded variable elimination)"),
    (
        "equiv",
        "on or off (equivalent-literal substitution; with elim only)",
    ),
    ("subsume", "on or off (subsumption and strengthening)"),
    ("probe", "on or off (failed-literal probing)"),
    (
        "vivify",
        "on or off (vivification of tier-1 and tier-2 learnt clauses; off by default)",
    ),
    (
        "vivify-effort",
        "an integer 0..=10000 (per mille of search ticks)",
    ),
    (
        "chrono",
        "an integer 0..=1000000 (levels a backjump may undo at most; 0: any)",
    ),
    (
        "vivify-irred",
        "on or off (vivification of irredundant clauses; off by default)",
    ),
    (
        "tiers",
        "on or off (core/tier-2/local learnt clauses by LBD; off by default)",
    ),
    (
        "rephase",
        "on or off (target and best phases; off by default)",
    ),
    (
        "target",
        "on or off (target phases in stable search, without rephasing)",
    ),
    (
        "bump-reasons",
        "on or off (bump the variables of the learnt clause's reasons too)",
    ),
    (
        "mode-scores",
        "on or off (focused and stable search rank variables apart)",
    ),
    (
        "reduce",
        "activity or lbd (how learnt clauses are ranked for deletion)",
    ),
    (
        "forget",
        "on or off (a session keeps a call's learnt clauses for the next call only)",
    ),
    (
        "elim-bound",
        "an integer 0..=1000 (clauses an elimination may add)",
    ),
    (
        "elim-lits",
        "on or off (elimination may not add literals either)",
    ),
    (
        "elim-slack",
        "an integer 0..=1000 (literals an elimination may add under elim-lits)",
    ),
    ("elim-long", "on or off (nor clauses longer than 2)"),
    (
        "gates",
        "on or off (elimination resolves only against a gate defining the variable)",
    ),
    (
        "gate-bound",
        "an integer 0..=1000 (clauses an elimination against a gate may add)",
    ),
    (
        "ternary",
        "on or off (hyper ternary resolution; with elim only; off by default)",
    ),
    (
        "inprocess-first",
        "an integer 0..=100000000 (conflicts before the first round; 0: preprocess)",
    ),
    (
        "inprocess-interval",
        "an integer 1..=100000000 (conflicts before the second round)",
    ),
    (
        "inprocess-effort",
        "an integer 0..=1000 (per mille of the search's propagations)",
    ),
];

fn known(keys: &[(&str, &str)]) -> String {
    keys.iter()
        .map(|(k, r)| format!("{k} ({r})"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// native's [`Options`] ([`Options::simplifying`], every technique on) with `settings`
/// applied (later settings win).
pub fn native_options(solver: &str, settings: &[(String, String)]) -> Result<Options, ConfigError> {
    let mut o = Options::simplifying();
    let mut luby_unit: Option<u32> = None;
    for (key, value) in settings {
        let range = |r: &str| ConfigError::Range {
            solver: solver.to_string(),
            key: key.clone(),
            value: value.clone(),
            range: r.to_string(),
        };
        let allowed = NATIVE_KEYS
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, r)| *r)
            .ok_or_else(|| ConfigError::UnknownKey {
                solver: solver.to_string(),
                key: key.clone(),
                known: known(NATIVE_KEYS),
            })?;
        let int = |lo: u64, hi: u64| {
            value
                .parse::<u64>()
                .ok()
                .filter(|x| (lo..=hi).contains(x))
                .ok_or_else(|| range(allowed))
        };
        let switch = || match value.as_str() {
            "on" | "true" | "1" => Ok(true),
            "off" | "false" | "0" => Ok(false),
            _ => Err(range(allowed)),
        };
        let real = |ok: &dyn Fn(f64) -> bool| {
            value
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && ok(*x))
                .ok_or_else(|| range(allowed))
        };
        match key.as_str() {
            "restart" => {
                o.restarts = match value.as_str() {
                    "luby" => RestartPolicy::Luby { unit: 100 },
                    "glucose" => RestartPolicy::Glucose,
                    "never" => RestartPolicy::Never,
                    "modes" => RestartPolicy::Modes { unit: 100 },
                    _ => return Err(range(allowed)),
                }
            }
            "luby-unit" => luby_unit = Some(int(1, 1_000_000)? as u32),
            "phase" => {
                o.random_polarity = match value.as_str() {
                    "saved" => false,
                    "random" => true,
                    _ => return Err(range(allowed)),
                }
            }
            "random-var-freq" => o.random_var_freq = real(&|x| (0.0..=1.0).contains(&x))?,
            "var-decay" => o.var_decay = real(&|x| (0.5..1.0).contains(&x))?,
            "clause-decay" => o.clause_decay = real(&|x| (0.5..1.0).contains(&x))?,
            "focused-decay" => o.focused_decay = Some(real(&|x| (0.5..1.0).contains(&x))?),
            "first-reduce" => o.first_reduce = int(1, 100_000_000)?,
            "reduce-inc" => o.reduce_increment = int(0, 100_000_000)?,
            "seed" => o.seed = int(0, u64::MAX)?,
            "simplify" => o.inprocess = switch()?,
            "elim" => o.elim = switch()?,
            "equiv" => o.equiv = switch()?,
            "subsume" => o.subsume = switch()?,
            "probe" => o.probe = switch()?,
            "vivify" => o.vivify = switch()?,
            "vivify-effort" => o.vivify_effort = int(0, 10_000)?,
            "chrono" => o.chrono = int(0, 1_000_000)? as u32,
            "vivify-irred" => o.vivify_irred = switch()?,
            "tiers" => o.tiers = switch()?,
            "rephase" => o.rephase = switch()?,
            "target" => o.target_phase = switch()?,
            "mode-scores" => o.mode_scores = switch()?,
            "bump-reasons" => o.bump_reasons = switch()?,
            "forget" => o.forget_between_calls = switch()?,
            "reduce" => {
                o.reduce_activity = match value.as_str() {
                    "activity" => true,
                    "lbd" => false,
                    _ => return Err(range(allowed)),
                }
            }
            "elim-bound" => o.elim_bound = int(0, 1000)? as usize,
            "elim-lits" => o.elim_lit_bound = switch()?,
            "elim-slack" => o.elim_lit_slack = int(0, 1000)? as usize,
            "elim-long" => o.elim_long_bound = switch()?,
            "gates" => o.elim_gates = switch()?,
            "gate-bound" => o.elim_gate_bound = int(0, 1000)? as usize,
            "ternary" => o.ternary = switch()?,
            "inprocess-first" => o.inprocess_first = int(0, 100_000_000)?,
            "inprocess-interval" => o.inprocess_interval = int(1, 100_000_000)?,
            "inprocess-effort" => o.inprocess_effort = int(0, 1000)?,
            _ => unreachable!("every key of NATIVE_KEYS is handled"),
        }
    }
    if let Some(unit) = luby_unit {
        match o.restarts {
            RestartPolicy::Luby { .. } => o.restarts = RestartPolicy::Luby { unit },
            RestartPolicy::Modes { .. } => o.restarts = RestartPolicy::Modes { unit },
            _ => {
                return Err(ConfigError::Range {
                    solver: solver.to_string(),
                    key: "luby-unit".into(),
                    value: unit.to_string(),
                    range: "only with restart=luby or restart=modes".into(),
                });
            }
        }
    }
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_keep_settings_with_their_solver() {
        assert_eq!(
            split_solver_list("native:restart=luby,phase=random,kissat, minisat"),
            vec!["native:restart=luby,phase=random", "kissat", "minisat"]
        );
        assert_eq!(split_solver_list("native,dpll"), vec!["native", "dpll"]);
    }

    #[test]
    fn specs_parse_and_print() {
        let s = Spec::parse("native:restart=luby, luby-unit=50").unwrap();
        assert_eq!(s.base, "native");
        assert_eq!(s.name(), "native:restart=luby,luby-unit=50");
        assert!(matches!(
            Spec::parse("native:restart"),
            Err(ConfigError::Syntax(..))
        ));
    }

    #[test]
    fn native_settings_are_range_checked() {
        let spec = Spec::parse("native:restart=luby,luby-unit=50,phase=random").unwrap();
        let o = native_options("n", &spec.settings).unwrap();
        assert_eq!(o.restarts, RestartPolicy::Luby { unit: 50 });
        assert!(o.random_polarity);
        let err = native_options("n", &Spec::parse("n:var-decay=1.5").unwrap().settings)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("var-decay=1.5 is out of range: a number 0.5..1"),
            "{err}"
        );
        let err = native_options("n", &Spec::parse("n:speed=11").unwrap().settings)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("unknown setting `speed`") && err.contains("restart ("),
            "{err}"
        );
        assert!(
            native_options(
                "n",
                &Spec::parse("n:restart=glucose,luby-unit=5")
                    .unwrap()
                    .settings
            )
            .is_err()
        );
        assert!(native_options("n", &Spec::parse("n:luby-unit=5").unwrap().settings).is_ok());
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
        // The search native had before (issue 16's last rounds), by name.
        let spec = Spec::parse(
            "n:restart=glucose,target=off,elim-long=on,elim-slack=0,first-reduce=2000,bump-reasons=off",
        );
        let o = native_options("n", &spec.unwrap().settings).unwrap();
        assert!(!o.target_phase && o.elim_long_bound && o.first_reduce == 2000);
        assert_eq!(o.elim_lit_slack, 0);
        assert!(!o.bump_reasons);
        assert_eq!(o.restarts, RestartPolicy::Glucose);
        let spec = Spec::parse("n:mode-scores=on,focused-decay=0.8,vivify-irred=on").unwrap();
        let o = native_options("n", &spec.settings).unwrap();
        assert!(o.mode_scores && o.focused_decay == Some(0.8) && o.vivify_irred);
        let spec = Spec::parse("native:forget=off").unwrap();
        assert!(
            !native_options("n", &spec.settings)
                .unwrap()
                .forget_between_calls
        );
        let spec = Spec::parse("native:elim=off,vivify=on,inprocess-interval=500").unwrap();
        let o = native_options("n", &spec.settings).unwrap();
        assert!(o.inprocess && !o.elim && o.vivify && o.subsume && o.probe);
        assert_eq!(o.inprocess_interval, 500);
        let spec = Spec::parse("native:reduce=lbd,restart=modes,luby-unit=64").unwrap();
        let o = native_options("n", &spec.settings).unwrap();
        assert!(!o.reduce_activity);
        assert_eq!(o.restarts, RestartPolicy::Modes { unit: 64 });
        let o = native_options("n", &Spec::parse("n:simplify=off").unwrap().settings).unwrap();
        assert!(!o.inprocess);
        let err = native_options("n", &Spec::parse("n:elim=maybe").unwrap().settings)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("elim=maybe is out of range: on or off"),
            "{err}"
        );
        for (key, _) in NATIVE_KEYS {
            let known = native_options("n", &[(key.to_string(), "x".into())]).unwrap_err();
            assert!(matches!(known, ConfigError::Range { .. }), "{key}: {known}");
        }
    }
}
