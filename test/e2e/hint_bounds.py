#!/usr/bin/env python3
"""Restarts at a CheckHint hint with changed flags (issue 23): never a
silent early end, never a traceback in user code.

- A checkpoint written by an --epochs 2 run, restarted with --epochs 4,
  trains 4 epochs: the result equals an uninterrupted --epochs 4 run bit
  for bit (it used to stop after 2 epochs with exit 0).
- Restarted with --epochs 1 (the saved epoch is no longer reached): exit
  status 3, naming the flag that changed.
- Restarted with another --width: exit 2, the model does not match the
  checkpoint, no traceback.
- --detc-profile into a directory that does not exist: exit 2 before the
  run starts (the profile used to be lost silently at exit).

usage: hint_bounds.py --detc BIN --runtime DIR SCRIPT
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
    ap = argparse.ArgumentParser()
    ap.add_argument("--detc", required=True)
    ap.add_argument("--runtime", required=True)
    ap.add_argument("script")
    opts = ap.parse_args()
    env = dict(os.environ, PYTHONPATH=opts.runtime, OMP_NUM_THREADS="1",
               PYTHONWARNINGS="ignore")
    failures = []

    def run(*args, expect=0):
        proc = subprocess.run([PY] + list(args), env=env,
                              capture_output=True, text=True)
        if proc.returncode != expect:
            sys.exit("FAIL: %s exited with %d (expected %d)\n%s" % (
                " ".join(args), proc.returncode, expect, proc.stderr))
        return proc

    def check(ok, what, proc=None):
        print("%s: %s" % ("ok" if ok else "FAIL", what))
        if not ok:
            failures.append(what)
            if proc is not None:
                print(proc.stderr)

    with tempfile.TemporaryDirectory() as tmp:
        det = os.path.join(tmp, "train.det.py")
        subprocess.run([opts.detc, "transform", opts.script, "--emit-python",
                        "--overhead=0.5", "--ckpt-cost=0.0001", "-o", det],
                       check=True, capture_output=True)
        ckpt = os.path.join(tmp, "c.pt")
        run(det, "--epochs", "2", "--detc-checkpoint", ckpt)
        reference = run(det, "--epochs", "4", "--detc-checkpoint",
                        os.path.join(tmp, "ref.pt")).stdout

        longer = run(det, "--epochs", "4", "--detc-resume", ckpt)
        check(longer.stdout == reference and "following the new bounds" in
              longer.stderr, "--epochs 2 checkpoint restarted with --epochs "
              "4 equals the uninterrupted 4-epoch run", longer)

        shorter = run(det, "--epochs", "1", "--detc-resume", ckpt, expect=3)
        check("no longer reaches" in shorter.stderr and
              "--epochs 1 (checkpointed run: 2)" in shorter.stderr and
              "Traceback" not in shorter.stderr,
              "--epochs 1 from an epoch-2 checkpoint: exit 3 naming the flag",
              shorter)

        wider = run(det, "--epochs", "2", "--width", "32", "--detc-resume",
                    ckpt, expect=2)
        check("does not match the checkpoint" in wider.stderr and
              "Traceback" not in wider.stderr,
              "another --width: exit 2, no traceback", wider)

        lost = run(det, "--detc-profile",
                   os.path.join(tmp, "missing", "p.json"), expect=2)
        check("does not exist" in lost.stderr and "final" not in lost.stdout,
              "--detc-profile into a missing directory: exit 2 at start",
              lost)
    if failures:
        sys.exit("FAIL: %d checks" % len(failures))


if __name__ == "__main__":
    main()
