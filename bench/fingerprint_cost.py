#!/usr/bin/env python3
"""What the self-verifying restore costs (docs/replay.md, "Self-verifying
restores"), against a baseline in the same run: recording a checkpoint's
fingerprint vs writing the same object with torch.save to a file and
fsyncing it, for three sizes of model + Adam state; and the per-minibatch
part a just-in-time checkpoint takes at every boundary (fingerprint.Moment)
vs a minibatch of the PGD example's model.

Two fingerprints, as the runtime records them:
  * a user checkpoint's (`torch.save(state, path)` in the script: replay
    sidecars): the global generators' states in full, detc's sequential
    stream offsets, the named generators of the checkpointing frame. The
    saved state's digests are taken at the resume, of the checkpoint as it
    loads, so nothing here grows with the state;
  * a hint's or just-in-time checkpoint's: the same, plus the sampled
    digests of the values it saves (detc's own encoding of them is what a
    restart decodes, so they are digested as saved).

Target: the fingerprint ≤ 1% of the checkpoint's write.

Each repetition goes in a run's order: the script builds the state it
saves (its state_dict() calls), the runtime records the fingerprint, the
checkpoint is written; the fingerprint is timed there, with the caches as
the previous write and the state's building leave them. Recorded back to
back, with everything it touches hot, it costs a fifth to a half of that
("hot", printed beside it). "one getenv" is what a single
os.environ.get costs at the same place (1-3 µs hot): the floor any code
the runtime runs there pays first.

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


def trained(model, device):
    opt = torch.optim.Adam(model.parameters())
    model(torch.randn(2, model[0].in_features,
                      device=device)).sum().backward()
    opt.step()
    return model, opt


def timed(fn, repeat):
    fn()  # warm: a training run writes many checkpoints (and the first
    # one locates numpy's and random's states: global_generators.py)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def timed_in_order(build, record, save, repeat):
    """Medians of record(obj) and save(obj), in a run's order: the script
    builds the state it saves (its state_dict() calls), the runtime
    records the fingerprint, the checkpoint is written (the previous
    repetition's write came before: the caches are as it leaves them)."""
    a, b = [], []
    for i in range(repeat + 1):
        obj = build()
        t0 = time.perf_counter()
        record(obj)
        t1 = time.perf_counter()
        save(obj)
        t2 = time.perf_counter()
        if i:  # the first warms (see timed)
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
    print("%-16s %7s %11s %22s %22s %18s %11s%s" % (
        "state", "MB", "save+fsync", "user checkpoint", "hint / JIT",
        "hot (user, hint)", "one getenv",
        "" if device.type == "cpu" else "  hint, whole copies"))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "ck.pt")
        for name, width, depth in (("PGD MLP 64-256", 256, 2),
                                   ("MLP 10 x 1024", 1024, 10),
                                   ("MLP 24 x 2048", 2048, 24)):
            model, opt = trained(model_of(width, depth).to(device), device)

            def build():
                return {"model": model.state_dict(),
                        "optimizer": opt.state_dict(), "epoch": 3}

            def save(obj):
                torch.save(obj, path)
                with open(path, "rb+") as f:
                    os.fsync(f.fileno())

            def user(obj):  # replay.checkpoint's
                fp = fingerprint.capture(frame)
                fp["state_from"] = "checkpoint"
                return fp

            def hint(obj):  # hints.write's
                fp = fingerprint.Moment(frame).encode()
                fp["state"] = {k: fingerprint.digest(v) for k, v in
                               obj.items()}
                return fp

            t_user, t_save = timed_in_order(build, user, save, args.repeat)
            t_hint = timed_in_order(build, hint, save, args.repeat)[0]
            # What any statement costs there: the run's own code after
            # the state is built pays it too.
            t_null = timed_in_order(build, lambda obj: os.environ.get(
                "DETC_VERIFY"), save, args.repeat)[0]
            obj = build()
            hot = (timed(lambda: user(obj), args.repeat),
                   timed(lambda: hint(obj), args.repeat))
            whole = ""
            if device.type != "cpu":
                # The earlier way, same run: every tensor copied whole.
                gathered = fingerprint._add_tensor
                fingerprint._add_tensor = lambda parts, t, full: \
                    parts.append(fingerprint._tensor_digest(t, full))
                try:
                    whole = " %10.3f ms" % (timed_in_order(
                        build, hint, save, args.repeat)[0] * 1e3)
                finally:
                    fingerprint._add_tensor = gathered
            print("%-16s %7.1f %8.2f ms %9.3f ms %7.2f%% %9.3f ms %7.2f%% "
                  "%6.3f, %.3f ms %8.1f us%s" % (
                      name, os.path.getsize(path) / 1e6, t_save * 1e3,
                      t_user * 1e3, 100 * t_user / t_save, t_hint * 1e3,
                      100 * t_hint / t_save, hot[0] * 1e3, hot[1] * 1e3,
                      t_null * 1e6, whole))
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
