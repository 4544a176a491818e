#!/usr/bin/env python3
"""Just-in-time checkpointing in data-parallel training (issue 19,
docs/jit.md): two gloo ranks of EXAMPLE, transformed with
`detc transform --jit-checkpoint`, launched as torchrun would (MASTER_ADDR,
MASTER_PORT, RANK, WORLD_SIZE). Per trial one failure at a random
minibatch: an exception in one rank's forward (the other rank's all-reduce
then fails: it writes its checkpoint too), or one rank's forward hanging
(its watchdog fires after DETC_JIT_HANG_FLOOR = 2 s, exit 124; the other
rank's watchdog fires too, exit 124 — or, when the hung rank's exit closes
the connection first, its all-reduce fails: exit 1, having written its
checkpoint of the same minibatch). Every rank
writes its own checkpoint (NAME.rank<R>.pt); `--detc-restart` on both
redoes at most one minibatch and ends bit-identical to the uninterrupted
run. A job whose ranks' checkpoints disagree (one removed) is refused by
every rank (exit 2), and nothing is overwritten.

usage: jit_ddp.py --detc BIN --runtime DIR [--trials N] EXAMPLE
"""
import argparse
import os
import random
import re
import socket
import subprocess
import sys
import tempfile

import torch

PY = "/usr/bin/python3"
WORLD = 2


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def launch(script, tmp, runtime, flags=(), fail=None):
    """Runs every rank; returns [(exit status, stderr, done lines)]."""
    port = str(free_port())
    procs = []
    for rank in range(WORLD):
        env = dict(os.environ, PYTHONPATH=runtime, OMP_NUM_THREADS="1",
                   PYTHONWARNINGS="ignore", MASTER_ADDR="127.0.0.1",
                   MASTER_PORT=port, RANK=str(rank), WORLD_SIZE=str(WORLD),
                   LOCAL_RANK=str(rank), DETC_JIT_HANG_FLOOR="2")
        env.pop("DETC_TEST_FAIL", None)
        if fail:
            env["DETC_TEST_FAIL"] = fail
        procs.append(subprocess.Popen(
            [PY, script, "--out", os.path.join(tmp, "out.pt")] + list(flags),
            cwd=tmp, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True))
    results = []
    for p in procs:
        out, err = p.communicate(timeout=300)
        results.append((p.returncode, err,
                        len(re.findall(r"^done ", out, re.M))))
    return results


def same(a, b):
    return all(torch.equal(a["model"][k], b["model"][k]) for k in a["model"])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--detc", required=True)
    parser.add_argument("--runtime", required=True)
    parser.add_argument("--trials", type=int, default=4)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("example")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    problems = []
    with tempfile.TemporaryDirectory() as work:
        script = os.path.join(work, "train.py")
        out = subprocess.run([args.detc, "transform", args.example,
                              "--emit-python", "--jit-checkpoint", "-o",
                              script], capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit("FAIL: detc transform --jit-checkpoint:\n" + out.stderr)
        runs = launch(script, work, args.runtime)
        if any(code for code, _, _ in runs):
            sys.exit("FAIL: the uninterrupted run failed:\n" + runs[0][1] +
                     runs[1][1])
        total = runs[0][2]
        reference = torch.load(os.path.join(work, "out.pt"))
        print("uninterrupted run: %d minibatches per rank" % total)
        for trial in range(args.trials):
            phase = ("forward", "hang")[trial % 2]
            at, rank = rng.randint(2, total - 2), rng.randrange(WORLD)
            with tempfile.TemporaryDirectory() as tmp:
                first = launch(script, tmp, args.runtime,
                               fail="%s:%d:%d" % (phase, at, rank))
                files = [os.path.join(tmp, "train.detc-hint.rank%d.pt" % r)
                         for r in range(WORLD)]
                # A hang: 124 on the hung rank; 124 or 1 on the other.
                exits = [c for c, _, _ in first]
                bad_exit = phase == "hang" and (
                    exits[rank] != 124 or
                    any(c not in (1, 124) for c in exits))
                if not all(os.path.exists(f) for f in files) or bad_exit:
                    problems.append("trial %d %s at %d on rank %d: exits %s, "
                                    "checkpoints %s\n%s" % (
                                        trial, phase, at, rank,
                                        [c for c, _, _ in first],
                                        [os.path.exists(f) for f in files],
                                        first[0][1] + first[1][1]))
                    continue
                second = launch(script, tmp, args.runtime, ["--detc-restart"])
                if any(c for c, _, _ in second):
                    problems.append("trial %d: the restart failed\n%s" % (
                        trial, second[0][1] + second[1][1]))
                    continue
                redone = max(f[2] + s[2] - total
                             for f, s in zip(first, second))
                if redone > 1 or not same(
                        torch.load(os.path.join(tmp, "out.pt")), reference):
                    problems.append("trial %d: redone %d, identical %s" % (
                        trial, redone, same(torch.load(os.path.join(
                            tmp, "out.pt")), reference)))
                    continue
                print("trial %d: %-7s at minibatch %2d on rank %d: both ranks "
                      "wrote a checkpoint (exits %s), restart redid %d -> "
                      "identical" % (trial, phase, at, rank,
                                     [c for c, _, _ in first], redone))
        # A job whose ranks' checkpoints disagree is refused by every rank.
        with tempfile.TemporaryDirectory() as tmp:
            launch(script, tmp, args.runtime, fail="forward:5:0")
            gone = os.path.join(tmp, "train.detc-hint.rank1.pt")
            os.unlink(gone)
            kept = open(os.path.join(tmp, "train.detc-hint.rank0.pt"),
                        "rb").read()
            refused = launch(script, tmp, args.runtime, ["--detc-restart"])
            if [c for c, _, _ in refused] != [2] * WORLD or any(
                    "train.detc-hint.rank" not in e for _, e, _ in refused) \
                    or open(os.path.join(tmp, "train.detc-hint.rank0.pt"),
                            "rb").read() != kept:
                problems.append("a missing rank checkpoint was not refused "
                                "by every rank: %s\n%s" % (
                                    [c for c, _, _ in refused],
                                    refused[0][1] + refused[1][1]))
            else:
                print("a missing rank checkpoint: every rank refuses (exit 2)")
    for p in problems:
        print("FAIL:", p)
    if problems:
        sys.exit("FAIL: %d problems" % len(problems))
    print("PASS: %d failures in a 2-rank gloo job, restarts bit-identical" %
          args.trials)


if __name__ == "__main__":
    main()
