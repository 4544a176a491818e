#!/usr/bin/env python3
"""Parse throughput: `detc parse` vs CPython's ast.parse, same files, same run.

Usage: bench/parse_throughput.py [DETC] [ROOT] [--repeat N]

Reads every .py file under ROOT (default: the installed torch package) and
reports lines per second for detc (one process, --emit=none, so the numbers
include detc's AST construction but not printing) and for ast.parse over the
same bytes already in memory (best of N runs each), then the ratio.
Target (issue 2): detc within 4x of CPython's parser.
"""
import ast
import os
import re
import subprocess
import sys
import time

def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    detc = args[0] if args else os.path.join(os.path.dirname(__file__),
                                             "..", "build", "bin", "detc")
    root = args[1] if len(args) > 1 else "/usr/lib/python3/dist-packages/torch"
    repeat = 3
    if "--repeat" in sys.argv:
        repeat = int(sys.argv[sys.argv.index("--repeat") + 1])
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(root)
                   for f in fs if f.endswith(".py"))
    sources = [open(f, "rb").read() for f in files]
    lines = sum(s.count(b"\n") + (not s.endswith(b"\n")) for s in sources)

    cpython = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        for s in sources:
            ast.parse(s)
        cpython = min(cpython, time.perf_counter() - t)

    detc_best = float("inf")
    for _ in range(repeat):
        out = subprocess.run([detc, "parse", "--emit=none", "--stats", *files],
                             stderr=subprocess.PIPE, check=True).stderr.decode()
        detc_best = min(detc_best,
                        float(re.search(r"seconds: ([\d.]+)", out).group(1)))

    print(f"files: {len(files)}  lines: {lines}")
    print(f"cpython ast.parse: {lines / cpython:10.0f} lines/s ({cpython:.2f} s)")
    print(f"detc parse:        {lines / detc_best:10.0f} lines/s ({detc_best:.2f} s)")
    ratio = detc_best / cpython
    print(f"ratio detc/cpython time: {ratio:.2f}x (target: <= 4x) "
          f"{'OK' if ratio <= 4 else 'OVER TARGET'}")

if __name__ == "__main__":
    main()
