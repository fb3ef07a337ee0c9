//! The solver's tunable choices, every one in one declarative table: field, type, default,
//! setting name, allowed values and doc. The [`Options`] struct, its `Default` (what
//! `native` runs), the `key=value` parser ([`Options::with_settings`]), the error that lists
//! every key, and the documentation table ([`markdown_table`]) all come from that table,
//! as CaDiCaL's `options.hpp` does for its options. [`Options::plain`] is the plain engine
//! (no simplification, glucose's restarts) that the puzzle generator's reproducibility
//! rests on.

use std::fmt;

use crate::restart::RestartPolicy;

/// The values a setting accepts.
#[derive(Clone, Copy, Debug)]
pub enum Values {
    /// `on` or `off` (also `true`/`false`, `1`/`0`).
    Switch,
    /// An integer in `lo..=hi`.
    Int(u64, u64),
    /// A finite number in `lo..=hi`, or `lo..hi` when `open` (the upper end excluded).
    Real {
        /// The least value.
        lo: f64,
        /// The upper end.
        hi: f64,
        /// `hi` itself is excluded.
        open: bool,
    },
    /// One of these words (for a switch, the first is off and the second on).
    Words(&'static [&'static str]),
}

impl fmt::Display for Values {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Values::Switch => write!(f, "on or off"),
            Values::Int(lo, hi) => write!(f, "an integer {lo}..={hi}"),
            Values::Real {
                lo,
                hi,
                open: false,
            } => write!(f, "a number {lo}..={hi}"),
            Values::Real { lo, hi, open: true } => write!(f, "a number {lo}..{hi} (exclusive)"),
            Values::Words(words) => match words {
                [] => Ok(()),
                [one] => write!(f, "{one}"),
                [rest @ .., last] => write!(f, "{} or {last}", rest.join(", ")),
            },
        }
    }
}

impl Values {
    /// `text` as an integer of this range.
    fn int(&self, text: &str) -> Option<u64> {
        let Values::Int(lo, hi) = *self else {
            return None;
        };
        text.parse::<u64>().ok().filter(|x| (lo..=hi).contains(x))
    }

    /// `text` as a number of this range.
    fn real(&self, text: &str) -> Option<f64> {
        let Values::Real { lo, hi, open } = *self else {
            return None;
        };
        let x = text.parse::<f64>().ok().filter(|x| x.is_finite())?;
        (x >= lo && (x < hi || (!open && x == hi))).then_some(x)
    }

    /// The index of `text` among the words.
    fn word(&self, text: &str) -> Option<usize> {
        let Values::Words(words) = *self else {
            return None;
        };
        words.iter().position(|w| *w == text)
    }
}

/// A type an option can have: how a setting's text sets it, and how it is shown.
trait Value {
    /// Sets `self` from `text` within `values`; false when `text` is not one of them.
    fn set(&mut self, text: &str, values: &Values) -> bool;
    /// The value as a setting would write it.
    fn show(&self, values: &Values) -> String;
}

impl Value for bool {
    fn set(&mut self, text: &str, values: &Values) -> bool {
        let value = match values {
            Values::Words(_) => values.word(text).map(|i| i == 1),
            _ => match text {
                "on" | "true" | "1" => Some(true),
                "off" | "false" | "0" => Some(false),
                _ => None,
            },
        };
        value.map(|v| *self = v).is_some()
    }

    fn show(&self, values: &Values) -> String {
        match values {
            Values::Words(words) => words[usize::from(*self)].to_string(),
            _ => if *self { "on" } else { "off" }.to_string(),
        }
    }
}

macro_rules! integer_value {
    ($($t:ty),*) => {$(
        impl Value for $t {
            fn set(&mut self, text: &str, values: &Values) -> bool {
                values
                    .int(text)
                    .and_then(|x| <$t>::try_from(x).ok())
                    .map(|x| *self = x)
                    .is_some()
            }

            fn show(&self, _: &Values) -> String {
                self.to_string()
            }
        }
    )*};
}
integer_value!(u32, u64, usize);

impl Value for f64 {
    fn set(&mut self, text: &str, values: &Values) -> bool {
        values.real(text).map(|x| *self = x).is_some()
    }

    fn show(&self, _: &Values) -> String {
        self.to_string()
    }
}

impl Value for Option<f64> {
    fn set(&mut self, text: &str, values: &Values) -> bool {
        values.real(text).map(|x| *self = Some(x)).is_some()
    }

    fn show(&self, _: &Values) -> String {
        self.map_or_else(|| "none".to_string(), |x| x.to_string())
    }
}

/// The restart words, in [`Values::Words`] order.
const RESTARTS: &[&str] = &["modes", "luby", "glucose", "never"];

impl Value for RestartPolicy {
    /// The policy named by `text`, keeping the Luby unit the policy had (100 if none).
    fn set(&mut self, text: &str, values: &Values) -> bool {
        let unit = luby_unit(self).unwrap_or(100);
        let policy = match values.word(text) {
            Some(0) => RestartPolicy::Modes { unit },
            Some(1) => RestartPolicy::Luby { unit },
            Some(2) => RestartPolicy::Glucose,
            Some(3) => RestartPolicy::Never,
            _ => return false,
        };
        *self = policy;
        true
    }

    fn show(&self, _: &Values) -> String {
        let index = match self {
            RestartPolicy::Modes { .. } => 0,
            RestartPolicy::Luby { .. } => 1,
            RestartPolicy::Glucose => 2,
            RestartPolicy::Never => 3,
        };
        RESTARTS[index].to_string()
    }
}

/// The Luby unit of a policy that has one.
fn luby_unit(policy: &RestartPolicy) -> Option<u32> {
    match *policy {
        RestartPolicy::Luby { unit } | RestartPolicy::Modes { unit } => Some(unit),
        RestartPolicy::Glucose | RestartPolicy::Never => None,
    }
}

/// `luby-unit`: the unit of the restart policy, which must have one.
fn set_luby_unit(o: &mut Options, text: &str) -> bool {
    let Some(unit) = LUBY_UNIT.int(text).and_then(|x| u32::try_from(x).ok()) else {
        return false;
    };
    o.restarts = match o.restarts {
        RestartPolicy::Luby { .. } => RestartPolicy::Luby { unit },
        RestartPolicy::Modes { .. } => RestartPolicy::Modes { unit },
        RestartPolicy::Glucose | RestartPolicy::Never => return false,
    };
    true
}

/// The values of `luby-unit`.
const LUBY_UNIT: Values = Values::Int(1, 1_000_000);

/// One row of the options table.
#[derive(Clone, Copy)]
pub struct Setting {
    /// The setting's name (`native:key=value`).
    pub key: &'static str,
    /// What it accepts.
    pub values: Values,
    /// A few words on what it does, shown with the values in errors and help.
    pub brief: &'static str,
    /// The field's documentation.
    pub doc: &'static str,
    set: fn(&mut Options, &str) -> bool,
    show: fn(&Options) -> String,
}

impl fmt::Debug for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Setting").field("key", &self.key).finish()
    }
}

impl Setting {
    /// What the setting accepts, with its brief: `on or off (bounded variable elimination)`.
    pub fn allowed(&self) -> String {
        format!("{} ({})", self.values, self.brief)
    }

    /// The setting's value in `options`, as it would be written.
    pub fn value_in(&self, options: &Options) -> String {
        (self.show)(options)
    }
}

/// The table: the struct's fields with their defaults and settings, then settings that
/// are not a field of their own.
macro_rules! options {
    (
        $( $(#[doc = $doc:literal])+ $field:ident : $ty:ty = $default:expr,
            $key:literal, $values:expr, $brief:literal; )+
        extra: $( $xkey:literal, $xvalues:expr, $xbrief:literal, $xdoc:literal, $xset:expr, $xshow:expr; )*
    ) => {
        /// Tunable choices of the solver; `Options::default()` is what `native` runs.
        #[derive(Clone, Debug, PartialEq)]
        pub struct Options {
            $( $(#[doc = $doc])+ pub $field: $ty, )+
        }

        impl Default for Options {
            fn default() -> Self {
                Options { $( $field: $default, )+ }
            }
        }

        /// Every setting, in the order they are applied.
        pub static SETTINGS: &[Setting] = &[
            $( Setting {
                key: $key,
                values: $values,
                brief: $brief,
                doc: concat!($($doc, "\n"),+),
                set: |o, text| Value::set(&mut o.$field, text, &$values),
                show: |o| Value::show(&o.$field, &$values),
            }, )+
            $( Setting {
                key: $xkey,
                values: $xvalues,
                brief: $xbrief,
                doc: $xdoc,
                set: $xset,
                show: $xshow,
            }, )*
        ];
    };
}

use Values::{Int, Real, Switch, Words};

/// Numbers in `0.5..1`, exclusive: the decays.
const DECAY: Values = Real {
    lo: 0.5,
    hi: 1.0,
    open: true,
};

options! {
    /// The restart policy.
    restarts: RestartPolicy = RestartPolicy::Modes { unit: 100 },
        "restart", Words(RESTARTS), "focused and stable search in turn, Luby's, glucose's, or none";
    /// Seed of the solver's random choices.
    seed: u64 = 0, "seed", Int(0, u64::MAX), "of the random choices";
    /// Probability of deciding a random variable instead of the most active one.
    random_var_freq: f64 = 0.0,
        "random-var-freq", Real { lo: 0.0, hi: 1.0, open: false }, "share of random decisions";
    /// Decide a random value instead of the saved phase.
    random_polarity: bool = false, "phase", Words(&["saved", "random"]), "the value decided";
    /// Variable activity decay (EVSIDS), 0 < decay < 1.
    var_decay: f64 = 0.95, "var-decay", DECAY, "variable activity decay";
    /// Learnt clause activity decay, 0 < decay < 1.
    clause_decay: f64 = 0.999, "clause-decay", DECAY, "learnt clause activity decay";
    /// Conflicts before the first reduction of the learnt clauses.
    first_reduce: u64 = 1000,
        "first-reduce", Int(1, 100_000_000), "conflicts before the first reduction";
    /// Growth of the interval between reductions, in conflicts.
    reduce_increment: u64 = 300,
        "reduce-inc", Int(0, 100_000_000), "growth of the reduction interval, in conflicts";
    /// A reduction ranks the learnt clauses by activity alone (MiniSat's rule) instead of
    /// by LBD and then activity (glucose's); clauses of LBD ≤ 2 are kept either way
    /// (`reduce.rs`, `tiers.rs`).
    reduce_activity: bool = true,
        "reduce", Words(&["lbd", "activity"]), "how learnt clauses are ranked for deletion";
    /// Three tiers of learnt clauses by LBD, each reduced by its own rule (`tiers.rs`);
    /// off: glucose's halving of every clause of LBD > 2. Off by default: it cost time on
    /// random 3-SAT and most structured families measured (docs/native-performance.md).
    tiers: bool = false, "tiers", Switch, "core, tier-2 and local learnt clauses by LBD";
    /// Target phases in stable search without the resets of rephasing (`rephase.rs`).
    target_phase: bool = true, "target", Switch, "target phases in stable search";
    /// Target and best phases with rephasing (`rephase.rs`); off: saved phases only.
    rephase: bool = false, "rephase", Switch, "target and best phases, rephased";
    /// Under mode switching, focused and stable search rank the variables apart
    /// (`heap.rs`, [`super::heap::VarOrder::swap_scores`]).
    mode_scores: bool = false, "mode-scores", Switch, "focused and stable search rank variables apart";
    /// The activity decay of focused search under mode switching (`var_decay` rules
    /// the stable phases, and every phase when modes do not switch).
    focused_decay: Option<f64> = None,
        "focused-decay", DECAY, "var-decay of focused search under restart=modes";
    /// After each conflict, bump the variables of the reasons of the learnt clause's
    /// literals too (`analyze.rs`; CaDiCaL's and Kissat's reason-side bumping).
    bump_reasons: bool = true, "bump-reasons", Switch, "bump the learnt clause's reasons too";
    /// Chronological backtracking (`chrono.rs`): a backjump over more than this many
    /// levels goes back one level only; 0: always the full backjump.
    chrono: u32 = 0, "chrono", Int(0, 1_000_000), "levels a backjump may undo at most; 0: any";
    /// At the end of each solve call, delete the learnt clauses of the calls before it
    /// (`forget.rs`): for sessions solving unrelated problems one after another.
    forget_between_calls: bool = true,
        "forget", Switch, "a session keeps a call's learnt clauses for the next call only";
    /// Simplify the formula before the search (first round) and between restarts, at
    /// level 0; off switches every technique below off at once.
    inprocess: bool = true, "simplify", Switch, "elim, subsume, probe and vivify at once";
    /// Conflicts before the first simplification round (0, the default: before the search
    /// begins, as a preprocessing). Later, easy formulas never pay for it (CaDiCaL's first
    /// elimination comes after 2,000 conflicts); measured, 2,000 here cost more on the
    /// colouring and factoring families than it saved on 25×25 sudokus.
    inprocess_first: u64 = 0,
        "inprocess-first", Int(0, 100_000_000), "conflicts before the first round; 0: preprocess";
    /// Conflicts before the second simplification round; the interval grows by as much
    /// after every round.
    inprocess_interval: u64 = 10_000,
        "inprocess-interval", Int(1, 100_000_000), "conflicts before the second round";
    /// Effort of a simplification round, in per mille of the search's propagations since
    /// the previous round (each round also gets a fixed base, see `inprocess.rs`).
    inprocess_effort: u64 = 100,
        "inprocess-effort", Int(0, 1000), "per mille of the search's propagations";
    /// Bounded variable elimination (`elim.rs`).
    elim: bool = true, "elim", Switch, "bounded variable elimination";
    /// Equivalent-literal substitution (`equiv.rs`); it removes variables as elimination
    /// does, so it runs only when `elim` is on too (sessions switch both off that way).
    equiv: bool = true, "equiv", Switch, "equivalent-literal substitution; with elim only";
    /// Clauses an elimination may add beyond those it removes (SatELite's bound: 0).
    elim_bound: usize = 0, "elim-bound", Int(0, 1000), "clauses an elimination may add";
    /// Elimination may not add more literals than it removes (beyond `elim_lit_slack`
    /// and `elim_bound` clauses of 3 literals), see `elim.rs`.
    elim_lit_bound: bool = true, "elim-lits", Switch, "elimination may not add literals either";
    /// Literals an elimination may add beyond those it removes, under `elim_lit_bound`
    /// (see `elim.rs`).
    elim_lit_slack: usize = 1,
        "elim-slack", Int(0, 1000), "literals an elimination may add under elim-lits";
    /// Elimination may not add more non-binary clauses than it removes (beyond
    /// `elim_bound`), see `elim.rs`.
    elim_long_bound: bool = false, "elim-long", Switch, "nor clauses longer than 2";
    /// Longest resolvent an elimination may add.
    elim_clause_limit: usize = 100,
        "elim-clause-limit", Int(2, 1_000_000), "longest resolvent an elimination may add";
    /// Occurrences (both signs together) beyond which a variable is not tried.
    elim_occ_limit: usize = 1000,
        "elim-occ-limit", Int(1, 10_000_000), "occurrences beyond which a variable is not tried";
    /// Elimination resolves only gate clauses against the others where a gate defines
    /// the variable (`gates.rs`); off by default (see docs/native-performance.md).
    elim_gates: bool = false,
        "gates", Switch, "elimination resolves only against a gate defining the variable";
    /// Clauses an elimination against a gate may add (where more than `elim_bound`).
    elim_gate_bound: usize = 0,
        "gate-bound", Int(0, 1000), "clauses an elimination against a gate may add";
    /// Hyper ternary resolution in simplification rounds, with `elim` (`ternary.rs`).
    ternary: bool = false, "ternary", Switch, "hyper ternary resolution; with elim only";
    /// Subsumption and self-subsuming strengthening of the irredundant clauses (`subsume.rs`).
    subsume: bool = true, "subsume", Switch, "subsumption and strengthening";
    /// Failed-literal probing on the roots of the binary implication graph (`probe.rs`).
    probe: bool = true, "probe", Switch, "failed-literal probing";
    /// Vivification of the learnt clauses of tiers 1 and 2 (`vivify.rs`), a round at the
    /// first restart after each reduction.
    vivify: bool = false, "vivify", Switch, "vivification of tier-1 and tier-2 learnt clauses";
    /// Effort of a learnt-clause vivification round, in per mille of the search's
    /// propagation ticks since the previous round.
    vivify_effort: u64 = 100,
        "vivify-effort", Int(0, 10_000), "per mille of the search's propagation ticks";
    /// Vivification of irredundant clauses (`vivify.rs`).
    vivify_irred: bool = false, "vivify-irred", Switch, "vivification of irredundant clauses";
    extra:
    "luby-unit", LUBY_UNIT, "conflicts of the shortest Luby run; with restart=luby or modes",
        "The unit of Luby's sequence, under restart=luby or restart=modes (stable phases).\n",
        set_luby_unit, |o| luby_unit(&o.restarts).map_or_else(|| "none".into(), |u| u.to_string());
}

/// A `key=value` setting that cannot be applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettingError {
    /// No setting has this key.
    Unknown(String),
    /// The value is not one the setting accepts.
    Value {
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What the setting accepts.
        allowed: String,
    },
}

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingError::Unknown(key) => {
                write!(f, "unknown setting `{key}` (known: {})", known_settings())
            }
            SettingError::Value {
                key,
                value,
                allowed,
            } => write!(f, "{key}={value} is out of range: {allowed}"),
        }
    }
}

impl std::error::Error for SettingError {}

/// Every key with the values it accepts: `restart (modes, luby, glucose or never), …`.
pub fn known_settings() -> String {
    SETTINGS
        .iter()
        .map(|s| format!("{} ({})", s.key, s.values))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Options {
    /// The plain engine: no simplification, glucose's restarts and reductions, saved
    /// phases. The puzzle generator's reproducibility rests on its search.
    pub fn plain() -> Options {
        Options {
            restarts: RestartPolicy::Glucose,
            first_reduce: 2000,
            reduce_activity: false,
            target_phase: false,
            bump_reasons: false,
            forget_between_calls: false,
            inprocess: false,
            elim_lit_slack: 0,
            elim_long_bound: true,
            vivify: true,
            ..Options::default()
        }
    }

    /// These options with `key=value` settings applied in the table's order (so
    /// `luby-unit` meets the restart policy it belongs to, wherever it was written); of
    /// a key given twice, the later value wins.
    pub fn with_settings<'a>(
        mut self,
        settings: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Options, SettingError> {
        let mut ordered: Vec<(usize, &Setting, &str)> = Vec::new();
        for (key, value) in settings {
            let index = SETTINGS
                .iter()
                .position(|s| s.key == key)
                .ok_or_else(|| SettingError::Unknown(key.to_string()))?;
            ordered.push((index, &SETTINGS[index], value));
        }
        ordered.sort_by_key(|(index, ..)| *index);
        for (_, setting, value) in ordered {
            if !(setting.set)(&mut self, value) {
                return Err(SettingError::Value {
                    key: setting.key.to_string(),
                    value: value.to_string(),
                    allowed: setting.allowed(),
                });
            }
        }
        Ok(self)
    }
}

/// The table as Markdown: key, values, default, what it does.
pub fn markdown_table() -> String {
    let defaults = Options::default();
    let mut out =
        String::from("| setting | values | default | what it does |\n|---|---|---|---|\n");
    for s in SETTINGS {
        let doc = s.doc.split_whitespace().collect::<Vec<_>>().join(" ");
        out.push_str(&format!(
            "| `{}` | {} | `{}` | {} |\n",
            s.key,
            s.values,
            s.value_in(&defaults),
            doc.replace('|', "\\|")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_unique_and_its_default_reads_back() {
        let defaults = Options::default();
        for (i, s) in SETTINGS.iter().enumerate() {
            assert!(SETTINGS[..i].iter().all(|t| t.key != s.key), "{}", s.key);
            let shown = s.value_in(&defaults);
            if shown != "none" {
                let again = defaults.clone().with_settings([(s.key, shown.as_str())]);
                assert_eq!(again.as_ref(), Ok(&defaults), "{}={shown}", s.key);
            }
            let err = defaults.clone().with_settings([(s.key, "x")]).unwrap_err();
            assert!(matches!(err, SettingError::Value { .. }), "{}", s.key);
        }
    }

    #[test]
    fn ranges_are_held() {
        let o = Options::default();
        let err = o.clone().with_settings([("var-decay", "1")]).unwrap_err();
        assert!(
            err.to_string().contains("a number 0.5..1 (exclusive)"),
            "{err}"
        );
        assert!(o.clone().with_settings([("var-decay", "0.5")]).is_ok());
        assert!(o.clone().with_settings([("random-var-freq", "1")]).is_ok());
        assert!(
            o.clone()
                .with_settings([("random-var-freq", "NaN")])
                .is_err()
        );
        assert!(o.clone().with_settings([("chrono", "1000001")]).is_err());
        assert!(
            o.clone()
                .with_settings([("seed", "18446744073709551615")])
                .is_ok()
        );
        let err = o.clone().with_settings([("speed", "1")]).unwrap_err();
        assert!(err.to_string().contains("luby-unit ("), "{err}");
    }

    #[test]
    fn the_luby_unit_goes_with_its_policy_wherever_written() {
        let o = Options::default();
        let set = |s: &[(&str, &str)]| o.clone().with_settings(s.iter().copied());
        let luby = set(&[("luby-unit", "50"), ("restart", "luby")]).unwrap();
        assert_eq!(luby.restarts, RestartPolicy::Luby { unit: 50 });
        assert!(set(&[("luby-unit", "5"), ("restart", "glucose")]).is_err());
        let modes = set(&[("luby-unit", "64")]).unwrap();
        assert_eq!(modes.restarts, RestartPolicy::Modes { unit: 64 });
    }

    #[test]
    fn the_plain_engine_differs_from_native_only_where_stated() {
        let plain = Options::plain();
        assert_eq!(plain.restarts, RestartPolicy::Glucose);
        assert!(!plain.inprocess && !plain.target_phase && !plain.bump_reasons);
        assert!(!plain.reduce_activity && !plain.forget_between_calls && plain.vivify);
        assert_eq!((plain.first_reduce, plain.elim_lit_slack), (2000, 0));
        assert!(plain.elim_long_bound);
    }

    #[test]
    fn the_markdown_table_has_a_row_per_setting() {
        let table = markdown_table();
        assert_eq!(table.lines().count(), SETTINGS.len() + 2);
        assert!(table.contains("| `restart` | modes, luby, glucose or never | `modes` |"));
    }
}
