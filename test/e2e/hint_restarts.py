#!/usr/bin/env python3
"""Restart from every checkpoint at the chosen hint (SPEC §6, issue 7).

Transforms SCRIPT with `detc transform --emit-python FLAGS` (FLAGS holds
--overhead etc.), runs it once uninterrupted, keeping a copy of every
checkpoint it commits at the hint, then restarts from each copy
(--detc-resume) and requires the restarted run's last line of output (the
script prints its final state exactly) to equal the uninterrupted run's.
With --resume-args, the restarts run with other script arguments (e.g.
another num_workers): the result must not change. With --replay-flag F
(the script's option naming where it writes its own checkpoints), each
restarted run writes them to a fresh path, and resuming from the last one
it wrote (replay, docs/replay.md) must end the same too: user checkpoints
written after a restart number their runs as the first run did.

Also checks the bad inputs: a torn tensor file, an edited sidecar, a
checkpoint of another script, a missing checkpoint — each refused with an
error naming the file and a nonzero exit; and --detc-restart without a
checkpoint, which starts afresh.

usage: hint_restarts.py --detc BIN --runtime DIR --flags FLAGS
                        [--resume-args ARGS] [--replay-flag F] [--max N]
                        SCRIPT [-- ARGS...]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

import zygote_client

# The Python that runs the scripts: Debian's (torch 1.13), or a venv's
# (torch 2.x, test/platform/torch2.py).
PY = os.environ.get("DETC_E2E_PYTHON", "/usr/bin/python3")
HERE = os.path.dirname(os.path.abspath(__file__))
INJECT = os.path.join(HERE, "fault_inject.py")


class Runner:
    def __init__(self, runtime):
        self.env = dict(os.environ, PYTHONPATH=runtime, OMP_NUM_THREADS="1",
                        PYTHONWARNINGS="ignore")
        for name in ("DETC_RESUME", "DETC_CHECKPOINT"):
            self.env.pop(name, None)

    def run(self, cmd, expect=0):
        # `PY [INJECT] SCRIPT ARGS`: run by a child of a zygote, which
        # imported torch once (fault_inject.py with no flags runs SCRIPT).
        assert cmd[0] == PY
        argv = cmd[2:] if cmd[1] == INJECT else cmd[1:]
        proc = zygote_client.run(argv, self.env, os.getcwd())
        if expect is not None and proc.returncode != expect:
            sys.exit("FAIL: %s exited with %d (expected %d)\n%s" % (
                " ".join(cmd), proc.returncode, expect, proc.stderr))
        return proc


def last_line(text):
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1] if lines else ""


def expect_refused(runner, script, checkpoint, args, what, tmp):
    proc = runner.run([PY, script, "--detc-resume", checkpoint,
                       "--detc-checkpoint", os.path.join(tmp, "x.pt")] + args,
                      expect=None)
    if proc.returncode == 0 or "error:" not in proc.stderr or \
            "Traceback" in proc.stderr:
        sys.exit("FAIL: %s: expected a refusal with an error, got exit %d\n%s"
                 % (what, proc.returncode, proc.stderr))
    print("refused (%s): %s" % (what, last_line(proc.stderr)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--detc", required=True)
    parser.add_argument("--runtime", required=True)
    parser.add_argument("--flags", required=True)
    parser.add_argument("--resume-args", default="")
    parser.add_argument("--max", type=int, default=12)
    parser.add_argument("--replay-flag")
    parser.add_argument("script")
    parser.add_argument("extra", nargs="*")
    args = parser.parse_args()
    runner = Runner(args.runtime)
    try:
        restarts(args, runner)
    finally:
        zygote_client.stop_all()


def restarts(args, runner):
    with tempfile.TemporaryDirectory(prefix="detc-hint-") as tmp:
        script = os.path.join(tmp, "train.det.py")
        subprocess.run([args.detc, "transform", args.script, "--emit-python",
                        "-o", script] + args.flags.split(), check=True)
        snaps = os.path.join(tmp, "snapshots")
        os.mkdir(snaps)
        hint = os.path.join(tmp, "hint.pt")
        ref = runner.run([PY, INJECT, "--snapshot", snaps, script,
                          "--detc-checkpoint", hint] + args.extra)
        reference = last_line(ref.stdout)
        # The hint's checkpoints (not the script's own, also committed).
        taken = sorted(d for d in os.listdir(snaps) if os.path.exists(
            os.path.join(snaps, d, "hint.pt")))
        if len(taken) < 3:
            sys.exit("FAIL: only %d checkpoints at the hint; the test needs "
                     "more" % len(taken))
        # Every checkpoint when there are few; else the first, the last and
        # evenly spaced ones between.
        pick = taken if len(taken) <= args.max else [
            taken[round(i * (len(taken) - 1) / (args.max - 1))]
            for i in range(args.max)]
        resume_args = args.resume_args.split() or args.extra
        for snap in pick:
            checkpoint = os.path.join(snaps, snap, "hint.pt")
            with open(checkpoint + ".detc.json", "rb") as f:
                arrival = json.loads(f.readline())["instance"]
            user = os.path.join(tmp, "user-%d.pt" % arrival)
            own = [args.replay_flag, user] if args.replay_flag else []
            proc = runner.run([PY, script, "--detc-resume", checkpoint,
                               "--detc-checkpoint",
                               os.path.join(tmp, "again.pt")] + resume_args +
                              own)
            got = last_line(proc.stdout)
            if "resumed from" not in proc.stderr:
                sys.exit("FAIL: the run from %s did not resume\n%s" %
                         (checkpoint, proc.stderr))
            if got != reference:
                sys.exit("FAIL: restart from arrival %d: %r, uninterrupted "
                         "%r" % (arrival, got, reference))
            note = ""
            if args.replay_flag and os.path.exists(user):
                proc = runner.run([PY, script, "--detc-resume", user,
                                   "--detc-checkpoint",
                                   os.path.join(tmp, "again.pt"),
                                   args.replay_flag, user + ".2"] +
                                  resume_args)
                if last_line(proc.stdout) != reference:
                    sys.exit("FAIL: resuming from the user checkpoint the "
                             "run restarted at arrival %d wrote: %r" %
                             (arrival, last_line(proc.stdout)))
                with open(user + ".detc.json", "rb") as f:
                    note = "; then from its own checkpoint (run %d): " \
                        "identical" % json.loads(f.readline())["instance"]
            print("restart from arrival %3d: identical%s" % (arrival, note))

        # Bad inputs, each on a copy of a middle checkpoint.
        middle = os.path.join(snaps, taken[len(taken) // 2])
        bad = os.path.join(tmp, "bad")

        def fresh_copy():
            shutil.rmtree(bad, ignore_errors=True)
            shutil.copytree(middle, bad)
            return os.path.join(bad, "hint.pt")

        path = fresh_copy()
        with open(path, "r+b") as f:
            f.truncate(os.path.getsize(path) // 2)
        expect_refused(runner, script, path, resume_args, "torn tensor file",
                       tmp)
        path = fresh_copy()
        with open(path + ".detc.json", "rb") as f:
            body = json.loads(f.readline())
        body["instance"] += 1
        with open(path + ".detc.json", "w") as f:
            json.dump(body, f)
        expect_refused(runner, script, path, resume_args, "edited sidecar",
                       tmp)
        path = fresh_copy()
        other = os.path.join(tmp, "other.det.py")
        with open(script) as f, open(other, "w") as g:
            g.write(f.read().replace('script_sha256="', 'script_sha256="0'))
        expect_refused(runner, other, path, resume_args,
                       "checkpoint of another script", tmp)
        expect_refused(runner, script, os.path.join(tmp, "missing.pt"),
                       resume_args, "missing checkpoint", tmp)
        proc = runner.run([PY, script, "--detc-restart", "--detc-checkpoint",
                           os.path.join(tmp, "none-yet.pt")] + args.extra)
        if last_line(proc.stdout) != reference or "resumed" in proc.stderr:
            sys.exit("FAIL: --detc-restart without a checkpoint did not run "
                     "afresh to the same result")
        print("--detc-restart without a checkpoint: ran afresh, identical")
        print("PASS: %d restarts of %d checkpoints identical; bad inputs "
              "refused" % (len(pick), len(taken)))


if __name__ == "__main__":
    main()
