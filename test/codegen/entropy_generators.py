# Generator objects made without a seed take one from the operating
# system's entropy (`np.random.default_rng()`, `random.Random()`,
# `np.random.RandomState()`) or draw from it always
# (`random.SystemRandom()`): two runs of the script differ however it seeds
# torch, numpy and random, and the transformed script did too while its
# note said "so its runs are deterministic". Their construction is now
# wrapped: each is seeded from the run's seed (DETC_SEED, --seed) and its
# site, a generator made per example from the example too (so examples
# still differ from one another, and from worker to worker alike). A
# generator given its seed is left as it is.
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=DIAG
# RUN: FileCheck %s < %t.py
# RUN: env OMP_NUM_THREADS=1 PYTHONPATH=%detc_runtime DETC_QUIET=1 %python %t.py > %t.a
# RUN: env OMP_NUM_THREADS=1 PYTHONPATH=%detc_runtime DETC_QUIET=1 %python %t.py > %t.b
# RUN: diff %t.a %t.b
# RUN: env OMP_NUM_THREADS=1 PYTHONPATH=%detc_runtime DETC_QUIET=1 DETC_SEED=1 %python %t.py > %t.c
# RUN: not diff %t.a %t.c
# RUN: env OMP_NUM_THREADS=1 PYTHONPATH=%detc_runtime DETC_QUIET=1 %python %t.py 0 > %t.w0
# RUN: diff %t.a %t.w0
# RUN: FileCheck %s --check-prefix=OUT < %t.a
import random
import sys

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Jittered(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        # DIAG: entropy_generators.py:[[@LINE+2]]:15: note: this generator takes its seed from the operating system's entropy (a different sequence every run): the transformed script seeds it from --seed or DETC_SEED (0 by default) and its site [detc-seed]
        # CHECK: rng = _detc_rt.entropy_seeded({{[0-9]+}}, np.random.default_rng, 'seed')()
        rng = np.random.default_rng()
        return torch.tensor([rng.uniform()])


def main():
    # CHECK: a = _detc_rt.entropy_seeded({{[0-9]+}}, np.random.default_rng, 'seed')()
    a = np.random.default_rng()
    # CHECK: b = _detc_rt.entropy_seeded({{[0-9]+}}, random.Random, 'x')()
    b = random.Random()
    # CHECK: c = _detc_rt.entropy_seeded({{[0-9]+}}, np.random.RandomState, 'seed')()
    c = np.random.RandomState()
    # CHECK: d = _detc_rt.entropy_seeded({{[0-9]+}}, random.SystemRandom)()
    d = random.SystemRandom()
    # CHECK: e = np.random.default_rng(3)
    e = np.random.default_rng(3)
    print(a.uniform(), b.random(), c.uniform(), d.random(), e.uniform())
    workers = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    values = [float(x) for x in DataLoader(Jittered(), num_workers=workers)]
    # OUT: examples differ: True
    print("examples differ:", len(set(values)) == len(values))
    print(values)


if __name__ == "__main__":
    main()
