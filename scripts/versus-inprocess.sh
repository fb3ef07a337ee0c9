#!/usr/bin/env bash
# versus-inprocess.sh: puzzles per second, tdoku's way (rules loaded once, the givens as
# assumptions, every solution checked), of native, minisat-lib, glucose-lib and
# cadical-lib under minimal, extended and augmented, side by side on one thread:
#   (a) corpora/minimal-9x9.txt (100 minimal 9×9) and 10,000 more minimal 9×9 made by
#       `bench gen --seed 13 --count 10000 --minimal`
#   (b) the 500 hardest of a pool of 10,000 minimal 9×9: `bench gen --seed 14 --pool 10000
#       --count 500`
# Prints the Markdown tables of examples/versus_inprocess.rs. A wrong answer fails it.
# Needs the library solvers' build (cmake, libclang-dev, g++: scripts/install-solvers.sh).
#
# Usage: scripts/versus-inprocess.sh [WORKDIR]   (WORKDIR keeps the generated sets)
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release --quiet --features rustsat-solvers --bin bench --example versus_inprocess
BENCH=$PWD/target/release/bench
VERSUS=$PWD/target/release/examples/versus_inprocess

if [[ $# -ge 1 ]]; then
    WORK=$1
    mkdir -p "$WORK"
else
    WORK=$(mktemp -d)
    trap 'rm -rf "$WORK"' EXIT
fi

# The sets take minutes to generate: kept in WORKDIR and reused.
if [[ ! -s "$WORK/gen10k.txt" ]]; then
    echo "generating set (a): 10,000 minimal 9×9 (seed 13)" >&2
    "$BENCH" gen --seed 13 --count 10000 --minimal -o "$WORK/gen10k.txt"
fi
if [[ ! -s "$WORK/set-a.txt" ]]; then
    cat corpora/minimal-9x9.txt "$WORK/gen10k.txt" >"$WORK/set-a.txt"
fi
if [[ ! -s "$WORK/set-b.txt" ]]; then
    echo "generating set (b): the 500 hardest of 10,000 (seed 14)" >&2
    "$BENCH" gen --seed 14 --pool 10000 --count 500 -o "$WORK/set-b.txt"
fi

"$VERSUS" --solvers native,minisat-lib,glucose-lib,cadical-lib \
    --encodings minimal,extended,augmented "$WORK/set-a.txt" "$WORK/set-b.txt"
