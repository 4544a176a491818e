#!/usr/bin/env python3
"""Deterministic from the first line (docs/codegen.md): a script that never
seeds a generator is deterministic once transformed.

  * `detc transform` notes the generators the script never seeds
    ([detc-seed]);
  * two runs of the original differ (the test would prove nothing
    otherwise); two runs of the transformed script are bit-identical, also
    with another worker count;
  * `--seed 1` and `--seed 2` (transform time) give different weights, and
    DETC_SEED=1 at run time gives the weights of `--seed 1`.

usage: unseeded.py --detc BIN --runtime DIR SCRIPT
"""
import argparse
import os
import subprocess
import sys
import tempfile

# The Python that runs the scripts: Debian's (torch 1.13), or a venv's
# (torch 2.x, test/platform/torch2.py).
PY = os.environ.get("DETC_E2E_PYTHON", "/usr/bin/python3")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--detc", required=True)
    parser.add_argument("--runtime", required=True)
    parser.add_argument("script")
    args = parser.parse_args()
    import torch

    env = dict(os.environ, PYTHONPATH=args.runtime, OMP_NUM_THREADS="1",
               PYTHONWARNINGS="ignore")
    failures = []
    with tempfile.TemporaryDirectory(prefix="detc-unseeded-") as tmp:
        def transform(name, *flags):
            out = os.path.join(tmp, name)
            proc = subprocess.run([args.detc, "transform", args.script,
                                   "--emit-python", "-o", out] + list(flags),
                                  capture_output=True, text=True, check=True)
            return out, proc.stderr

        def weights(script, tag, *extra, **envs):
            out = os.path.join(tmp, tag + ".pt")
            subprocess.run([PY, script, "--out", out, "--epochs", "1"] +
                           list(extra),
                           env=dict(env, **envs), check=True,
                           capture_output=True)
            return torch.load(out)["model"]

        def same(a, b):
            return all(torch.equal(a[k], b[k]) for k in a)

        plain, report = transform("plain.py")
        if "[detc-seed]" not in report or "torch" not in report:
            failures.append("no [detc-seed] note naming torch:\n" + report)
        one, _ = transform("one.py", "--seed", "1")
        two, _ = transform("two.py", "--seed", "2")
        checks = [
            ("original, two runs differ", not same(
                weights(args.script, "o1"), weights(args.script, "o2"))),
            ("transformed, two runs bit-identical", same(
                weights(plain, "t1"), weights(plain, "t2"))),
            ("transformed, 0 workers = 2 workers", same(
                weights(plain, "t0", "--workers", "0"),
                weights(plain, "t3"))),
            ("--seed 1 != --seed 2", not same(weights(one, "s1"),
                                              weights(two, "s2"))),
            ("DETC_SEED=1 = --seed 1", same(
                weights(plain, "e1", DETC_SEED="1"), weights(one, "s1b"))),
        ]
        for what, ok in checks:
            print("%-40s %s" % (what, "ok" if ok else "FAILED"))
            if not ok:
                failures.append(what)
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
