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
  * a hint's or just-in-time checkpoint's: the same; its values are
    compared at the restart too, as the checkpoint holds them, each
    restored value encoded again (hints._saved_digests; until session 85
    the live values were digested here, 2-3% of a 1.6 MB write).

Target: the fingerprint ≤ 1% of the checkpoint's write.

Both are taken after the checkpoint is written, while the runtime core
hashes the file on its worker thread (sidecar.tied_body): they cost the
write only what they take beyond the hash. So two numbers per kind:
  * "taken": how long the fingerprint takes, in a run's order (the script
    builds the state it saves, detc writes the checkpoint and takes the
    fingerprint; the caches as that leaves them): what it would add were
    it not overlapped, and an upper bound on what it adds;
  * "adds": what it adds to detc's whole checkpoint call, the median of
    paired differences between that call with the fingerprint and the
    same call with a fixed one put in its place, alternating. Differences
    below the write's noise read as 0 ± the noise (the 126 MB and 1.2 GB
    rows: milliseconds of disk noise);
both against the script's own torch.save of the same state plus an fsync
("save+fsync"), timed in the same run.

With --device cuda the state lives on the GPU, as a GPU run's does; the
fingerprint gathers each tensor's sampled windows there and copies them
to the host in one transfer.

usage: PYTHONPATH=build/python fingerprint_cost.py [--repeat R]
           [--device DEV]
"""
import argparse
import os
import random
import statistics
import sys
import tempfile
import time

import torch
import torch.nn as nn

from detc_runtime import fingerprint, hints, replay, sidecar


def model_of(width, depth):
    layers = []
    for _ in range(depth):
        layers += [nn.Linear(width, width), nn.ReLU()]
    return nn.Sequential(*layers)


def timed(fn, repeat):
    fn()  # warm: a training run writes many checkpoints (and the first
    # one locates numpy's and random's states: global_generators.py)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


class Taken:
    """Times every call of module.name (the fingerprint as the runtime
    takes it), or puts a fixed result in its place."""

    def __init__(self, module, name):
        self.module, self.name = module, name
        self.real = getattr(module, name)
        self.times, self.fixed = [], None

    def timing(self):
        def call(*args, **kwargs):
            t0 = time.perf_counter()
            result = self.real(*args, **kwargs)
            self.times.append(time.perf_counter() - t0)
            return result
        setattr(self.module, self.name, call)

    def replaced(self, fixed):
        setattr(self.module, self.name, lambda *args, **kwargs: fixed())

    def restore(self):
        setattr(self.module, self.name, self.real)


class FixedMoment:
    """A hint's fingerprint put in the place of the real one: what it
    recorded once, without recording anything."""

    def __init__(self, frame):
        self.mode = "off"
        self.fp = fingerprint.Moment(frame).encode()

    def encode(self):
        return dict(self.fp)


def in_order(step, build, calls, repeat):
    """Per call of `calls` (name -> fn(state)), the times of each
    repetition in a run's order: a minibatch, the previous checkpoint's
    durability tail done (a run checkpoints minutes apart), the script
    builds the state, the call writes it. Each repetition runs every
    call once, in a shuffled order: what one call leaves behind (a page
    cache, a tail) favours no call in particular."""
    times = {name: [] for name in calls}
    order = list(calls)
    shuffle = random.Random(1).shuffle
    for i in range(repeat + 1):
        shuffle(order)
        for name in order:
            call = calls[name]
            step()
            sidecar.DURABILITY.wait()
            obj = build()
            t0 = time.perf_counter()
            call(obj)
            if i:  # the first warms (see timed)
                times[name].append(time.perf_counter() - t0)
    return times


def median_ms(times):
    return statistics.median(times) * 1e3


def paired_ms(with_it, without):
    """The median of the paired differences and the upper end of its 95%
    confidence interval (order statistics: no assumption about the
    noise's shape), in ms."""
    d = sorted(a - b for a, b in zip(with_it, without))
    upper = min(len(d) - 1, int(len(d) / 2 + 1.96 * len(d) ** 0.5 / 2 + 1))
    return statistics.median(d) * 1e3, d[upper] * 1e3


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=0,
                        help="repetitions per size (default: 500 for the "
                        "smallest state, where what the fingerprint adds "
                        "is within the noise, 15 and 5 for the larger "
                        "ones, where what it takes is)")
    parser.add_argument("--device", default="cpu")
    args = parser.parse_args()
    device = torch.device(args.device)
    frame = sys._getframe()
    g = torch.Generator().manual_seed(1)  # a named generator to find
    print("%-16s %7s %10s  %-36s  %-36s" % (
        "state", "MB", "save+fsync", "user checkpoint: taken, adds (95%)",
        "hint / JIT: taken, adds (95%)"))
    verdicts = []
    with tempfile.TemporaryDirectory() as tmp:
        # Each kind replaces only its own last checkpoint (a detc commit
        # over a file something else wrote checks the old pair first).
        path, user_path, hint_path = (os.path.join(tmp, name) for name in (
            "plain.pt", "user.pt", "hint.pt"))
        for (name, width, depth), repeat in zip(
                (("PGD MLP 64-256", 256, 2), ("MLP 10 x 1024", 1024, 10),
                 ("MLP 24 x 2048", 2048, 24)), (500, 15, 5)):
            repeat = args.repeat or repeat
            model = model_of(width, depth).to(device)
            opt = torch.optim.Adam(model.parameters())
            x = torch.randn(8, width, device=device)

            def step():
                opt.zero_grad()
                model(x).sum().backward()
                opt.step()

            def build():
                return {"model": model.state_dict(),
                        "optimizer": opt.state_dict(), "epoch": 3}

            def plain(obj):
                torch.save(obj, path)
                with open(path, "rb+") as f:
                    os.fsync(f.fileno())

            checkpoint = replay.checkpoint(99, torch.save, {})

            def user(obj):
                checkpoint(obj, user_path)
            values = {"model": lambda: model, "optimizer": lambda: opt}

            def hint(obj, moment=None):
                hints.write(1, 0, values, path=hint_path, moment=moment)

            fixed_fp = fingerprint.capture(frame)
            fixed_moment = FixedMoment(frame)
            taken_user = Taken(fingerprint, "capture")
            taken_hint = Taken(hints, "_fingerprint")

            def fixed(call, taken, result):
                def run(obj):
                    taken.replaced(result)
                    try:
                        call(obj)
                    finally:
                        taken.timing()
                return run

            taken_user.timing()
            taken_hint.timing()
            try:
                # Each real call paired with its fixed twin, run next.
                times = in_order(step, build, {
                    "plain": plain, "user": user,
                    "user fixed": fixed(user, taken_user,
                                        lambda: dict(fixed_fp)),
                    "hint": hint,
                    "hint fixed": fixed(lambda obj: hint(obj, fixed_moment),
                                        taken_hint, fixed_moment.encode)},
                    repeat)
            finally:
                taken_user.restore()
                taken_hint.restore()
            t_save = median_ms(times["plain"])
            line = "%-16s %7.1f %7.2f ms" % (
                name, os.path.getsize(path) / 1e6, t_save)
            for kind, taken in (("user", taken_user), ("hint", taken_hint)):
                t_taken = median_ms(taken.times[-repeat:])
                adds, upper = paired_ms(times[kind], times[kind + " fixed"])
                line += "  %6.3f ms %5.2f%%, %+8.3f ms (<%6.2f%%)" % (
                    t_taken, 100 * t_taken / t_save, adds,
                    100 * upper / t_save)
                # Within the target when what it takes is, or when what
                # it adds is, with 95% confidence.
                verdicts.append((kind, name, min(t_taken, upper) <= (
                    0.01 * t_save)))
            print(line)
        sidecar.DURABILITY.wait()  # the last commit's tail, in tmp
    for kind in ("user", "hint"):
        missed = [name for k, name, ok in verdicts if k == kind and not ok]
        print("%s checkpoints: fingerprint <= 1%% of the write: %s" % (
            kind, "yes, every size" if not missed else
            "no: " + ", ".join(missed)))
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
