#!/usr/bin/env python3
"""Steady-state overhead of a transformed training script vs the original
(issue 5; target: under 3%). Transforms the example, then runs original and
transformed alternately (same arguments, one intra-op thread), several
times each. Two figures: the whole run (process start and `import torch`
included), and the steady state — the time between the script's first and
last `epoch ...` output lines, i.e. training only.

With --jit: the overhead of `detc transform --jit-checkpoint` (docs/jit.md;
target 0.5%) — the transformed script with it against the transformed
script without it, the same way.

usage: bench/transform_overhead.py [--detc BIN] [--runs 5] [--epochs 8]
       [--jit] [EXAMPLE] [-- extra script args]
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
    parser.add_argument("--epochs", type=int, default=16)
    parser.add_argument("--jit", action="store_true",
                        help="--jit-checkpoint vs the plain transform")
    parser.add_argument("example", nargs="?",
                        default=os.path.join(ROOT, "examples/pgd_train.py"))
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    args = parser.parse_args(argv[:len(argv) - len(extra)][:-1] if extra
                             else argv)
    env = dict(os.environ, PYTHONPATH=args.runtime, OMP_NUM_THREADS="1",
               PYTHONWARNINGS="ignore")
    # Without explicit script arguments: the bundled PGD example at the tiny
    # size the tests use (a training step is ~1 ms, so detc's fixed
    # per-example and per-batch costs show as a large fraction) and at a
    # still small but less degenerate size.
    configs = [extra] if extra or not args.example.endswith(
        "pgd_train.py") else [[], ["--features", "64", "--hidden", "256"]]
    with tempfile.TemporaryDirectory() as tmp:
        det = os.path.join(tmp, "train.det.py")
        subprocess.run([args.detc, "transform", args.example, "--emit-python",
                        "-o", det], check=True)
        pair = (args.example, det)
        if args.jit:
            jit = os.path.join(tmp, "train.jit.py")
            subprocess.run([args.detc, "transform", args.example,
                            "--emit-python", "--jit-checkpoint", "-o", jit],
                           check=True)
            pair = (det, jit)
        for config in configs:
            measure(args, env, tmp, pair, config)


def measure(args, env, tmp, pair, config):
    wall = {"original": [], "transformed": []}
    steady = {"original": [], "transformed": []}
    for _ in range(args.runs):
        for name, script in zip(("original", "transformed"), pair):
            cmd = ["/usr/bin/python3", "-u", script, "--epochs",
                   str(args.epochs), "--out", os.path.join(tmp, "m.pt")]
            total, epochs = run_timed(cmd + config, env)
            wall[name].append(total)
            steady[name].append(epochs)
    print("%s %s, %d epochs, %d runs each, alternating%s" % (
        os.path.basename(args.example), " ".join(config) or "(defaults)",
        args.epochs, args.runs,
        " (\"original\": transformed; \"transformed\": with "
        "--jit-checkpoint)" if args.jit else ""))
    report("whole run (process start, imports, training)", wall)
    report("steady state (first to last epoch line)", steady)
    print()

def run_timed(cmd, env):
    """(wall time, time between the first and last 'epoch' output lines)."""
    start = time.perf_counter()
    stamps = []
    with subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE,
                          text=True) as proc:
        for line in proc.stdout:
            if line.startswith("epoch"):
                stamps.append(time.perf_counter())
    if proc.returncode:
        sys.exit("%s failed (exit %d)" % (cmd[2], proc.returncode))
    if len(stamps) < 2:
        sys.exit("%s printed fewer than two 'epoch' lines" % cmd[2])
    return time.perf_counter() - start, stamps[-1] - stamps[0]


def report(what, times):
    o, d = times["original"], times["transformed"]
    # Each transformed run against the original run just before it: the
    # machine's slow drifts cancel in the ratio.
    ratios = sorted(b / a for a, b in zip(o, d))
    print("%s:" % what)
    print("  original    median %.3f s  min %.3f s" % (
        statistics.median(o), min(o)))
    print("  transformed median %.3f s  min %.3f s" % (
        statistics.median(d), min(d)))
    print("  overhead    %+.1f%% (median of paired ratios; range %+.1f%% .. "
          "%+.1f%%)" % ((statistics.median(ratios) - 1) * 100,
                        (ratios[0] - 1) * 100, (ratios[-1] - 1) * 100))

if __name__ == "__main__":
    sys.exit(main())
