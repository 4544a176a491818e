#!/usr/bin/env python3
"""Steady-state overhead of a transformed training script vs the original
(issue 5; target: under 3%). Transforms the example, then runs original and
transformed alternately (same arguments, one intra-op thread), several
times each, and prints the median wall times and their ratio. Process start
and `import torch` are in both, so the ratio is a fair whole-run figure;
pass more epochs to weigh steady state more.

usage: bench/transform_overhead.py [--detc BIN] [--runs 5] [--epochs 8]
       [EXAMPLE] [-- extra script args]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--detc", default=os.path.join(ROOT, "build/bin/detc"))
    parser.add_argument("--runtime", default=os.path.join(ROOT, "build/python"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("example", nargs="?",
                        default=os.path.join(ROOT, "examples/pgd_train.py"))
    args, extra = parser.parse_known_args()
    extra = [a for a in extra if a != "--"]
    env = dict(os.environ, PYTHONPATH=args.runtime, OMP_NUM_THREADS="1",
               PYTHONWARNINGS="ignore")
    with tempfile.TemporaryDirectory() as tmp:
        det = os.path.join(tmp, "train.det.py")
        subprocess.run([args.detc, "transform", args.example, "--emit-python",
                        "-o", det], check=True)
        times = {"original": [], "transformed": []}
        for _ in range(args.runs):
            for name, script in (("original", args.example),
                                 ("transformed", det)):
                cmd = ["/usr/bin/python3", script, "--epochs",
                       str(args.epochs), "--out",
                       os.path.join(tmp, "m.pt")] + extra
                t = time.perf_counter()
                subprocess.run(cmd, env=env, check=True,
                               stdout=subprocess.DEVNULL)
                times[name].append(time.perf_counter() - t)
    o = statistics.median(times["original"])
    d = statistics.median(times["transformed"])
    print("%s, %d epochs, %d runs each (median wall time)" % (
        os.path.basename(args.example), args.epochs, args.runs))
    print("original    %.3f s  (min %.3f)" % (o, min(times["original"])))
    print("transformed %.3f s  (min %.3f)" % (d, min(times["transformed"])))
    print("overhead    %+.1f%% (median), %+.1f%% (min)" % (
        (d / o - 1) * 100,
        (min(times["transformed"]) / min(times["original"]) - 1) * 100))


if __name__ == "__main__":
    sys.exit(main())
