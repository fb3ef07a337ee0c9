#!/usr/bin/env bash
# The project's test command (README, CI): install the external solvers the tests run
# against, then format check, lints, and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -f scripts/install-solvers.sh ]; then
  bash scripts/install-solvers.sh
else
  command -v minisat >/dev/null || { apt-get update -qq && apt-get install -y -qq minisat; }
fi
export PATH="$PWD/.solvers/bin:$HOME/.cargo/bin:$PATH"

cargo fmt --all -- --check
cargo clippy --all-targets --quiet -- -D warnings
cargo test --quiet 2>&1 | tee /tmp/bench-test.log
