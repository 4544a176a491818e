#!/usr/bin/env python3
"""Per-example invariance on real PyTorch (SPEC §3, issue 5).

Transforms Inputs/probe_train.py and runs it as: batch size 8, batch size 32
(two workers), and DDP on gloo over loopback with world size 2 (two
processes, batch size 4 per rank). For every (epoch, example) the augmented
input, the noise row and the dropout mask must be bit-identical across the
three runs. The original script, run with batch sizes 8 and 32, must give
some example different values (what detc fixes is real).

usage: per_example.py --detc BIN --runtime DIR
"""
import argparse
import os
import pickle
import socket
import subprocess
import sys
import tempfile

# The Python that runs the scripts: Debian's (torch 1.13), or a venv's
# (torch 2.x, test/platform/torch2.py).
PY = os.environ.get("DETC_E2E_PYTHON", "/usr/bin/python3")
HERE = os.path.dirname(os.path.abspath(__file__))
PROBE = os.path.join(HERE, "Inputs", "probe_train.py")
FIELDS = ("input", "noise", "dropout mask")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def launch(script, dump, batch, workers, runtime, world):
    procs = []
    port = str(free_port())
    for rank in range(world):
        env = dict(os.environ, PYTHONPATH=runtime, PYTHONWARNINGS="ignore",
                   OMP_NUM_THREADS="1")
        if world > 1:
            env.update(RANK=str(rank), WORLD_SIZE=str(world),
                       MASTER_ADDR="127.0.0.1", MASTER_PORT=port)
        cmd = [PY, script, "--batch-size", str(batch), "--workers",
               str(workers), "--dump", "%s.%d" % (dump, rank)]
        procs.append((cmd, subprocess.Popen(cmd, env=env,
                                            stderr=subprocess.PIPE,
                                            text=True)))
    record = {}
    for cmd, p in procs:
        _, err = p.communicate(timeout=300)
        if p.returncode != 0:
            sys.exit("FAIL: %s exited with %d\n%s" % (" ".join(cmd),
                                                       p.returncode, err))
    for rank in range(world):
        with open("%s.%d" % (dump, rank), "rb") as f:
            part = pickle.load(f)
        overlap = set(part) & set(record)
        if overlap:
            sys.exit("FAIL: ranks processed the same examples: %s"
                     % sorted(overlap)[:5])
        record.update(part)
    return record


def compare(a, b):
    """Keys whose values differ in any field, and keys missing from one."""
    differ = [k for k in a if k in b and any(
        x.tobytes() != y.tobytes() or x.dtype != y.dtype
        for x, y in zip(a[k], b[k]))]
    missing = set(a) ^ set(b)
    return differ, missing


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--detc", required=True)
    parser.add_argument("--runtime", required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        det = os.path.join(tmp, "probe.det.py")
        subprocess.run([args.detc, "transform", PROBE, "--emit-python", "-o",
                        det], check=True)
        runs = {
            "batch 8": launch(det, os.path.join(tmp, "b8"), 8, 0,
                              args.runtime, 1),
            "batch 32, 2 workers": launch(det, os.path.join(tmp, "b32"), 32, 2,
                                          args.runtime, 1),
            "DDP world 2, batch 4": launch(det, os.path.join(tmp, "ddp"), 4, 0,
                                           args.runtime, 2),
        }
        orig8 = launch(PROBE, os.path.join(tmp, "o8"), 8, 0, args.runtime, 1)
        orig32 = launch(PROBE, os.path.join(tmp, "o32"), 32, 0, args.runtime, 1)
    ok = True
    names = list(runs)
    base = runs[names[0]]
    print("transformed: %d (epoch, example) records per run" % len(base))
    for name in names[1:]:
        differ, missing = compare(base, runs[name])
        status = "identical" if not differ and not missing else "DIFFERENT"
        print("transformed %-22s vs %s: %s (%d differ, %d missing)"
              % (name, names[0], status, len(differ), len(missing)))
        ok = ok and not differ and not missing
    differ, missing = compare(orig8, orig32)
    print("original    batch 32 vs batch 8: %d of %d examples differ"
          % (len(differ), len(orig8)))
    if not differ:
        print("FAIL: the original gives every example the same values at "
              "both batch sizes; the probe does not show the problem")
        ok = False
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
