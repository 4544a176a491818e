"""detc on a CUDA GPU (issue 43): the bundled GPU example
(examples/cuda_train.py: torchvision transforms in workers, dropout and
per-batch noise on the device, autocast + GradScaler) transformed gives
bit-identical weights for num_workers 0/1/2/4 and two thread counts;
SIGKILLed and resumed it ends bit-identical; keyed values drawn on CUDA
equal the C++ core's (runtime/python/tests/test_device_streams.py's CUDA
part). Without a CUDA device it prints SKIP and exits 77 (ctest shows the
test as skipped).

usage: cuda.py --detc BIN --runtime DIR
"""
import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EXAMPLE = os.path.join(ROOT, "examples", "cuda_train.py")
# The Python that runs the scripts: the one with CUDA torch.
PY = os.environ.get("DETC_E2E_PYTHON", sys.executable)
SKIPPED = 77


def has_cuda():
    probe = subprocess.run([PY, "-c", "import torch, sys; "
                            "sys.exit(0 if torch.cuda.is_available() else 1)"],
                           capture_output=True)
    return probe.returncode == 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--detc", required=True)
    parser.add_argument("--runtime", required=True)
    args = parser.parse_args()
    if not has_cuda():
        print("SKIP: no CUDA device (torch.cuda.is_available() is false for "
              "%s); the GPU tests run where one is present" % PY)
        return SKIPPED
    common = ["--detc", args.detc, "--runtime", args.runtime]
    env = dict(os.environ, DETC_E2E_PYTHON=PY)
    steps = [
        ("keyed values on CUDA == the core's",
         [PY, os.path.join(ROOT, "runtime", "python", "tests",
                           "test_device_streams.py")],
         dict(env, PYTHONPATH=args.runtime)),
        ("determinism on CUDA, workers 0/1/2/4",
         [sys.executable, os.path.join(HERE, "determinism.py")] + common +
         ["--workers-flag=--workers", "--extra=--device=cuda", EXAMPLE], env),
        ("kill/resume on CUDA",
         [sys.executable, os.path.join(HERE, "kill_resume.py")] + common +
         ["--trials", "6", EXAMPLE, "--", "--device", "cuda", "--epochs",
          "3", "--workers", "2"], env),
    ]
    failed = []
    for name, cmd, step_env in steps:
        started = time.time()
        proc = subprocess.run(cmd, env=step_env, capture_output=True,
                              text=True)
        ok = proc.returncode == 0
        print("%-40s %s in %.0f s" % (name, "ok" if ok else "FAIL",
                                      time.time() - started))
        if not ok:
            failed.append(name)
            print("\n".join("    " + line for line in (
                proc.stdout + proc.stderr).strip().splitlines()[-15:]))
    if failed:
        print("FAIL: " + ", ".join(failed))
        return 1
    print("PASS: CUDA")
    return 0


if __name__ == "__main__":
    sys.exit(main())
