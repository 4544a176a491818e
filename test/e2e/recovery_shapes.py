#!/usr/bin/env python3
"""Recovery in situ in the shapes of scripts the crash benchmark's cells
did not cover (docs/vaccinate.md). Each case's script, transformed with
--vaccinate, fails once, recovers in the running process by its policy
(log outcome "resumed"), and ends with weights bit-identical to the
script run with the fix from the start (--fixed):

* module_oom: `model = ...` at the module's top level, outside any
  function or loop, cannot allocate its hidden layer; an action makes it
  smaller and the statement runs again (before, the top level had no
  barrier: the run ended);
* surgery_caller: a surgery adds a `try` around a failing read in a
  function that a loop at the module's top level calls; the edit changes
  the cells around the failing statement, so the loop's barrier calls
  the new function again (before, with no vaccinated caller, the surgery
  was refused);
* action_loader: in a loop over a shuffling DataLoader with two workers,
  an action builds a dropout layer and draws input noise; both are keyed
  as the same line written into the script (before, the action ran as
  written: the layer and the noise drew from torch's global generator).

usage: recovery_shapes.py --detc BIN --runtime DIR
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
INPUTS = os.path.join(HERE, "Inputs")


def fix_source():
    """What the developer writes into the surgery file: train_epoch with
    the read inside a try — the script's train_epoch_fixed, renamed."""
    import ast
    with open(os.path.join(INPUTS, "surgery_caller_train.py")) as f:
        text = f.read()
    node = [n for n in ast.parse(text).body if isinstance(n, ast.FunctionDef)
            and n.name == "train_epoch_fixed"][0]
    lines = text.splitlines(keepends=True)
    return "".join(lines[node.lineno - 1:node.end_lineno]).replace(
        "def train_epoch_fixed(", "def train_epoch(", 1)


# case -> (script, the policy's rule: {fix} is the surgery file)
CASES = {
    "module_oom": ("module_oom_train.py",
                   'Rule(RuntimeError, match="allocate", '
                   'do=action("hidden = 16"))'),
    "surgery_caller": ("surgery_caller_train.py",
                       "Rule(FileNotFoundError, do=surgery({fix!r}))"),
    "action_loader": ("action_loader_train.py",
                      'Rule(RuntimeError, match="plateau", do=action('
                      '"model.drop = nn.Dropout(0.3)\\n'
                      'x = x + 0.01 * torch.randn_like(x)"))'),
}


def run_case(name, detc, runtime, tmp):
    script_name, rule = CASES[name]
    work = os.path.join(tmp, name)
    os.makedirs(work)
    script = os.path.join(work, "train.vaccinated.py")
    subprocess.run([detc, "transform", os.path.join(INPUTS, script_name),
                    "--emit-python", "--vaccinate", "-o", script],
                   check=True, capture_output=True)
    fix = os.path.join(work, "fix.py")
    with open(fix, "w") as f:
        f.write(fix_source())
    policy = os.path.join(work, "policy.py")
    with open(policy, "w") as f:
        f.write("from detc_runtime.recovery import Rule, action, surgery\n"
                "RULES = [%s]\n" % rule.format(fix=fix))
    env = dict(os.environ, DETC_RECOVERY="batch",
               PYTHONPATH=os.path.abspath(runtime))
    log = os.path.join(work, "recovery.jsonl")
    r = zygote_client.run([script, "--out", "recovered.pt",
                           "--detc-recovery=" + policy,
                           "--detc-recovery-log", log], env, work,
                          timeout=300)
    if r.returncode:
        return "exit %d\n%s" % (r.returncode, r.stderr[-2000:])
    with open(log) as f:
        outcomes = [json.loads(l)["outcome"] for l in f]
    r2 = zygote_client.run([script, "--fixed", "--out", "fixed.pt"], env,
                           work, timeout=300)
    if r2.returncode:
        return "--fixed: exit %d" % r2.returncode
    a = torch.load(os.path.join(work, "recovered.pt"))
    b = torch.load(os.path.join(work, "fixed.pt"))
    if outcomes != ["resumed"] or any(not torch.equal(a[k], b[k])
                                      for k in a):
        return "recovery log %s; weights %s --fixed's" % (
            outcomes, "==" if all(torch.equal(a[k], b[k]) for k in a)
            else "differ from")
    return ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--detc", required=True)
    ap.add_argument("--runtime", required=True)
    args = ap.parse_args()
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in CASES:
            problem = run_case(name, args.detc, args.runtime, tmp)
            print("%-15s %s" % (name, "ok: resumed, weights == --fixed's"
                                if not problem else "FAIL: " + problem))
            failures += bool(problem)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    try:
        main()
    finally:
        zygote_client.stop_all()
