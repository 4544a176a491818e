#!/usr/bin/env python3
"""Acceptance test: lowering never fails on code the parser accepts.

Usage: lower_corpus.py DETC EXCLUDED_LIST [--emit=points-to]

Lowers every .py file of the installed torch package and of the Python 3.11
standard library (the corpus of parse_corpus.py, minus its exclusions) to the
detc dialect in one process, each file on its own (local imports are not
followed, so each file is lowered once). Unknown constructs are warnings;
any error — above all a module that does not verify — or a crash fails.
With --emit=points-to, runs the points-to analysis on every file instead
(following each file's local imports; installed library code is not
analysed): no error, no crash.
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parse_corpus import collect, read_excluded  # noqa: E402


def main():
    detc, excluded_list = sys.argv[1], sys.argv[2]
    emit = sys.argv[3] if len(sys.argv) > 3 else "--emit=none"
    excluded = read_excluded(excluded_list)
    files = [f for f in collect() if f not in excluded]
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as lst:
        lst.write("\n".join(files))
    try:
        proc = subprocess.run(
            [detc, "--files-from", lst.name, emit, "--no-follow-imports"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    finally:
        os.unlink(lst.name)
    errors = [l for l in proc.stderr.splitlines() if ": error: " in l]
    warnings = sum(": warning: " in l for l in proc.stderr.splitlines())
    print(f"{emit}: {len(files)} files: {len(errors)} errors, "
          f"{warnings} warnings, exit {proc.returncode}")
    if proc.returncode != 0 or errors:
        for line in errors[:20]:
            print(line)
        if proc.returncode < 0:
            print(f"FAIL: detc died with signal {-proc.returncode}")
        sys.exit(1)


if __name__ == "__main__":
    main()
