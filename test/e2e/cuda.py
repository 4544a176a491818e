"""detc on a CUDA GPU (issue 43): the bundled GPU example
(examples/cuda_train.py: torchvision transforms in workers, dropout and
per-batch noise on the device, autocast + GradScaler) transformed gives
bit-identical weights for num_workers 0/1/2/4 and two thread counts;
SIGKILLed and resumed it ends bit-identical; a training loop transformed
with --jit-checkpoint (test/e2e/Inputs/jit_train.py on the GPU) restarts
bit-identical after injected exceptions, a hang and SIGTERM; keyed values
drawn on CUDA equal the C++ core's (runtime/python/tests/
test_device_streams.py's CUDA part). The steps run side by side (they
share the GPU; each checks values, not times). Without a CUDA device it
prints SKIP and exits 77 (ctest shows the test as skipped).

--device cpu runs the same steps on the CPU: a rehearsal of the harness
(scripts/device-check.sh), not a GPU test.

usage: cuda.py --detc BIN --runtime DIR [--device cpu]
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EXAMPLE = os.path.join(ROOT, "examples", "cuda_train.py")
JIT_SCRIPT = os.path.join(HERE, "Inputs", "jit_train.py")
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
    parser.add_argument("--device", default="cuda")
    args = parser.parse_args()
    device = args.device
    if device == "cuda" and not has_cuda():
        print("SKIP: no CUDA device (torch.cuda.is_available() is false for "
              "%s); the GPU tests run where one is present" % PY)
        return SKIPPED
    common = ["--detc", args.detc, "--runtime", args.runtime]
    env = dict(os.environ, DETC_E2E_PYTHON=PY)
    steps = [
        ("keyed values on %s == the core's" % device,
         [PY, os.path.join(ROOT, "runtime", "python", "tests",
                           "test_device_streams.py")],
         dict(env, PYTHONPATH=args.runtime)),
        ("determinism on %s, workers 0/1/2/4" % device,
         [sys.executable, os.path.join(HERE, "determinism.py")] + common +
         ["--workers-flag=--workers", "--extra=--device=" + device] +
         # On the CPU a convolution's sums depend on the thread count
         # (determinism.py --one-thread); on a GPU they do not.
         (["--one-thread"] if device == "cpu" else []) + [EXAMPLE], env),
        ("kill/resume on %s" % device,
         [sys.executable, os.path.join(HERE, "kill_resume.py")] + common +
         ["--trials", "6", EXAMPLE, "--", "--device", device, "--epochs",
          "3", "--workers", "2"], env),
        ("JIT restarts on %s" % device,
         [sys.executable, os.path.join(HERE, "jit_failures.py")] + common +
         ["--trials", "5", JIT_SCRIPT, "--", "--device", device,
          "--epochs", "2"], env),
    ]
    with concurrent.futures.ThreadPoolExecutor(len(steps)) as pool:
        results = list(pool.map(lambda step: run_step(*step), steps))
    failed = [name for name, ok in results if not ok]
    if failed:
        print("FAIL: " + ", ".join(failed))
        return 1
    print("PASS: " + device)
    return 0


def run_step(name, cmd, env):
    started = time.time()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    ok = proc.returncode == 0
    # One print per step: the steps' reports do not interleave.
    tail = "" if ok else "\n".join("    " + line for line in (
        proc.stdout + proc.stderr).strip().splitlines()[-15:])
    print("%-40s %s in %.0f s\n%s" % (name, "ok" if ok else "FAIL",
                                      time.time() - started, tail),
          end="" if ok else "\n", flush=True)
    return name, ok


if __name__ == "__main__":
    sys.exit(main())
