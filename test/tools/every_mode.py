#!/usr/bin/env python3
"""Every transform mode over every script in the repository's examples and
test inputs: detc either refuses with a diagnostic (exit 1 or 2, nothing
written) or writes a file that both CPython and detc's own parser accept.
Exit 3 (an internal check failed), a crash, or a written file that does not
parse is a failure. A script in syntax newer than the Python running this
test (3.12's `type X = ...`) is compiled by the newest CPython installed
(pyenv's 3.13 or 3.12), or by detc's parser alone where there is none.

A mode a script cannot take (--jit-checkpoint without a loop over batches)
is a refusal, which is fine; the test reports how many of each it saw, and
fails if fewer than half of the runs wrote a file (the corpus would then no
longer exercise the emitters).

usage: every_mode.py --detc BIN --root SRCDIR [--jobs N]
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "corpus"))
from newer_python import find_python  # noqa: E402

NEWER = next((p for p in (find_python(13), find_python(12)) if p), None)

MODES = [
    [],
    ["--trace=TRACEDIR"],
    ["--check=INVARIANTS"],
    ["--jit-checkpoint"],
    ["--jit-checkpoint=guard-step"],
    ["--vaccinate"],
    ["--overhead=0.05", "--ckpt-cost=0.005"],
]


def corpus(root):
    found = []
    for top in ("examples", "test"):
        for d, _, files in os.walk(os.path.join(root, top)):
            rel = os.path.relpath(d, root)
            if top == "test" and "Inputs" not in rel.split(os.sep):
                continue
            found += [os.path.join(d, f) for f in files if f.endswith(".py")]
    return sorted(found)


def reader_of(script):
    """The CPython that reads `script`: this one, a newer one, or None."""
    with open(script, "rb") as f:
        try:
            compile(f.read(), script, "exec")
            return sys.executable
        except SyntaxError:
            return NEWER


def compile_error(python, path):
    """Why `python` refuses to compile the file at `path` (None: it
    compiles)."""
    if python == sys.executable:
        with open(path, "rb") as f:
            try:
                compile(f.read(), path, "exec")
            except SyntaxError as e:
                return str(e)
        return None
    proc = subprocess.run(
        [python, "-c", "import sys; compile(open(sys.argv[1], 'rb').read(),"
         " sys.argv[1], 'exec')", path], capture_output=True, text=True)
    return proc.stderr.strip().splitlines()[-1] if proc.returncode else None


def run_one(detc, script, mode, tmp, python):
    out = os.path.join(tmp, "%d.py" % abs(hash((script, tuple(mode)))))
    argv = [detc, "transform", script, "--emit-python", "-o", out] + [
        m.replace("TRACEDIR", os.path.join(tmp, "trace")).replace(
            "INVARIANTS", os.path.join(tmp, "inv.json")) for m in mode]
    proc = subprocess.run(argv, capture_output=True, text=True)
    what = "%s %s" % (os.path.basename(script), " ".join(mode))
    problems = []
    if proc.returncode not in (0, 1, 2):
        problems.append("%s: exit %d\n%s" % (what, proc.returncode,
                                              proc.stderr[-2000:]))
    wrote = os.path.exists(out)
    if wrote and proc.returncode == 2:
        problems.append("%s: exit 2 but wrote %s" % (what, out))
    if wrote:
        error = compile_error(python, out) if python else None
        if error:
            problems.append("%s: CPython rejects the output: %s" % (what,
                                                                   error))
        # detc's own parser already read it: the transform parses what it
        # emits before writing (exit 3 otherwise, a problem above).
        os.unlink(out)
    return wrote, problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--detc", required=True)
    parser.add_argument("--root", required=True)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    scripts = corpus(args.root)
    with tempfile.TemporaryDirectory(prefix="detc-modes-") as tmp:
        with open(os.path.join(tmp, "inv.json"), "w") as f:
            json.dump({"format": "detc-invariants", "version": 1,
                       "invariants": []}, f)
        readers = {s: reader_of(s) for s in scripts}
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(
                lambda job: run_one(args.detc, job[0], job[1], tmp,
                                    readers[job[0]]),
                [(s, m) for s in scripts for m in MODES]))
    problems = [p for _, ps in results for p in ps]
    written = sum(1 for w, _ in results if w)
    print("%d scripts x %d modes: %d written, %d refused, %d problems" %
          (len(scripts), len(MODES), written, len(results) - written,
           len(problems)))
    newer = sorted(os.path.basename(s) for s, r in readers.items()
                   if r != sys.executable)
    if newer:
        print("compiled by %s: %s" % (NEWER or "detc's parser alone",
                                      ", ".join(newer)))
    for p in problems:
        print("FAIL: " + p)
    if written * 2 < len(results):
        print("FAIL: fewer than half of the runs wrote a file")
        return 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
