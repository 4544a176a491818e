#!/usr/bin/env python3
"""What every detc process pays before it does anything: a project, a
pre-commit hook or a test corpus run file by file pays it thousands of
times. Times `detc --version`, and detc's main jobs on a two-line script
and on the augment example, against Debian's FileCheck (an LLVM tool
linked statically, as detc is since session 75) in the same run: median
wall time of `--repeat` starts each, in milliseconds, and the ratio.

usage: bench/startup.py [DETC] [--repeat N]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILECHECK = "/usr/lib/llvm-19/bin/FileCheck"


def median_ms(argv, repeat):
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("detc", nargs="?",
                    default=os.path.join(ROOT, "build", "bin", "detc"))
    ap.add_argument("--repeat", type=int, default=41)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tiny = os.path.join(d, "tiny.py")
        with open(tiny, "w") as f:
            f.write("import torch\nx = torch.rand(3)\n")
        augment = os.path.join(ROOT, "examples", "augment_train.py")
        out = os.path.join(d, "out.py")
        cases = [
            ("FileCheck --version (baseline)", [FILECHECK, "--version"]),
            ("detc --version", [args.detc, "--version"]),
            ("detc parse (2 lines)", [args.detc, "parse", tiny,
                                      "--emit=none"]),
            ("detc transform (2 lines)", [args.detc, "transform", tiny,
                                          "--emit-python", "-o", out]),
            ("detc analyze augment_train.py",
             [args.detc, "analyze", augment]),
            ("detc transform augment_train.py",
             [args.detc, "transform", augment, "--emit-python", "-o", out]),
        ]
        base = None
        for name, argv in cases:
            ms = median_ms(argv, args.repeat)
            base = base or ms
            print("%-34s %7.1f ms  %5.1fx the baseline" % (name, ms,
                                                           ms / base))


if __name__ == "__main__":
    sys.exit(main())
