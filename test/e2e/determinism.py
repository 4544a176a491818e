#!/usr/bin/env python3
"""End-to-end determinism test on real PyTorch (SPEC §3, issue 5).

Transforms EXAMPLE with `detc transform --emit-python`, runs the transformed
script with num_workers in {0, 1, 2, 4} (one intra-op thread) and with two
intra-op threads, and requires the saved final weights to be bit-identical
across all runs. Runs the original script with num_workers 0 and 2 (one
thread) and requires that the two differ (the nondeterminism detc removes
is real; two runs show it, and three more would only cost time). Prints
one line per run with a digest of the weights.

usage: determinism.py --detc BIN --runtime DIR --workers-flag FLAG
       [--library SITE_PACKAGES] EXAMPLE
"""
import argparse
import concurrent.futures
import hashlib
import os
import subprocess
import sys
import tempfile

import zygote_client

# The Python that runs the scripts: Debian's (torch 1.13), or a venv's
# (torch 2.x, test/platform/torch2.py).
PY = os.environ.get("DETC_E2E_PYTHON", "/usr/bin/python3")
CONFIGS = [(0, 1), (1, 1), (2, 1), (4, 1), (0, 2)]  # (num_workers, threads)
ORIGINAL_CONFIGS = [(0, 1), (2, 1)]


def run(script, out, workers, threads, flag, runtime, extra, home,
        library=None):
    # `home`: the original script's directory, where its local modules are
    # (the transformed script runs from a temporary directory); `library`:
    # a site-packages folder of installed libraries it imports.
    path = [runtime, home] + ([library] if library else [])
    env = dict(os.environ, OMP_NUM_THREADS=str(threads),
               PYTHONPATH=os.pathsep.join(path),
               PYTHONWARNINGS="ignore")
    cmd = [PY, script, flag, str(workers), "--out", out] + extra
    # Forked from a server that imported torch with these thread settings
    # (zygote.py), as `PY script ...` would run.
    proc = zygote_client.run(cmd[1:], env, os.getcwd(), timeout=600)
    if proc.returncode != 0:
        sys.exit("FAIL: %s exited with %d\n%s" % (" ".join(cmd),
                                                   proc.returncode,
                                                   proc.stderr))
    return out


def weights_digest(path):
    """SHA-256 over every tensor's raw bytes, in state-dict order."""
    import torch

    state = torch.load(path)
    state = state.get("model", state)
    h = hashlib.sha256()
    for name, t in state.items():
        h.update(name.encode())
        h.update(str(t.dtype).encode())
        h.update(t.contiguous().numpy().tobytes())
    return h.hexdigest()[:16]


def runs(script, tag, tmp, args, configs):
    configs = [c for c in configs if not args.one_thread or c[1] == 1]
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        futures = [pool.submit(run, script,
                               os.path.join(tmp, "%s-w%d-t%d.pt" % (tag, w, t)),
                               w, t, args.workers_flag, args.runtime,
                               args.extra,
                               os.path.dirname(os.path.abspath(args.example)),
                               args.library)
                   for w, t in configs]
        paths = [f.result() for f in futures]
    digests = [weights_digest(p) for p in paths]
    for (w, t), d in zip(configs, digests):
        print("%-11s num_workers=%d threads=%d weights %s" % (tag, w, t, d))
    return digests


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--detc", required=True)
    parser.add_argument("--runtime", required=True)
    parser.add_argument("--workers-flag", required=True)
    parser.add_argument("--extra", nargs="*", default=[])
    # CPU convolutions split their work by thread count (not bit-identical
    # across thread counts, whatever detc does): models with convolutions
    # are compared across worker counts with one thread.
    parser.add_argument("--one-thread", action="store_true")
    # Installed libraries the script imports (read by detc from source).
    parser.add_argument("--library", metavar="SITE_PACKAGES")
    parser.add_argument("example")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        transformed = os.path.join(tmp, "train.det.py")
        env = dict(os.environ)
        if args.library:
            env["PYTHONPATH"] = args.library
        subprocess.run([args.detc, "transform", args.example, "--emit-python",
                        "--python", PY, "-o", transformed], check=True,
                       env=env)
        det = runs(transformed, "transformed", tmp, args, CONFIGS)
        orig = runs(args.example, "original", tmp, args, ORIGINAL_CONFIGS)
    ok = True
    if len(set(det)) != 1:
        print("FAIL: the transformed script's weights differ across runs")
        ok = False
    if len(set(orig)) == 1:
        print("FAIL: the original script gives the same weights with 0 "
              "and 2 workers; this example does not show the "
              "nondeterminism it is meant to")
        ok = False
    if ok:
        print("PASS: transformed bit-identical in all %d configurations; "
              "original differs with 0 and 2 workers" % len(det))
    return 0 if ok else 1


if __name__ == "__main__":
    try:
        code = main()
    finally:
        zygote_client.stop_all()
    sys.exit(code)
