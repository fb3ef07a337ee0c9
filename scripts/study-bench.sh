#!/usr/bin/env bash
# The study figures of the README (a benchmark, not a test): planning a study of 100,000
# instances (`bench slurm`: corpus read, fingerprint, split into 200 shards; and one task's
# `bench run --shard`) and `bench merge` of 200 shards holding 1,000,000 rows, with and
# without the report. Release build; wall time and peak memory from GNU time.
#
# The corpus is corpora/minimal-9x9.txt's 100 puzzles repeated to 100,000 lines; the plan is
# 2 encodings × 5 solvers (1,000,000 runs). The shards' rows are written by this script from
# the plan's own list of runs (`bench merge` of the empty study writes it to missing.csv), with
# made-up times: merging reads, checks and joins them exactly as it would real ones.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/.solvers/bin:$HOME/.cargo/bin:$PATH"
cargo build --release --quiet --bin bench
bench=$PWD/target/release/bench
work=${1:-$(mktemp -d)}
mkdir -p "$work"
exec 3>&1 # the timings go here, whatever the command's output is redirected to
timed() { # GNU time's line
  /usr/bin/time -o "$work/time.txt" -f "  %e s wall, %M KiB peak RSS" "$@" || true
  cat "$work/time.txt" >&3
}

python3 - "$work/big.txt" <<'PY'
import sys
lines = [l for l in open("corpora/minimal-9x9.txt") if l[:1] not in "#\n"]
with open(sys.argv[1], "w") as f:
    for i in range(100_000):
        f.write(lines[i % len(lines)])
PY
rm -rf "$work/study"
echo "planning 100,000 instances into 200 shards (bench slurm):"
timed "$bench" slurm "$work/big.txt" --encodings minimal,extended \
  --solvers native,dpll,native-proc,dpll-proc,minisat --timeout 5000 --shards 200 \
  --out "$work/study" >/dev/null

echo "the plan's runs (bench merge of the empty study lists them all in missing.csv):"
timed "$bench" merge "$work/study" 2>/dev/null >/dev/null

python3 - "$work/study" <<'PY'
import csv, json, os, random, sys
study = sys.argv[1]
plan = json.load(open(f"{study}/run.json"))
header = ("corpus,instance,kind,side,encoding,vars,clauses,solver,run,status,check,wall_s,"
          "cpu_s,max_rss_kb,exit_code,timeout_s,jobs,error,wrong,solutions,givens\n")
meta = {"command_line": plan["command_line"], "bench_version": plan["bench_version"],
        "solvers": [], "machine": {"host": "node", "cores": 2, "cpu_model": "X",
        "mem_total_kb": 0, "kernel": "6"}, "start": "", "end": "", "planned_runs": 0,
        "skipped_inputs": 0, "interrupted": False, "fingerprint": plan["fingerprint"]}
rnd = random.Random(1)
corpus = plan["command_line"][2]
files = {}
with open(f"{study}/missing.csv") as f:
    for row in csv.DictReader(f):
        shard = row["shard"]
        if shard not in files:
            d = f"{study}/shards/{shard}"
            os.makedirs(d, exist_ok=True)
            k, n = shard.split("-of-")
            json.dump(dict(meta, shard=f"{k}/{n}"), open(f"{d}/run.json", "w"))
            files[shard] = open(f"{d}/results.csv", "w")
            files[shard].write(header)
        t = rnd.random()
        files[shard].write(
            f"{corpus},{row['instance']},sudoku,9,{row['encoding']},729,"
            f"11988,{row['solver']},{row['run']},SAT,model-ok,{t:.6f},{t:.6f},4000,10,5000,1,,"
            f"false,,25\n")
for f in files.values():
    f.close()
PY
rm -f "$work/study/missing.csv"
echo "rows in the shards: $(cat "$work"/study/shards/*/results.csv | wc -l) (with 200 headers)"
echo "merging 200 shards (bench merge --no-report):"
timed "$bench" merge "$work/study" --no-report >/dev/null
echo "merging 200 shards with the report (bench merge):"
timed "$bench" merge "$work/study" >/dev/null
echo "merged: $(wc -l <"$work/study/results.csv") lines in $work/study/results.csv"

echo "a task's planning over 100,000 instances (native only, 100,000 shards: one instance a shard):"
rm -rf "$work/s2" "$work/s3"
"$bench" slurm "$work/big.txt" --solvers native --shards 100000 --out "$work/s2" >/dev/null
timed "$bench" run --study "$work/s2" --shard 7/100000 >/dev/null 2>&1
echo "the same as a plain --shard run (writes the study's plan, then runs):"
timed "$bench" run "$work/big.txt" --solvers native --shard 7/100000 --out "$work/s3" >/dev/null 2>&1
