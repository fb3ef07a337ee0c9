//! `minisat-lib`: MiniSat 2.2's core solver (no preprocessing, so every variable stays
//! usable as an assumption) from the `rustsat-minisat` crate. Its C API exposes none of
//! MiniSat's heuristic options, so it takes no settings.

use super::Family;
use crate::solver::config::ConfigError;
use rustsat_minisat::core::Minisat;

/// The minisat family.
pub struct MinisatLib;

impl Family for MinisatLib {
    type Engine = Minisat;

    fn engine(spec: &str, settings: &[(String, String)]) -> Result<Minisat, ConfigError> {
        if !settings.is_empty() {
            return Err(ConfigError::NoSettings(
                spec.to_string(),
                "the RustSAT C API of minisat exposes none of its options".into(),
            ));
        }
        Ok(Minisat::default())
    }
}
