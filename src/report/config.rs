//! The configuration key of every table and chart of the report: a solver under an
//! encoding, with the mode (or modes) its runs took ([`ModeLabel`], see `report::mode`).
//! A score, a speedup, a family's figures, a paired test and a chart's series are each of
//! one [`Config`]; its [`Config::label`] is how tables and legends name it.

use std::fmt;

use serde::Serialize;

use crate::results::Mode;

/// The modes the runs of a configuration took: any of `session`, `fresh`, `process`,
/// `dedicated` (a dedicated puzzle solver, encoding `none`), and `in-process` (session or
/// fresh, not recorded, in a CSV of an older bench). Written as each, in that order,
/// joined by `+` (`session+fresh`); empty when nothing ran.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ModeLabel(u8);

/// The names of the bits of a [`ModeLabel`], lowest first.
const NAMES: [&str; 5] = ["session", "fresh", "process", "in-process", "dedicated"];

impl ModeLabel {
    /// Run in-process, in a mode not recorded.
    pub const IN_PROCESS: ModeLabel = ModeLabel(1 << 3);

    /// Runs in `mode`.
    pub fn of(mode: Mode) -> ModeLabel {
        ModeLabel(match mode {
            Mode::Session => 1,
            Mode::Fresh => 1 << 1,
            Mode::Process => 1 << 2,
            Mode::Dedicated => 1 << 4,
        })
    }

    /// The label of one row's recorded mode (empty when it has none).
    pub fn of_row(mode: Option<Mode>) -> ModeLabel {
        mode.map_or(ModeLabel::default(), ModeLabel::of)
    }

    /// Both labels' modes.
    pub fn with(self, other: ModeLabel) -> ModeLabel {
        ModeLabel(self.0 | other.0)
    }

    /// Where the label sorts among others: by its first mode in the order of [`NAMES`]
    /// (session, fresh, process, in-process, dedicated), then by the rest.
    pub fn order_key(self) -> (u32, u8) {
        (self.0.trailing_zeros(), self.0)
    }

    /// True when no run is behind it.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl fmt::Display for ModeLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (bit, name) in NAMES.iter().enumerate() {
            if self.0 & (1 << bit) != 0 {
                if !first {
                    f.write_str("+")?;
                }
                f.write_str(name)?;
                first = false;
            }
        }
        Ok(())
    }
}

impl Serialize for ModeLabel {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A solver under an encoding, and the modes it ran in.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Config {
    /// The solver (a configuration `NAME:key=value` is a solver of its own).
    pub solver: String,
    /// The encoding (`dimacs` for DIMACS input).
    pub encoding: String,
    /// How its runs ran.
    pub mode: ModeLabel,
}

impl Config {
    /// A configuration.
    pub fn new(solver: &str, encoding: &str, mode: ModeLabel) -> Config {
        Config {
            solver: solver.to_string(),
            encoding: encoding.to_string(),
            mode,
        }
    }

    /// Its name in tables and legends: `solver · encoding · mode`, the encoding left out
    /// when the report has a single one.
    pub fn label(&self, several_encodings: bool) -> String {
        if several_encodings {
            format!("{} · {} · {}", self.solver, self.encoding, self.mode)
        } else {
            format!("{} · {}", self.solver, self.mode)
        }
    }

    /// True when this is `solver` under `encoding`.
    pub fn is(&self, solver: &str, encoding: &str) -> bool {
        self.solver == solver && self.encoding == encoding
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_join_modes_in_order() {
        let both = ModeLabel::of(Mode::Fresh).with(ModeLabel::of(Mode::Session));
        assert_eq!(both.to_string(), "session+fresh");
        assert_eq!(ModeLabel::IN_PROCESS.to_string(), "in-process");
        assert_eq!(ModeLabel::of(Mode::Dedicated).to_string(), "dedicated");
        assert_eq!(ModeLabel::default().to_string(), "");
        let c = Config::new("native", "extended", both);
        assert_eq!(c.label(true), "native · extended · session+fresh");
        assert_eq!(c.label(false), "native · session+fresh");
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(
            json,
            r#"{"solver":"native","encoding":"extended","mode":"session+fresh"}"#
        );
    }
}
