#!/usr/bin/env python3
"""Invariant inference speed (issue 21, docs/traincheck.md): `detc infer`
(the streaming C++ engine) against a straightforward pandas implementation
of the same ten relations in the reference implementation's style
(bench/infer_baseline.py: the traces loaded into a DataFrame, each
hypothesis evaluated by filtering it) on traces of 1x, 4x and 16x a base
size (real traces of test/e2e/Inputs/traincheck_train.py trained for 2, 8
and 32 epochs, two pipelines each). Both must find the same invariants,
preconditions included; prints the times (best of --repeat; the
baseline's without the pandas import, detc's with and without its process
start) and the speedup (target >= 100x), and how each grows.

The baseline is timed warm: its best call in one interpreter. The engine
is timed both ways: "cold", the time `detc infer` prints (its one call in
a fresh process: code paged in, caches empty), and "warm",
build/bin/detc-bench-infer (bench/InferEngineBench.cpp: the same call
repeated in one process by Google Benchmark), which is what compares
with the baseline.

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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import infer_baseline  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SCRIPT = os.path.join(ROOT, "test", "e2e", "Inputs", "traincheck_train.py")
PIPELINES = [["--model", "mlp", "--width", "16"],
             ["--model", "conv", "--width", "8", "--optim", "adam",
              "--lr", "0.01"]]


def engine_key(inv):
    """An invariant of `detc infer`'s output as the baseline spells it."""
    pre = inv["precondition"]
    if pre and not isinstance(pre[0], list):
        pre = [pre]
    clauses = [sorted("%s(%s)" % (c["kind"], c["attr"]) if c.get("kind")
                      else "%s=%s" % (c["attr"], c["value"]) for c in conj)
               for conj in pre]
    return (inv["relation"], inv.get("a", ""), inv.get("b", ""),
            inv.get("attr", ""), inv.get("value", ""), json.dumps(clauses))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--detc", default=os.path.join(ROOT, "build", "bin",
                                                   "detc"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--bench", default=os.path.join(ROOT, "build", "bin",
                                                    "detc-bench-infer"))
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
                found = {engine_key(i) for i in json.load(f)["invariants"]}
            python = []
            for _ in range(args.repeat):
                t = time.perf_counter()
                base = infer_baseline.infer(paths)
                python.append(time.perf_counter() - t)
            python = min(python)
            r = subprocess.run([args.bench] + paths + [
                "--benchmark_format=json", "--benchmark_min_time=0.5"],
                check=True, capture_output=True, text=True)
            warm = json.loads(r.stdout)["benchmarks"][0]
            assert warm["time_unit"] == "ms"
            warm = warm["real_time"] / 1e3
            base = {i[:5] + (json.dumps(i[5]),) for i in base}
            if base != found:
                sys.exit("the baseline and detc infer disagree:\n only "
                         "detc: %s\n only the baseline: %s" % (
                             sorted(found - base), sorted(base - found)))
            rows.append((scale, records, min(detc), min(engine), warm,
                         python, len(found)))
        print("scale  records  detc infer: process / engine cold / warm (s)"
              "  Python baseline (s)  speedup process / cold / warm"
              "  invariants")
        for scale, records, d, e, w, p, n in rows:
            print("%4dx  %7d  %8.4f / %8.4f / %8.4f        %8.4f"
                  "           %5.1fx / %5.1fx / %5.1fx   %d" % (
                      scale, records, d, e, w, p, p / d, p / e, p / w, n))
        print("growth 1x -> 16x: detc engine %.1fx (warm), baseline %.1fx "
              "(records %.1fx)" % (rows[-1][4] / rows[0][4],
                                   rows[-1][5] / rows[0][5],
                                   rows[-1][1] / rows[0][1]))


if __name__ == "__main__":
    main()
