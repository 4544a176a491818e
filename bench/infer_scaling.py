#!/usr/bin/env python3
"""Invariant inference speed (issue 21, docs/traincheck.md): `detc infer`
(the streaming C++ engine) against a straightforward Python implementation
of the same relations in the reference implementation's style — the whole
trace loaded into a table (a list of row dicts), each hypothesis evaluated
by filtering the table — on traces of 1x, 4x and 16x a base size (real
traces of test/e2e/Inputs/traincheck_train.py trained for 2, 8 and 32
epochs, two pipelines each). Both must find the same invariants; prints
the times and the speedup (target >= 100x) and how each grows.

usage: PYTHONPATH=build/python /usr/bin/python3 bench/infer_scaling.py
       [--detc BIN] [--repeat N]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SCRIPT = os.path.join(ROOT, "test", "e2e", "Inputs", "traincheck_train.py")
PIPELINES = [["--model", "mlp", "--width", "16"],
             ["--model", "conv", "--width", "8", "--optim", "adam",
              "--lr", "0.01"]]
MIN_SUPPORT = 3


# ---- The baseline: tables and filters ------------------------------------

def load_table(paths):
    rows = []
    for path in paths:
        job = os.path.dirname(path)
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                r["_job"] = job
                rows.append(r)
    return rows


def deduce(passing, failing):
    """The precondition (a set of clauses), None when superficial."""
    if not failing:
        return set()
    if not passing:
        return None
    common = set.intersection(*passing)
    if not common or any(common <= f for f in failing):
        return None
    for c in sorted(common):
        without = common - {c}
        if without and not any(without <= f for f in failing):
            common = without
    return common


def baseline(paths):
    table = load_table(paths)
    invariants = []
    # Steps: rows between step records, top-level calls only.
    steps, depth, current = [], 0, None
    for r in table:
        if r.get("kind") == "step":
            current = []
            steps.append(current)
            depth = 0
        elif r.get("kind") == "enter":
            if current is not None and depth == 0 and r["api"] not in current:
                current.append(r["api"])
            depth += 1
        elif r.get("kind") == "exit":
            depth = max(0, depth - 1)
    apis = sorted({a for s in steps for a in s})
    for a in apis:
        for b in apis:
            if a == b:
                continue
            passing, failing = [], []
            for s in steps:
                if b not in s:
                    continue
                f = {"calls=" + x for x in s} - {"calls=" + a}
                ok = a in s and s.index(a) < s.index(b)
                (passing if ok else failing).append(f)
            pre = deduce(passing, failing)
            if pre is not None and len(passing) >= MIN_SUPPORT:
                invariants.append(("APISequence", a, b))
    calls = [r for r in table if r.get("kind") == "enter"]
    for api in sorted({r["api"] for r in calls}):
        rows = [r for r in calls if r["api"] == api]
        for attr in ("training", "grad_enabled"):
            values = {json.dumps(r[attr]) for r in rows
                      if r.get(attr) is not None}
            for v in values:
                passing, failing = [], []
                for r in rows:
                    if r.get(attr) is None:
                        continue
                    other = "grad_enabled" if attr == "training" else "training"
                    f = {other + "=" + json.dumps(r[other])} \
                        if r.get(other) is not None else set()
                    (passing if json.dumps(r[attr]) == v else failing).append(f)
                pre = deduce(passing, failing)
                if pre is not None and len(passing) >= MIN_SUPPORT:
                    invariants.append(("APIAttr", api, attr, v))
    params = [(r, p) for r in table if r.get("kind") == "state"
              for p in r["params"]]
    for attr in ("requires_grad", "in_optimizer"):
        for v in (True, False):
            other = "in_optimizer" if attr == "requires_grad" else \
                "requires_grad"
            passing = [{other + "=" + json.dumps(p[other])} for _, p in params
                       if p[attr] == v]
            failing = [{other + "=" + json.dumps(p[other])} for _, p in params
                       if p[attr] != v]
            pre = deduce(passing, failing)
            if pre is not None and len(passing) >= MIN_SUPPORT:
                invariants.append(("ParamAttr", attr, v))
    return invariants


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--detc", default=os.path.join(ROOT, "build", "bin",
                                                   "detc"))
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    runtime = os.pathsep.join(os.path.abspath(p) for p in (
        os.environ.get("PYTHONPATH") or os.path.join(ROOT, "build",
                                                     "python")).split(
                                                         os.pathsep))
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "t.py")
        subprocess.run([args.detc, "transform", SCRIPT, "--emit-python",
                        "--trace", "-o", script], check=True,
                       capture_output=True)
        rows = []
        for scale, epochs in ((1, 2), (4, 8), (16, 32)):
            paths = []
            for i, p in enumerate(PIPELINES):
                out = os.path.join(tmp, "x%d-%d" % (scale, i))
                subprocess.run(["/usr/bin/python3", script] + p +
                               ["--epochs", str(epochs)], check=True,
                               capture_output=True, cwd=tmp,
                               env=dict(os.environ, PYTHONPATH=runtime,
                                        DETC_TRACE_DIR=out))
                paths.append(os.path.join(out, "trace.rank0.jsonl"))
            records = sum(sum(1 for _ in open(p)) for p in paths)
            inv = os.path.join(tmp, "inv.json")
            detc, engine = [], []
            for _ in range(args.repeat):
                t = time.perf_counter()
                r = subprocess.run([args.detc, "infer"] + paths + ["-o", inv],
                                   check=True, capture_output=True, text=True)
                detc.append(time.perf_counter() - t)
                engine.append(float(re.search(r"in ([\d.]+) s",
                                              r.stderr).group(1)))
            with open(inv) as f:
                found = [i for i in json.load(f)["invariants"]
                         if i["relation"] in ("APISequence", "APIAttr",
                                              "ParamAttr")]
            t = time.perf_counter()
            base = baseline(paths)
            python = time.perf_counter() - t
            if len(base) != len(found):
                sys.exit("the baseline found %d invariants, detc %d "
                         "(APISequence, APIAttr, ParamAttr)" % (len(base),
                                                                 len(found)))
            rows.append((scale, records, min(detc), min(engine), python,
                         len(found)))
        print("scale  records  detc infer: process / engine (s)  "
              "Python baseline (s)  speedup process / engine  invariants")
        for scale, records, d, e, p, n in rows:
            print("%4dx  %7d  %8.4f / %8.4f            %8.4f"
                  "            %6.1fx / %6.1fx        %d" % (
                      scale, records, d, e, p, p / d, p / e, n))
        print("growth 1x -> 16x: detc engine %.1fx, baseline %.1fx (records "
              "%.1fx)" % (rows[-1][3] / rows[0][3], rows[-1][4] / rows[0][4],
                          rows[-1][1] / rows[0][1]))


if __name__ == "__main__":
    main()
