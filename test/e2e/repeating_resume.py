#!/usr/bin/env python3
"""A resume detc cannot make exact is refused, never continued: a loader
that keeps one iterator for all epochs (a DataLoader subclass whose batch
sampler repeats forever, yolov5's InfiniteDataLoader) over the script's
own sampler is keyed, but detc cannot start that sampler at the
checkpoint's batch (over detc's keyed sampler it can: the kill/resume
tests). Transforms EXAMPLE, runs it with `--sampler reversed` and
checkpoints inside the loop, resumes from the last one: the resume must
exit 3 naming the loader's class and why.

usage: repeating_resume.py --detc BIN --runtime DIR EXAMPLE
"""
import argparse
import os
import subprocess
import sys
import tempfile

PY = os.environ.get("DETC_E2E_PYTHON", "/usr/bin/python3")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--detc", required=True)
    parser.add_argument("--runtime", required=True)
    parser.add_argument("example")
    args = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=args.runtime, DETC_QUIET="1",
               PYTHONWARNINGS="ignore")
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "t.py")
        subprocess.run([args.detc, "transform", "--emit-python",
                        args.example, "-o", script], check=True,
                       capture_output=True)
        ckpt = os.path.join(tmp, "ck.pt")
        run = [PY, script, "--workers", "2", "--epochs", "2",
               "--sampler", "reversed", "--ckpt-every", "4", "--out", ckpt]
        first = subprocess.run(run, env=env, capture_output=True, text=True)
        if first.returncode != 0:
            sys.exit("FAIL: the transformed script exited with %d\n%s" % (
                first.returncode, first.stderr))
        resumed = subprocess.run(run + ["--detc-resume", ckpt], env=env,
                                 capture_output=True, text=True)
        if resumed.returncode != 3 or \
                "InfiniteDataLoader, which keeps one iterator" not in \
                resumed.stderr or "its sampler is the script's own" not in \
                resumed.stderr:
            sys.exit("FAIL: the resume exited with %d, expected a refusal "
                     "(exit 3) naming InfiniteDataLoader\n%s" % (
                         resumed.returncode, resumed.stderr))
        print(resumed.stderr.strip().splitlines()[-1])
        print("PASS: the resume over a repeating loader is refused (exit 3)")


if __name__ == "__main__":
    main()
