#!/usr/bin/env python3
"""A training loop in a module detc does not edit (Inputs/unedited_loop:
`train_one_epoch` in `engine.py`, which is not beside the script when it
is transformed, only when it runs; a module detc reads is edited instead:
e2e-kill-resume-module-loop): the transformed script runs
and writes its checkpoints, and resuming from one stops with exit 3,
naming the module's loop, instead of running its forward on
fast-forward's placeholder batches (a TypeError, exit 1, with the
session-59 first runtime). docs/replay.md, "Loops in imported modules".

usage: unedited_loop.py --detc BIN --runtime DIR"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = os.path.join(HERE, "Inputs", "unedited_loop")
PY = os.environ.get("DETC_E2E_PYTHON", sys.executable)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--detc", required=True)
    parser.add_argument("--runtime", required=True)
    args = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=os.path.abspath(args.runtime),
               DETC_QUIET="1",
               OMP_NUM_THREADS="1", PYTHONWARNINGS="ignore")
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "source")
        os.mkdir(source)
        shutil.copy(os.path.join(INPUTS, "train.py"), source)
        script = os.path.join(tmp, "train.det.py")
        subprocess.run([args.detc, "transform",
                        os.path.join(source, "train.py"), "--emit-python",
                        "-o", script], check=True, capture_output=True)
        shutil.copy(os.path.join(INPUTS, "engine.py"), tmp)
        out = os.path.join(tmp, "model.pt")
        run = subprocess.run([PY, script, "--out", out], env=env, cwd=tmp,
                             capture_output=True, text=True)
        if run.returncode != 0 or not os.path.exists(out):
            print("FAIL: the transformed script did not run:\n" + run.stderr)
            return 1
        resume = subprocess.run([PY, script, "--out", out, "--detc-resume",
                                 out], env=env, cwd=tmp, capture_output=True,
                                text=True)
        err = resume.stderr
        expected = ("engine.py:9: error: fast-forward reached a loop over a "
                    "keyed loader in 'train_one_epoch', code detc did not "
                    "edit")
        if resume.returncode != 3 or expected not in err or \
                "Traceback" in err:
            print("FAIL: the resume exited %d; expected exit 3 with\n  %s\n"
                  "stderr:\n%s" % (resume.returncode, expected, err))
            return 1
    print("PASS: the resume stops with exit 3 at the module's loop")
    return 0


if __name__ == "__main__":
    sys.exit(main())
