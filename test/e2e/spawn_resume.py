#!/usr/bin/env python3
"""Resume of a script that trains in a worker torch.multiprocessing.spawn
starts (pytorch/examples' ImageNet, SimSiam, MoCo: `mp.spawn(main_worker,
...)`), on real PyTorch.

Transforms Inputs/validate_in_full_train.py, runs it with --spawn to the
end, then kills a run right after its first (and, in a second trial, its
second) checkpoint commit and resumes it with --detc-resume: the worker
must resume (it says "resumed from"; a run from scratch would give the
same weights too) and end with a final checkpoint bit-identical to the
uninterrupted run's. A resume whose worker never reaches the checkpoint
(fewer epochs) must fail, not exit 0.

The session-63 first runtime refused every such resume (exit 2: the
worker hashed another file than the parent), and its workers would not
have resumed at all (the resume flag never reached them).

usage: spawn_resume.py --detc BIN --runtime DIR
(DETC_E2E_PYTHON: the interpreter that runs the script)
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

from kill_resume import kill_after_commit, load, same

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "Inputs", "validate_in_full_train.py")
FLAGS = ["--spawn", "--workers", "0"]


def fail(why, proc=None):
    sys.exit("FAIL: %s%s" % (why, "\n" + proc.stderr if proc else ""))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--detc", required=True)
    parser.add_argument("--runtime", required=True)
    args = parser.parse_args()
    python = os.environ.get("DETC_E2E_PYTHON", sys.executable)
    env = dict(os.environ, PYTHONPATH=os.path.abspath(args.runtime),
               OMP_NUM_THREADS="1",
               PYTHONWARNINGS="ignore", DETC_QUIET="1")
    for name in ("DETC_RESUME", "DETC_CHECKPOINT"):
        env.pop(name, None)
    tmp = tempfile.mkdtemp(prefix="detc-spawn-")
    try:
        script = os.path.join(tmp, "train.det.py")
        subprocess.run([args.detc, "transform", SCRIPT, "--emit-python",
                        "-o", script], check=True, capture_output=True)

        def run(*extra, check=True):
            p = subprocess.run([python, script] + FLAGS + list(extra),
                               cwd=tmp, env=env, capture_output=True,
                               text=True, timeout=300)
            if check and p.returncode != 0:
                fail("%s exited with %d" % (" ".join(extra), p.returncode), p)
            return p

        run("--out", "ref.pt")
        ref = load(os.path.join(tmp, "ref.pt"))
        for trial, instance in enumerate((1, 2)):
            out = os.path.join(tmp, "t%d.pt" % trial)
            written = kill_after_commit(
                [python, script] + FLAGS + ["--out", out], out + ".detc.json",
                instance, tmp, env)
            p = run("--out", out, "--detc-resume", out)
            if "resumed from" not in p.stderr:
                fail("trial %d: the worker did not resume" % trial, p)
            if not same(ref, load(out)):
                fail("trial %d: resumed from run %d of the checkpoint: "
                     "final weights differ" % (trial, written))
            print("trial %d: killed after checkpoint run %d, resumed in "
                  "the worker -> identical" % (trial, written))
        # A worker that cannot reach the checkpoint: not a silent exit 0.
        p = run("--out", os.path.join(tmp, "short.pt"), "--epochs", "1",
                "--detc-resume", os.path.join(tmp, "ref.pt"), check=False)
        if p.returncode == 0 or "without reaching" not in p.stderr:
            fail("a resume whose worker never reaches its checkpoint "
                 "exited %d" % p.returncode, p)
        print("PASS: spawned workers resume bit-identically; a worker that "
              "cannot reach its checkpoint fails the run")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
