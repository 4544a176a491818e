#!/usr/bin/env python3
"""A surgery that adds a `try` around the failing statement, in a function
a loop at the module's top level calls (docs/vaccinate.md): the edit
changes the cells around the failing statement, so the function's call is
made again — by the top-level loop's barrier, since no vaccinated
function calls it (before, with no vaccinated caller, the surgery was
refused). Inputs/surgery_caller_train.py, transformed with --vaccinate,
recovers in the running process and ends with weights bit-identical to
the script run with the `try` from the start (--fixed).

usage: surgery_caller.py --detc BIN --runtime DIR
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import torch

import zygote_client

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "Inputs", "surgery_caller_train.py")

def fix_source():
    """What the developer writes into the surgery file: train_epoch with
    the read inside a try — the script's train_epoch_fixed, renamed."""
    import ast
    with open(SCRIPT) as f:
        text = f.read()
    node = [n for n in ast.parse(text).body if isinstance(n, ast.FunctionDef)
            and n.name == "train_epoch_fixed"][0]
    lines = text.splitlines(keepends=True)
    return "".join(lines[node.lineno - 1:node.end_lineno]).replace(
        "def train_epoch_fixed(", "def train_epoch(", 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--detc", required=True)
    ap.add_argument("--runtime", required=True)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "train.vaccinated.py")
        subprocess.run([args.detc, "transform", SCRIPT, "--emit-python",
                        "--vaccinate", "-o", script], check=True,
                       capture_output=True)
        fix = os.path.join(tmp, "fix.py")
        with open(fix, "w") as f:
            f.write(fix_source())
        policy = os.path.join(tmp, "policy.py")
        with open(policy, "w") as f:
            f.write("from detc_runtime.recovery import Rule, surgery\n"
                    "RULES = [Rule(FileNotFoundError, do=surgery(%r))]\n"
                    % fix)
        env = dict(os.environ, DETC_RECOVERY="batch",
                   PYTHONPATH=os.path.abspath(args.runtime))
        log = os.path.join(tmp, "recovery.jsonl")
        r = zygote_client.run([script, "--out", "recovered.pt",
                               "--detc-recovery=" + policy,
                               "--detc-recovery-log", log], env, tmp,
                              timeout=300)
        if r.returncode:
            sys.exit("FAIL: exit %d\n%s" % (r.returncode, r.stderr[-2000:]))
        with open(log) as f:
            outcomes = [json.loads(l)["outcome"] for l in f]
        r2 = zygote_client.run([script, "--fixed", "--out", "fixed.pt"],
                               env, tmp, timeout=300)
        if r2.returncode:
            sys.exit("FAIL: --fixed exit %d" % r2.returncode)
        a = torch.load(os.path.join(tmp, "recovered.pt"))
        b = torch.load(os.path.join(tmp, "fixed.pt"))
        same = all(torch.equal(a[k], b[k]) for k in a)
        print("recovery log: %s; weights %s --fixed's" % (
            outcomes, "==" if same else "DIFFER from"))
        if outcomes != ["resumed"] or not same:
            sys.exit(1)


if __name__ == "__main__":
    try:
        main()
    finally:
        zygote_client.stop_all()
