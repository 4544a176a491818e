#!/usr/bin/env python3
"""Every transform mode over every script in the repository's examples and
test inputs: detc either refuses with a diagnostic (exit 1 or 2, nothing
written) or writes a file that both CPython and detc's own parser accept.
Exit 3 (an internal check failed), a crash, or a written file that does not
parse is a failure.

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


def run_one(detc, script, mode, tmp):
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
        with open(out, "rb") as f:
            source = f.read()
        try:
            compile(source, out, "exec")
        except SyntaxError as e:
            problems.append("%s: CPython rejects the output: %s" % (what, e))
        parsed = subprocess.run([detc, "parse", out, "--emit=none"],
                                capture_output=True, text=True)
        if parsed.returncode != 0:
            problems.append("%s: detc's parser rejects the output: %s" %
                            (what, parsed.stderr[-500:]))
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
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(
                lambda job: run_one(args.detc, job[0], job[1], tmp),
                [(s, m) for s in scripts for m in MODES]))
    problems = [p for _, ps in results for p in ps]
    written = sum(1 for w, _ in results if w)
    print("%d scripts x %d modes: %d written, %d refused, %d problems" %
          (len(scripts), len(MODES), written, len(results) - written,
           len(problems)))
    for p in problems:
        print("FAIL: " + p)
    if written * 2 < len(results):
        print("FAIL: fewer than half of the runs wrote a file")
        return 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
