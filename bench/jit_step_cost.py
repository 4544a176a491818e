#!/usr/bin/env python3
"""What just-in-time checkpointing costs per minibatch, in process (issue
19, docs/jit.md): the boundary (what a checkpoint of the minibatch start
keeps: buffers, values, generator states — and, after a minibatch that did
not step, a copy of the accumulated gradients), the step wrapper, and the
copy `--jit-checkpoint=guard-step` takes before each step — each against
the time of a minibatch without them measured in the same run. The calls
are timed where they run, inside the training loop (differences between
whole loops with and without them are far noisier on a shared 2-core
machine than these costs); the step wrapper itself is two assignments.

Two sizes: the PGD example's model at its larger size (an MLP 64-256-4,
batch 32) and a realistic one (torchvision ResNet-18, 11.7M parameters,
batch 16 of 64x64 images, momentum SGD).

usage: PYTHONPATH=build/python /usr/bin/python3 bench/jit_step_cost.py
       [--blocks B] [--steps S]
"""
import argparse
import statistics
import time

import torch
import torch.nn.functional as F
from torch import nn

from detc_runtime import hints, jit


def mlp():
    model = nn.Sequential(nn.Linear(64, 256), nn.BatchNorm1d(256), nn.ReLU(),
                          nn.Linear(256, 4))
    return model, torch.randn(32, 64), torch.randint(0, 4, (32,))


def resnet():
    import torchvision
    model = torchvision.models.resnet18(num_classes=10)
    return model, torch.randn(16, 3, 64, 64), torch.randint(0, 10, (16,))


def run(model, opt, x, y, steps, mode):
    """(seconds per minibatch, seconds per minibatch spent in detc's calls)
    over `steps` minibatches; `mode`: plain, boundary, accum (a boundary
    after a minibatch that did not step: it copies the gradients), guard
    (boundary, and guard-step's copy before the step)."""
    jit.JIT = jit._Run()
    jit.JIT.guard_step = mode == "guard"
    values = {"model": lambda: model, "optimizer": lambda: opt,
              "x": lambda: x, "y": lambda: y,
              "gen:torch": lambda: torch.random.get_rng_state()}
    boundary = jit.boundary(900, values)
    step = jit.step(opt.step) if mode != "plain" else opt.step
    clock = time.perf_counter
    spent = 0.0
    start = clock()
    for _ in range(steps):
        if mode != "plain":
            if mode == "accum":
                jit.JIT.phase = jit.BEFORE_STEP  # as if no step came before
            t = clock()
            boundary()
            if mode == "guard":
                jit._guard(opt)
            spent += clock() - t
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        step()
    return (clock() - start) / steps, spent / steps


def measure(name, build, blocks, steps):
    torch.manual_seed(0)
    model, x, y = build()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    run(model, opt, x, y, 2, "plain")  # warm up (momentum allocated)
    modes = ("boundary", "accum", "guard")
    plain, cost = [], {m: [] for m in modes}
    for _ in range(blocks):
        plain.append(run(model, opt, x, y, steps, "plain")[0])
        for mode in modes:
            cost[mode].append(run(model, opt, x, y, steps, mode)[1])
    minibatch = statistics.median(plain)
    params = sum(p.numel() for p in model.parameters())
    print("%s: %.2fM parameters, minibatch %.2f ms (median of %d blocks of "
          "%d, no detc)" % (name, params / 1e6, minibatch * 1e3, blocks,
                            steps))
    for mode, label in (("boundary", "boundary"),
                        ("accum", "boundary keeping accumulated gradients"),
                        ("guard", "guard-step (boundary + copy before step)")):
        c = statistics.median(cost[mode])
        print("  %-42s %9.1f us per minibatch = %5.2f%% of it" % (
            label, c * 1e6, 100 * c / minibatch))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=7)
    parser.add_argument("--steps", type=int, default=0,
                        help="minibatches per block (default: 200 for the "
                             "MLP, 8 for ResNet-18)")
    args = parser.parse_args()
    torch.set_num_threads(1)
    hints.HINT.entering = None
    measure("PGD MLP 64-256-4, batch 32", mlp, args.blocks,
            args.steps or 200)
    measure("ResNet-18, batch 16 x 3x64x64", resnet, args.blocks,
            args.steps or 8)


if __name__ == "__main__":
    main()
