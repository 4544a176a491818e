#!/usr/bin/env python3
"""The repository's .pre-commit-hooks.yaml runs as pre-commit would run it:
the hook's `entry` split with shlex, the staged files appended, `detc`
found on PATH. A clean script passes (0), a script with findings fails (1)
and names them, a script whose finding is suppressed passes.

usage: precommit_hook.py BIN_DIR      the `language: system` hook, with
                                      detc from BIN_DIR (a build tree)

check_wheel.py runs the `language: python` hook the same way, in the venv
the wheel is installed into (where pre-commit would `pip install .`).
"""
import os
import shlex
import subprocess
import sys
import tempfile

import yaml

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def check_hook(hook_id, language, bin_dir):
    hooks = yaml.safe_load(open(os.path.join(ROOT, ".pre-commit-hooks.yaml")))
    hook = next(h for h in hooks if h["id"] == hook_id)
    if hook["language"] != language or "python" not in hook["types"]:
        sys.exit("FAIL: %s must be a %s hook on python files" %
                 (hook_id, language))
    env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ["PATH"])
    env.pop("PYTHONPATH", None)
    finding = open(os.path.join(ROOT, "test", "tools", "Inputs",
                                "baseline_train.py")).read()
    with tempfile.TemporaryDirectory() as tmp:
        def write(name, text):
            path = os.path.join(tmp, name)
            with open(path, "w") as f:
                f.write(text)
            return path
        clean = write("clean.py", "import torch\nx = torch.zeros(2)\n")
        bad = write("train.py", finding)
        quiet = write("quiet.py", finding.replace(
            "generator=noise)", "generator=noise)  # detc: ignore"
            "[detc-unsafe-rng] -- test noise").replace(
            "    opt.step()", "    opt.step()  # detc: ignore"
            "[detc-missing-zero-grad] -- accumulates on purpose"))

        def run(files):
            return subprocess.run(shlex.split(hook["entry"]) + files,
                                  capture_output=True, text=True, cwd=tmp,
                                  env=env)
        ok = run([clean, quiet])
        if ok.returncode != 0:
            sys.exit("FAIL: the hook failed on clean files:\n" + ok.stdout +
                     ok.stderr)
        failed = run([clean, bad])
        if failed.returncode != 1 or "[detc-unsafe-rng]" not in failed.stdout:
            sys.exit("FAIL: the hook did not fail with the finding (exit "
                     "%d):\n%s%s" % (failed.returncode, failed.stdout,
                                     failed.stderr))
    print("PASS: the pre-commit hook %s passes clean and suppressed files "
          "and fails on findings" % hook_id)


def main():
    check_hook("detc-analyze-system", "system", os.path.abspath(sys.argv[1]))


if __name__ == "__main__":
    main()
