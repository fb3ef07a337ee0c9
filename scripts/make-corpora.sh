#!/usr/bin/env bash
# Regenerates every file under corpora/ from its recorded command and seed (see
# corpora/README.md). Deterministic: the same bench version writes the same bytes.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin bench --example cnfgen
bench=target/release/bench
cnfgen=target/release/examples/cnfgen
mkdir -p corpora/cnf

gen() { local out=$1; shift; echo "corpora/$out: bench gen $*" >&2; "$bench" gen "$@" -o "corpora/$out"; }

gen easy.txt            --seed 1  --count 50 --givens 36
gen hard.txt            --seed 2  --count 50 --pool 2000
gen minimal-9x9.txt     --seed 3  --count 100 --minimal
gen 16x16.txt           --seed 4  --box 4 --count 20
gen 25x25.txt           --seed 5  --box 5 --count 10 --givens 340 --shuffles 1
gen 36x36.txt           --seed 6  --box 6 --count 4 --givens 760 --shuffles 1
gen latin-10.txt        --seed 7  --kind latin --side 10 --count 20
gen latin-20.txt        --seed 8  --kind latin --side 20 --count 5 --givens 220 --shuffles 1
gen pairs-4x4.csv       --seed 9  --kind pair --box 2 --count 10
gen pairs-9x9.csv       --seed 10 --kind pair --box 3 --count 10
gen nosolution.txt      --seed 11 --count 20 --variant unsolvable
gen multisolution.txt   --seed 12 --count 20 --variant ambiguous
gen gen-1000.txt        --seed 13 --count 1000

for i in 1 2 3 4 5 6 7 8 9 10; do
  "$cnfgen" ksat 150 639 3 "$i" > "corpora/cnf/rand3-150-639-s$i.cnf"
done
for p in 7 8 9; do
  "$cnfgen" php "$p" $((p - 1)) > "corpora/cnf/php-$p-$((p - 1)).cnf"
done
ls -la corpora corpora/cnf >&2
