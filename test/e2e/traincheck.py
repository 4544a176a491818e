#!/usr/bin/env python3
"""Training invariants end to end (issue 21, docs/traincheck.md).

Transforms Inputs/traincheck_train.py with `detc transform --trace`, runs
three correct pipelines (an MLP with momentum SGD, a 1-d CNN with Adam, the
MLP as a 2-rank gloo DDP job), infers invariants from their traces with
`detc infer`, then:

* runs silent errors written by us — a missing zero_grad, dropout left on
  in evaluation (eval() never called), an optimizer built over another
  model's parameters, every parameter but BatchNorm's frozen, a
  learning-rate scheduler stepped per batch instead of per epoch, a
  SpectralNorm model evaluated before any training step, and in 2-rank DDP
  jobs the forward through `model.module` (a job started with
  torch.multiprocessing.spawn, no RANK in the environment: each rank traces
  to its own file) and gradient clipping on rank 0 only (the replicas
  drift apart), features standardized with a constant
  column (NaN everywhere), one batch trained on at every step, a dropout
  layer defined but no longer applied in the forward, a log_softmax
  dropped before nll_loss (the forward's result is no longer <= 0) — and
  checks
  with `detc check --werror` that each is caught (exit 1), by the expected
  relation, at its first training step (the error triggers at step 0; the
  repeated batch shows at step 1, the first with a step before it) or,
  for an evaluation, at its first evaluation forward;
* runs the errors again transformed with `--trace --check`: the online
  verifier reports, while training, exactly the violations `detc check`
  finds offline on the same trace — and as many with `--check` alone (no
  trace written, only what the invariants read traced); for the DDP errors
  both ranks report the Consistent violation `detc check` finds on both
  traces, and a correct DDP job reports none;
* applies the invariants to correct pipelines of other configurations
  (widths, learning rates, optimizers, epochs; one a 2-rank DDP job, one
  the SpectralNorm model evaluated after training) and
  reports the false
  positive rate — violations over checked examples — which must be 0 here.

usage: traincheck.py --detc BIN --runtime DIR
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import zygote_client

# The Python that runs the scripts: Debian's (torch 1.13), or a venv's
# (torch 2.x, test/platform/torch2.py).
PY = os.environ.get("DETC_E2E_PYTHON", "/usr/bin/python3")
HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "Inputs", "traincheck_train.py")

TRAIN = [["--model", "mlp", "--width", "16", "--sched"],
         ["--model", "conv", "--width", "8", "--optim", "adam",
          "--lr", "0.01"]]
# bug -> (relations that may report it, the step it triggers at: the
# first training step, or the last step of epoch 0 for the evaluation
# after it; 128 examples in batches of 16 make 8 steps per epoch)
BUGS = {
    "no_zero_grad": (("APISequence",), 0),
    "eval_dropout": (("APIAttr",), 7),
    "wrong_params": (("ParamUpdate", "ParamAttr"), 0),
    "frozen": (("ParamAttr",), 0),
    "sched_per_batch": (("EpochConstant",), 1),
    "ddp_module": (("Consistent",), 0),
    "clip_one_rank": (("Consistent",), 0),
    "eval_first": (("TrainBeforeEval",), 0),
    "nan_features": (("APIOutput",), 0),
    "same_batch": (("APIArg",), 1),
    "dropout_unused": (("EventContain",), 0),
    "no_log_softmax": (("APIOutput",), 0),
}
# Bugs shown on another model than TRAIN[0]'s: evaluating a SpectralNorm
# model before any training forward.
BUG_ARGS = {"eval_first": ["--model", "sn"]}
DDP_BUGS = ("ddp_module", "clip_one_rank")
# Jobs started by torch.multiprocessing.spawn (no RANK in the
# environment: each process must still trace to its own rank's file and
# check across ranks with its own rank).
SPAWNED = ("ddp_module", "none")
CORRECT = [["--model", "mlp", "--width", "32", "--lr", "0.1", "--sched"],
           ["--model", "mlp", "--width", "8", "--optim", "adam",
            "--lr", "0.005", "--epochs", "3"],
           ["--model", "conv", "--width", "4"],
           ["--model", "conv", "--width", "16", "--lr", "0.02",
            "--epochs", "3"],
           ["--model", "mlp", "--width", "24", "--optim", "adam",
            "--lr", "0.02"],
           ["--model", "conv", "--width", "12", "--optim", "adam",
            "--lr", "0.001", "--epochs", "1"],
           ["--model", "sn", "--width", "16"],
           ["--model", "sn", "--width", "8", "--optim", "adam",
            "--lr", "0.01", "--epochs", "3"],
           ["--model", "mlp", "--width", "12", "--lr", "0.02",
            "--epochs", "1", "--sched"]]
DDP_CORRECT = ["--model", "conv", "--width", "8", "--optim", "adam"]


def run(script, tmp, name, args, runtime):
    out = os.path.join(tmp, name)
    env = dict(os.environ, PYTHONPATH=runtime, DETC_TRACE_DIR=out)
    r = zygote_client.run([script] + args, env, tmp)
    if r.returncode:
        sys.exit("%s %s failed:\n%s" % (name, args, r.stderr[-2000:]))
    return os.path.join(out, "trace.rank0.jsonl")


def run_ddp(script, tmp, name, args, runtime, spawn=False):
    """Two gloo ranks, launched as torchrun would (RANK, WORLD_SIZE in each
    one's environment) or, `spawn`, by the script itself with
    torch.multiprocessing.spawn (the ranks learn their rank only from
    init_process_group): their traces, one file per rank either way."""
    out = os.path.join(tmp, name)
    procs = []
    base = {k: v for k, v in os.environ.items()
            if k not in ("RANK", "WORLD_SIZE")}
    for rank in ((0,) if spawn else (0, 1)):
        env = dict(base, PYTHONPATH=runtime, DETC_TRACE_DIR=out)
        if not spawn:
            env.update(RANK=str(rank), WORLD_SIZE="2")
        procs.append(subprocess.Popen(
            [PY, script] + args + ["--ddp", os.path.join(tmp, name + ".pg")]
            + (["--spawn"] if spawn else []),
            env=env, cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True))
    for p in procs:
        _, err = p.communicate(timeout=300)
        if p.returncode:
            sys.exit("%s %s failed:\n%s" % (name, args, err[-2000:]))
    return [os.path.join(out, "trace.rank%d.jsonl" % r) for r in (0, 1)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--detc", required=True)
    ap.add_argument("--runtime", required=True)
    args = ap.parse_args()
    runtime = os.path.abspath(args.runtime)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "train.traced.py")
        subprocess.run([args.detc, "transform", SCRIPT, "--emit-python",
                        "--trace", "-o", script], check=True,
                       capture_output=True)
        traces = [run(script, tmp, "train%d" % i, a, runtime)
                  for i, a in enumerate(TRAIN)]
        traces += run_ddp(script, tmp, "train-ddp", TRAIN[0], runtime)
        inv = os.path.join(tmp, "invariants.json")
        r = subprocess.run([args.detc, "infer"] + traces + ["-o", inv],
                           capture_output=True, text=True)
        print(r.stderr.strip())
        if r.returncode:
            sys.exit("detc infer failed")
        with open(inv) as f:
            relations = {i["relation"] for i in json.load(f)["invariants"]}
        for bug, (relation, step) in BUGS.items():
            if bug in DDP_BUGS:
                bug_traces = run_ddp(script, tmp, bug,
                                     TRAIN[0] + ["--bug", bug], runtime,
                                     spawn=bug in SPAWNED)
            else:
                bug_traces = [run(script, tmp, bug, TRAIN[0] + ["--bug", bug]
                                  + BUG_ARGS.get(bug, []), runtime)]
            r = subprocess.run([args.detc, "check"] + bug_traces + [
                                "--invariants",
                                inv, "--format", "json", "--werror"],
                               capture_output=True, text=True)
            found = json.loads(r.stdout)["violations"] if r.stdout else []
            found.sort(key=lambda v: v["step"])
            first = [v for v in found
                     if v["invariant"].startswith(relation)]
            ok = r.returncode == 1 and first and \
                min(v["step"] for v in first) <= step
            print("%-14s %s%s" % (bug, "caught" if ok else "MISSED",
                                  " at step %d: %s" % (first[0]["step"],
                                                       first[0]["detail"])
                                  if first else ""))
            if not ok:
                failures += 1
                print("    exit %d; %s" % (r.returncode, r.stderr.strip()
                                            or found[:3]))
        # Online: the script transformed with --check reports the same
        # violations as `detc check` on the trace it writes, as it trains.
        online = os.path.join(tmp, "train.checked.py")
        subprocess.run([args.detc, "transform", SCRIPT, "--emit-python",
                        "--trace", "--check", inv, "-o", online], check=True,
                       capture_output=True)
        for bug in DDP_BUGS + ("none",):
            # Across ranks: each rank compares its parameters' hashes with
            # the other rank's through the job's c10d store after each
            # step; both report what `detc check` finds on both traces
            # (nothing for the correct job, "none").
            traces = run_ddp(online, tmp, "online-" + bug, TRAIN[0] + (
                ["--bug", bug] if bug != "none" else []), runtime,
                spawn=bug in SPAWNED)
            out = os.path.dirname(traces[0])
            live = []
            for rank in (0, 1):
                with open(os.path.join(out, "violations.rank%d.jsonl" %
                                       rank)) as f:
                    live.append(sorted(
                        (v["invariant"], v["step"], v["detail"])
                        for v in map(json.loads, f)
                        if v["invariant"].startswith("Consistent")))
            r2 = subprocess.run([args.detc, "check"] + traces + [
                                 "--invariants", inv, "--format", "json"],
                                capture_output=True, text=True)
            offline = sorted((v["invariant"], v["step"], v["detail"])
                             for v in json.loads(r2.stdout)["violations"]
                             if v["invariant"].startswith("Consistent"))
            same = live[0] == live[1] == offline and (
                bool(offline) == (bug != "none"))
            print("online %-12s %s (%d violation(s) on each rank, at step "
                  "%s)" % (bug, "same as detc check" if same else "DIFFERS",
                           len(live[0]), [v[1] for v in live[0]]))
            if not same:
                failures += 1
                print("    online %s\n    offline %s" % (live, offline))
        for bug in BUGS:
            if bug in DDP_BUGS:
                continue
            out = os.path.join(tmp, "online-" + bug)
            env = dict(os.environ, PYTHONPATH=runtime, DETC_TRACE_DIR=out)
            r = zygote_client.run([online] + TRAIN[0] + ["--bug", bug] +
                                  BUG_ARGS.get(bug, []), env, tmp)
            with open(os.path.join(out, "violations.rank0.jsonl")) as f:
                live = sorted((v["invariant"], v["step"], v["detail"])
                              for v in map(json.loads, f))
            r2 = subprocess.run([args.detc, "check",
                                 os.path.join(out, "trace.rank0.jsonl"),
                                 "--invariants", inv, "--format", "json"],
                                capture_output=True, text=True)
            offline = sorted((v["invariant"], v["step"], v["detail"])
                             for v in json.loads(r2.stdout)["violations"])
            same = live == offline and live and \
                "detc-check: violation:" in r.stderr
            # Checking alone (no trace file: only what the invariants read
            # is traced) reports the same violations.
            only = os.path.join(tmp, "train.checkonly.py")
            if not os.path.exists(only):
                subprocess.run([args.detc, "transform", SCRIPT,
                                "--emit-python", "--check", inv, "-o", only],
                               check=True, capture_output=True)
            r3 = zygote_client.run([only] + TRAIN[0] + ["--bug", bug] +
                                   BUG_ARGS.get(bug, []),
                                   dict(os.environ, PYTHONPATH=runtime), tmp)
            alone = r3.stderr.count("detc-check: violation:")
            same = same and alone == len(live)
            print("online %-12s %s (%d violations, first at step %d; %d "
                  "checking alone)" % (
                      bug, "same as detc check" if same else "DIFFERS",
                      len(live), min(v[1] for v in live) if live else -1,
                      alone))
            if not same:
                failures += 1
                print("    online %s\n    offline %s" % (live[:3],
                                                          offline[:3]))
        checked = violations = 0
        for i, a in enumerate(CORRECT + [DDP_CORRECT]):
            if a is DDP_CORRECT:
                correct = run_ddp(script, tmp, "correct-ddp", a, runtime)
            else:
                correct = [run(script, tmp, "correct%d" % i, a, runtime)]
            r = subprocess.run([args.detc, "check"] + correct + [
                                "--invariants", inv, "--format", "json",
                                "--werror"],
                               capture_output=True, text=True)
            found = json.loads(r.stdout)["violations"]
            for trace in correct:
                with open(trace) as f:
                    checked += sum(1 for _ in f)
            violations += len(found)
            if found:
                print("false positive on %s: %s" % (" ".join(a), found[:3]))
        rate = violations / max(checked, 1)
        print("false positives: %d violations over %d records of %d correct "
              "pipelines (%.2f%%)" % (violations, checked, len(CORRECT) + 1,
                                      100 * rate))
        if violations:
            failures += 1
        print("relations inferred: %s" % ", ".join(sorted(relations)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    try:
        main()
    finally:
        zygote_client.stop_all()
