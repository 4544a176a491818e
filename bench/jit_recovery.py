#!/usr/bin/env python3
"""Recovery with just-in-time checkpointing (issue 19, docs/jit.md): how
long from a failure to its checkpoint on disk, from the restart to the
first minibatch, and how much work the restart redoes — against resuming
from the script's own periodic checkpoint (one per epoch) after the same
failure.

usage: PYTHONPATH=build/python /usr/bin/python3 bench/jit_recovery.py
       [--detc BIN] [--trials N] [--epochs E]

On test/e2e/Inputs/jit_train.py (BatchNorm, momentum SGD, 2 workers): an
uninterrupted run gives the setup time (process start to the first
minibatch done) and the minibatch time; each trial fails a fresh run with
an exception in the forward at a random minibatch, then (a) restarts from
the JIT checkpoint with --detc-restart, (b) resumes the same failure from
the last epoch checkpoint with --detc-resume (the periodic alternative).
Prints medians: failure -> checkpoint written (the runtime's own timing),
restart -> first minibatch done, minibatches redone for (a) and (b), and
for (c) a periodic schedule at the optimum c* of the failure model (eq 3)
on the same failure points.
"""
import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SCRIPT = os.path.join(ROOT, "test", "e2e", "Inputs", "jit_train.py")


def run(script, tmp, env, extra, fail=None):
    """(seconds to the first `done` line, total seconds, done lines,
    stderr)."""
    env = dict(env)
    env.pop("DETC_TEST_FAIL", None)
    if fail:
        env["DETC_TEST_FAIL"] = fail
    start = time.perf_counter()
    first = None
    done = 0
    proc = subprocess.Popen(["/usr/bin/python3", "-u", script, "--out",
                             os.path.join(tmp, "out.pt")] + extra, cwd=tmp,
                            env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    for line in proc.stdout:
        if line.startswith("done "):
            done += 1
            if first is None:
                first = time.perf_counter() - start
    err = proc.stderr.read()
    proc.wait()
    return first, time.perf_counter() - start, done, err


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--detc", default=os.path.join(ROOT, "build", "bin",
                                                       "detc"))
    parser.add_argument("--trials", type=int, default=6)
    parser.add_argument("--epochs", type=int, default=4)
    opts = parser.parse_args()
    runtime = os.environ.get("PYTHONPATH") or os.path.join(ROOT, "build",
                                                            "python")
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONWARNINGS="ignore",
               PYTHONPATH=os.pathsep.join(
                   os.path.abspath(p) for p in runtime.split(os.pathsep)))
    rng = random.Random(3)
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "train.py")
        subprocess.run([opts.detc, "transform", SCRIPT, "--emit-python",
                        "--jit-checkpoint", "-o", script], check=True,
                       capture_output=True)
        extra = ["--epochs", str(opts.epochs)]
        setup, total_time, total, err = run(script, tmp, env, extra)
        if setup is None:
            sys.exit("the uninterrupted run did no minibatch:\n" + err)
        per_epoch = total // opts.epochs
        minibatch = (total_time - setup) / max(total - 1, 1)
        written, restart, redone_jit, redone_periodic = [], [], [], []
        failures = []
        for _ in range(opts.trials):
            at = rng.randint(per_epoch + 1, total - 2)
            failures.append(at)
            for f in os.listdir(tmp):
                if f != "train.py":
                    os.unlink(os.path.join(tmp, f))
            _, _, before, err = run(script, tmp, env, extra, "forward:%d" % at)
            m = re.search(r"written to \S+ in ([\d.]+) s", err)
            if not m:
                sys.exit("no JIT checkpoint:\n" + err)
            written.append(float(m.group(1)))
            first, _, after, err = run(script, tmp, env,
                                       extra + ["--detc-restart"])
            restart.append(first)
            redone_jit.append(before + after - total)
            # The periodic alternative: the same failure, resumed from the
            # newest epoch checkpoint (written at the end of each epoch).
            redone_periodic.append(before - (before // per_epoch) *
                                   per_epoch)
        print("jit_train.py, %d epochs x %d minibatches, %d trials" % (
            opts.epochs, per_epoch, opts.trials))
        print("  setup (start to first minibatch done)   %.3f s" % setup)
        print("  minibatch                               %.4f s" % minibatch)
        print("  failure -> JIT checkpoint written       %.4f s (median)" %
              statistics.median(written))
        print("  restart -> first minibatch done         %.3f s (median; "
              "%.2fx the setup)" % (statistics.median(restart),
                                    statistics.median(restart) / setup))
        print("  minibatches redone: JIT %s (median %g); from the epoch "
              "checkpoint %s (median %g)" % (
                  redone_jit, statistics.median(redone_jit), redone_periodic,
                  statistics.median(redone_periodic)))
        # The periodic schedule at the optimum c* = sqrt(N f / (2 o)) (the
        # JIT paper's eq 3, `detc analyze --failure-model`) for this run:
        # N = 1, one failure per run (f = 1 / the run's training time), o =
        # the measured checkpoint write; redone work for the same failure
        # points, and the checkpoints' steady-state time it pays instead.
        o = statistics.median(written)
        training = total_time - setup
        interval = (2 * o * training) ** 0.5  # 1 / c*, seconds
        k = max(1, round(interval / minibatch))
        redone_opt = [(at - 1) % k for at in failures]
        print("  periodic at c*: every %d minibatches (1/c* = %.3f s with o "
              "= %.4f s, f = 1 per %.2f s run): redone %s (median %g, "
              "expected %.1f), steady-state checkpoint time %.3f s per run "
              "(%.1f%%)" % (k, interval, o, training, redone_opt,
                            statistics.median(redone_opt), (k - 1) / 2,
                            o * total / k, 100 * o * total / k / training))


if __name__ == "__main__":
    main()
