#!/usr/bin/env python3
"""What the self-verifying restore costs (docs/replay.md, "Self-verifying
restores"), against a baseline in the same run: recording a checkpoint's
fingerprint (the global generators' states in full, detc's sequential
stream offsets, the named generators of the checkpointing frame, and the
sampled digests of the saved state) vs writing the same object with
torch.save to a file and fsyncing it, for three sizes of model + Adam
state; and the per-minibatch part a just-in-time checkpoint takes at every
boundary (fingerprint.Moment) vs a minibatch of the PGD example's model.

Target: the fingerprint ≤ 1% of the checkpoint's write.

Each repetition writes the checkpoint and then records its fingerprint, as
a run does: the fingerprint is timed with the caches as the write leaves
them ("after write"). Recorded back to back, with everything it touches
hot, it costs a quarter to a half of that ("hot", printed beside it): an
earlier version of this benchmark reported only the hot figure.

With --device cuda the state lives on the GPU, as a GPU run's does; the
fingerprint gathers each tensor's sampled windows there and copies them
to the host in one transfer. The "whole copies" column times the earlier
way in the same run (each tensor copied to the host whole, then sampled).

usage: PYTHONPATH=build/python fingerprint_cost.py [--repeat R]
           [--device DEV]
"""
import argparse
import os
import statistics
import sys
import tempfile
import time

import torch
import torch.nn as nn

from detc_runtime import fingerprint


def model_of(width, depth):
    layers = []
    for _ in range(depth):
        layers += [nn.Linear(width, width), nn.ReLU()]
    return nn.Sequential(*layers)


def state_of(model, device):
    opt = torch.optim.Adam(model.parameters())
    model(torch.randn(2, model[0].in_features,
                      device=device)).sum().backward()
    opt.step()
    return {"model": model.state_dict(), "optimizer": opt.state_dict(),
            "epoch": 3}


def timed(fn, repeat):
    fn()  # warm: a training run writes many checkpoints (and the first
    # one locates numpy's and random's states: global_generators.py)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def timed_after(first, then, repeat):
    """Medians of `first` and of `then` run right after it."""
    first()
    then()
    a, b = [], []
    for _ in range(repeat):
        t0 = time.perf_counter()
        first()
        t1 = time.perf_counter()
        then()
        t2 = time.perf_counter()
        a.append(t1 - t0)
        b.append(t2 - t1)
    return statistics.median(a), statistics.median(b)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--device", default="cpu")
    args = parser.parse_args()
    device = torch.device(args.device)
    frame = sys._getframe()
    g = torch.Generator().manual_seed(1)  # a named generator to find
    print("%-22s %10s %12s %12s %8s %12s%s" % (
        "state", "MB", "save+fsync", "after write", "ratio", "hot",
        "" if device.type == "cpu" else "  whole copies"))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "ck.pt")
        for name, width, depth in (("PGD MLP 64-256", 256, 2),
                                   ("MLP 10 x 1024", 1024, 10),
                                   ("MLP 24 x 2048", 2048, 24)):
            obj = state_of(model_of(width, depth).to(device), device)

            def save():
                torch.save(obj, path)
                with open(path, "rb+") as f:
                    os.fsync(f.fileno())

            def record():
                fp = fingerprint.Moment(frame).encode()
                fp["state"] = {k: fingerprint.digest(v) for k, v in
                               obj.items()}
                return fp

            t_save, t_fp = timed_after(save, record, args.repeat)
            t_hot = timed(record, args.repeat)
            whole = ""
            if device.type != "cpu":
                # The earlier way, same run: every tensor copied whole.
                gathered = fingerprint._add_tensor
                fingerprint._add_tensor = lambda parts, t, full: \
                    parts.append(fingerprint._tensor_digest(t, full))
                try:
                    whole = " %10.3f ms" % (
                        timed_after(save, record, args.repeat)[1] * 1e3)
                finally:
                    fingerprint._add_tensor = gathered
            print("%-22s %10.1f %10.2f ms %10.3f ms %7.2f%% %10.3f ms%s" % (
                name, os.path.getsize(path) / 1e6, t_save * 1e3, t_fp * 1e3,
                100 * t_fp / t_save, t_hot * 1e3, whole))
    model = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(32, 64), torch.randint(0, 4, (32,))

    def minibatch():
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()

    t_mb = timed(minibatch, 200)
    t_moment = timed(lambda: fingerprint.Moment(frame, boundary=True), 200)
    print("JIT boundary: Moment %.1f us per minibatch of %.0f us (%.2f%%)" %
          (t_moment * 1e6, t_mb * 1e6, 100 * t_moment / t_mb))
    del g


if __name__ == "__main__":
    main()
