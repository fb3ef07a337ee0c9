#!/usr/bin/env bash
# harness-bench.sh: what bench's harness costs.
#
# (1) Per external run: RUNS (default 200) random 3-SAT files of 50 variables and 213
#     clauses (`cnfgen ksat 50 213 3 SEED`, seeds 1..RUNS), `bench run DIR --solvers minisat
#     --jobs 1` (its helper `sandbox-exec` linked statically, without PIE), timed as a whole process
#     tree by /usr/bin/time (bench, its exec helpers,
#     the control groups' set-up, minisat). bench's own CPU is that total minus the sum of
#     the rows' `cpu_s` (minisat's own CPU). The same on the first SMALL (default 20) files
#     gives the fixed cost (start, plan, report); the marginal cost per run is
#       ((CPU - cpu_s sum) of RUNS files - (CPU - cpu_s sum) of SMALL files) / (RUNS - SMALL).
#     Beside it, the wall time per run of a plain shell loop (`minisat F /dev/null`) over
#     the same files, and bench's marginal wall time per run. Each is measured ROUNDS
#     (default 3) times; the median is printed.
# (2) Per in-process call: benches/harness.rs (bench's session path against the same
#     library driven directly) on the first COUNT (default 2000) puzzles of PUZZLES (default
#     ../shared/data/puzzles/17clue.txt when present, else corpora/minimal-9x9.txt) for
#     native, minisat-lib, glucose-lib and cadical-lib, ROUNDS times each (a fresh
#     session and direct solver each round), with the medians over the rounds.
#
# Usage: scripts/harness-bench.sh [external|inprocess]   (both by default)
# Environment: RUNS, SMALL, ROUNDS, COUNT, PUZZLES, CARGO_TARGET_DIR; BENCH (another bench
# binary to measure, with its own sandbox-exec beside it), BENCH_EXEC (another exec
# helper), BENCH_NO_CGROUPS=1 (the fallback without control groups), NO_BUILD=1 (no build
# step: the binaries as they are). Needs minisat on PATH and,
# for (2), the library solvers' build (scripts/install-solvers.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
WHAT=${1:-all}
RUNS=${RUNS:-200}
SMALL=${SMALL:-20}
ROUNDS=${ROUNDS:-3}
COUNT=${COUNT:-2000}
TARGET=${CARGO_TARGET_DIR:-$PWD/target}
if [[ -z ${PUZZLES:-} ]]; then
    PUZZLES=corpora/minimal-9x9.txt
    [[ -f ../shared/data/puzzles/17clue.txt ]] && PUZZLES=../shared/data/puzzles/17clue.txt
fi

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# The sum of the `cpu_s` column of a results.csv (fields may be quoted).
sum_cpu_s() {
    awk '
    function split_csv(line, out,    n, i, c, q, f) {
        n = 0; f = ""; q = 0
        for (i = 1; i <= length(line); i++) {
            c = substr(line, i, 1)
            if (q) { if (c == "\"") q = 0; else f = f c }
            else if (c == "\"") q = 1
            else if (c == ",") { out[++n] = f; f = "" }
            else f = f c
        }
        out[++n] = f
        return n
    }
    NR == 1 { n = split_csv($0, h); for (i = 1; i <= n; i++) if (h[i] == "cpu_s") col = i; next }
    { split_csv($0, r); s += r[col] }
    END { if (!col) { print "no cpu_s column" > "/dev/stderr"; exit 1 } printf "%.6f\n", s }
    ' "$1"
}

external() {
    # --bins: bench and its exec helper, sandbox-exec, the helper then linked again
    # statically (no dynamic loader: it starts in about half the CPU time) and without PIE
    # (no relocation of itself at start). NO_BUILD=1
    # measures the binaries as they are (to alternate several builds in one session).
    if [[ ${NO_BUILD:-0} != 1 ]]; then
        cargo build --release --quiet --features rustsat-solvers --bins --example cnfgen
        cargo rustc --release --quiet --features rustsat-solvers --bin sandbox-exec -- \
            -C target-feature=+crt-static -C relocation-model=static
    fi
    local bench=${BENCH:-$TARGET/release/bench} cnfgen=$TARGET/release/examples/cnfgen
    command -v minisat >/dev/null || { echo "harness-bench: minisat not on PATH" >&2; exit 2; }
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    mkdir -p "$work/all" "$work/small"
    for ((i = 1; i <= RUNS; i++)); do
        "$cnfgen" ksat 50 213 3 "$i" >"$work/all/r$i.cnf"
        ((i <= SMALL)) && cp "$work/all/r$i.cnf" "$work/small/"
    done
    # One bench run: prints "CPU_S WALL_S CPU_S_SUM ROWS" (whole tree CPU, wall, rows' cpu_s).
    one_run() {
        local dir=$1 out=$2 t0 t1 cpu
        rm -rf "$out"
        t0=$(date +%s%N)
        cpu=$(/usr/bin/time -f '%U %S' "$bench" run "$dir" --solvers minisat --jobs 1 \
            --out "$out" 2>&1 >/dev/null | tail -1 | awk '{ print $1 + $2 }')
        t1=$(date +%s%N)
        local rows
        rows=$(($(wc -l <"$out/results.csv") - 1))
        echo "$cpu $(awk -v a="$t0" -v b="$t1" 'BEGIN { print (b - a) / 1e9 }') $(sum_cpu_s "$out/results.csv") $rows"
    }
    local per_run=() walls=() loops=() totals=()
    for ((r = 1; r <= ROUNDS; r++)); do
        read -r cpu_a wall_a solver_a rows_a < <(one_run "$work/all" "$work/run-all")
        read -r cpu_s wall_s solver_s rows_s < <(one_run "$work/small" "$work/run-small")
        [[ $rows_a == "$RUNS" && $rows_s == "$SMALL" ]] || {
            echo "harness-bench: expected $RUNS and $SMALL rows, got $rows_a and $rows_s" >&2
            exit 1
        }
        per_run+=("$(awk -v a="$cpu_a" -v sa="$solver_a" -v b="$cpu_s" -v sb="$solver_s" \
            -v n=$((RUNS - SMALL)) 'BEGIN { printf "%.3f", ((a - sa) - (b - sb)) / n * 1000 }')")
        totals+=("$(awk -v a="$cpu_a" -v sa="$solver_a" -v n="$RUNS" \
            'BEGIN { printf "%.3f", (a - sa) / n * 1000 }')")
        walls+=("$(awk -v a="$wall_a" -v b="$wall_s" -v n=$((RUNS - SMALL)) \
            'BEGIN { printf "%.3f", (a - b) / n * 1000 }')")
        local t0 t1
        t0=$(date +%s%N)
        for f in "$work"/all/*.cnf; do minisat "$f" /dev/null >/dev/null 2>&1 || true; done
        t1=$(date +%s%N)
        loops+=("$(awk -v a="$t0" -v b="$t1" -v n="$RUNS" 'BEGIN { printf "%.3f", (b - a) / 1e6 / n }')")
        echo "round $r: bench CPU per run ${per_run[-1]} ms marginal, ${totals[-1]} ms overall;" \
            "minisat's own CPU $(awk -v s="$solver_a" -v n="$RUNS" 'BEGIN { printf "%.3f", s / n * 1000 }') ms;" \
            "wall per run: bench ${walls[-1]} ms, shell loop ${loops[-1]} ms" >&2
    done
    echo "## Harness cost per external run ($RUNS random 3-SAT files, 50 variables, minisat, --jobs 1, $ROUNDS rounds, median)"
    echo
    echo "| measure | ms per run |"
    echo "|---|---:|"
    echo "| bench's own CPU, marginal (($RUNS runs - $SMALL runs) / $((RUNS - SMALL))) | $(printf '%s\n' "${per_run[@]}" | median) |"
    echo "| bench's own CPU, overall (whole run / $RUNS) | $(printf '%s\n' "${totals[@]}" | median) |"
    echo "| bench's wall, marginal | $(printf '%s\n' "${walls[@]}" | median) |"
    echo "| plain shell loop's wall | $(printf '%s\n' "${loops[@]}" | median) |"
    echo
    echo "$(grep -o '"containment": *"[^"]*"' "$work/run-all/run.json" || echo containment unknown);" \
        "the run's own figure: $(grep -o '"overhead_cpu_ms_per_run": *[0-9.]*' "$work/run-all/run.json" || echo none)"
}

inprocess() {
    echo "## Harness cost per in-process call"
    echo
    cargo bench --quiet --features rustsat-solvers --bench harness -- --count "$COUNT" \
        --rounds "$ROUNDS" "$PUZZLES"
}

case $WHAT in
    external) external ;;
    inprocess) inprocess ;;
    all) external; echo; inprocess ;;
    *) echo "usage: scripts/harness-bench.sh [external|inprocess]" >&2; exit 2 ;;
esac
