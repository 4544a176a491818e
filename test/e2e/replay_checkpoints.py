#!/usr/bin/env python3
"""Replay test on real PyTorch (SPEC §5, issue 6).

Transforms EXAMPLE, runs it uninterrupted while keeping a copy of every
checkpoint it commits, then:
  * resumes from each kept checkpoint with --detc-resume and runs to the
    end: the final checkpoint must equal the uninterrupted run's, bit for
    bit. The checkpoints must include the start of an epoch (one batch in),
    the middle of one, its last step, and an end-of-epoch save;
  * replays for audit with --detc-replay A --detc-until E:S from an early
    checkpoint A to the step of a later checkpoint B: the run must stop
    there (exit 0) having written a checkpoint equal to B;
  * with --foreign OTHER: OTHER's transformed script refuses to resume from
    EXAMPLE's checkpoint (exit 2, "written by another script") and leaves
    the files byte-identical.

usage: replay_checkpoints.py --detc BIN --runtime DIR [--foreign OTHER]
                             EXAMPLE [-- ARGS...]
The script must take --out PATH.
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile

from kill_resume import load, same
from zygote_client import INJECT, PY


def position(snapshot):
    """(epoch, step, site) of a kept checkpoint, from its sidecar."""
    side = [f for f in os.listdir(snapshot) if f.endswith(".detc.json")][0]
    with open(os.path.join(snapshot, side), "rb") as f:
        body = json.loads(f.readline())
    (loader,) = [p for p in body["loaders"].values() if p is not None]
    return loader["epoch"], loader["step"], body["site"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--detc", required=True)
    parser.add_argument("--runtime", required=True)
    parser.add_argument("--foreign")
    parser.add_argument("example")
    parser.add_argument("extra", nargs="*")
    args = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=args.runtime, OMP_NUM_THREADS="1",
               PYTHONWARNINGS="ignore")

    def run(cmd):
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit("FAIL: %s exited with %d\n%s" % (
                " ".join(cmd), proc.returncode, proc.stderr))
        return proc.stderr

    with tempfile.TemporaryDirectory(prefix="detc-replay-") as tmp:
        script = os.path.join(tmp, "train.det.py")
        subprocess.run([args.detc, "transform", args.example, "--emit-python",
                        "-o", script], check=True)
        snaps = os.path.join(tmp, "snapshots")
        ref = os.path.join(tmp, "ref", "model.pt")
        os.makedirs(os.path.dirname(ref))
        run([PY, INJECT, "--snapshot", snaps, script, "--out", ref] +
            args.extra)
        reference = load(ref)
        kept = sorted(os.path.join(snaps, d) for d in os.listdir(snaps))
        where = {s: position(s) for s in kept}
        last = {}
        for epoch, step, _ in where.values():
            last[epoch] = max(last.get(epoch, 0), step)
        end_sites = {site for s, (e, st, site) in where.items()
                     if all(w[2] != site or w[1] == last[w[0]]
                            for w in where.values())}

        def kind(s):
            epoch, step, site = where[s]
            if site in end_sites:
                return "end-of-epoch save"
            if step == 1:
                return "start of epoch"
            return "last step of epoch" if step == last[epoch] else "mid-epoch"

        def resume(s):
            into = os.path.join(tmp, "resume-" + os.path.basename(s))
            shutil.copytree(s, into)
            out = os.path.join(into, os.path.basename(ref))
            err = run([PY, script, "--out", out, "--detc-resume", out] +
                      args.extra)
            return "resumed from" in err and same(reference, load(out))

        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            results = list(pool.map(resume, kept))
        for s, ok in zip(kept, results):
            epoch, step, site = where[s]
            print("checkpoint %s (site %d, epoch %d step %d, %s): resume to "
                  "the end %s" % (os.path.basename(s), site, epoch, step,
                                  kind(s), "identical" if ok else "DIFFERENT"))
        missing = {"start of epoch", "mid-epoch", "last step of epoch",
                   "end-of-epoch save"} - {kind(s) for s in kept}
        if missing:
            sys.exit("FAIL: no checkpoint at: " + ", ".join(sorted(missing)))
        if not all(results):
            sys.exit("FAIL: %d resumes differ" % results.count(False))

        # Audit replay: from the second kept checkpoint to a mid-epoch one
        # at least an epoch later.
        start = kept[1]
        later = [s for s in kept if kind(s) == "mid-epoch" and
                 where[s][0] > where[start][0]]
        target = later[0]
        epoch, step, _ = where[target]
        into = os.path.join(tmp, "replay")
        shutil.copytree(start, into)
        out = os.path.join(into, os.path.basename(ref))
        err = run([PY, script, "--out", out, "--detc-replay", out,
                   "--detc-until", "%d:%d" % (epoch, step - 1)] + args.extra)
        expected = load(os.path.join(target, os.path.basename(ref)))
        stopped = "replay reached epoch %d step %d" % (epoch, step - 1) in err
        ok = stopped and same(expected, load(out))
        print("replay from checkpoint %s --detc-until %d:%d: %s, checkpoint %s" % (
            os.path.basename(start), epoch, step - 1,
            "stopped there" if stopped else "DID NOT STOP",
            "equal to the uninterrupted run's" if ok else "DIFFERENT"))
        if not ok:
            sys.exit("FAIL: audit replay\n" + err)
        if args.foreign:
            foreign(args, env, tmp, kept[-1])
        print("PASS: %d checkpoints resumed, audit replay exact" % len(kept))


def foreign(args, env, tmp, snapshot):
    other = os.path.join(tmp, "other.det.py")
    subprocess.run([args.detc, "transform", args.foreign, "--emit-python",
                    "-o", other], check=True)
    before = {f: open(os.path.join(snapshot, f), "rb").read()
              for f in os.listdir(snapshot)}
    ckpt = [f for f in before if not f.endswith(".detc.json")][0]
    path = os.path.join(snapshot, ckpt)
    proc = subprocess.run([PY, other, "--out", path, "--detc-resume", path],
                          env=env, capture_output=True, text=True)
    after = {f: open(os.path.join(snapshot, f), "rb").read()
             for f in os.listdir(snapshot)}
    ok = (proc.returncode == 2 and "written by another script" in proc.stderr
          and before == after)
    print("resume %s from %s's checkpoint: exit %d, %s" % (
        os.path.basename(args.foreign), os.path.basename(args.example),
        proc.returncode, proc.stderr.strip().splitlines()[-1]))
    if not ok:
        sys.exit("FAIL: a foreign checkpoint was not refused cleanly")


if __name__ == "__main__":
    main()
