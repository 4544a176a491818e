#!/usr/bin/env python3
"""Just-in-time checkpointing in data-parallel training (issue 19,
docs/jit.md): two gloo ranks of EXAMPLE, transformed with
`detc transform --jit-checkpoint`, launched as torchrun would (MASTER_ADDR,
MASTER_PORT, RANK, WORLD_SIZE). Per trial one failure at a random
minibatch, of one of these kinds:

  forward    an exception in one rank's forward (the other rank's
             all-reduce then fails: both write the same minibatch's start)
  allreduce  the gradient all-reduce raises on one rank (its comm hook)
  step       one rank's optimizer step raises after updating the
             parameters: that rank writes nothing; the healthy rank
             finishes its step, fails at the next all-reduce and writes the
             next minibatch's start, which both ranks restart from
  hang       one rank's forward never returns: both watchdogs fire after
             DETC_JIT_HANG_FLOOR = 2 s (exit 124), or the healthy rank's
             all-reduce fails first when the hung rank's exit closes the
             connection (exit 1, its checkpoint written)
  stall      the same hang with the watchdogs off (floor 600 s): the
             process group's own timeout (DETC_JIT_COLLECTIVE_TIMEOUT = 3 s)
             makes the healthy rank's all-reduce raise; the harness then
             kills the hung rank, as a cluster manager would
  kill       SIGKILL of one rank after a random number of minibatches
  term       SIGTERM of both ranks (preemption): each writes at its next
             minibatch boundary (exit 143)

Every restart (`--detc-restart` on both ranks) redoes at most one minibatch
(counted from the runs' own logs) and ends bit-identical to the
uninterrupted run; hangs are reported with the time from the hang to the
checkpoint's completion marker. Bad inputs: a missing or partial (no
completion marker) rank checkpoint is skipped and named, and that rank
restarts from its replica's; checkpoints of another script or of a job with
another number of ranks are refused by every rank (exit 2, naming the
files) and left as they were.

usage: jit_ddp.py --detc BIN --runtime DIR [--trials N] EXAMPLE
"""
import argparse
import glob
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import torch

# The Python that runs the scripts: Debian's (torch 1.13), or a venv's
# (torch 2.x, test/platform/torch2.py).
PY = os.environ.get("DETC_E2E_PYTHON", "/usr/bin/python3")
WORLD = 2
KINDS = ("forward", "allreduce", "step", "hang", "stall", "kill", "term")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def done_lines(path):
    try:
        with open(path) as f:
            return len(re.findall(r"^done ", f.read(), re.M))
    except FileNotFoundError:
        return 0


class Job:
    """The ranks of one launch, their output in files in `tmp`."""

    def __init__(self, script, tmp, runtime, flags=(), env=None,
                 world=WORLD):
        port = str(free_port())
        self.tmp, self.procs, self.outs, self.errs = tmp, [], [], []
        for rank in range(world):
            renv = dict(os.environ, PYTHONPATH=runtime, OMP_NUM_THREADS="1",
                        PYTHONWARNINGS="ignore", MASTER_ADDR="127.0.0.1",
                        MASTER_PORT=port, RANK=str(rank),
                        WORLD_SIZE=str(world), LOCAL_RANK=str(rank),
                        DETC_JIT_HANG_FLOOR="2")
            renv.pop("DETC_TEST_FAIL", None)
            renv.update(env or {})
            out = os.path.join(tmp, "rank%d.out" % rank)
            err = os.path.join(tmp, "rank%d.err" % rank)
            with open(out, "w") as o, open(err, "w") as e:
                self.procs.append(subprocess.Popen(
                    [PY, script, "--out", os.path.join(tmp, "out.pt")] +
                    list(flags), cwd=tmp, env=renv, stdout=o, stderr=e))
            self.outs.append(out)
            self.errs.append(err)

    def signal_after(self, rank, count, sig, ranks):
        """Sends `sig` to `ranks` once `rank` has logged `count` steps."""
        deadline = time.monotonic() + 120
        while done_lines(self.outs[rank]) < count:
            if self.procs[rank].poll() is not None or \
                    time.monotonic() > deadline:
                return False
            time.sleep(0.005)
        for r in ranks:
            self.procs[r].send_signal(sig)
        return True

    def wait(self, kill_hung_after=None):
        """[(exit status, stderr, done lines)] per rank. With
        `kill_hung_after`, once that rank has exited the others are
        killed (a hung rank, as a cluster manager would)."""
        if kill_hung_after is not None:
            self.procs[kill_hung_after].wait(timeout=300)
            for p in self.procs:
                if p.poll() is None:
                    p.kill()
        results = []
        for p, out, err in zip(self.procs, self.outs, self.errs):
            p.wait(timeout=300)
            with open(err) as f:
                results.append((p.returncode, f.read(), done_lines(out)))
        return results


def launch(script, tmp, runtime, flags=(), env=None, world=WORLD):
    return Job(script, tmp, runtime, flags, env, world).wait()


def same(a, b):
    return all(torch.equal(a["model"][k], b["model"][k]) for k in a["model"])


def ckpt(tmp, rank):
    return os.path.join(tmp, "train.detc-hint.rank%d.pt" % rank)


def files_of(tmp):
    return {p: open(p, "rb").read()
            for p in glob.glob(os.path.join(tmp, "train.detc-hint.*"))}


def hang_detection(tmp, rank, run):
    """Seconds from the hang's start to the first completion marker."""
    with open(os.path.join(tmp, "rank%d.out" % rank)) as f:
        started = float(re.search(r"hanging at ([0-9.]+)", f.read()).group(1))
    markers = [os.path.getmtime(p) for p in glob.glob(
        os.path.join(tmp, "*.detc-done"))]
    return min(markers) - started if markers else float("nan")


def trial_failure(script, tmp, runtime, kind, at, rank, total):
    """Runs the job with one failure; returns (results, note) or raises
    AssertionError with what went wrong."""
    other = 1 - rank
    if kind in ("forward", "allreduce", "step", "hang"):
        runs = launch(script, tmp, runtime,
                      env={"DETC_TEST_FAIL": "%s:%d:%d" % (kind, at, rank)})
    elif kind == "stall":
        job = Job(script, tmp, runtime,
                  env={"DETC_TEST_FAIL": "hang:%d:%d" % (at, rank),
                       "DETC_JIT_HANG_FLOOR": "600",
                       "DETC_JIT_COLLECTIVE_TIMEOUT": "3"})
        runs = job.wait(kill_hung_after=other)
    else:
        sig = signal.SIGKILL if kind == "kill" else signal.SIGTERM
        # The ranks' logs lag their runs under load (a fresh clone's CI
        # sent the kill "after 20 of 24" to a rank already past its last
        # minibatch: the other rank finished the loop and failed only in
        # the final barrier, with nothing to checkpoint). A signal that
        # landed after every minibatch tested nothing: again, earlier. A
        # runtime that mishandles it fails on every attempt.
        for attempt in range(3):
            for leftover in glob.glob(os.path.join(tmp, "*")):
                if os.path.isfile(leftover):
                    os.unlink(leftover)
            job = Job(script, tmp, runtime)
            if not job.signal_after(rank, at, sig, [rank] if kind == "kill"
                                    else range(WORLD)):
                job.wait()
                raise AssertionError("the run ended before the signal")
            runs = job.wait()
            if runs[other][2] < total:
                break
            at = max(2, at - 8)
    exits = [c for c, _, _ in runs]
    # -6: gloo's teardown may abort a process whose peer is gone ("terminate
    # called without an active exception"), after the checkpoint.
    failed = {1, -6}
    expected = {
        "forward": [failed, failed | {124}],
        "allreduce": [failed, failed | {124}],
        "step": [failed, failed | {124}], "hang": [{124}, failed | {124}],
        "stall": [{-9}, failed], "kill": [{-9}, failed | {124}],
        "term": [{143} | failed, {143} | failed]}[kind]
    if exits[rank] not in expected[0] or exits[other] not in expected[1]:
        raise AssertionError("exits %s" % exits)
    written = [os.path.exists(ckpt(tmp, r)) for r in range(WORLD)]
    # A rank whose step failed, or that was killed, writes nothing.
    if kind in ("step", "kill", "stall"):
        if written[rank] or not written[other]:
            raise AssertionError("checkpoints %s" % written)
    elif not all(written):
        raise AssertionError("checkpoints %s" % written)
    note = ""
    if kind in ("hang", "stall"):
        note = ", hang to checkpoint %.2f s" % hang_detection(tmp, rank, runs)
    return runs, "exits %s, checkpoints %s%s" % (exits, written, note)


def bad_inputs(script, work, runtime, reference, problems):
    """Missing, partial, foreign and other-world-size rank checkpoints."""
    def failed_job():
        tmp = tempfile.mkdtemp(dir=work)
        launch(script, tmp, runtime, env={"DETC_TEST_FAIL": "forward:5:0"})
        return tmp

    # A missing or a partial rank checkpoint: skipped and named; that rank
    # takes its replica's, and the restart is still exact.
    for what in ("missing", "partial"):
        tmp = failed_job()
        if what == "missing":
            os.unlink(ckpt(tmp, 1))
        else:
            os.unlink(ckpt(tmp, 1) + ".detc-done")
        runs = launch(script, tmp, runtime, ["--detc-restart"])
        named = what == "missing" or (
            "skips %s: error: no completion marker" % os.path.basename(
                ckpt(tmp, 1)) in runs[1][1])
        if [c for c, _, _ in runs] != [0, 0] or not named or \
                "restarts from rank 0's checkpoint" not in runs[1][1] or \
                not same(torch.load(os.path.join(tmp, "out.pt")), reference):
            problems.append("a %s rank checkpoint: %s\n%s" % (
                what, [c for c, _, _ in runs], runs[1][1]))
        else:
            print("a %s rank checkpoint: rank 1 restarts from rank 0's -> "
                  "identical" % what)
    # Checkpoints of another script, or of a job of 2 ranks restarted with
    # 3, are refused by every rank and left as they were.
    tmp = failed_job()
    before = files_of(tmp)
    edited = os.path.join(tmp, "edited.py")
    with open(script) as f, open(edited, "w") as g:
        g.write(f.read() + "\n# edited\n")
    for what, runs in (
            ("another script", launch(edited, tmp, runtime,
                                      ["--detc-restart", "--detc-checkpoint",
                                       "train.detc-hint.pt"])),
            ("another world size", launch(script, tmp, runtime,
                                          ["--detc-restart"], world=3))):
        expect = ("written by another script" if what == "another script"
                  else "written by a job of 2 ranks; this job has 3")
        if any(c != 2 for c, _, _ in runs) or any(
                "%s: error: %s" % (os.path.basename(ckpt(tmp, r)), expect)
                not in e for r in range(WORLD)
                for _, e, _ in runs) or files_of(tmp) != before:
            problems.append("%s not refused by every rank: %s\n%s" % (
                what, [c for c, _, _ in runs], runs[0][1]))
        else:
            print("checkpoints of %s: every rank refuses (exit 2), files "
                  "untouched" % what)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--detc", required=True)
    parser.add_argument("--runtime", required=True)
    parser.add_argument("--trials", type=int, default=len(KINDS))
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
            kind = KINDS[trial % len(KINDS)]
            at, rank = rng.randint(2, total - 2), rng.randrange(WORLD)
            tmp = tempfile.mkdtemp(dir=work)
            try:
                first, note = trial_failure(script, tmp, args.runtime, kind,
                                            at, rank, total)
            except AssertionError as e:
                errs = "".join(open(os.path.join(tmp, "rank%d.err" % r)).read()
                               for r in range(WORLD))
                problems.append("trial %d %s at %d on rank %d: %s\n%s" % (
                    trial, kind, at, rank, e, errs))
                continue
            second = launch(script, tmp, args.runtime, ["--detc-restart"])
            if any(c for c, _, _ in second):
                problems.append("trial %d %s: the restart failed\n%s" % (
                    trial, kind, second[0][1] + second[1][1]))
                continue
            redone = max(f[2] + s[2] - total for f, s in zip(first, second))
            identical = same(torch.load(os.path.join(tmp, "out.pt")),
                             reference)
            if redone > 1 or not identical:
                problems.append("trial %d %s: redone %d, identical %s" % (
                    trial, kind, redone, identical))
                continue
            adopted = [r for r in range(WORLD)
                       if "restarts from rank" in second[r][1]]
            print("trial %2d: %-9s at minibatch %2d on rank %d: %s; restart "
                  "redid %d%s -> identical" % (
                      trial, kind, at, rank, note, max(redone, 0),
                      ", rank %s took its replica's" % adopted
                      if adopted else ""))
            shutil.rmtree(tmp)
        bad_inputs(script, work, args.runtime, reference, problems)
    for p in problems:
        print("FAIL:", p)
    if problems:
        sys.exit("FAIL: %d problems" % len(problems))
    print("PASS: %d failures in a 2-rank gloo job, restarts bit-identical" %
          args.trials)


if __name__ == "__main__":
    main()
