//! `native` as bench runs it from `--solvers`: the built-in CDCL solver with its options
//! (default, or set by a configuration `native:key=value,...`, see [`super::config`]),
//! named by its spec. It solves a formula with a fresh solver, as
//! [`NativeSolver`](super::cdcl::NativeSolver) does, and opens incremental
//! [`Session`]s for the puzzle mode of `bench run`.

use super::cdcl::{NativeSolver, Options};
use super::config::{ConfigError, Spec, native_options};
use super::session::{NativeSession, Session};
use super::{Limits, Outcome, ProofStyle, Solver};
use crate::cnf::Cnf;

/// native, possibly configured.
#[derive(Clone, Debug)]
pub struct Native {
    name: String,
    inner: NativeSolver,
}

impl Native {
    /// native from a parsed spec (`native` or `native:key=value,...`).
    pub fn from_spec(spec: &Spec) -> Result<Native, ConfigError> {
        let name = spec.name();
        let options = native_options(&name, &spec.settings)?;
        Ok(Native {
            name,
            inner: NativeSolver { options },
        })
    }

    /// The options of every solver this one builds.
    pub fn options(&self) -> &Options {
        &self.inner.options
    }
}

impl Solver for Native {
    fn name(&self) -> &str {
        &self.name
    }

    fn version(&self) -> Option<String> {
        self.inner.version()
    }

    fn proof_style(&self) -> Option<ProofStyle> {
        self.inner.proof_style()
    }

    fn in_process(&self) -> bool {
        true
    }

    fn solve(&self, cnf: &Cnf, limits: &Limits) -> Outcome {
        self.inner.solve(cnf, limits)
    }

    fn session(&self, seed: u64) -> Option<Box<dyn Session>> {
        let mut options = self.inner.options.clone();
        if seed != 0 {
            options.seed = seed;
        }
        Some(Box::new(NativeSession::new(options)))
    }
}
