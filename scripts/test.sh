#!/usr/bin/env bash
# The project's test command (README, CI): install the external solvers the tests run
# against, then format check, lints, the whole test suite, and a small benchmark whose
# report must come out whole (every SVG well-formed XML naming the solvers).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-solvers.sh
export PATH="$PWD/.solvers/bin:$HOME/.cargo/bin:$PATH"

# Every tool a test needs is installed above, so none may be missing: BENCH_REQUIRE_TOOLS
# turns a test's "skipped: TOOL not found" into a failure (tests/it/support/mod.rs; zchaff,
# built by hand, stays optional). A one-node SLURM for tests/it/slurm.rs (slurm-local.sh
# installs slurm-wlm and munge if missing) needs root: without it SLURM stays optional.
# A cluster this script started is stopped when it ends.
# Everything this script starts or makes is undone when it ends, however it ends.
cleanup=()
trap 'for c in "${cleanup[@]}"; do eval "$c"; done' EXIT
if [ "$(id -u)" = 0 ]; then
  if ! bash scripts/slurm-local.sh status >/dev/null 2>&1; then
    cleanup+=('bash scripts/slurm-local.sh stop >/dev/null 2>&1')
  fi
  bash scripts/slurm-local.sh start
  export SLURM_CONF="${BENCH_SLURM_DIR:-/tmp/bench-slurm}/slurm.conf"
  export BENCH_REQUIRE_TOOLS=all
else
  echo "test.sh: not root, so no local SLURM: tests/it/slurm.rs will say it skipped" >&2
  export BENCH_REQUIRE_TOOLS=all,-slurm
fi

cargo fmt --all -- --check
cargo clippy --all-targets --quiet -- -D warnings
cargo test
# gridsolve's 9×9 engine without SSE2 (the lane loops every other architecture builds)
RUSTFLAGS="--cfg gridsolve_portable" cargo test --quiet -p gridsolve --target-dir target/portable

# The in-process library solvers (feature rustsat-solvers): lints and their tests, in
# release, where install-solvers.sh built their C/C++ once (the default build above has
# none of it: it needs only the Rust toolchain).
cargo clippy --release --all-targets --features rustsat-solvers --quiet -- -D warnings
cargo test --release --features rustsat-solvers --test it -- inprocess:: inprocess_lib:: readme::

# A small benchmark end to end: native, minisat and kissat on a few puzzles and CNFs.
# The release build keeps the feature install-solvers.sh built it with, so afterwards
# `target/release/bench solvers` finds minisat-lib, glucose-lib and cadical-lib.
cargo build --release --quiet --features rustsat-solvers --bin bench
out=$(mktemp -d)
cleanup+=("rm -rf '$out'")
target/release/bench run corpora/easy.txt corpora/nosolution.txt corpora/cnf \
  --solvers native,minisat,kissat --encodings minimal,extended --timeout 10 --out "$out/run"
target/release/bench report "$out/run/results.csv" --out "$out/report"
python3 - "$out/report" <<'PY'
import pathlib, sys, xml.dom.minidom
report = pathlib.Path(sys.argv[1])
svgs = sorted(report.glob("*.svg"))
assert any(p.name == "cactus.svg" for p in svgs), "no cactus.svg"
assert any(p.name.startswith("scatter-") for p in svgs), "no scatter plot"
for p in svgs:
    text = p.read_text()
    xml.dom.minidom.parseString(text)  # raises on malformed XML
    for solver in ("native", "minisat", "kissat"):
        if p.name in ("cactus.svg", "times.svg"):
            assert solver in text, f"{p.name} does not name {solver}"
assert (report / "index.html").exists() and (report / "summary.json").exists()
print(f"report ok: {len(svgs)} well-formed SVGs")
PY
