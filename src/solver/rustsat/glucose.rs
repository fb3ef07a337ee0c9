//! `glucose-lib`: Glucose 4's core solver (no preprocessing) from the `rustsat-glucose`
//! crate. Its C API exposes none of Glucose's options, so it takes no settings. It looks at
//! its interrupt only between restarts: each call runs on a thread of its own and is
//! abandoned past the grace (`solver::abandon`).

use super::Family;
use crate::solver::config::ConfigError;
use rustsat_glucose::core::Glucose;

/// The glucose family.
pub struct GlucoseLib;

impl Family for GlucoseLib {
    type Engine = Glucose;

    /// Glucose looks at its interrupt only between restarts, which on a formula of millions
    /// of clauses can be minutes apart.
    const LOOKS_RARELY: bool = true;

    fn engine(spec: &str, settings: &[(String, String)]) -> Result<Glucose, ConfigError> {
        if !settings.is_empty() {
            return Err(ConfigError::NoSettings(
                spec.to_string(),
                "the RustSAT C API of glucose exposes none of its options".into(),
            ));
        }
        Ok(Glucose::default())
    }
}
