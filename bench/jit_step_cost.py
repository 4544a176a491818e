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

First the PGD example itself (`examples/pgd_train.py --features 64
--hidden 256`, the issue's target of 0.5%), transformed and run in this
process three times, its boundary calls timed in the running script. Then
two models in a loop of our own: the PGD example's model size with
BatchNorm (an MLP 64-256-4, batch 32) and a realistic one (torchvision
ResNet-18, 11.7M parameters, batch 16 of 64x64 images, momentum SGD).

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
    step = jit.step(opt.step) if mode != "plain" else opt.step
    clock = time.perf_counter
    spent = 0.0
    start = clock()
    for _ in range(steps):
        if mode != "plain":
            if mode == "accum":
                jit.JIT.phase = jit.BEFORE_STEP  # as if no step came before
            t = clock()
            jit.boundary(900, values)("detc-jit")  # as the emitted line
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


def pgd_in_script(detc, epochs):
    """The PGD example at --features 64 --hidden 256 transformed with
    --jit-checkpoint, run in this process: seconds per boundary call (the
    runtime's work; the line also builds a dict of lambdas), and per
    minibatch between the first and the last boundary."""
    import os
    import runpy
    import subprocess
    import sys
    import tempfile
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    spent, calls, first, last = [0.0], [0], [None], [None]
    real = jit.boundary

    def timed(*args, **kwargs):
        t = time.perf_counter()
        result = real(*args, **kwargs)
        now = time.perf_counter()
        spent[0] += now - t
        calls[0] += 1
        first[0] = first[0] or t
        last[0] = t
        return result

    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "pgd_jit.py")
        subprocess.run([detc, "transform", os.path.join(
            root, "examples", "pgd_train.py"), "--emit-python",
            "--jit-checkpoint", "-o", script], check=True,
            capture_output=True)
        jit.boundary = timed
        argv, sys.argv = sys.argv, [script, "--features", "64", "--hidden",
                                    "256", "--epochs", str(epochs), "--out",
                                    os.path.join(tmp, "out.pt")]
        try:
            with open(os.devnull, "w") as null:
                stdout, sys.stdout = sys.stdout, null
                try:
                    runpy.run_path(script, run_name="__main__")
                finally:
                    sys.stdout = stdout
        finally:
            sys.argv = argv
            jit.boundary = real
    per = spent[0] / calls[0]
    minibatch = (last[0] - first[0]) / (calls[0] - 1)
    print("PGD example, --features 64 --hidden 256, %d epochs, in the "
          "running script: %d boundaries, %.1f us each = %.2f%% of a %.2f ms "
          "minibatch" % (epochs, calls[0], per * 1e6, 100 * per / minibatch,
                         minibatch * 1e3))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=7)
    parser.add_argument("--steps", type=int, default=0,
                        help="minibatches per block (default: 200 for the "
                             "MLP, 8 for ResNet-18)")
    parser.add_argument("--detc", default=None,
                        help="detc binary (default build/bin/detc)")
    parser.add_argument("--pgd-epochs", type=int, default=16)
    args = parser.parse_args()
    torch.set_num_threads(1)
    import os
    detc = args.detc or os.path.join(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), "build", "bin", "detc")
    for _ in range(3):
        pgd_in_script(detc, args.pgd_epochs)
    hints.HINT.entering = None
    measure("PGD MLP 64-256-4, batch 32", mlp, args.blocks,
            args.steps or 200)
    measure("ResNet-18, batch 16 x 3x64x64", resnet, args.blocks,
            args.steps or 8)


if __name__ == "__main__":
    main()
