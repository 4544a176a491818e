#!/usr/bin/env python3
"""The cost of a keyed dropout mask drawn on the tensor's device
(device_streams.py) against torch's own dropout on the same tensor, in the
same run: on CUDA when torch sees a GPU (the path GPU users take), and on
the CPU always (the device path forced there, against the C++ core's path
and torch's). Activations of a batch of 64 examples at three widths.

usage: PYTHONPATH=build/python bench/device_draw_cost.py [--repeat N]
"""
import argparse
import time

import torch

import detc_runtime as rt
from detc_runtime import draws
from detc_runtime._state import STATE, KeyContext


def timed(fn, repeat, sync):
    fn()
    sync()
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(repeat):
            fn()
        sync()
        best = min(best, (time.perf_counter() - start) / repeat)
    return best


def bench(device, repeat, force_device_path):
    sync = torch.cuda.synchronize if device.type == "cuda" else (lambda: 0)
    keyed = rt.keyed(7, 1, torch.nn.functional.dropout)
    rows = []
    for width in (1024, 16384, 262144):
        x = torch.ones(64, width, device=device)
        STATE.batch = KeyContext(0, list(range(64)))
        draws._DEVICE_PATH_ON_CPU = force_device_path
        try:
            ours = timed(lambda: keyed(x, 0.1), repeat, sync)
        finally:
            draws._DEVICE_PATH_ON_CPU = False
            STATE.batch = None
        theirs = timed(lambda: torch.nn.functional.dropout(x, 0.1), repeat,
                       sync)
        rows.append((width, ours, theirs))
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    runs = []
    if torch.cuda.is_available():
        runs.append(("cuda, device path", torch.device("cuda"), False))
    else:
        print("SKIP: CUDA (no device); CPU figures only")
    runs += [("cpu, device path (forced)", torch.device("cpu"), True),
             ("cpu, C++ core", torch.device("cpu"), False)]
    print("%-28s %9s %12s %12s %8s" % ("path", "elements", "keyed ms",
                                       "torch ms", "ratio"))
    for name, device, force in runs:
        for width, ours, theirs in bench(device, args.repeat, force):
            print("%-28s %9d %12.3f %12.3f %7.1fx" % (
                name, 64 * width, ours * 1e3, theirs * 1e3, ours / theirs))


if __name__ == "__main__":
    main()
