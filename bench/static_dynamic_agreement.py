#!/usr/bin/env python3
"""Static vs dynamic on generated training programs (issue 42): recall —
the lines a run of `detc audit` saw draw inside a data-parallel region that
a finding of `detc analyze` covers — and precision — the findings some run
drew in its 2 batches (the rest over-approximate, or sit on a path the run
did not take) — with the time per program, over the seeds given (the
generator and its oracle are test/e2e/static_covers_dynamic.py, which CI
runs as a pass/fail test; this prints the ratios).

usage: static_dynamic_agreement.py [--detc BIN] [--python PY]
           [--seeds S,...] [--programs N]
"""
import argparse
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--detc", default=os.path.join(HERE, "..", "build", "bin",
                                                   "detc"))
    ap.add_argument("--python", default="/usr/bin/python3")
    ap.add_argument("--seeds", default="42,69,70")
    ap.add_argument("--programs", type=int, default=100)
    args = ap.parse_args()
    t0 = time.perf_counter()
    p = subprocess.run(
        [sys.executable, os.path.join(HERE, "..", "test", "e2e",
                                      "static_covers_dynamic.py"),
         "--detc", args.detc, "--python", args.python, "--seeds", args.seeds,
         "--programs", str(args.programs)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wall = time.perf_counter() - t0
    m = re.search(r"recall: (\d+) of (\d+) .*precision: (\d+) of (\d+)",
                  p.stdout)
    programs = re.search(r"(\d+) of (\d+) programs", p.stdout)
    if not m or not programs:
        sys.stdout.write(p.stdout[-3000:])
        sys.exit("no summary from the differential test")
    covered, drawn, seen, findings = map(int, m.groups())
    print("%s programs of seeds %s, %.1f s (%.2f s per program, 2 threads)"
          % (programs.group(2), args.seeds, wall,
             wall / int(programs.group(2))))
    print("recall    %5.1f%%  (%d of %d lines drawn in a region)" % (
        100.0 * covered / max(drawn, 1), covered, drawn))
    print("precision %5.1f%%  (%d of %d findings drawn in 2 batches)" % (
        100.0 * seen / max(findings, 1), seen, findings))
    print("programs with a missed draw: %d" % (
        int(programs.group(2)) - int(programs.group(1))))


if __name__ == "__main__":
    main()
