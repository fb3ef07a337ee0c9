#!/usr/bin/env bash
# versus-minisat.sh: native side by side with minisat, kissat and cadical (and, with
# BEFORE=path/to/an/older/bench, that older native), every solver run as a whole process
# (`bench solve --solver native FILE`, `minisat -verb=0 FILE RES`, `kissat -q FILE`,
# `cadical -q FILE`), on formula families generated reproducibly by examples/cnfgen.rs:
#   random    random 3-SAT, 250 variables, 1065 clauses (ratio 4.26), 10 seeds
#   sudoku25  10 25x25 sudokus, 55% blanked out of random full grids, extended encoding
#   php       pigeonhole 9/8 and 10/9
#   color     3-colouring of 200 flat random graphs, 400 vertices, 960 edges, planted (SAT)
#   tseitin   Tseitin parity of 6 random 4-regular graphs on 26 vertices (UNSAT)
#   parity    8 pairs of XOR chains over 32 inputs asserted different (UNSAT)
#   factor    18-bit array multipliers of 38 semiprimes (SAT), 20-bit of 5 primes (UNSAT)
#   order     ordering principle GT_n, n = 16, 18, 20, 22 (UNSAT)
#   counter   BMC of 9-, 10- and 11-bit counters with a free increment and a redundant
#             twin, 100 to 200 steps (18 formulas, UNSAT)
# and the industrial-style families (FAMILIES=industrial names them all; every formula
# UNSAT; src/cnf_gen/ says what each encodes):
#   mult-comm   miter a·b = b·a, array multipliers, 6, 7 and 8 bits
#   mult-assoc  miter (a·b)·c = a·(b·c) mod 2^n, n = 5, 6, 7
#   mult-arch   miter array = Wallace-tree multiplier, 6, 7 and 8 bits
#   bmc         BMC of a Gray counter tracking an 8-bit binary one, 20, 40, 60 steps
#   sortnet     Batcher's network sorts 16 words of 2 and 3 bits, 32 words of 2 bits
#   gripper     Gripper planning with 5, 6 and 7 balls, one step under the optimum
# (kissat takes 0.1-10 s on each; one size up, 1-30 s: mult-comm 9, mult-assoc 8,
# mult-arch 9, bmc 100 steps, sortnet 16x4, gripper 8).
# Each run has a CPU-time limit of TIMEOUT seconds (default 30; `ulimit -t`, so that a
# loaded machine does not cut runs short; a wall-clock limit of 20·TIMEOUT backs it up).
# The CPU time of a run is user + system of the solver process as reported by GNU time
# (the kernel's rusage of the reaped child). Per family the script prints each solver's
# total CPU (a timed-out run counts its time up to the limit), its PAR-2 (a timed-out run
# counts 2·TIMEOUT) and the number solved, then native's ratios to minisat and to the
# better of kissat and cadical (of the CPU, and of the PAR-2 when some run timed out).
# A second table gives each solver's conflicts and propagations per CPU second over the
# family's runs that printed them (native, minisat -verb=1, kissat, cadical: all do).
#
# Every answer is checked: SAT models of the external solvers with `bench check`
# (native's are checked inside `bench solve`), and all solvers that answered must agree
# on SAT/UNSAT for every formula. After the timing, native solves every UNSAT formula it
# answered again with a DRAT proof, and `rate` must answer `s VERIFIED`.
#
# With SHUFFLE=K every formula gets K shuffled copies beside it (`cnfgen shuffle`:
# variables renamed, signs flipped, clauses and literals reordered): the same formulas up
# to renaming, on which a solver searches differently. A family's total over the copies
# is the solver's speed on the family; over the formulas alone it is also the luck of
# each search, which on small families moves totals by 10-20 % from any change at all.
#
# Usage: scripts/versus-minisat.sh [WORKDIR]   (WORKDIR keeps the formulas; default: temp)
# Environment: TIMEOUT (seconds), FAMILIES (space-separated subset), SHUFFLE (copies of
# each formula, default 0), BEFORE (an older
# bench binary to compare with), SOLVERS (default "native minisat kissat cadical"; a
# native configuration such as
# native:simplify=off,rephase=off,reduce=lbd,restart=glucose,target=off,first-reduce=2000,bump-reasons=off
# (the native before issue 16) or native:equiv=off is a solver of its own, run as
# `bench solve --solver SPEC`).
set -euo pipefail

cd "$(dirname "$0")/.."
export PATH="$PWD/.solvers/bin:$HOME/.cargo/bin:$PATH"
TIMEOUT=${TIMEOUT:-30}
SHUFFLE=${SHUFFLE:-0}
[[ $SHUFFLE =~ ^[0-9]+$ ]] || { echo "SHUFFLE must be a number of copies, not '$SHUFFLE'" >&2; exit 2; }
INDUSTRIAL="mult-comm mult-assoc mult-arch bmc sortnet gripper"
FAMILIES=${FAMILIES:-"random sudoku25 php color tseitin parity factor order counter $INDUSTRIAL"}
FAMILIES=${FAMILIES//industrial/$INDUSTRIAL}
SOLVERS=${SOLVERS:-"native minisat kissat cadical"}
if [[ -n ${BEFORE:-} ]]; then
    read -ra others <<<"$SOLVERS"
    [[ ${others[0]:-} == native ]] && others=("${others[@]:1}")
    SOLVERS="native before ${others[*]}"
fi
for s in $SOLVERS; do
    case $s in native* | before) ;; *) command -v "$s" >/dev/null || {
        echo "$s not found (scripts/install-solvers.sh)" >&2
        exit 2
    } ;;
    esac
done
command -v time >/dev/null && [[ -x /usr/bin/time ]] || { echo "GNU time (/usr/bin/time) is needed" >&2; exit 2; }

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
gen() { # gen FAMILY NAME ARGS...: one formula
    local fam=$1 name=$2
    shift 2
    mkdir -p "$WORK/$fam"
    "$GEN" "$@" >"$WORK/$fam/$name.cnf"
}
for fam in $FAMILIES; do
    rm -rf "${WORK:?}/$fam"
    case $fam in
    random) for s in $(seq 1 10); do gen random "r$s" ksat 250 1065 3 "$s"; done ;;
    sudoku25)
        mkdir -p "$WORK/sudoku25"
        "$GEN" grids 5 10 2025 55 >"$WORK/sudoku25.txt"
        "$BENCH" encode "$WORK/sudoku25.txt" --encoding extended -o "$WORK/sudoku25" >/dev/null
        ;;
    php) gen php php-9-8 php 9 8 && gen php php-10-9 php 10 9 ;;
    color) for s in $(seq 1 200); do gen color "flat400-$s" color 400 960 3 "$s"; done ;;
    tseitin) for s in $(seq 1 6); do gen tseitin "ts26-$s" tseitin 26 4 "$s"; done ;;
    parity) for s in $(seq 1 8); do gen parity "par32-$s" parity 32 "$s"; done ;;
    factor)
        gen factor fac18-sat1 factor 18 $((104729 * 130363))
        gen factor fac18-sat2 factor 18 $((199999 * 180001))
        gen factor fac18-sat3 factor 18 $((131071 * 65521))
        # From sat12 on, and from prime3 on: 27 more semiprimes of two random 17-18-bit
        # primes and 3 more 31-bit primes (Python's random.Random(2026), drawn before
        # any was solved), since 13 formulas alone were the luck of 13 searches (README).
        i=4
        for n in 27438170917 48791989537 46281189337 29970247207 13553796913 27159099197 \
            8953380829 13369903189 \
            25056633479 17677709657 20808530357 29264473781 9097911499 61201060931 \
            51249668047 39724804943 19490214061 38380452287 46125501581 37982065369 \
            16607484379 16010101483 7781223647 11829935647 31209567937 32366595733 \
            16837546417 26291533673 37306013813 42905881189 31946384837 29259547729 \
            57635326297 18847029139 8658105007; do
            gen factor "fac18-sat$i" factor 18 "$n"
            i=$((i + 1))
        done
        i=1
        for n in 1000000007 998244353 1488929809 955840159 1671801503; do
            gen factor "fac20-prime$i" factor 20 "$n"
            i=$((i + 1))
        done
        ;;
    order) for n in 16 18 20 22; do gen order "order$n" order "$n"; done ;;
    mult-comm) for n in 6 7 8; do gen mult-comm "mult-comm-$n" mult-comm "$n"; done ;;
    mult-assoc) for n in 5 6 7; do gen mult-assoc "mult-assoc-$n" mult-assoc "$n"; done ;;
    mult-arch) for n in 6 7 8; do gen mult-arch "mult-arch-$n" mult-arch "$n"; done ;;
    bmc) for k in 20 40 60; do gen bmc "bmc-gray-8-$k" bmc-gray 8 "$k"; done ;;
    sortnet) gen sortnet sort-16x2 sortnet 16 2 && gen sortnet sort-16x3 sortnet 16 3 &&
        gen sortnet sort-32x2 sortnet 32 2 ;;
    gripper) for b in 5 6 7; do gen gripper "gripper-$b" gripper "$b"; done ;;
    counter)
        for b in 9 10 11; do
            for n in 100 120 140 160 180 200; do gen counter "cnt-$b-$n" counter "$b" "$n" $((n + 1)); done
        done
        ;;
    *) echo "unknown family $fam" >&2 && exit 2 ;;
    esac
    if ((SHUFFLE > 0)); then
        for f in "$WORK/$fam"/*.cnf; do
            for k in $(seq 1 "$SHUFFLE"); do
                "$GEN" shuffle "$f" "$k" >"${f%.cnf}-s$k.cnf"
            done
        done
    fi
done

mkdir -p "$WORK/res"
rm -f "$WORK/native-unsat"
failures=0
# run SOLVER FILE NAME: one timed run; prints "cpu status conflicts propagations"
# (status 10/20, else unsolved; the counts are "-" when the solver did not print them).
run() {
    local solver=$1 f=$2 name=$3 out="$WORK/res/$3.$1" cmd
    case $solver in
    native*) cmd=("$BENCH" solve "$f" --solver "$solver") ;;
    before) cmd=("$BEFORE" solve "$f" --solver native) ;;
    minisat) cmd=(minisat -verb=1 "$f" "$out.res") ;;
    *) cmd=("$solver" "$f") ;;
    esac
    local rc=0
    # CPU limit: SIGXCPU at TIMEOUT s (kissat, cadical and native die of it, minisat
    # stops and exits 0), SIGKILL 5 s later.
    /usr/bin/time -o "$WORK/time" -f "%U %S" timeout $((20 * TIMEOUT)) \
        bash -c 'ulimit -St "$1" && ulimit -Ht "$2" && shift 2 && exec "$@"' _ \
        "$TIMEOUT" $((TIMEOUT + 5)) "${cmd[@]}" >"$out" 2>/dev/null || rc=$?
    local cpu counts
    cpu=$(tail -n 1 "$WORK/time" | awk '{ printf "%.3f", $1 + $2 }')
    # "c conflicts: N" (native, kissat, cadical) or "conflicts : N (R /sec)" (minisat).
    counts=$(awk '/^(c )?(conflicts|propagations)[ \t]*:/ {
            key = ($0 ~ /conflicts/) ? "c" : "p"; v = $0; sub(/^[^:]*:[ \t]*/, "", v)
            split(v, a, /[ \t]+/); if (!(key in n)) n[key] = a[1] }
        END { printf "%s %s", ("c" in n) ? n["c"] : "-", ("p" in n) ? n["p"] : "-" }' "$out")
    echo "$cpu $rc $counts"
}

declare -A CPU PAR SOLVED CONF PROP SCPU
rows=()
rates=()
for fam in $FAMILIES; do
    n=0
    for s in $SOLVERS; do CPU[$s]=0 PAR[$s]=0 SOLVED[$s]=0 CONF[$s]=0 PROP[$s]=0 SCPU[$s]=0; done
    for f in "$WORK/$fam"/*.cnf; do
        name=${f##*/}
        name=${name%.cnf}
        n=$((n + 1))
        answer=""
        for s in $SOLVERS; do
            read -r cpu rc conf prop < <(run "$s" "$f" "$fam-$name")
            CPU[$s]=$(awk -v a="${CPU[$s]}" -v b="$cpu" 'BEGIN { print a + b }')
            if [[ $conf != - && $prop != - ]]; then
                read -r CONF[$s] PROP[$s] SCPU[$s] < <(awk -v a="${CONF[$s]}" -v b="$conf" \
                    -v c="${PROP[$s]}" -v d="$prop" -v e="${SCPU[$s]}" -v f="$cpu" \
                    'BEGIN { printf "%d %d %.3f\n", a + b, c + d, e + f }')
            fi
            if [[ $rc == 10 || $rc == 20 ]] && awk -v c="$cpu" -v t="$TIMEOUT" 'BEGIN { exit !(c <= t) }'; then
                SOLVED[$s]=$((SOLVED[$s] + 1))
                PAR[$s]=$(awk -v a="${PAR[$s]}" -v b="$cpu" 'BEGIN { print a + b }')
                if [[ -n $answer && $answer != "$rc" ]]; then
                    echo "DISAGREEMENT on $fam/$name: $s says $rc, another said $answer" >&2
                    failures=$((failures + 1))
                fi
                answer=$rc
                if [[ $rc == 10 && $s != native* && $s != before ]]; then
                    model="$WORK/res/$fam-$name.$s"
                    [[ $s == minisat ]] && model="$model.res"
                    if ! "$BENCH" check "$f" "$model" >/dev/null 2>&1; then
                        echo "WRONG $s model on $fam/$name" >&2
                        failures=$((failures + 1))
                    fi
                fi
                if [[ $rc == 20 && $s == native ]]; then
                    echo "$f" >>"$WORK/native-unsat"
                fi
            elif [[ $rc == 124 || $rc == 0 || $rc == 137 || $rc == 152 || $rc == 10 || $rc == 20 ]]; then
                PAR[$s]=$(awk -v a="${PAR[$s]}" -v t="$TIMEOUT" 'BEGIN { print a + 2 * t }')
            else
                echo "ERROR: $s exited with $rc on $fam/$name" >&2
                failures=$((failures + 1))
            fi
        done
        rm -f "$WORK/res/$fam-$name".*
    done
    row=$(printf '%-9s %3d' "$fam" "$n")
    for s in $SOLVERS; do
        row+=$(printf ' | %8.2f %8.2f %2d' "${CPU[$s]}" "${PAR[$s]}" "${SOLVED[$s]}")
    done
    ratios=$(awk -v n="${CPU[native]:-0}" -v m="${CPU[minisat]:-0}" -v k="${CPU[kissat]:-0}" -v c="${CPU[cadical]:-0}" \
        -v pn="${PAR[native]:-0}" -v pm="${PAR[minisat]:-0}" -v pk="${PAR[kissat]:-0}" -v pc="${PAR[cadical]:-0}" 'BEGIN {
        best = (k > 0 && (c == 0 || k < c)) ? k : c
        pbest = (pk > 0 && (pc == 0 || pk < pc)) ? pk : pc
        printf " | %5.2f %5.2f | par2: %5.2f %5.2f %5.2f", (m > 0 ? n / m : 0), (best > 0 ? n / best : 0),
            (pm > 0 ? pn / pm : 0), (pk > 0 ? pn / pk : 0), (pbest > 0 ? pn / pbest : 0) }')
    rows+=("$row$ratios")
    echo "${rows[-1]}"
    rate=$(printf '%-9s' "$fam")
    for s in $SOLVERS; do
        rate+=$(awk -v c="${CONF[$s]}" -v p="${PROP[$s]}" -v t="${SCPU[$s]}" 'BEGIN {
            if (t > 0) printf " | %8.0f %8.2f", c / t, p / t / 1e6; else printf " | %8s %8s", "-", "-" }')
    done
    rates+=("$rate")
done

# Native's UNSAT answers again, now with a proof each, checked by rate.
if [[ -s $WORK/native-unsat ]]; then
    proofs=0
    while read -r f; do
        "$BENCH" solve "$f" --solver native --proof "$WORK/res/p.drat" </dev/null >/dev/null 2>&1 && rc=0 || rc=$?
        if [[ $rc != 20 ]] || ! rate "$f" "$WORK/res/p.drat" </dev/null 2>/dev/null | grep -qx 's VERIFIED'; then
            echo "PROOF NOT VERIFIED for native on $f" >&2
            failures=$((failures + 1))
        fi
        proofs=$((proofs + 1))
        rm -f "$WORK/res/p.drat"
    done <"$WORK/native-unsat"
    rm -f "$WORK/native-unsat"
    echo "native's $proofs UNSAT answers re-solved with a DRAT proof, each checked by rate"
fi

echo
echo "== total CPU s, PAR-2 s (timeout $TIMEOUT s) and solved, per family; native's CPU ratios =="
header=$(printf '%-9s %3s' family n)
for s in $SOLVERS; do header+=$(printf ' | %-20s' "$s cpu par2 ok"); done
echo "$header | /minisat /best(kissat,cadical) | par2: /minisat /kissat /best"
printf '%s\n' "${rows[@]}"
echo
echo "== conflicts per CPU second and millions of propagations per CPU second =="
header=$(printf '%-9s' family)
for s in $SOLVERS; do header+=$(printf ' | %-17s' "$s confl/s Mprop/s"); done
echo "$header"
printf '%s\n' "${rates[@]}"
if ((failures > 0)); then
    echo "FAILED: $failures disagreements, errors or wrong answers" >&2
    exit 1
fi
echo "all answers agree, every model checked, every UNSAT proof of native verified"
