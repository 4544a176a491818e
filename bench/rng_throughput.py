#!/usr/bin/env python3
"""RNG throughput of detc's runtime vs numpy's Generator(Philox) and
torch.rand, measured in the same run (issue 5; target: detc at least as fast
as numpy's Philox per number), and the cost of per-example streams.

usage: PYTHONPATH=build/python /usr/bin/python3 bench/rng_throughput.py [N]
"""
import sys
import time

import numpy as np
import torch

from detc_runtime import _core
import detc_runtime as rt


def best(fn, repeat=5):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 24
    torch.set_num_threads(1)
    gen = np.random.Generator(np.random.Philox(1))
    keys, off = np.array([0], np.int64), np.zeros(1, np.uint64)
    rows = []
    for dtype, np_dtype, torch_dtype in ((np.float32, np.float32,
                                          torch.float32),
                                         (np.float64, np.float64,
                                          torch.float64)):
        out = np.empty((1, n), dtype)
        flat = np.empty(n, dtype)
        tout = torch.empty(n, dtype=torch_dtype)
        name = np.dtype(dtype).name
        rows.append(("uniform " + name,
                     best(lambda: _core.fill_rows("uniform", out, 1, 1, 1,
                                                  keys, off)),
                     best(lambda: gen.random(n, dtype=np_dtype, out=flat)),
                     best(lambda: torch.rand(n, dtype=torch_dtype, out=tout))))
        rows.append(("normal " + name,
                     best(lambda: _core.fill_rows("normal", out, 1, 1, 1,
                                                  keys, off)),
                     best(lambda: gen.standard_normal(n, dtype=np_dtype,
                                                      out=flat)),
                     best(lambda: torch.randn(n, dtype=torch_dtype,
                                              out=tout))))
    print("%d numbers per call, one thread, best of 5" % n)
    print("%-16s %12s %12s %12s %10s %10s" % (
        "distribution", "detc M/s", "numpy M/s", "torch M/s",
        "vs numpy", "vs torch"))
    for name, d, npy, tch in rows:
        print("%-16s %12.1f %12.1f %12.1f %9.2fx %9.2fx" % (
            name, n / d / 1e6, n / npy / 1e6, n / tch / 1e6, npy / d, tch / d))

    # Per-example streams: starting a stream is one Philox block more.
    b, per = 4096, 16
    many = np.empty((b, per), np.float32)
    one = np.empty((1, b * per), np.float32)
    k_many, o_many = np.arange(b), np.zeros(b, np.uint64)
    t_many = best(lambda: _core.fill_rows("uniform", many, 1, 1, 1, k_many,
                                          o_many))
    t_one = best(lambda: _core.fill_rows("uniform", one, 1, 1, 1, keys, off))
    print("\nper-example streams: %d rows x %d values %.1f us, one stream "
          "of %d values %.1f us: %.0f ns setup per stream" % (
              b, per, t_many * 1e6, b * per, t_one * 1e6,
              (t_many - t_one) / b * 1e9))

    # Example scope (reseed + restore numpy, random, torch) per __getitem__.
    gens = ((1, "numpy"), (2, "random"), (3, "torch"))
    reps = 2000

    def scopes():
        for i in range(reps):
            with rt.ExampleScope(5, gens, 0, i):
                pass

    print("example scope (numpy + random + torch), state saved and "
          "restored per example: %.1f us per example"
          % (best(scopes, 3) / reps * 1e6))

    # The keyed loader's scope (what a transformed script runs per example,
    # runtime ScopedDataset), against fetching the same examples unscoped.
    from detc_runtime._state import STATE
    from detc_runtime.data import ExampleKey
    from detc_runtime.scope import ScopedDataset, restore_states

    class Examples:
        def __len__(self):
            return reps

        def __getitem__(self, i):
            return i

    plain = Examples()
    scoped = ScopedDataset(plain, 5, gens)
    keys = [ExampleKey(i, 0) for i in range(reps)]

    def fetch(dataset):
        return lambda: [dataset[k] for k in keys]

    base = best(fetch(plain), 3)
    STATE.in_worker = True  # a DataLoader worker: nothing to restore
    worker = best(fetch(scoped), 3)
    STATE.in_worker = False

    def main_process():  # num_workers=0: states restored once per batch
        for start in range(0, reps, 64):
            STATE.fetch_guard = {}
            for k in keys[start:start + 64]:
                scoped[k]
            guard, STATE.fetch_guard = STATE.fetch_guard, None
            restore_states(guard.items())

    main = best(main_process, 3)
    print("keyed loader scope per example (numpy + random + torch): "
          "%.1f us in a worker, %.1f us in the main process (batches of "
          "64); unscoped fetch %.2f us; target <= 15 us"
          % ((worker - base) / reps * 1e6, (main - base) / reps * 1e6,
             base / reps * 1e6))


if __name__ == "__main__":
    main()
