#!/usr/bin/env bash
# Dedicated puzzle solvers compared through `bench run`, every answer checked by bench:
# gridsolve in-process, gridsolve as a process (`bench solve --serve`, the puzzle line
# protocol) and tdoku's example program as a process, built from ../shared/tools/tdoku
# when that folder is there (skipped, and said so, otherwise). Prints each solver's
# puzzles per CPU-second (puzzles solved / the sum of cpu_s in results.csv) and its
# median guesses where it counts them.
#
# usage: scripts/dedicated-bench.sh PUZZLES.txt [OUT_DIR]    (run from the repository root)
# environment: BENCH (default $CARGO_TARGET_DIR/release/bench, else target/release/bench)
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS=${1:?usage: scripts/dedicated-bench.sh PUZZLES.txt [OUT_DIR]}
OUT=${2:-$(mktemp -d)/dedicated}
BENCH=${BENCH:-${CARGO_TARGET_DIR:-target}/release/bench}
TDOKU_SRC=../shared/tools/tdoku
[ -x "$BENCH" ] || cargo build --release --quiet --bin bench
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

solvers=gridsolve,gs
args=(--puzzle-solver "gs='$BENCH' solve --serve")
if [ -d "$TDOKU_SRC" ]; then
    (
        cd "$TMP"
        g++ -O3 -march=native -c "$OLDPWD/$TDOKU_SRC/src/solver_dpll_triad_simd.cc" \
            "$OLDPWD/$TDOKU_SRC/src/util.cc" -I"$OLDPWD/$TDOKU_SRC/src"
        gcc -O3 -c "$OLDPWD/$TDOKU_SRC/example/solve.c" -I"$OLDPWD/$TDOKU_SRC/include"
        g++ -o solve solve.o solver_dpll_triad_simd.o util.o
    )
    solvers=$solvers,tdoku
    args+=(--puzzle-solver "tdoku=stdbuf -oL '$TMP/solve' 1")
else
    echo "dedicated-bench: $TDOKU_SRC not found, skipped tdoku"
fi

# Exit status 1 means a WRONG answer: the table shows whose.
"$BENCH" run "$CORPUS" --solvers "$solvers" "${args[@]}" --jobs 1 --out "$OUT" >/dev/null || true
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { s = $col["solver"]; n[s]++; cpu[s] += $col["cpu_s"]
      if ($col["status"] == "SAT" || $col["status"] == "UNSAT") ok[s]++ }
    END { printf "%-10s %8s %8s %14s\n", "solver", "puzzles", "solved", "puzzles/CPU-s"
          for (s in n) printf "%-10s %8d %8d %14.0f\n", s, n[s], ok[s], (cpu[s] > 0 ? ok[s] / cpu[s] : 0) }' \
    "$OUT/results.csv"
grep -A6 "Work counters" "$OUT/summary.md" || true
echo "results: $OUT"
