#!/usr/bin/env python3
"""The crash benchmark for in-situ recovery (issue 20, docs/vaccinate.md).

Transforms Inputs/crash_train.py with `detc transform --vaccinate`, then
for each case injects one fault — the DAiFU paper's seven scenarios, two or
more each, plus the five constructs its reference implementation gets
wrong, each hit by a transient fault — and runs the transformed script
unattended with the case's recovery policy (or none: transient errors are
retried by default). Checked per case:

* the run ends normally (exit 0), having recovered in situ: the recovery
  log has the expected outcome (resumed / skipped the iteration) decided by
  the expected source (policy / default), at the expected line of the
  original script, and nothing gave up;
* the final weights and counters equal those of the transformed script run
  from scratch with --fixed (the fault never happens, or its fix is there
  from the start), tensor for tensor and bit for bit.

Then, once each: without a policy a non-transient fault gives up (the
exception propagates, exit 1, as without detc); a fix that itself fails
gives up and says so; a surgery on the running main() that changes the
cells around the failing statement is refused; a rule that does not match
gives up; a policy file without RULES is refused before training.

At the prompt (DETC_RECOVERY=interactive, commands on stdin): describe,
where, `p`, an assignment that fixes the state, pass; a surgery; skip;
quit (exit 1, the exception shown). In a 2-rank gloo job where both ranks
crash at the same place and only rank 0 has a policy: rank 1 applies the
fix rank 0 recorded, both end with equal states.

Prints the restore time (exception caught -> failed statement running
again, from the log's resume_ms) of every recovery.

usage: crash_recovery.py --detc BIN --runtime DIR
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

import torch

import zygote_client

# The Python that runs the scripts: Debian's (torch 1.13), or a venv's
# (torch 2.x, test/platform/torch2.py).
PY = os.environ.get("DETC_E2E_PYTHON", "/usr/bin/python3")
HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "Inputs", "crash_train.py")


def line_of(text):
    """The line of crash_train.py containing `text` (once)."""
    with open(SCRIPT) as f:
        hits = [i + 1 for i, l in enumerate(f) if text in l]
    assert len(hits) == 1, (text, hits)
    return hits[0]


# case -> (scenario, policy source or None, files {name: text},
#          expected outcome, decided by, line text of the failing statement)
SURGERY_LOG = "def log_loss(loss, case, fixed):\n    return loss.item()\n"


def main_source(edit):
    """main() of crash_train.py, edited: what a developer writes into a
    surgery file for the running main()."""
    import ast
    with open(SCRIPT) as f:
        text = f.read()
    node = [n for n in ast.parse(text).body
            if isinstance(n, ast.FunctionDef) and n.name == "main"][0]
    lines = text.splitlines(keepends=True)
    return edit("".join(lines[node.lineno - 1:node.end_lineno]))


SURGERY_MAIN = main_source(lambda s: s.replace(
    "y = labels[b * 8:(b + 1) * 8].view(target_shape)",
    "y = labels[b * 8:(b + 1) * 8]"))
# Adds an if body before the batch loop: the cells around the failing
# statement change, so main() cannot continue there.
SURGERY_MAIN_RESHAPED = main_source(lambda s: s.replace(
    "        for b in range(8):\n",
    "        if epoch < 0:\n            print('never')\n"
    "        for b in range(8):\n"))
# The model's class redefined (its forward patched into the live model):
# its functional dropout must be keyed as the original's was.
SURGERY_CLASS = ("class Net(torch.nn.Module):\n"
                 "    def forward(self, x):\n"
                 "        h = self.drop(torch.relu(self.fc1(x)))\n"
                 "        FAULTS.hit(self.case, \"forward\")\n"
                 "        if self.case == \"class_surgery\":\n"
                 "            h = HEAD_DROP(F.dropout(h, 0.1, "
                 "self.training))\n"
                 "        return self.fc2(h)\n"
                 # Rebuilt by the surgery: keyed as the script's own.
                 "HEAD_DROP = torch.nn.Dropout(0.2)\n")
SURGERY_VIEW = ("def features(x, case, fixed):\n"
                "    return x.view(x.size(0), -1)\n")
CASES = {
    "api_index": ("API misuse", 'Rule(IndexError, match="0-dim", '
                  'do=surgery("{work}/fix.py"))', {"fix.py": SURGERY_LOG},
                  "resumed", "policy", "return loss.data[0]"),
    "main_typo": ("API misuse (in the running main)",
                  'Rule(RuntimeError, match="target", '
                  'do=surgery("{work}/fix.py"))', {"fix.py": SURGERY_MAIN},
                  "resumed", "policy", "loss = F.cross_entropy("),
    # (torch 1.13 says "expected scalar type Long but found Int", 2.x
    # "expected target dtype to be Long or Byte, but got Int".)
    "target_dtype": ("API misuse", 'Rule(RuntimeError, match="scalar type '
                     'Long|target dtype", do=action("labels = labels.long(); '
                     'y = y.long()"))', {}, "resumed",
                     "policy", "loss = F.cross_entropy("),
    "shape_view": ("tensor mismatch", 'Rule(RuntimeError, match="is invalid '
                   'for input", do=surgery("{work}/fix.py"))',
                   {"fix.py": SURGERY_VIEW}, "resumed", "policy",
                   "return x.view(x.size(0), 5)"),
    "class_surgery": ("tensor mismatch (in the model's class)",
                      'Rule(RuntimeError, match="input of size 128", '
                      'do=surgery("{work}/fix.py"))',
                      {"fix.py": SURGERY_CLASS}, "resumed", "policy",
                      "out = model(features("),
    "cat_mismatch": ("tensor mismatch", 'Rule(ValueError, match="batch_size",'
                     ' do=action("extra = extra[:0]; out = out[:len(y)]"))', {}, "resumed",
                     "policy", "loss = F.cross_entropy("),
    "action_layer": ("API misuse (an action builds a layer that draws)",
                     'Rule(RuntimeError, match="plateau", do=action('
                     '"model.drop = torch.nn.Dropout(0.5)"))', {},
                     "resumed", "policy", "FAULTS.plateau(case, model"),
    "oom_alloc": ("resource", 'Rule(RuntimeError, match="allocate", '
                  'do=action("workspace = 256"))', {}, "resumed", "policy",
                  "work = torch.empty(workspace)"),
    "oom_cache": ("resource", 'Rule(RuntimeError, match="out of memory", '
                  'do=action("CACHE.clear()"), times=10)', {}, "resumed",
                  "policy", "if sum(t.numel() for t in cache)"),
    # (A CPU build of torch asserts "Torch not compiled with CUDA enabled";
    # a CUDA build on a machine without a GPU raises "Found no NVIDIA
    # driver".)
    "no_cuda": ("device", 'Rule((AssertionError, RuntimeError), '
                'match="CUDA|NVIDIA driver", '
                'do=action("device = \'cpu\'"))', {}, "resumed", "policy",
                "x = data[b * 8"),
    "device_busy": ("device", 'Rule(RuntimeError, match="busy", '
                    'do=action("device = \'cpu\'; model.to(device)"))', {},
                    "resumed", "policy", "FAULTS.device(case, device)"),
    "missing_dir": ("path", 'Rule((RuntimeError, FileNotFoundError), '
                    'match="does not exist|No such file", '
                    'do=action("os.makedirs(os.path.dirname(path))"))', {},
                    "resumed", "policy", "torch.save(state, path)"),
    "missing_file": ("path", 'Rule(FileNotFoundError, do=action('
                     '"table_path = table"))', {}, "resumed", "policy",
                     "weights = torch.tensor(np.load(table_path))"),
    "nan_batch": ("exceptional data", 'Rule(FloatingPointError, do="skip", '
                  'times=2)', {}, "skipped the iteration", "policy",
                  'if not torch.isfinite(loss):'),
    "label_range": ("exceptional data", 'Rule(IndexError, match="out of '
                    'bounds", do="skip", times=2)', {},
                    "skipped the iteration", "policy",
                    "loss = F.cross_entropy("),
    "helper_skip": ("exceptional data (in a function the loop calls)",
                    'Rule(AssertionError, match="outlier", do="skip", '
                    'times=2)', {}, "skipped the iteration", "policy",
                    "assert x.abs().max() < 100"),
    "allreduce_flaky": ("transient", None, {}, "resumed", "default",
                        'FAULTS.hit(case, "allreduce")'),
    "forward_flaky": ("transient", None, {}, "resumed", "default",
                      "out = model(features("),
    "save_flaky": ("transient", None, {}, "resumed", "default",
                   'FAULTS.hit(case, "save")'),
    "break_in_with": ("construct: break inside with inside a loop", None, {},
                      "resumed", "default", 'FAULTS.hit(case, "with")'),
    "callee_loop": ("construct: loop variable used only as a callee", None,
                    {}, "resumed", "default", "hook()\n"),
    "shadowing": ("construct: a local shadowing a module global", None, {},
                  "resumed", "default", 'FAULTS.hit(case, "shadow")'),
    "nested_default": ("construct: nested def whose default is a parameter",
                       None, {}, "resumed", "default",
                       "make_decay(lr * 0.5)(group)"),
    "try_finally": ("construct: retry inside try/finally", None, {},
                    "resumed", "default", 'FAULTS.hit(case, "try")'),
}


def equal(a, b):
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and a.dtype == b.dtype and \
            a.shape == b.shape and torch.equal(a, b)
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(
            equal(a[k], b[k]) for k in a)
    return a == b


def run(cmd, cwd, env=None):
    """`cmd` is [PY, script, args...]: run in a child of a torch-importing
    fork server (zygote.py), as `PY script args` would."""
    e = dict(os.environ, DETC_RECOVERY="batch", **(env or {}))
    assert cmd[0] == PY
    return zygote_client.run(cmd[1:], e, cwd, timeout=300)


def run_case(name, transformed, runtime, tmp):
    scenario, policy, files, outcome, source, text = CASES[name]
    work = os.path.join(tmp, name)
    os.makedirs(work)
    for fname, body in files.items():
        with open(os.path.join(work, fname), "w") as f:
            f.write(body)
    flags = []
    if policy:
        path = os.path.join(work, "policy.py")
        with open(path, "w") as f:
            f.write("import os\nfrom detc_runtime.recovery import Rule, "
                    "action, surgery\nRULES = [%s]\n"
                    % policy.format(work=work))
        flags = ["--detc-recovery=" + path]
    log = os.path.join(work, "recovery.jsonl")
    env = {"PYTHONPATH": runtime}
    r = run([PY, transformed, "--case", name, "--work", work, "--out",
             os.path.join(work, "recovered.pt"), "--detc-recovery-log", log]
            + flags, work, env)
    problems = []
    if r.returncode != 0:
        return ["exit %d:\n%s" % (r.returncode, r.stderr[-3000:])], []
    with open(log) as f:
        records = [json.loads(l) for l in f]
    if not records:
        problems.append("nothing in the recovery log")
    want = line_of(text)
    for rec in records:
        if rec["outcome"] != outcome or rec["decided_by"] != source:
            problems.append("log: %s by %s, expected %s by %s" % (
                rec["outcome"], rec["decided_by"], outcome, source))
        if rec["line"] != want:
            problems.append("log: line %d, expected %d (%s)" % (
                rec["line"], want, text.strip()))
    fixed = os.path.join(work, "fixed")
    os.makedirs(fixed)
    r2 = run([PY, transformed, "--case", name, "--fixed", "--work", fixed,
              "--out", os.path.join(fixed, "fixed.pt"), "--detc-recovery-log",
              os.path.join(fixed, "recovery.jsonl")], fixed, env)
    if os.path.exists(os.path.join(fixed, "recovery.jsonl")):
        problems.append("the --fixed run recovered from something")
    if r2.returncode != 0:
        return problems + ["--fixed run: exit %d\n%s" % (r2.returncode,
                                                          r2.stderr[-2000:])
                           ], records
    a = torch.load(os.path.join(work, "recovered.pt"))
    b = torch.load(os.path.join(fixed, "fixed.pt"))
    if not equal(a, b):
        problems.append("final state differs from the fixed run's: %s vs %s"
                        % (a["counters"], b["counters"]))
    return problems, records


def expect_give_up(name, transformed, runtime, tmp, policy, why, expect,
                   files=None):
    work = os.path.join(tmp, "giveup-" + why)
    os.makedirs(work)
    for fname, body in (files or {}).items():
        with open(os.path.join(tmp, fname), "w") as f:
            f.write(body)
    flags = []
    if policy:
        path = os.path.join(work, "policy.py")
        with open(path, "w") as f:
            f.write("from detc_runtime.recovery import Rule, action, "
                    "surgery\nRULES = [%s]\n" % policy)
        flags = ["--detc-recovery=" + path]
    log = os.path.join(work, "recovery.jsonl")
    r = run([PY, transformed, "--case", name, "--work", work, "--out",
             os.path.join(work, "o.pt"), "--detc-recovery-log", log] + flags,
            work, {"PYTHONPATH": runtime})
    problems = []
    if r.returncode != 1 or expect not in r.stderr:
        problems.append("%s: exit %d, expected 1 with %r\n%s" % (
            why, r.returncode, expect, r.stderr[-2000:]))
    outcomes = []
    if os.path.exists(log):
        with open(log) as f:
            outcomes = [json.loads(l)["outcome"] for l in f]
    if not outcomes or not outcomes[-1].startswith("gave up"):
        problems.append("%s: log %s, expected 'gave up'" % (why, outcomes))
    return problems


def interactive(name, transformed, runtime, tmp, commands, files=None,
                expect_exit=0, expect_outcome="resumed", compare=True):
    """A session at the prompt (DETC_RECOVERY=interactive, commands on
    stdin), like a developer at a terminal."""
    work = os.path.join(tmp, "prompt-" + name + "-" + str(len(commands)))
    os.makedirs(work)
    for fname, body in (files or {}).items():
        with open(os.path.join(work, fname), "w") as f:
            f.write(body)
    log = os.path.join(work, "recovery.jsonl")
    e = dict(os.environ, DETC_RECOVERY="interactive", PYTHONPATH=runtime)
    r = subprocess.run([PY, transformed, "--case", name, "--work", work,
                        "--out", os.path.join(work, "o.pt"),
                        "--detc-recovery-log", log],
                       input="\n".join(commands) + "\n", cwd=work, env=e,
                       capture_output=True, text=True, timeout=300)
    problems = []
    if r.returncode != expect_exit:
        return ["prompt %s: exit %d, expected %d\n%s" % (
            name, r.returncode, expect_exit, r.stderr[-3000:])]
    with open(log) as f:
        records = [json.loads(l) for l in f]
    if not records or any(rec["decided_by"] != "prompt" or
                          rec["outcome"] != expect_outcome
                          for rec in records):
        problems.append("prompt %s: log %s" % (name, [
            (rec["decided_by"], rec["outcome"]) for rec in records]))
    if "(detc-recovery)" not in r.stderr:
        problems.append("prompt %s: no prompt shown" % name)
    if compare:
        fixed = os.path.join(work, "fixed")
        os.makedirs(fixed)
        run([PY, transformed, "--case", name, "--fixed", "--work", fixed,
             "--out", os.path.join(fixed, "f.pt")], fixed,
            {"PYTHONPATH": runtime})
        if not equal(torch.load(os.path.join(work, "o.pt")),
                     torch.load(os.path.join(fixed, "f.pt"))):
            problems.append("prompt %s: final state differs" % name)
    return problems, r.stderr


def ddp_fix_replay(transformed, runtime, tmp):
    """Two gloo ranks crash at the same place; only rank 0 has a policy:
    rank 1 waits for the fix rank 0 applied and applies it too."""
    work = os.path.join(tmp, "ddp")
    os.makedirs(work)
    policy = os.path.join(work, "policy.py")
    with open(policy, "w") as f:
        f.write("import os\nfrom detc_runtime.recovery import Rule, action\n"
                # torch's own error for a missing directory (the plain
                # script's), as the single-process missing_dir case has it.
                "RULES = [Rule((RuntimeError, FileNotFoundError), "
                "match='does not exist|No such file', do=action('os.makedirs("
                "os.path.dirname(path), exist_ok=True)'))]\n")
    procs = []
    for rank in (0, 1):
        e = dict(os.environ, DETC_RECOVERY="batch", PYTHONPATH=runtime,
                 RANK=str(rank), WORLD_SIZE="2",
                 DETC_RECOVERY_SHARED=os.path.join(work, "fixes.jsonl"),
                 DETC_RECOVERY_WAIT="60")
        cmd = [PY, transformed, "--case", "missing_dir", "--work", work,
               "--out", os.path.join(work, "o%d.pt" % rank),
               "--detc-recovery-log", os.path.join(work, "r%d.jsonl" % rank)]
        if rank == 0:
            cmd.append("--detc-recovery=" + policy)
        procs.append(subprocess.Popen(cmd, cwd=work, env=e, text=True,
                                      stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE))
    problems = []
    for rank, p in enumerate(procs):
        out, err = p.communicate(timeout=300)
        if p.returncode != 0:
            problems.append("ddp rank %d: exit %d\n%s" % (
                rank, p.returncode, err[-2000:]))
    if problems:
        return problems
    by = []
    for rank in (0, 1):
        with open(os.path.join(work, "r%d.jsonl" % rank)) as f:
            by.append([(json.loads(l)["decided_by"], json.loads(l)["outcome"])
                       for l in f])
    if by != [[("policy", "resumed")], [("another rank", "resumed")]]:
        problems.append("ddp: logs %s" % by)
    if not equal(torch.load(os.path.join(work, "o0.pt")),
                 torch.load(os.path.join(work, "o1.pt"))):
        problems.append("ddp: the ranks' final states differ")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--detc", required=True)
    ap.add_argument("--runtime", required=True)
    args = ap.parse_args()
    args.runtime = os.path.abspath(args.runtime)
    with tempfile.TemporaryDirectory() as tmp:
        transformed = os.path.join(tmp, "crash_train.vaccinated.py")
        r = subprocess.run([args.detc, "transform", SCRIPT, "--emit-python",
                            "--vaccinate", "-o", transformed],
                           capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("detc transform --vaccinate failed:\n" + r.stderr)
        failures = 0
        scenarios = set()
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            futures = {name: pool.submit(run_case, name, transformed,
                                         args.runtime, tmp)
                       for name in CASES}
            for name, fut in futures.items():
                problems, records = fut.result()
                scenarios.add(CASES[name][0])
                times = ", ".join("%.1f ms" % rec["resume_ms"]
                                  for rec in records if "resume_ms" in rec)
                print("%-16s %-48s %s%s" % (
                    name, CASES[name][0], "ok" if not problems else "FAIL",
                    " (restore %s)" % times if times else ""))
                for p in problems:
                    print("    " + p)
                failures += bool(problems)
        if len(CASES) < 14 or len(scenarios) < 13:
            print("the benchmark lost cases")
            failures += 1
        for problems in (
                expect_give_up("api_index", transformed, args.runtime, tmp,
                               None, "no-policy", "IndexError"),
                expect_give_up("oom_alloc", transformed, args.runtime, tmp,
                               'Rule(RuntimeError, do=action("1/0"))',
                               "fix-fails", "the action failed"),
                expect_give_up("main_typo", transformed, args.runtime, tmp,
                               'Rule(RuntimeError, do=surgery("%s"))' %
                               os.path.join(tmp, "reshaped.py"),
                               "surgery-reshaped", "cannot continue there",
                               {"reshaped.py": SURGERY_MAIN_RESHAPED}),
                expect_give_up("nan_batch", transformed, args.runtime, tmp,
                               'Rule(FloatingPointError, where="save", '
                               'do="skip"), Rule(RuntimeError, do="skip")',
                               "no-match", "FloatingPointError")):
            for p in problems:
                print("    " + p)
            failures += bool(problems)
        sessions = [
            ("no_cuda", ["describe", "where", "p device",
                         "device = 'cpu'", "pass"], None, 0, "resumed"),
            ("api_index", ["surgery @fix.py"], {"fix.py": SURGERY_LOG}, 0,
             "resumed"),
            ("nan_batch", ["skip", "skip"], None, 0,
             "skipped the iteration"),
        ]
        for name, commands, files, code, outcome in sessions:
            problems, stderr = interactive(name, transformed, args.runtime,
                                           tmp, commands, files, code,
                                           outcome)
            print("prompt %-10s %s" % (name, "ok" if not problems
                                       else "FAIL"))
            for p in problems:
                print("    " + p)
            failures += bool(problems)
        problems, stderr = interactive("oom_alloc", transformed,
                                       args.runtime, tmp, ["quit"],
                                       expect_exit=1,
                                       expect_outcome="gave up",
                                       compare=False)
        if "Storage size" not in stderr and "allocate" not in stderr:
            problems.append("quit: the exception was not shown")
        print("prompt quit       %s" % ("ok" if not problems else "FAIL"))
        failures += bool(problems)
        bad = os.path.join(tmp, "bad_policy.py")
        with open(bad, "w") as f:
            f.write("RULES = 'retry'\n")
        r = run([PY, transformed, "--case", "none", "--work", tmp, "--out",
                 os.path.join(tmp, "x.pt"), "--detc-recovery=" + bad], tmp,
                {"PYTHONPATH": args.runtime})
        ok = r.returncode == 2 and "must define RULES" in r.stderr and \
            not os.path.exists(os.path.join(tmp, "x.pt"))
        print("bad policy        %s" % ("ok" if ok else "FAIL\n" +
                                        r.stderr[-1000:]))
        failures += not ok
        # Without detc at run time an action that calls something runs
        # as written, and the run says that its draws are not keyed.
        work = os.path.join(tmp, "no-detc")
        os.makedirs(work)
        with open(os.path.join(work, "policy.py"), "w") as f:
            f.write("from detc_runtime.recovery import Rule, action\n"
                    "RULES = [%s]\n" % CASES["action_layer"][1])
        r = run([PY, transformed, "--case", "action_layer", "--work", work,
                 "--out", os.path.join(work, "o.pt"), "--detc-recovery=" +
                 os.path.join(work, "policy.py")], work,
                {"PYTHONPATH": args.runtime,
                 "DETC": os.path.join(tmp, "no-such-detc")})
        ok = r.returncode == 0 and "the action runs as written" in r.stderr
        print("action, no detc   %s" % ("ok" if ok else "FAIL\n" +
                                        r.stderr[-1000:]))
        failures += not ok
        problems = ddp_fix_replay(transformed, args.runtime, tmp)
        print("ddp fix replay    %s" % ("ok" if not problems else "FAIL"))
        for p in problems:
            print("    " + p)
        failures += bool(problems)
        print("%d cases, %d scenarios and constructs; %d failed"
              % (len(CASES), len(scenarios), failures))
        sys.exit(1 if failures else 0)


if __name__ == "__main__":
    try:
        main()
    finally:
        zygote_client.stop_all()
