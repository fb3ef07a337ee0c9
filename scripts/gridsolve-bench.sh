#!/usr/bin/env bash
# Throughput of the gridsolve crate against tdoku and bench's native CDCL solver, in
# puzzles per CPU-second.
#
# usage: scripts/gridsolve-bench.sh [DATA_DIR]     (run from the repository root)
#   DATA_DIR  folder with forum_hardest_1106.txt and 17clue.txt (default ../shared/data/puzzles)
# environment: ROUNDS (interleaved rounds, default 5), REPEAT (times each file is fed in
#   one run, default 10), GRIDSOLVE_TARGET_DIR (cargo target dir, default target/gridsolve-bench)
#
# Builds crates/gridsolve/examples/throughput.rs (release, target-cpu=native as tdoku is
# built with -march=native) and tdoku from ../shared/tools/tdoku into a temporary folder
# (skipped, and said so, when that folder is missing), with a small driver that prints
# tdoku's own guess count (its SolveSudoku with limit 1). Each round times both solvers on
# the same input files, one after the other; the table gives the median rate of each and
# the median of the per-round ratios. Both are timed by CPU time (getrusage): gridsolve
# around its solve loop, tdoku as a whole child process (reading, solving, printing).
# bench's own CDCL solver (native) and its in-process MiniSat (minisat-lib, when BENCH is
# built with the feature rustsat-solvers; "-" otherwise), session mode, --jobs 1, run
# each 9x9 file once (their rate: puzzles / the sum of cpu_s in results.csv). Then
# gridsolve alone on generated 16x16 and 25x25 sudokus, and gridsolve against native and
# minisat-lib on larger-side files in bench's line format, per puzzle (their median
# cpu_s): corpora/16x16.txt, corpora/25x25.txt
# and any files named in LARGE (space-separated, e.g. made by `bench gen --box 4 --count
# 50`). The bench binary is BENCH (default $CARGO_TARGET_DIR/release/bench); the native
# columns are skipped, and said so, when it is missing. With OLD_EX (the throughput
# example built at another commit, e.g. with `git worktree add`), each larger-side file
# goes through both binaries in ROUNDS alternating rounds, and the table gives the
# fastest round of each and their ratio beside native.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${1:-../shared/data/puzzles}
TDOKU_SRC=../shared/tools/tdoku
ROUNDS=${ROUNDS:-5}
REPEAT=${REPEAT:-10}
export CARGO_TARGET_DIR=${GRIDSOLVE_TARGET_DIR:-target/gridsolve-bench}
for f in forum_hardest_1106.txt 17clue.txt; do
    [ -f "$DATA/$f" ] || { echo "gridsolve-bench: $DATA/$f not found" >&2; exit 2; }
done

RUSTFLAGS="-C target-cpu=native" cargo build --quiet --release \
    --manifest-path crates/gridsolve/Cargo.toml --example throughput
EX=$CARGO_TARGET_DIR/release/examples/throughput

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
FH=$TMP/forum_hardest_1106.txt
C17=$TMP/17clue_2000.txt
for _ in $(seq "$REPEAT"); do grep -v '^#' "$DATA/forum_hardest_1106.txt"; done > "$FH"
grep -v '^#' "$DATA/17clue.txt" | sed -n '1,2000p' > "$TMP/c17_once"
for _ in $(seq "$REPEAT"); do cat "$TMP/c17_once"; done > "$C17"

TDOKU=""
if [ -d "$TDOKU_SRC" ]; then
    (
        cd "$TMP"
        g++ -O3 -march=native -c "$OLDPWD/$TDOKU_SRC/src/solver_dpll_triad_simd.cc" \
            "$OLDPWD/$TDOKU_SRC/src/util.cc" -I"$OLDPWD/$TDOKU_SRC/src"
        gcc -O3 -c "$OLDPWD/$TDOKU_SRC/example/solve.c" -I"$OLDPWD/$TDOKU_SRC/include"
        g++ -o solve solve.o solver_dpll_triad_simd.o util.o
        cat > guesses.c <<'C'
#include <stdio.h>
#include <string.h>
#include "tdoku.h"
int main(void) {
    char line[1024], solution[81];
    size_t guesses, total = 0, puzzles = 0, none = 0;
    while (fgets(line, sizeof line, stdin)) {
        if (strlen(line) < 81 || line[0] == '#') continue;
        TdokuSolverDpllTriadSimd(line, 1, 0, solution, &guesses);
        total += guesses; puzzles++; none += guesses == 0;
    }
    printf("%.2f %.4f\n", (double)total / puzzles, (double)none / puzzles);
}
C
        gcc -O3 -c guesses.c -I"$OLDPWD/$TDOKU_SRC/include"
        g++ -o guesses guesses.o solver_dpll_triad_simd.o util.o
    )
    TDOKU=$TMP/solve
else
    echo "gridsolve-bench: $TDOKU_SRC not found, skipped tdoku"
fi

field() { tr ' ' '\n' | sed -n "s/^$1=//p"; }
BENCH=${BENCH:-$CARGO_TARGET_DIR/release/bench}
# sat SOLVER FILE: writes SOLVER's results.csv cpu_s column (one line a puzzle) to stdout;
# nothing when bench cannot run it (minisat-lib needs a build with rustsat-solvers)
sat() {
    rm -rf "$TMP/sat"
    "$BENCH" run "$2" --solvers "$1" --jobs 1 --out "$TMP/sat" > /dev/null 2>&1 || true
    if [ -f "$TMP/sat/results.csv" ]; then
        awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == "cpu_s") c = i; next} {print $c}' \
            "$TMP/sat/results.csv"
    fi
    rm -rf "$TMP/sat"
}
native() { sat native "$1"; }
# rate N: puzzles per CPU-second of N puzzles whose cpu_s come on stdin ("-" for none)
rate() { awk -v n="$1" '{s += $1} END {if (NR == 0 || s == 0) print "-"; else printf "%.0f", n / s}'; }
# times A B: A / B to 1 decimal ("-" if either is not a number)
times() { awk -v a="$1" -v b="$2" 'BEGIN {if (a + 0 == 0 || b + 0 == 0) print "-"; else printf "%.1f", a / b}'; }
median() { sort -g | awk '{v[NR]=$1} END {if (NR%2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }

for set in FH C17; do
    file=${!set}
    n=$(wc -l < "$file")
    : > "$TMP/$set.ours"; : > "$TMP/$set.tdoku"; : > "$TMP/$set.ratio"
    for _ in $(seq "$ROUNDS"); do
        line=$("$EX" "$file")
        ours=$(echo "$line" | field puzzles_per_cpu_s)
        echo "$ours" >> "$TMP/$set.ours"
        echo "$line" | field guesses_per_puzzle > "$TMP/$set.guesses"
        echo "$line" | field no_guess_share > "$TMP/$set.noguess"
        if [ -n "$TDOKU" ]; then
            cpu=$("$EX" --time-child "$TDOKU" 1 < "$file" 2>&1 >/dev/null | tail -n 1)
            theirs=$(awk -v n="$n" -v c="$cpu" 'BEGIN {printf "%.0f", n / c}')
            echo "$theirs" >> "$TMP/$set.tdoku"
            awk -v a="$ours" -v b="$theirs" 'BEGIN {printf "%.3f\n", a / b}' >> "$TMP/$set.ratio"
        fi
    done
done

echo
echo "gridsolve vs tdoku (median of $ROUNDS interleaved rounds, each file fed $REPEAT times), native and minisat-lib (session mode, --jobs 1, each file once), puzzles per CPU-second"
echo
echo "| set | puzzles | gridsolve /CPU-s | tdoku /CPU-s | native /CPU-s | minisat-lib /CPU-s | gridsolve / tdoku (median) | gridsolve / native | gridsolve / minisat-lib | gridsolve guesses/puzzle | tdoku guesses/puzzle | gridsolve without guess | tdoku without guess |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for set in FH C17; do
    if [ "$set" = FH ]; then
        name="forum_hardest_1106"; once=$TMP/fh_once
        grep -v '^#' "$DATA/forum_hardest_1106.txt" > "$once"
    else
        name="17clue (first 2000)"; once=$TMP/c17_once
    fi
    ours=$(median < "$TMP/$set.ours")
    if [ -n "$TDOKU" ]; then
        theirs=$(median < "$TMP/$set.tdoku"); ratio=$(median < "$TMP/$set.ratio")
        read -r tg tn < <("$TMP/guesses" < "$once")
    else
        theirs="skipped"; ratio="-"; tg="-"; tn="-"
    fi
    if [ -x "$BENCH" ]; then
        nat=$(native "$once" | rate "$(wc -l < "$once")")
        ml=$(sat minisat-lib "$once" | rate "$(wc -l < "$once")")
        vs=$(times "$ours" "$nat"); vsml=$(times "$ours" "$ml")
    else
        nat="skipped (no $BENCH)"; ml="-"; vs="-"; vsml="-"
    fi
    echo "| $name | $(wc -l < "${!set}") | $ours | $theirs | $nat | $ml | $ratio | $vs | $vsml | $(cat "$TMP/$set.guesses") | $tg | $(cat "$TMP/$set.noguess") | $tn |"
done

echo
echo "gridsolve on generated sudokus (pattern grid, shuffled, cells blanked at random, limit 1)"
echo
echo "| side | blanked | puzzles | puzzles /CPU-s | guesses/puzzle |"
echo "|---:|---:|---:|---:|---:|"
for spec in "16 50 500" "25 40 100"; do
    set -- $spec
    line=$("$EX" --generate "$1" "$3" --blank "$2")
    echo "| $1 | $2 % | $3 | $(echo "$line" | field puzzles_per_cpu_s) | $(echo "$line" | field guesses_per_puzzle) |"
done

echo
echo "gridsolve vs bench's native CDCL and minisat-lib (session mode, --jobs 1) on larger sides, per puzzle"
echo
OLD_EX=${OLD_EX:-}
if [ -n "$OLD_EX" ]; then
    echo "(OLD_EX=$OLD_EX: fastest of $ROUNDS alternating rounds of each binary, each file fed $REPEAT times a round)"
    echo
    echo "| file | puzzles | gridsolve /CPU-s | old /CPU-s | gridsolve / old | native median cpu_s | native /CPU-s | ratio | old ratio | gridsolve guesses/puzzle | old guesses/puzzle | minisat-lib median cpu_s | ratio to minisat-lib |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
else
    echo "| file | puzzles | gridsolve /CPU-s | native median cpu_s | native /CPU-s | ratio | gridsolve guesses/puzzle | minisat-lib median cpu_s | ratio to minisat-lib |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
fi
for f in corpora/16x16.txt corpora/25x25.txt ${LARGE:-}; do
    [ -f "$f" ] || { echo "| $f | missing | | | | | |"; continue; }
    n=$(grep -vc '^#' "$f" || true)
    if [ -n "$OLD_EX" ]; then
        ours=0; old=0
        for _ in $(seq "$ROUNDS"); do
            line=$("$EX" "$f" --repeat "$REPEAT")
            ours=$(echo "$line" | field puzzles_per_cpu_s | awk -v b="$ours" '{print ($1 > b) ? $1 : b}')
            oline=$("$OLD_EX" "$f" --repeat "$REPEAT")
            old=$(echo "$oline" | field puzzles_per_cpu_s | awk -v b="$old" '{print ($1 > b) ? $1 : b}')
        done
    else
        line=$("$EX" "$f" --repeat "$REPEAT")
        ours=$(echo "$line" | field puzzles_per_cpu_s)
    fi
    if [ -x "$BENCH" ]; then
        med=$(native "$f" | median)
        theirs=$(awk -v m="$med" 'BEGIN {printf "%.0f", 1 / m}')
        ratio=$(awk -v a="$ours" -v m="$med" 'BEGIN {printf "%.2f", a * m}')
        oratio=$(awk -v a="${old:-0}" -v m="$med" 'BEGIN {printf "%.2f", a * m}')
        mlcpu=$(sat minisat-lib "$f")
        if [ -n "$mlcpu" ]; then
            mlmed=$(echo "$mlcpu" | median)
            mlratio=$(awk -v a="$ours" -v m="$mlmed" 'BEGIN {printf "%.2f", a * m}')
        else
            mlmed="-"; mlratio="-"
        fi
    else
        med="skipped (no $BENCH)"; theirs="-"; ratio="-"; oratio="-"; mlmed="-"; mlratio="-"
    fi
    guesses=$(echo "$line" | field guesses_per_puzzle)
    if [ -n "$OLD_EX" ]; then
        vs=$(awk -v a="$ours" -v b="$old" 'BEGIN {printf "%.2f", a / b}')
        echo "| $f | $n | $ours | $old | $vs | $med | $theirs | $ratio | $oratio | $guesses | $(echo "$oline" | field guesses_per_puzzle) | $mlmed | $mlratio |"
    else
        echo "| $f | $n | $ours | $med | $theirs | $ratio | $guesses | $mlmed | $mlratio |"
    fi
done
