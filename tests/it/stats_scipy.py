"""Holds the paired statistics of a bench report against an independent computation.

Usage: python stats_scipy.py RESULTS.csv SUMMARY.json

Reads the results CSV the report was drawn from and recomputes, without any of bench's
code: per-instance PAR-2 scores; for every pair of configurations in summary.json, the
instances both ran, wins/losses/ties, both PAR-2s and their difference, the Wilcoxon
signed-rank test with scipy.stats.wilcoxon (its defaults), the Holm correction, and the
bootstrap interval of the difference with scipy.stats.bootstrap (percentile method; a
different random stream, so held within Monte Carlo noise); and per solver and per
solver x encoding, the unique solves and the virtual best solver without it. Prints one
line per method with the pairs it checked; exits 1 on the first mismatch.
"""

import csv
import json
import math
import os
import sys
from collections import defaultdict

import numpy as np
from scipy import stats


def fail(message):
    print(f"MISMATCH: {message}", file=sys.stderr)
    sys.exit(1)


def close(what, ours, theirs, rel=1e-9, absolute=1e-12):
    if ours is None or theirs is None or (isinstance(theirs, float) and math.isnan(theirs)):
        if not (ours is None and (theirs is None or math.isnan(theirs))):
            fail(f"{what}: bench {ours}, reference {theirs}")
        return
    if abs(ours - theirs) > absolute + rel * abs(theirs):
        fail(f"{what}: bench {ours!r}, reference {theirs!r}")


def instance_key(row):
    # The key bench joins instances on: the content hash when the CSV has one.
    return row.get("hash") or row["instance"]


def family_of(row):
    # The family column, else the default rule written out again: the file for puzzles
    # (the id's part before its line number), the first folder
    # level below the folder named for DIMACS files (the folder itself for files directly
    # in it), the file's folder for a DIMACS file named alone.
    if row.get("family"):
        return row["family"]
    corpus, kind, instance = row["corpus"], row["kind"], row["instance"]
    if kind != "cnf":
        return instance.rsplit(":", 1)[0] if ":" in instance else os.path.basename(corpus)
    if corpus.endswith((".cnf", ".cnf.gz", ".cnf.xz")):
        return os.path.basename(os.path.dirname(corpus)) or "."
    if "/" in instance:
        return instance.split("/")[0]
    return os.path.basename(corpus.rstrip("/"))


def main():
    results, summary_path = sys.argv[1], sys.argv[2]
    with open(summary_path) as f:
        summary = json.load(f)
    if summary["timeout_given"]:
        fail("this check reads each row's own timeout: report without --timeout")
    cpu = summary["time"] == "cpu"
    with open(results, newline="") as f:
        rows = list(csv.DictReader(f))

    # One outcome per (instance, encoding, solver): solved only if every repetition was
    # (median time), a wrong answer anywhere makes it unsolved.
    cells = defaultdict(list)
    for r in rows:
        cells[(instance_key(r), r["encoding"], r["solver"])].append(r)
    score = {}  # (solver, encoding) -> {instance: PAR-2 score}
    solved_time = {}  # (instance, solver, encoding) -> time, solved outcomes only
    timeout_of = defaultdict(float)  # instance -> longest timeout
    for (instance, encoding, solver), runs in cells.items():
        limit = max(float(r["timeout_s"]) for r in runs)
        timeout_of[instance] = max(timeout_of[instance], limit)
        wrong = any(r["wrong"] == "true" for r in runs)
        solved = not wrong and all(r["status"] in ("SAT", "UNSAT") for r in runs)
        if solved:
            times = [float(r["cpu_s"]) if cpu and r["cpu_s"] else float(r["wall_s"]) for r in runs]
            t = float(np.median(times))
            solved_time[(instance, solver, encoding)] = t
            s = t
        else:
            s = 2.0 * limit
        score.setdefault((solver, encoding), {})[instance] = s

    st = summary["stats"]
    configs = [(c["solver"], c["encoding"]) for c in st["configurations"]]
    if sorted(configs) != sorted(score):
        fail(f"configurations: bench {configs}, CSV {sorted(score)}")

    # Every pair sharing an instance, in order.
    expected_pairs = []
    for a in range(len(configs)):
        for b in range(a + 1, len(configs)):
            common = sorted(set(score[configs[a]]) & set(score[configs[b]]))
            if common:
                expected_pairs.append((a, b, common))
    got = [(p["a"], p["b"]) for p in st["pairs"]]
    if got != [(a, b) for a, b, _ in expected_pairs]:
        fail(f"pairs: bench {got}, expected {[(a, b) for a, b, _ in expected_pairs]}")

    methods = defaultdict(int)
    p_values = []
    for pair, (a, b, common) in zip(st["pairs"], expected_pairs):
        name = f"{configs[a]} vs {configs[b]}"
        x = np.array([score[configs[a]][i] for i in common])
        y = np.array([score[configs[b]][i] for i in common])
        d = x - y
        if pair["instances"] != len(common):
            fail(f"{name}: instances {pair['instances']} != {len(common)}")
        wlt = (int((d < 0).sum()), int((d > 0).sum()), int((d == 0).sum()))
        if (pair["a_wins"], pair["b_wins"], pair["ties"]) != wlt:
            fail(f"{name}: wins/losses/ties {pair['a_wins'], pair['b_wins'], pair['ties']} != {wlt}")
        close(f"{name} PAR-2 a", pair["a_par2"], float(x.mean()))
        close(f"{name} PAR-2 b", pair["b_par2"], float(y.mean()))
        close(f"{name} PAR-2 difference", pair["par2_difference"], float(d.mean()), absolute=1e-9)

        # The test, with scipy's defaults.
        w = pair["wilcoxon"]
        with np.errstate(all="ignore"):
            ref = stats.wilcoxon(x, y)
        close(f"{name} statistic", w["statistic"], float(ref.statistic))
        close(f"{name} p", w["p"], float(ref.pvalue))
        n_total, nonzero = len(d), d[d != 0]
        _, counts = np.unique(np.abs(nonzero), return_counts=True)
        ties = bool((counts > 1).any())
        if n_total > 50:
            method = "normal"
        elif not ties and len(nonzero) == n_total:
            method = "exact"
        elif n_total <= 13:
            method = "permutation"
        else:
            method = "normal"
        if w["method"] != method:
            fail(f"{name}: method {w['method']}, scipy's auto picks {method}")
        if w["nonzero"] != len(nonzero):
            fail(f"{name}: nonzero {w['nonzero']} != {len(nonzero)}")
        if method == "normal" and w["z"] is not None:
            with np.errstate(all="ignore"):
                z = stats.wilcoxon(x, y, method="asymptotic").zstatistic
            close(f"{name} |z|", abs(w["z"]), abs(float(z)))
        methods[method] += 1
        p_values.append(None if math.isnan(ref.pvalue) else float(ref.pvalue))

        # The bootstrap interval of the mean difference: scipy's own stream, so within
        # Monte Carlo noise (a tenth of the interval's width).
        low, high = pair["difference_low"], pair["difference_high"]
        if np.all(d == d[0]):
            close(f"{name} interval", low, float(d[0]))
            close(f"{name} interval", high, float(d[0]))
        else:
            boot = stats.bootstrap(
                (d,), np.mean, confidence_level=st["confidence"], n_resamples=st["resamples"],
                method="percentile", rng=np.random.default_rng(12345),
            ).confidence_interval
            width = boot.high - boot.low
            for end, ours, theirs in (("low", low, boot.low), ("high", high, boot.high)):
                if abs(ours - theirs) > 0.1 * width + 1e-9:
                    fail(f"{name} interval {end}: bench {ours}, scipy {theirs} (width {width})")
            if not (low <= d.mean() + 1e-9 and d.mean() - 1e-9 <= high):
                fail(f"{name}: the interval [{low}, {high}] misses the mean {d.mean()}")

    # Holm, by its definition.
    order = sorted((p, i) for i, p in enumerate(p_values) if p is not None)
    holm = [None] * len(p_values)
    running = 0.0
    for j, (p, i) in enumerate(order):
        running = max(running, min(1.0, (len(order) - j) * p))
        holm[i] = running
    for pair, h in zip(st["pairs"], holm):
        close(f"pair {pair['a']}-{pair['b']} Holm", pair["p_holm"], h)

    # Unique solves and the VBS without each solver (and each configuration).
    instances = sorted(timeout_of)

    def vbs(allowed):
        solved, total = 0, 0.0
        for i in instances:
            best = [t for (inst, s, e), t in solved_time.items() if inst == i and allowed(s, e)]
            if best:
                solved += 1
                total += min(best)
            else:
                total += 2.0 * timeout_of[i]
        return solved, total / len(instances)

    all_solved, all_par2 = vbs(lambda s, e: True)
    close("VBS PAR-2", summary["virtual_best"]["par2"], all_par2)
    groups = [(c["solver"], None) for c in st["by_solver"]]
    groups += [(c["solver"], c["encoding"]) for c in st["by_configuration"]]
    for c, (solver, encoding) in zip(st["by_solver"] + st["by_configuration"], groups):
        def member(s, e):
            return s == solver and (encoding is None or e == encoding)
        solvers_of = defaultdict(set)
        for (inst, s, e) in solved_time:
            solvers_of[inst].add(member(s, e))
        solved = sum(1 for i in instances if True in solvers_of[i])
        unique = sum(1 for i in instances if solvers_of[i] == {True})
        without, par2_without = vbs(lambda s, e: not member(s, e))
        name = f"{solver} {encoding or ''}"
        got = (c["solved"], c["unique"], c["vbs_solved_without"], c["vbs_solved_lost"])
        if got != (solved, unique, without, all_solved - without):
            fail(f"{name}: solved/unique/without/lost {got} != {(solved, unique, without, all_solved - without)}")
        close(f"{name} VBS PAR-2 without", c["vbs_par2_without"], par2_without)
        close(f"{name} VBS PAR-2 gain", c["vbs_par2_gain"], par2_without - all_par2, absolute=1e-9)

    # Per family: instances, the VBS, and each configuration's solved count and PAR-2.
    family = {instance_key(r): family_of(r) for r in rows}
    names = sorted(set(family.values()))
    got = [f["family"] for f in summary["families"]]
    if got != names:
        fail(f"families: bench {got}, expected {names}")
    for f in summary["families"]:
        members = [i for i in instances if family[i] == f["family"]]
        best = [min([t for (inst, _, _), t in solved_time.items() if inst == i], default=None)
                for i in members]
        vbs_solved = sum(1 for b in best if b is not None)
        vbs_par2 = sum(b if b is not None else 2.0 * timeout_of[i] for b, i in zip(best, members)) / len(members)
        if (f["instances"], f["vbs_solved"]) != (len(members), vbs_solved):
            fail(f"family {f['family']}: instances/VBS solved {f['instances'], f['vbs_solved']} != {len(members), vbs_solved}")
        close(f"family {f['family']} VBS PAR-2", f["vbs_par2"], vbs_par2)
        expected = [c for c in configs if any(i in score[c] for i in members)]
        if [(x["solver"], x["encoding"]) for x in f["scores"]] != expected:
            fail(f"family {f['family']}: configurations {f['scores']} != {expected}")
        for x in f["scores"]:
            c = (x["solver"], x["encoding"])
            ran = [i for i in members if i in score[c]]
            solved = sum(1 for i in ran if (i, c[0], c[1]) in solved_time)
            if (x["ran"], x["solved"]) != (len(ran), solved):
                fail(f"family {f['family']} {c}: ran/solved {x['ran'], x['solved']} != {len(ran), solved}")
            close(f"family {f['family']} {c} PAR-2", x["par2"], sum(score[c][i] for i in ran) / len(ran))

    for method in ("exact", "permutation", "normal"):
        print(f"{method}: {methods[method]} pair(s) agree with scipy")
    print(f"contributions: {len(groups)} agree")
    print(f"families: {len(names)} agree")


main()
