#!/usr/bin/env python3
"""What faithful replay costs (issue 6), measured against a baseline in the
same run:

  * fast-forward: for each checkpoint of the transformed PGD example, the
    time from the start of the training loop to `resumed()` when resuming
    from it, against the time the uninterrupted run took from the start of
    its training loop to committing that checkpoint (the training the
    resume replaces); the setup before the loop (data, model) runs in both
    and is shown apart. The same for bench/inputs/validate_each_epoch.py,
    which validates after each epoch with a function also called before
    the loop (ImageNet's and DeiT's shape): its passes in the loop are
    work fast-forward skips too;
  * sidecar size: bytes beside the user's checkpoint, per checkpoint site:
    detc's own part (format, hashes, seeds, positions) and the values the
    Needed analysis makes it save (state the user's checkpoint misses);
  * write overhead: a checkpoint through `_detc_rt.checkpoint` (temp file,
    two fsyncs, two renames, directory fsync, sidecar) against the script's
    own `torch.save` of the same object to the same path.

usage: PYTHONPATH=build/python replay_cost.py [--detc build/bin/detc]
       [-- SCRIPT_ARGS]   (default: --epochs 4 --examples 4096
                           --ckpt-every 32 --features 64 --hidden 256)
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

PY = "/usr/bin/python3"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Runs SCRIPT with timestamps (seconds after the imports) of every
# committed checkpoint and of the end of fast-forward, as JSON on the file
# descriptor named by DETC_BENCH_FD.
PROBE = r'''
import json, os, runpy, sys, time
import torch, detc_runtime
from detc_runtime import replay, sidecar
t0 = time.perf_counter()
events = {"commits": [], "resumed": None, "first_batch": None}
from detc_runtime import data
iterate = data.KeyedDataLoader.__iter__
def timed_iter(self):
    if events["first_batch"] is None:
        events["first_batch"] = time.perf_counter() - t0
    return iterate(self)
data.KeyedDataLoader.__iter__ = timed_iter
commit = sidecar.commit
def timed_commit(*args, **kwargs):
    result = commit(*args, **kwargs)
    events["commits"].append(time.perf_counter() - t0)
    return result
sidecar.commit = timed_commit
resumed = replay.resumed
def timed_resumed(*args, **kwargs):
    events["resumed"] = time.perf_counter() - t0
    return resumed(*args, **kwargs)
replay.resumed = timed_resumed
detc_runtime.resumed = timed_resumed
sys.argv = sys.argv[1:]
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
finally:
    with os.fdopen(int(os.environ["DETC_BENCH_FD"]), "w") as f:
        json.dump(events, f)
'''


def probe(script, args, env):
    r, w = os.pipe()
    env = dict(env, DETC_BENCH_FD=str(w))
    proc = subprocess.Popen([PY, "-c", PROBE, script] + args, env=env,
                            pass_fds=(w,), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    os.close(w)
    with os.fdopen(r) as f:
        data = f.read()
    _, err = proc.communicate()
    if proc.returncode != 0:
        sys.exit("bench: %s failed\n%s" % (script, err))
    return json.loads(data)


def transform(detc, example, tmp):
    out = os.path.join(tmp, os.path.basename(example) + ".det.py")
    subprocess.run([detc, "transform", example, "--emit-python", "-o", out],
                   check=True)
    return out


def fast_forward(detc, tmp, env, extra, example, label):
    script = transform(detc, example, tmp)
    snaps = os.path.join(tmp, "snaps-" + label)
    os.makedirs(snaps)
    out = os.path.join(tmp, label + ".pt")
    # Keep every committed checkpoint (the script overwrites one path).
    keep = os.path.join(tmp, "keep.py")
    with open(keep, "w") as f:
        f.write("import os, shutil, sys, runpy\n"
                "from detc_runtime import sidecar\n"
                "commit = sidecar.commit\n"
                "n = [0]\n"
                "def keep(checkpoint, *a, **k):\n"
                "    r = commit(checkpoint, *a, **k)\n"
                "    d = os.path.join(%r, '%%03d' %% n[0]); n[0] += 1\n"
                "    os.makedirs(d)\n"
                "    for p in (checkpoint, sidecar.sidecar_path(checkpoint)):\n"
                "        shutil.copy(p, d)\n"
                "    return r\n"
                "sidecar.commit = keep\n"
                "sys.argv = sys.argv[1:]\n"
                "runpy.run_path(sys.argv[0], run_name='__main__')\n" % snaps)
    # Committed in full when commit() returns (else the sidecar is renamed
    # into place later, off the training loop, and copying it races).
    full = probe(keep, [script, "--out", out] + extra,
                 dict(env, DETC_SYNC_CHECKPOINTS="1"))
    commits, setup = full["commits"], full["first_batch"]
    print("fast-forward (%s, %s): setup %.3fs, training %.2fs, %d "
          "checkpoints" % (label, " ".join(extra), setup,
                           commits[-1] - setup, len(commits)))
    print("  %-10s %12s %14s %8s" % ("checkpoint", "training s",
                                       "fast-forward s", "ratio"))
    ratios = []
    names = sorted(os.listdir(snaps))
    picks = sorted({0, len(names) // 4, len(names) // 2,
                    3 * len(names) // 4, len(names) - 1})
    for i in picks:
        into = os.path.join(tmp, "resume-%s-%03d" % (label, i))
        os.makedirs(into)
        for f in os.listdir(os.path.join(snaps, names[i])):
            os.replace(os.path.join(snaps, names[i], f),
                       os.path.join(into, f))
        # (the regular checkpoint, or the best one of the validating script)
        ckpt = next(os.path.join(into, f) for f in os.listdir(into)
                    if not f.endswith(".detc.json"))
        runs = [probe(script, ["--out", ckpt + ".%d" % r, "--detc-resume",
                               ckpt] + extra, env) for r in range(3)]
        ff = statistics.median(r["resumed"] - r["first_batch"] for r in runs)
        training = commits[i] - setup
        ratios.append(ff / training)
        print("  %-10s %12.3f %14.4f %7.2f%%" % (
            names[i] + (" best" if ckpt.endswith(".best") else ""), training,
            ff, 100 * ff / training))
    print("  worst ratio %.2f%% (target < 2%%)" % (100 * max(ratios)))


def sidecar_sizes(detc, tmp, env):
    print("sidecar size beside the user's checkpoint (largest per site):")
    for example, args in (("pgd_train.py", ["--epochs", "1",
                                            "--ckpt-every", "4"]),
                          ("augment_train.py", ["--epochs", "1",
                                                "--workers", "0",
                                                "--ckpt-every", "4"]),
                          ("stateful_train.py", ["--epochs", "1"])):
        script = transform(detc, os.path.join(ROOT, "examples", example), tmp)
        snaps = os.path.join(tmp, "sizes-" + example)
        out = os.path.join(tmp, example + ".pt")
        subprocess.run([PY, os.path.join(ROOT, "test", "e2e",
                                         "fault_inject.py"),
                        "--snapshot", snaps, script, "--out", out] + args,
                       env=env, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        largest = {}
        for d in sorted(os.listdir(snaps)):
            side = os.path.join(snaps, d, os.path.basename(out) + ".detc.json")
            with open(side, "rb") as f:
                body = json.loads(f.readline())
            size = os.path.getsize(side)
            if size >= largest.get(body["site"], (0,))[0]:
                table = (body.get("payload") or {}).get("tensors") or []
                largest[body["site"]] = (size, {
                    k: value_bytes(v, table)
                    for k, v in body["values"].items()})
        for site, (size, values) in sorted(largest.items()):
            own = size - sum(values.values())
            print("  %-18s site %d: %6d bytes = detc's own ~%d + values: %s"
                  % (example, site, size, own,
                     ", ".join("%s %d B" % kv for kv in values.items())
                     or "none"))


def value_bytes(encoded, table):
    """A saved value's bytes in its sidecar: its JSON, and the payload's
    bytes of the tensors it refers to (sidecar version 2)."""
    refs, work = [], [encoded]
    while work:
        v = work.pop()
        if isinstance(v, dict):
            if isinstance(v.get("tensor_ref"), int):
                refs.append(v["tensor_ref"])
            work.extend(v.values())
        elif isinstance(v, list):
            work.extend(v)
    return len(json.dumps(encoded)) + sum(table[i]["size"] for i in refs
                                          if i < len(table))


def write_overhead(tmp):
    import torch
    import torch.nn as nn

    from detc_runtime import replay

    model = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    model(torch.randn(8, 64)).sum().backward()
    opt.step()
    loss = torch.tensor(1.5)
    path = os.path.join(tmp, "w.pt")
    save = replay.checkpoint(99, torch.save, {"loss": lambda: loss})

    def state():
        return {"model": model.state_dict(), "optimizer": opt.state_dict()}

    plain, ours = [], []
    for _ in range(30):
        for fn, into in ((torch.save, plain), (save, ours)):
            start = time.perf_counter()
            fn(state(), path)
            into.append(time.perf_counter() - start)
    p, o = statistics.median(plain), statistics.median(ours)
    print("write overhead per checkpoint (%d-byte checkpoint): torch.save "
          "%.2f ms, with sidecar and atomic commit %.2f ms (+%.2f ms, "
          "%.1fx; fsyncs included)" % (os.path.getsize(path), 1e3 * p,
                                       1e3 * o, 1e3 * (o - p), o / p))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--detc", default=os.path.join(ROOT, "build", "bin",
                                                       "detc"))
    parser.add_argument("extra", nargs="*")
    args = parser.parse_args()
    extra = args.extra or ["--epochs", "4", "--examples", "4096",
                           "--ckpt-every", "32", "--features", "64",
                           "--hidden", "256"]
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONWARNINGS="ignore")
    with tempfile.TemporaryDirectory(prefix="detc-bench-") as tmp:
        fast_forward(args.detc, tmp, env, extra,
                     os.path.join(ROOT, "examples", "pgd_train.py"), "pgd")
        # Validation after each epoch, by a function also called before
        # the loop: fast-forward skips the passes the loop makes.
        fast_forward(args.detc, tmp, env, ["--epochs", "4", "--val", "8192"],
                     os.path.join(ROOT, "bench", "inputs",
                                  "validate_each_epoch.py"), "validating")
        sidecar_sizes(args.detc, tmp, env)
        write_overhead(tmp)


if __name__ == "__main__":
    main()
