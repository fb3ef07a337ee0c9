#!/usr/bin/env bash
# The study figures of docs/performance.md (a benchmark, not a test): `bench merge` and
# `bench report` of a study of ROWS result rows (default 10,000,000), their CPU time and
# peak memory from GNU time; and the planning of the study (`bench slurm`, one task's
# `bench run --shard`).
#
# The rows are a real run replicated with distinct hashes: bench runs
# corpora/minimal-9x9.txt's 100 puzzles, 2 encodings × 5 solvers (1,000 rows, real times,
# real checks); the study's corpus is those puzzles again and again, each copy with its
# digits renamed (copy c of a puzzle: the c-th permutation of 1-9), so every line is an
# instance of its own (its own content hash) and as hard as the puzzle it copies. `bench
# slurm` plans the study; this script writes each shard's rows as the real run's rows of
# the copied puzzle with the copy's corpus, id and hash, and each shard's run.json from
# the real run's. `bench merge` then reads, checks and joins them as it would real
# shards (a row not in the plan, or in the wrong shard, is refused).
#
# Every timed command runs under `ulimit -v` (MEM_KB, default 8 GiB of address space), so
# a report that outgrows the machine fails instead of swapping it out.
#
# Environment: ROWS (rows of the study, a multiple of 1,000), SHARDS (default 200),
# BENCH (a bench binary to measure instead of building this tree's; it runs minisat-lib, so
# one built with the feature rustsat-solvers), MEM_KB.
# Argument: a work folder (default: a new temporary one).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/.solvers/bin:$HOME/.cargo/bin:$PATH"
rows=${ROWS:-10000000}
shards=${SHARDS:-200}
mem_kb=${MEM_KB:-8388608}
if [[ -n ${BENCH:-} ]]; then
  bench=$BENCH
else
  cargo build --release --quiet --features rustsat-solvers --bin bench # minisat-lib
  bench=${CARGO_TARGET_DIR:-$PWD/target}/release/bench
fi
work=${1:-$(mktemp -d)}
mkdir -p "$work"
work=$(cd "$work" && pwd)
exec 3>&1 # the timings go here, whatever the command's output is redirected to
timed() { # CPU (user + system), wall and peak RSS from GNU time, under the memory bound
  if (ulimit -v "$mem_kb" && exec /usr/bin/time -o "$work/time.txt" \
    -f "%U %S %e %M" "$@"); then
    awk '{printf "  %.1f s CPU (%.1f user + %.1f system), %.1f s wall, %d MB peak RSS\n",
      $1 + $2, $1, $2, $3, $4 / 1024}' "$work/time.txt" >&3
  else
    echo "  FAILED (exit $?; under ulimit -v $mem_kb KiB): $(tail -n 3 "$work/time.txt" | tr '\n' ' ')" >&3
  fi
}
solvers=native,minisat-lib,minisat,kissat,cadical
encodings=minimal,extended

# The real run: one shard of a one-shard study, so its run.json is a shard's.
if [[ ! -s $work/real/shards/0-of-1/results.csv ]]; then
  rm -rf "$work/real"
  echo "the real run (corpora/minimal-9x9.txt, $encodings, $solvers):"
  "$bench" slurm corpora/minimal-9x9.txt --encodings "$encodings" --solvers "$solvers" \
    --timeout 100 --shards 1 --out "$work/real" >/dev/null
  "$bench" run --study "$work/real" --shard 0/1 >/dev/null 2>&1
fi

python3 - "$work" "$rows" <<'PY'
import csv, hashlib, itertools, sys
work, rows = sys.argv[1], int(sys.argv[2])
real = list(csv.DictReader(open(f"{work}/real/shards/0-of-1/results.csv")))
puzzles = {}  # instance id -> givens
for number, line in enumerate(open("corpora/minimal-9x9.txt"), 1):
    if line[:1] not in "#\n":
        puzzles[f"minimal-9x9.txt:{number}"] = line.split()[0]
def puzzle_hash(givens):
    text = "bench-puzzle sudoku 9\n" + " ".join(givens) + "\n"
    return hashlib.md5(text.encode()).hexdigest()
for r in real:  # the script's hash is bench's
    assert r["hash"] == puzzle_hash(puzzles[r["instance"]]), r["instance"]
assert rows % len(real) == 0, f"ROWS must be a multiple of {len(real)}"
copies = rows // len(real)
seen = set()
with open(f"{work}/big.txt", "w") as f:
    for perm in itertools.islice(itertools.permutations("123456789"), copies):
        rename = str.maketrans("123456789", "".join(perm))
        for givens in puzzles.values():
            copy = givens.translate(rename)
            f.write(copy + "\n")
            seen.add(puzzle_hash(copy))
assert len(seen) == copies * len(puzzles), "two copies with one content"
print(f"corpus: {copies * len(puzzles):,} distinct puzzles ({copies:,} copies of {len(puzzles)})")
PY

rm -rf "$work/study"
instances=$(wc -l <"$work/big.txt")
echo "planning $instances instances into $shards shards (bench slurm):"
timed "$bench" slurm "$work/big.txt" --encodings "$encodings" --solvers "$solvers" \
  --timeout 100 --shards "$shards" --out "$work/study" >/dev/null

python3 - "$work" "$shards" <<'PY'
import csv, hashlib, itertools, json, os, sys
work, n = sys.argv[1], int(sys.argv[2])
plan = json.load(open(f"{work}/study/run.json"))
corpus = plan["plan"]["corpora"][0]
jobs = str(plan["plan"]["jobs"])
meta = json.load(open(f"{work}/real/shards/0-of-1/run.json"))
meta["fingerprint"] = plan["fingerprint"]
with open(f"{work}/real/shards/0-of-1/results.csv") as f:
    reader = csv.reader(f)
    header = next(reader)
    col = {name: i for i, name in enumerate(header)}
    real = {}
    for r in reader:
        real.setdefault(r[col["instance"]], []).append(r)
givens_of = {}
for number, line in enumerate(open("corpora/minimal-9x9.txt"), 1):
    if line[:1] not in "#\n":
        givens_of[line.split()[0]] = f"minimal-9x9.txt:{number}"
lines = [l.strip() for l in open(f"{work}/big.txt")]
ids = [f"big.txt:{i + 1}" for i in range(len(lines))]
# bench's shard assignment (src/run/shard.rs): every instance has the same number of runs,
# so they are dealt in order of id; a mistake here is refused by `bench merge`.
shard_of = [0] * len(lines)
for dealt, i in enumerate(sorted(range(len(lines)), key=lambda i: ids[i])):
    shard_of[i] = dealt % n
writers, files = {}, []
for k in range(n):
    d = f"{work}/study/shards/{k}-of-{n}"
    os.makedirs(d, exist_ok=True)
    json.dump(dict(meta, shard=f"{k}/{n}"), open(f"{d}/run.json", "w"), indent=1)
    f = open(f"{d}/results.csv", "w", newline="")
    files.append(f)
    writers[k] = csv.writer(f, lineterminator="\n")
    writers[k].writerow(header)
perms = itertools.permutations("123456789")
per_copy = len(givens_of)
for i, line in enumerate(lines):
    if i % per_copy == 0:
        back = str.maketrans("".join(next(perms)), "123456789")
    original = givens_of[line.translate(back)]
    h = hashlib.md5(("bench-puzzle sudoku 9\n" + " ".join(line) + "\n").encode()).hexdigest()
    w = writers[shard_of[i]]
    for r in real[original]:
        r = list(r)
        r[col["corpus"]], r[col["instance"]], r[col["hash"]] = corpus, ids[i], h
        r[col["family"]], r[col["jobs"]] = "big.txt", jobs
        w.writerow(r)
for f in files:
    f.close()
PY
echo "rows in the shards: $(($(cat "$work"/study/shards/*/results.csv | wc -l) - shards))"
echo "merging $shards shards (bench merge --no-report):"
timed "$bench" merge "$work/study" --no-report >/dev/null
echo "merging $shards shards with the report (bench merge):"
timed "$bench" merge "$work/study" >/dev/null
echo "the report of the merged results.csv (bench report):"
timed "$bench" report "$work/study/results.csv" --out "$work/report" >/dev/null
echo "merged: $(($(wc -l <"$work/study/results.csv") - 1)) rows in $work/study/results.csv"

echo "a task's planning over $instances instances (native only, one instance a shard):"
rm -rf "$work/s2" "$work/s3"
"$bench" slurm "$work/big.txt" --solvers native --shards "$instances" --out "$work/s2" >/dev/null
timed "$bench" run --study "$work/s2" --shard "7/$instances" >/dev/null 2>&1
echo "the same as a plain --shard run (writes the study's plan, then runs):"
timed "$bench" run "$work/big.txt" --solvers native --shard "7/$instances" --out "$work/s3" >/dev/null 2>&1
