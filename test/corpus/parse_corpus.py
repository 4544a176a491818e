#!/usr/bin/env python3
"""Acceptance test: detc parses every .py file of torch and of the stdlib.

Usage: parse_corpus.py DETC EXCLUDED_LIST [--crosscheck-every N]

Collects every .py file under the installed torch package and the Python 3.11
standard library, drops the files listed in EXCLUDED_LIST (each of which
CPython's ast.parse must reject too), and runs `detc parse --emit=none` on
all of them in one process: zero errors allowed. With --crosscheck-every N,
every N-th file is also compared node by node with ast.parse (see
compare_ast.py).
"""
import ast
import os
import subprocess
import sys

ROOTS = ["/usr/lib/python3/dist-packages/torch", "/usr/lib/python3.11"]
HERE = os.path.dirname(os.path.abspath(__file__))


def collect():
    files = []
    for root in ROOTS:
        if not os.path.isdir(root):
            sys.exit(f"FAIL: corpus root {root} is missing "
                     "(run scripts/install-deps.sh)")
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            files += [os.path.join(dirpath, f) for f in sorted(filenames)
                      if f.endswith(".py")]
    return files


def read_excluded(path):
    excluded = {}
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, _, reason = line.partition("#")
        if not reason.strip():
            sys.exit(f"FAIL: excluded file without a reason: {name.strip()}")
        excluded[name.strip()] = reason.strip()
    return excluded


def main():
    detc, excluded_list = sys.argv[1], sys.argv[2]
    every = 0
    if "--crosscheck-every" in sys.argv:
        every = int(sys.argv[sys.argv.index("--crosscheck-every") + 1])
    files = collect()
    excluded = read_excluded(excluded_list)
    for path, reason in excluded.items():
        try:
            with open(path, "rb") as fh:
                ast.parse(fh.read())
        except (SyntaxError, ValueError):
            continue
        except OSError:
            sys.exit(f"FAIL: excluded file {path} does not exist")
        sys.exit(f"FAIL: {path} is excluded ({reason}) but CPython parses it")
    files = [f for f in files if f not in excluded]
    if len(files) < 1500:
        sys.exit(f"FAIL: only {len(files)} corpus files found")

    if every:
        listing = os.path.join(os.environ.get("TMPDIR", "/tmp"),
                               f"detc-corpus-{os.getpid()}.txt")
        with open(listing, "w") as fh:
            fh.write("\n".join(files) + "\n")
        try:
            return subprocess.call([sys.executable,
                                    os.path.join(HERE, "compare_ast.py"),
                                    detc, listing, "--every", str(every)])
        finally:
            os.unlink(listing)

    proc = subprocess.run([detc, "parse", "--emit=none", "--stats", *files],
                          stderr=subprocess.PIPE)
    err = proc.stderr.decode(errors="replace")
    stats = dict(l.split(": ", 1) for l in err.splitlines()
                 if ": " in l and not l.startswith("/"))
    print(f"parsed {stats.get('files')} files, {stats.get('lines')} lines; "
          f"failed: {stats.get('failed')}; LL fallbacks: "
          f"{stats.get('ll-fallback')}; {stats.get('lines-per-second')} "
          f"lines/s")
    if proc.returncode != 0:
        print("\n".join(l for l in err.splitlines() if "error:" in l)[:4000])
        print("FAIL: detc rejected files that CPython accepts")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
