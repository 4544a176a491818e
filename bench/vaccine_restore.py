#!/usr/bin/env python3
"""Restore time of in-situ recovery (issue 20, docs/vaccinate.md; target
<= 50 ms, the DAiFU paper: 0.28-3.97 s) against the two restarts a crash
costs without it, on the same script and the same failure.

usage: PYTHONPATH=build/python /usr/bin/python3 bench/vaccine_restore.py
       [--detc BIN] [--trials N] [--epochs E]

On test/e2e/Inputs/jit_train.py (2 loader workers, BatchNorm, dropout,
momentum SGD; an epoch checkpoint at the end of each epoch), each trial
raises an exception in the forward of a random minibatch of the last two
epochs (not the first of an epoch) and measures the time from the failure
to the failed minibatch running again:

  (a) in situ: `detc transform --vaccinate`, a policy retrying the error;
      the runtime's resume_ms (exception caught -> the failed statement
      executing again), and the vaccinated run's total time against its
      uninterrupted run;
  (b) restart from scratch: process start -> the minibatch before the
      failed one done, in an uninterrupted run (everything is redone);
  (c) restart from the last checkpoint: the transformed script resumed
      with --detc-resume from the epoch checkpoint the failed run left,
      process start -> the minibatch before the failed one done.
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SCRIPT = os.path.join(ROOT, "test", "e2e", "Inputs", "jit_train.py")


def run(script, tmp, env, extra, fail=None):
    """{(epoch, step): seconds since start of its done line}, total
    seconds, stderr."""
    env = dict(env)
    env.pop("DETC_TEST_FAIL", None)
    if fail:
        env["DETC_TEST_FAIL"] = fail
    start = time.perf_counter()
    stamps = {}
    proc = subprocess.Popen(["/usr/bin/python3", "-u", script, "--out",
                             os.path.join(tmp, "out.pt")] + extra, cwd=tmp,
                            env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    for line in proc.stdout:
        if line.startswith("done "):
            e, s = line.split()[1].split(":")
            stamps[(int(e), int(s))] = time.perf_counter() - start
    err = proc.stderr.read()
    proc.wait()
    return stamps, time.perf_counter() - start, err, proc.returncode


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--detc", default=os.path.join(ROOT, "build", "bin",
                                                       "detc"))
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--epochs", type=int, default=4)
    opts = parser.parse_args()
    runtime = os.environ.get("PYTHONPATH") or os.path.join(ROOT, "build",
                                                            "python")
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONWARNINGS="ignore",
               DETC_RECOVERY="batch",
               PYTHONPATH=os.pathsep.join(
                   os.path.abspath(p) for p in runtime.split(os.pathsep)))
    rng = random.Random(5)
    with tempfile.TemporaryDirectory() as tmp:
        det = os.path.join(tmp, "det.py")
        vac = os.path.join(tmp, "vac.py")
        for out, flags in ((det, []), (vac, ["--vaccinate"])):
            subprocess.run([opts.detc, "transform", SCRIPT, "--emit-python",
                            "-o", out] + flags, check=True,
                           capture_output=True)
        policy = os.path.join(tmp, "policy.py")
        with open(policy, "w") as f:
            f.write("from detc_runtime.recovery import Rule\n"
                    "RULES = [Rule(RuntimeError, match='injected', "
                    "do='retry')]\n")
        extra = ["--epochs", str(opts.epochs)]
        stamps, _, err, code = run(det, tmp, env, extra)
        if code:
            sys.exit("the uninterrupted run failed:\n" + err)
        _, vac_clean, _, _ = run(vac, tmp, env, extra)
        per_epoch = len(stamps) // opts.epochs
        insitu, insitu_total, scratch, resumed = [], [], [], []
        for _ in range(opts.trials):
            # A minibatch of the last two epochs, not an epoch's first.
            epoch = rng.randint(opts.epochs - 2, opts.epochs - 1)
            step = rng.randint(1, per_epoch - 1)
            at = epoch * per_epoch + step + 1  # the forward's call number
            previous = (epoch, step - 1)
            log = os.path.join(tmp, "recovery.jsonl")
            if os.path.exists(log):
                os.unlink(log)
            _, total, err, code = run(
                vac, tmp, env, extra + ["--detc-recovery=" + policy,
                                        "--detc-recovery-log=" + log],
                "forward:%d" % at)
            if code:
                sys.exit("the vaccinated run did not recover:\n" + err)
            with open(log) as f:
                insitu.append(json.loads(f.readline())["resume_ms"])
            insitu_total.append(total - vac_clean)
            scratch.append(stamps[previous])
            # Without vaccination: the run dies; resume from its epoch
            # checkpoint.
            _, _, err, code = run(det, tmp, env, extra, "forward:%d" % at)
            if code == 0:
                sys.exit("the injected failure did not happen")
            again, _, err, code = run(det, tmp, env, extra + [
                "--detc-resume", os.path.join(tmp, "out.pt")])
            if code or previous not in again:
                sys.exit("the resumed run did not reach %s:\n%s" % (
                    previous, err))
            resumed.append(again[previous])
        print("jit_train.py, %d epochs x %d minibatches, %d trials" % (
            opts.epochs, per_epoch, opts.trials))
        print("  failure -> the failed minibatch running again (median):")
        print("    (a) in situ (--vaccinate)            %8.1f ms  "
              "(min %.1f, max %.1f)" % (statistics.median(insitu),
                                        min(insitu), max(insitu)))
        print("    (b) restart from scratch            %8.1f ms  (%.0fx)" % (
            statistics.median(scratch) * 1e3,
            statistics.median(scratch) * 1e3 / statistics.median(insitu)))
        print("    (c) restart from the last checkpoint %8.1f ms  (%.0fx)" % (
            statistics.median(resumed) * 1e3,
            statistics.median(resumed) * 1e3 / statistics.median(insitu)))
        print("  (a) whole run with the failure vs without: %+.1f ms "
              "(median; run-to-run noise included)" % (
                  statistics.median(insitu_total) * 1e3))


if __name__ == "__main__":
    main()
