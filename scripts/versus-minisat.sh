#!/usr/bin/env bash
# versus-minisat.sh: the built-in CDCL solver against minisat, both run as whole processes
# (`bench solve --solver native` vs `minisat -verb=0 IN RES`) on three fixed sets:
#   (a) 100 random 3-SAT formulas, 200 variables, 852 clauses (seeds 1..100)
#   (b) 20 25×25 sudokus, 55% of the cells blanked out of random full grids (seed 2025),
#       extended encoding
#   (c) pigeonhole 9/8
# For each set it prints the total CPU time (user + system of the child processes, from
# bash's `times`, i.e. the kernel's rusage of the reaped children) of each solver and the
# ratio native/minisat, against the targets 1.5, 1.5 and 2. Every answer is checked:
# native's models inside `bench solve`, minisat's with `bench check`, and both solvers must
# agree on SAT/UNSAT for every formula; any disagreement or wrong model fails the script.
# After the timing (so that proof writing costs nothing in the figures), native solves
# every UNSAT formula again with a DRAT proof, and `rate` must answer `s VERIFIED`.
#
# Usage: scripts/versus-minisat.sh [WORKDIR]   (WORKDIR keeps the formulas; default: temp)
set -euo pipefail

cd "$(dirname "$0")/.."
MINISAT=${MINISAT:-minisat}
command -v "$MINISAT" >/dev/null || { echo "minisat not found (apt install minisat)" >&2; exit 2; }

cargo build --release --quiet --bin bench --example cnfgen
BENCH=$PWD/target/release/bench
GEN=$PWD/target/release/examples/cnfgen

if [[ $# -ge 1 ]]; then
    WORK=$1
    mkdir -p "$WORK"
else
    WORK=$(mktemp -d)
    trap 'rm -rf "$WORK"' EXIT
fi

echo "generating formulas in $WORK"
mkdir -p "$WORK/random" "$WORK/sudoku25" "$WORK/php" "$WORK/res"
for s in $(seq 1 100); do
    "$GEN" ksat 200 852 3 "$s" >"$WORK/random/r$(printf %03d "$s").cnf"
done
"$GEN" grids 5 20 2025 55 >"$WORK/sudoku25.txt"
"$BENCH" encode "$WORK/sudoku25.txt" --encoding extended -o "$WORK/sudoku25" >/dev/null
"$GEN" php 9 8 >"$WORK/php/php-9-8.cnf"

# Children's CPU seconds (user + system) from `times`, whose second line reads
# "0m1.234s 0m0.056s". `times` must run in the measuring shell itself (in a pipeline it
# would report a fresh subshell with no children), so it writes to a file first.
child_cpu() {
    times >"$WORK/times"
    tail -n 1 "$WORK/times" | awk '{
        split($1, u, /[ms]/); split($2, s, /[ms]/);
        printf "%.3f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }'
}

# run_set SET SOLVER: solves every formula of SET, one process each, in a subshell whose
# children's CPU time is the measurement. Writes "file exit-code" lines to $WORK/SET.SOLVER
# and prints the CPU seconds.
run_set() {
    local set=$1 solver=$2
    (
        for f in "$WORK/$set"/*.cnf; do
            name=${f##*/} # no basename process: it would count as CPU time
            name=${name%.cnf}
            if [[ $solver == native ]]; then
                "$BENCH" solve "$f" --solver native >"$WORK/res/$name.native" 2>&1 && rc=0 || rc=$?
            else
                "$MINISAT" -verb=0 "$f" "$WORK/res/$name.minisat" >/dev/null 2>&1 && rc=0 || rc=$?
            fi
            echo "$name $rc" >>"$WORK/$set.$solver"
        done
        child_cpu
    )
}

status_of() { # exit code -> answer
    case $1 in 10) echo SAT ;; 20) echo UNSAT ;; 0) echo UNKNOWN ;; *) echo "ERROR($1)" ;; esac
}

failures=0
summary=()
for spec in "random:a) random 3-SAT 200/852 x100:1.5" "sudoku25:b) 25x25 sudoku, 45% given x20:1.5" "php:c) pigeonhole 9/8:2"; do
    IFS=: read -r set label target <<<"$spec"
    rm -f "$WORK/$set.native" "$WORK/$set.minisat"
    native_cpu=$(run_set "$set" native)
    minisat_cpu=$(run_set "$set" minisat)
    # Compare the answers formula by formula.
    sat=0
    unsat=0
    while read -r name n_rc && read -r name2 m_rc <&3; do
        [[ $name == "$name2" ]] || { echo "internal: $name vs $name2" >&2; exit 2; }
        n=$(status_of "$n_rc")
        m=$(status_of "$m_rc")
        if [[ $n != "$m" || $n == ERROR* || $n == UNKNOWN ]]; then
            echo "DISAGREEMENT on $set/$name: native $n, minisat $m" >&2
            failures=$((failures + 1))
            continue
        fi
        if [[ $m == SAT ]]; then
            sat=$((sat + 1))
            if ! "$BENCH" check "$WORK/$set/$name.cnf" "$WORK/res/$name.minisat" >/dev/null 2>&1; then
                echo "WRONG minisat model on $set/$name" >&2
                failures=$((failures + 1))
            fi
        else
            unsat=$((unsat + 1))
        fi
    done <"$WORK/$set.native" 3<"$WORK/$set.minisat"
    ratio=$(awk -v a="$native_cpu" -v b="$minisat_cpu" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
    verdict=$(awk -v r="$ratio" -v t="$target" 'BEGIN { print (r <= t ? "met" : "MISSED") }')
    summary+=("$(printf '%-38s native %8.3f s  minisat %8.3f s  ratio %5s (target <= %s: %s)  [%d SAT, %d UNSAT]' \
        "$label" "$native_cpu" "$minisat_cpu" "$ratio" "$target" "$verdict" "$sat" "$unsat")")
    echo "${summary[-1]}"
done

# Native's UNSAT answers again, now with a proof each, checked by rate.
RATE=${RATE:-rate}
if command -v "$RATE" >/dev/null; then
    proofs=0
    for set in random sudoku25 php; do
        while read -r name rc; do
            [[ $rc == 20 ]] || continue
            f="$WORK/$set/$name.cnf"
            "$BENCH" solve "$f" --solver native --proof "$WORK/res/$name.drat" </dev/null >/dev/null 2>&1 && rc=0 || rc=$?
            if [[ $rc != 20 ]] || ! "$RATE" "$f" "$WORK/res/$name.drat" </dev/null 2>/dev/null | grep -qx 's VERIFIED'; then
                echo "PROOF NOT VERIFIED for native on $set/$name" >&2
                failures=$((failures + 1))
            fi
            proofs=$((proofs + 1))
            rm -f "$WORK/res/$name.drat"
        done <"$WORK/$set.native"
    done
    echo "native's $proofs UNSAT answers re-solved with a DRAT proof, each checked by rate"
else
    echo "rate not found (cargo install rate): native's UNSAT proofs not checked" >&2
    failures=$((failures + 1))
fi

echo
echo "== native vs minisat, total CPU time per set =="
printf '%s\n' "${summary[@]}"
if ((failures > 0)); then
    echo "FAILED: $failures disagreements or wrong answers" >&2
    exit 1
fi
echo "all answers agree, every model checked, every UNSAT proof of native verified"
