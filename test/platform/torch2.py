"""detc on PyTorch 2.x: the runtime's tests, the API tables against torch
2.x's own source, and end-to-end determinism and resume tests, run with
pip's CPU torch in a virtual environment this script creates (the rest of
the suite runs on Debian's torch 1.13).

The venv is made once per build directory (`--venv`; `pip install
torch==VERSION 'numpy<2' tqdm pytorch_lightning`, a few minutes) and reused while it holds
that torch. The e2e tests chosen (the suite's time budget does not allow
all of them twice): determinism and kill/resume of a script written for
torch 2.x (torch.compile, autocast, a GradScaler live on the CPU,
torch.accelerator, a checkpoint holding an argparse.Namespace read back
under torch 2.x's weights_only default and safe_globals), which covers
the keyed loader, keyed dropout and noise the PGD example has too; and
determinism of a script whose training loop is PyTorch Lightning's
(`trainer.fit`: the venv also gets pytorch_lightning).
"""
import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


# What the tests' scripts load: a compiled model with dropout, autocast, a
# GradScaler, an optimizer step, a DataLoader, torch.distributed,
# torch.distributions.
WARM_UP = """
import numpy, tqdm, torch, torch.distributed, torch.distributions
import pytorch_lightning
from torch.utils.data import DataLoader
model = torch.compile(torch.nn.Sequential(torch.nn.Linear(2, 2),
                                          torch.nn.Dropout(0.5)),
                      backend="eager")
opt = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cpu")
for x in DataLoader(torch.ones(4, 2), batch_size=2):
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        loss = model(x).float().sum()
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
"""


def venv_python(venv, version, base):
    py = os.path.join(venv, "bin", "python")
    probe = ("import torch, numpy, tqdm, pytorch_lightning; "
             "print(torch.__version__)")
    if os.path.exists(py):
        have = subprocess.run([py, "-c", probe], capture_output=True,
                              text=True)
        if have.returncode == 0 and have.stdout.startswith(version):
            return py
    started = time.time()
    subprocess.run([base, "-m", "venv", "--clear", venv], check=True)
    # --no-compile: pip would byte-compile all of torch's ~5,000 modules,
    # half of the install's minute. WARM_UP then loads (and so compiles)
    # the modules the tests use, with bytecode writing on even where
    # PYTHONDONTWRITEBYTECODE is set (there, nothing else would ever write
    # them, and every run would compile them again).
    subprocess.run([py, "-m", "pip", "install", "-q", "--disable-pip-version-"
                    "check", "--no-compile", "torch==" + version, "numpy<2",
                    "tqdm", "pytorch_lightning"], check=True)
    env = {k: v for k, v in os.environ.items()
           if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([py, "-c", WARM_UP], env=env, check=True)
    print("created %s with torch %s in %.0f s" % (venv, version,
                                                  time.time() - started))
    return py


def step(name, cmd, env, expect=None):
    """Runs `cmd`; it passes when it exits 0 and, with `expect`, prints
    that text."""
    started = time.time()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    tail = (proc.stdout + proc.stderr).strip().splitlines()[-12:]
    ok = proc.returncode == 0 and (expect is None or expect in proc.stdout)
    status = "ok" if ok else "FAIL (exit %d%s)" % (
        proc.returncode, "" if expect is None or expect in proc.stdout
        else ", no '%s'" % expect)
    print("%-34s %s in %.0f s" % (name, status, time.time() - started))
    if not ok:
        print("\n".join("    " + line for line in tail))
    return ok


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--detc", required=True)
    parser.add_argument("--runtime", required=True)
    parser.add_argument("--venv", required=True)
    parser.add_argument("--torch", default="2.13.0")
    args = parser.parse_args()
    py = venv_python(args.venv, args.torch, sys.executable)
    env = dict(os.environ, PYTHONPATH=args.runtime, DETC_E2E_PYTHON=py,
               PYTHONWARNINGS="ignore")
    tests = os.path.join(ROOT, "runtime", "python", "tests")
    e2e = os.path.join(ROOT, "test", "e2e")
    common = ["--detc", args.detc, "--runtime", args.runtime]
    steps = [
        ("runtime: device streams",
         [py, os.path.join(tests, "test_device_streams.py")]),
        ("runtime: unit tests", [py, os.path.join(tests, "test_runtime.py")]),
        # The replay tests that load and resume (torch.load's defaults
        # changed in 2.x); the sidecar, path and input checks do not
        # depend on torch's version.
        ("runtime: replay (resumes)",
         [py, os.path.join(tests, "test_replay.py"), "-k", "resume",
          "-k", "sigkill", "-k", "replay_until", "-k", "renames",
          "-k", "CheckpointFile"]),
        ("API tables vs torch.nn's source",
         [py, os.path.join(ROOT, "test", "tools", "api_tables_vs_library.py"),
          "--detc", args.detc]),
        ("e2e: determinism, torch 2.x script",
         [sys.executable, os.path.join(e2e, "determinism.py")] + common +
         ["--workers-flag=--workers",
          os.path.join(e2e, "Inputs", "torch2_train.py")]),
        # The loop is Lightning's: the dataset's draws in the workers and
        # the module's in training_step are found and keyed through the
        # call that hands the loader over.
        ("e2e: determinism, Lightning loop",
         [sys.executable, os.path.join(e2e, "determinism.py")] + common +
         ["--workers-flag=--workers",
          os.path.join(e2e, "Inputs", "lightning_train.py")]),
        ("e2e: kill/resume, torch 2.x script",
         [sys.executable, os.path.join(e2e, "kill_resume.py")] + common +
         ["--trials", "4", os.path.join(e2e, "Inputs", "torch2_train.py"),
          "--", "--epochs", "4"]),
        # A whole model saved into an open file, loaded back at the end
        # with safe_globals([..., nn.Dropout]) (weights_only's default).
        ("e2e: kill/resume, a whole model in an open file",
         [sys.executable, os.path.join(e2e, "kill_resume.py")] + common +
         ["--trials", "2",
          os.path.join(e2e, "Inputs", "open_file_checkpoint_train.py")]),
        # The script's own resume (torch.load wrapped, weights_only's
        # default of 2.6 on): it continues the run that wrote the
        # checkpoint.
        ("e2e: kill and the script's own resume",
         [sys.executable, os.path.join(e2e, "kill_resume.py")] + common +
         ["--trials", "2", "--own",
          os.path.join(e2e, "Inputs", "own_resume_train.py")]),
    ]
    # The audit (the analysis's dynamic oracle) under torch 2.x: the
    # augment example's four draws inside regions, as under torch 1.13
    # (test/tools/audit.test). Its runtime folder once shadowed the
    # standard library's `profile`, which torch 2.x's dynamo imports.
    audit = ("detc audit, torch 2.x",
             [args.detc, "audit", "--python=" + py, "--steps", "2",
              os.path.join(ROOT, "examples", "augment_train.py"),
              "--workers", "2"],
             "4 draw site(s) inside data-parallel regions")
    failed = [name for name, cmd in steps if not step(name, cmd, env)]
    if not step(audit[0], audit[1], env, expect=audit[2]):
        failed.append(audit[0])
    if failed:
        sys.exit("FAIL: under torch %s: %s" % (args.torch, ", ".join(failed)))
    print("PASS: torch %s" % args.torch)


if __name__ == "__main__":
    main()
