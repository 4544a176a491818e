#!/usr/bin/env python3
"""The cost of a keyed dropout mask and of keyed normal noise drawn on the
tensor's device (device_streams.py) against torch's own dropout and randn
on the same tensor, in the same run: on CUDA when torch sees a GPU (the
path GPU users take: the fused kernels of device_kernels.py, and the
unfused torch operations they replace), and on the CPU always (the device
path forced there, against the C++ core's path and torch's). Activations of
a batch of 64 examples at three widths.

usage: PYTHONPATH=build/python bench/device_draw_cost.py [--repeat N]
       [--cuda-only]
"""
import argparse
import time

import torch

import detc_runtime as rt
from detc_runtime import device_kernels, draws
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


def bench(device, repeat, force_device_path, unfused):
    sync = torch.cuda.synchronize if device.type == "cuda" else (lambda: 0)
    dropout = rt.keyed(7, 1, torch.nn.functional.dropout)
    randn = rt.keyed(8, 1, torch.randn)
    rows = []
    for width in (1024, 16384, 262144):
        x = torch.ones(64, width, device=device)
        STATE.batch = KeyContext(0, list(range(64)))
        draws._DEVICE_PATH_ON_CPU = force_device_path
        device_kernels.disabled = unfused
        try:
            ours = [timed(lambda: dropout(x, 0.1), repeat, sync),
                    timed(lambda: randn(x.shape, device=device), repeat,
                          sync)]
        finally:
            draws._DEVICE_PATH_ON_CPU = False
            device_kernels.disabled = False
            STATE.batch = None
        theirs = [timed(lambda: torch.nn.functional.dropout(x, 0.1), repeat,
                        sync),
                  timed(lambda: torch.randn(x.shape, device=device), repeat,
                        sync)]
        for kind, mine, torchs in zip(("dropout", "randn"), ours, theirs):
            rows.append((kind, width, mine, torchs))
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--cuda-only", action="store_true",
                        help="no CPU rows (the GPU check's time is short)")
    args = parser.parse_args()
    runs = []
    if torch.cuda.is_available():
        runs += [("cuda, fused kernels", torch.device("cuda"), False, False),
                 ("cuda, torch operations", torch.device("cuda"), False,
                  True)]
    else:
        print("SKIP: CUDA (no device); CPU figures only")
    if not args.cuda_only:
        runs += [("cpu, device path (forced)", torch.device("cpu"), True,
                  True),
                 ("cpu, C++ core", torch.device("cpu"), False, True)]
    print("%-26s %-8s %9s %10s %10s %8s" % (
        "path", "draw", "elements", "keyed ms", "torch ms", "ratio"))
    for name, device, force, unfused in runs:
        for kind, width, ours, theirs in bench(device, args.repeat, force,
                                               unfused):
            print("%-26s %-8s %9d %10.3f %10.3f %7.1fx" % (
                name, kind, 64 * width, ours * 1e3, theirs * 1e3,
                ours / theirs))


if __name__ == "__main__":
    main()
