#!/usr/bin/env python3
"""Invariants carry over between pipelines that other people wrote
(TrainCheck's protocol; docs/traincheck.md, "Descriptors").

Two scripts that name everything differently — Inputs/traincheck_train.py
(`model`, `opt`, a functional nll_loss; an MLP, a 1-d CNN, a SpectralNorm
model, a 2-rank DDP job) and Inputs/transfer_train.py (`network` from a
factory, `optimizer`, a CrossEntropyLoss object `loss_fn`, a DDP job
started with torch.multiprocessing.spawn, and a GAN: `netG`, `netD`, two
Adam optimizers, BCEWithLogitsLoss) — are traced. Invariants are inferred
from one script's correct pipelines only, then:

* the other script's correct pipelines must raise no violation (offline);
* the other script's silent errors — a missing zero_grad, every parameter
  but BatchNorm's frozen, a SpectralNorm model evaluated before training,
  and a DDP forward through `.module` in a job started with mp.spawn —
  must each be caught by `detc check` at its first training step (the
  evaluation before training: at its first forward);
* online (each script transformed with `--check` against the other's
  invariants, no trace file), nothing is reported on its correct
  pipelines (B's classifier and GAN), and each of its errors is reported
  while it trains, by the same relation, at the same step.

usage: traincheck_transfer.py --detc BIN --runtime DIR
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import traincheck
import zygote_client

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = {
    "A": os.path.join(HERE, "Inputs", "traincheck_train.py"),
    "B": os.path.join(HERE, "Inputs", "transfer_train.py"),
}
# Each script's correct pipelines (the last: a 2-rank DDP job).
CORRECT = {
    "A": [["--model", "mlp", "--width", "16", "--sched"],
          ["--model", "conv", "--width", "8", "--optim", "adam",
           "--lr", "0.01"],
          ["--model", "sn", "--width", "8"]],
    "B": [["--kind", "cls"],
          ["--kind", "cls", "--hidden", "24", "--lr", "0.003"],
          ["--kind", "gan", "--lr", "0.002"]],
}
DDP = {"A": ["--model", "mlp", "--width", "16"], "B": ["--kind", "cls"]}
# bug -> (relations that may report it, the step it shows at at the
# latest), and what else the bug needs in each script.
BUGS = {
    "no_zero_grad": (("APISequence",), 0),
    "frozen": (("ParamAttr",), 0),
    "eval_first": (("TrainBeforeEval",), 0),
    "ddp_module": (("Consistent",), 0),
}
BUG_ARGS = {("A", "eval_first"): ["--model", "sn"]}


def traces_of(script, tmp, name, args, runtime, ddp=False):
    if ddp:
        return traincheck.run_ddp(script, tmp, name, args, runtime,
                                  spawn=True)
    return [traincheck.run(script, tmp, name, args, runtime)]


def check(detc, traces, inv):
    r = subprocess.run([detc, "check"] + traces +
                       ["--invariants", inv, "--format", "json"],
                       capture_output=True, text=True)
    if r.returncode not in (0, 1) or not r.stdout:
        sys.exit("detc check failed: %s" % r.stderr)
    return json.loads(r.stdout)["violations"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--detc", required=True)
    ap.add_argument("--runtime", required=True)
    args = ap.parse_args()
    runtime = os.path.abspath(args.runtime)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        traced, correct = {}, {}
        for key, source in SCRIPTS.items():
            traced[key] = os.path.join(tmp, key + ".traced.py")
            subprocess.run([args.detc, "transform", source, "--emit-python",
                            "--trace", "-o", traced[key]], check=True,
                           capture_output=True)
            correct[key] = [traces_of(traced[key], tmp, "%s%d" % (key, i),
                                      a, runtime)
                            for i, a in enumerate(CORRECT[key])]
            correct[key].append(traces_of(traced[key], tmp, key + "-ddp",
                                          DDP[key], runtime, ddp=True))
        invs = {}
        for key in SCRIPTS:
            invs[key] = os.path.join(tmp, key + ".invariants.json")
            r = subprocess.run([args.detc, "infer"] +
                               [t for job in correct[key] for t in job] +
                               ["-o", invs[key]], capture_output=True,
                               text=True)
            if r.returncode:
                sys.exit("detc infer failed: %s" % r.stderr)
            with open(invs[key]) as f:
                n = len(json.load(f)["invariants"])
            print("%s: %d invariants from %d correct pipelines of %s" % (
                key, n, len(correct[key]), os.path.basename(SCRIPTS[key])))
        for key, other in (("A", "B"), ("B", "A")):
            # The other script's correct pipelines: no violation.
            for job in correct[key]:
                found = check(args.detc, job, invs[other])
                name = os.path.basename(os.path.dirname(job[0]))
                print("%-6s with %s's invariants: %d violation(s)%s" % (
                    name, other, len(found),
                    "" if not found else ": " + "; ".join(
                        "%s (%s)" % (v["invariant"], v["detail"])
                        for v in found[:4])))
                failures += bool(found)
            # Its silent errors: caught at their first step.
            for bug, (relations, step) in BUGS.items():
                a = (DDP[key] if bug == "ddp_module" else CORRECT[key][0])
                a = a + ["--bug", bug] + BUG_ARGS.get((key, bug), [])
                traces = traces_of(traced[key], tmp, key + "-" + bug, a,
                                   runtime, ddp=bug == "ddp_module")
                found = sorted(check(args.detc, traces, invs[other]),
                               key=lambda v: v["step"])
                hits = [v for v in found
                        if v["invariant"].startswith(relations)]
                ok = bool(hits) and hits[0]["step"] <= step
                print("%s %-13s %s%s" % (key, bug,
                                         "caught" if ok else "MISSED",
                                         " at step %d: %s" % (
                                             hits[0]["step"],
                                             hits[0]["detail"])
                                         if hits else ""))
                failures += not ok
        failures += online(args.detc, tmp, "B", invs["A"], runtime)
        failures += online(args.detc, tmp, "A", invs["B"], runtime)
    sys.exit(1 if failures else 0)


def violations_printed(stderr):
    """(relation, step) of each violation an online check printed."""
    found, step = [], None
    for line in stderr.splitlines():
        if line.startswith("detc-check: violation:"):
            step = int(line.rsplit("step ", 1)[1].rstrip(")"))
        elif line.startswith("  invariant: ") and step is not None:
            found.append((line.split(": ", 1)[1].split("(")[0], step))
            step = None
    return found


def online(detc, tmp, key, inv, runtime):
    """Script `key` checked while it trains (`--check`, no trace file)
    against the other script's invariants: nothing on its first and last
    correct pipelines (B's: the classifier and the GAN), each error at the
    step detc check finds it."""
    checked = os.path.join(tmp, key + ".checked.py")
    subprocess.run([detc, "transform", SCRIPTS[key], "--emit-python",
                    "--check", inv, "-o", checked], check=True,
                   capture_output=True)
    failures = 0
    env = dict(os.environ, PYTHONPATH=runtime)
    for a in (CORRECT[key][0], CORRECT[key][-1]):
        r = zygote_client.run([checked] + a, env, tmp)
        found = violations_printed(r.stderr)
        print("online %s %-24s %d violation(s) %s" % (
            key, " ".join(a), len(found), found[:3]))
        failures += r.returncode != 0 or bool(found)
    for bug, (relations, step) in BUGS.items():
        if bug == "ddp_module":
            procs = subprocess.run(
                [traincheck.PY, checked] + DDP[key] +
                ["--bug", bug, "--spawn", "--ddp",
                 os.path.join(tmp, "online-%s-%s.pg" % (key, bug))],
                env=env, cwd=tmp, capture_output=True, text=True,
                timeout=300)
            stderr = procs.stderr
        else:
            stderr = zygote_client.run(
                [checked] + CORRECT[key][0] + ["--bug", bug] +
                BUG_ARGS.get((key, bug), []), env, tmp).stderr
        hits = [v for v in violations_printed(stderr)
                if v[0] in relations]
        ok = bool(hits) and min(h[1] for h in hits) <= step
        print("online %s %-13s %s%s" % (key, bug,
                                        "caught" if ok else "MISSED",
                                        " at step %d by %s" % (
                                            min(h[1] for h in hits),
                                            hits[0][0]) if hits else ""))
        failures += not ok
    return failures


if __name__ == "__main__":
    try:
        main()
    finally:
        zygote_client.stop_all()
