#!/usr/bin/env bash
# Installs the external SAT solvers that bench compares, and the DRAT checker `rate`.
#
# Idempotent: anything already installed is skipped, so CI and new users can run it at
# every start. What goes where (docs/design.md, "External solvers as they behave"):
#   apt     minisat cadical picosat cryptominisat          -> /usr/bin
#           time (GNU /usr/bin/time, the tests compare bench's measurements with it)
#           chromium (the report test renders index.html in it, headless)
#           cmake libclang-dev g++ (to build the in-process minisat-lib, glucose-lib and
#           cadical-lib: the RustSAT crates compile the solvers' C/C++ sources)
#   PyPI    passagemath-kissat passagemath-glucose         -> .solvers/venv, with the
#           kissat and glucose binaries they ship (site-packages/sage_wheels/bin/)
#           linked into .solvers/bin/
#           scipy (>= 1.15) and gbd-tools, into the same venv: the references the tests
#           hold bench against (tests/it/report_stats.rs: the paired statistics against
#           scipy.stats; tests/it/seams.rs: the instance hash against gbd-tools' GBD hash)
#   cargo   rate (DRAT checker)                            -> ~/.cargo/bin
#           bench --features rustsat-solvers (release)         -> target/release/bench,
#           with the library solvers in it (built once; later builds reuse it)
# bench looks in .solvers/bin (relative to the current directory and to the crate root),
# then $BENCH_SOLVERS_DIR, then PATH; `bench solvers` shows what it found.
#
# Environment: BENCH_SOLVERS_DIR overrides the install location (default: .solvers at the
# repository root); PYTHON picks the interpreter (default python3); SKIP_APT=1,
# SKIP_PYPI=1, SKIP_RATE=1, SKIP_LIB=1 skip a part.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ -n "${BENCH_SOLVERS_DIR:-}" ]]; then
    bindir="$BENCH_SOLVERS_DIR"
    solvers="$(dirname "$bindir")"
else
    solvers="$root/.solvers"
    bindir="$solvers/bin"
fi
venv="$solvers/venv"
python="${PYTHON:-python3}"

say() { printf '==> %s\n' "$*"; }

# --- apt -------------------------------------------------------------------------------
install_apt() {
    local missing=()
    local pkg
    for pkg in minisat cadical picosat cryptominisat time chromium cmake libclang-dev g++; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
            missing+=("$pkg")
        fi
    done
    if [[ ${#missing[@]} -eq 0 ]]; then
        say "apt: minisat cadical picosat cryptominisat time chromium cmake libclang-dev g++ already installed"
        return
    fi
    local sudo=()
    [[ $(id -u) -ne 0 ]] && sudo=(sudo)
    # Only refresh the package lists when there are none (a fresh container); an update
    # on every run would make the script slow and network-dependent for nothing.
    if ! compgen -G '/var/lib/apt/lists/*_Packages' >/dev/null; then
        say "apt: updating package lists"
        "${sudo[@]}" apt-get update -qq
    fi
    say "apt: installing ${missing[*]}"
    # Lists that exist but are stale name package versions the mirror no longer has: one
    # refresh and a second try.
    if ! DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}"; then
        say "apt: refreshing the package lists and trying again"
        "${sudo[@]}" apt-get update -qq
        DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}"
    fi
}

# --- PyPI: kissat and glucose binaries inside passagemath wheels ------------------------
install_pypi() {
    mkdir -p "$bindir"
    if [[ -x "$bindir/kissat" && -x "$bindir/glucose" ]]; then
        say "pypi: kissat and glucose already in $bindir"
        return
    fi
    if [[ ! -x "$venv/bin/python" ]]; then
        say "pypi: creating venv $venv"
        "$python" -m venv "$venv"
    fi
    say "pypi: installing passagemath-kissat passagemath-glucose"
    # --no-deps: only the binaries are wanted, not the passagemath library stack.
    "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps \
        passagemath-kissat passagemath-glucose
    local site
    site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
    local name
    for name in kissat glucose; do
        local bin="$site/sage_wheels/bin/$name"
        if [[ ! -x "$bin" ]]; then
            echo "error: $bin not found: the passagemath-$name wheel no longer ships the binary" >&2
            exit 1
        fi
        ln -sf "$bin" "$bindir/$name"
        say "pypi: $bindir/$name -> $bin"
    done
}

# --- PyPI: scipy and gbd-tools, the references the tests hold bench against -------------
install_scipy() {
    if [[ ! -x "$venv/bin/python" ]]; then
        say "pypi: creating venv $venv"
        "$python" -m venv "$venv"
    fi
    if "$venv/bin/python" -c 'import gbd_init.gbdhash, scipy, sys; sys.exit(tuple(map(int, scipy.__version__.split(".")[:2])) < (1, 15))' 2>/dev/null; then
        say "pypi: scipy and gbd-tools already in $venv"
        return
    fi
    say "pypi: installing scipy and gbd-tools into $venv"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check 'scipy>=1.15' gbd-tools
}

# --- cargo: the DRAT checker -------------------------------------------------------------
install_rate() {
    if command -v rate >/dev/null 2>&1; then
        say "cargo: rate already installed ($(command -v rate))"
        return
    fi
    say "cargo: installing rate (DRAT checker)"
    cargo install --locked rate || cargo install rate
}

# --- cargo: bench with the in-process library solvers -----------------------------------
build_lib() {
    say "cargo: building bench with the in-process library solvers (feature rustsat-solvers)"
    (cd "$root" && cargo build --release --quiet --features rustsat-solvers --bin bench --bin sandbox-exec)
}

[[ -z "${SKIP_APT:-}" ]] && install_apt
[[ -z "${SKIP_PYPI:-}" ]] && install_pypi
[[ -z "${SKIP_PYPI:-}" ]] && install_scipy
[[ -z "${SKIP_RATE:-}" ]] && install_rate
[[ -z "${SKIP_LIB:-}" ]] && build_lib
say "done; run \`bench solvers\` to see what bench finds"
