#!/usr/bin/env python3
"""A fetch that fails inside a vaccinated training loop (docs/vaccinate.md,
"Failed fetches"): the loop goes on at its position in the epoch.

Inputs/fetch_fault_train.py, transformed with `--vaccinate`, trains over
a shuffling DataLoader (a random augmentation per example, dropout) whose
dataset raises when it reads one example: once, in epoch 1, a
ConnectionError (recovered by the default policy: a transient error) or,
at every read, a ValueError for a corrupt record (skipped by a policy).
With 0 and 2 workers each run must end normally, having recovered in the
running process at the loop's line, with the epoch's other batches
trained — not the epoch restarted with a new iterator, as the `for`
statement's retry did before — and with weights bit-identical to the
transformed script run with --fixed (the same batch fetched and left
out).

usage: fetch_recovery.py --detc BIN --runtime DIR
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import torch

import zygote_client

PY = os.environ.get("DETC_E2E_PYTHON", "/usr/bin/python3")
HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "Inputs", "fetch_fault_train.py")
# fault -> (policy rules, expected outcome, decided by, batches per epoch)
FAULTS = {
    "flaky": (None, "resumed", "default", [8, 7, 8]),
    "corrupt": ('Rule(ValueError, match="corrupt", do="skip", times=3)',
                "skipped the failed fetch", "policy", [7, 7, 7]),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--detc", required=True)
    ap.add_argument("--runtime", required=True)
    args = ap.parse_args()
    with open(SCRIPT) as f:
        loop_line = 1 + next(i for i, l in enumerate(f)
                             if "for x, y, idx in loader:" in l)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "train.vaccinated.py")
        subprocess.run([args.detc, "transform", SCRIPT, "--emit-python",
                        "--vaccinate", "-o", script], check=True,
                       capture_output=True)
        env = dict(os.environ, PYTHONPATH=os.path.abspath(args.runtime),
                   DETC_RECOVERY="batch")
        for fault, (rules, outcome, source, trained) in FAULTS.items():
            flags = []
            if rules:
                policy = os.path.join(tmp, fault + ".policy.py")
                with open(policy, "w") as f:
                    f.write("from detc_runtime.recovery import Rule\n"
                            "RULES = [%s]\n" % rules)
                flags = ["--detc-recovery=" + policy]
            for workers in (0, 2):
                name = "%s-%d" % (fault, workers)
                log = os.path.join(tmp, name + ".log")
                out = os.path.join(tmp, name + ".pt")
                common = ["--fault", fault, "--workers", str(workers)]
                r = zygote_client.run([script] + common + [
                    "--out", out, "--detc-recovery-log", log] + flags,
                    env, tmp, timeout=300)
                problems = []
                if r.returncode:
                    problems.append("exit %d: %s" % (r.returncode,
                                                     r.stderr[-1500:]))
                else:
                    with open(log) as f:
                        records = [json.loads(l) for l in f]
                    want = len(trained) - trained.count(8)
                    if len(records) != want or any(
                            (x["outcome"], x["decided_by"], x["line"]) !=
                            (outcome, source, loop_line) for x in records):
                        problems.append("log %s, expected %d x (%s, %s, "
                                        "line %d)" % (
                                            [(x["outcome"], x["decided_by"],
                                              x["line"]) for x in records],
                                            want, outcome, source,
                                            loop_line))
                    fixed = os.path.join(tmp, name + ".fixed.pt")
                    r2 = zygote_client.run([script] + common + [
                        "--fixed", "--out", fixed], env, tmp, timeout=300)
                    if r2.returncode:
                        problems.append("--fixed: exit %d" % r2.returncode)
                    else:
                        a, b = torch.load(out), torch.load(fixed)
                        if a["trained"] != trained:
                            problems.append("trained %s batches per epoch, "
                                            "expected %s" % (a["trained"],
                                                             trained))
                        if a["trained"] != b["trained"] or any(
                                not torch.equal(a["model"][k], b["model"][k])
                                for k in a["model"]):
                            problems.append("weights differ from --fixed's")
                print("%-10s %s" % (name, "ok: recovered at line %d, weights "
                                    "== --fixed" % loop_line
                                    if not problems else "FAIL"))
                for p in problems:
                    print("    " + p)
                failures += bool(problems)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    try:
        main()
    finally:
        zygote_client.stop_all()
