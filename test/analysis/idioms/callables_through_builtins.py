# Draws the differential test (test/e2e/static_covers_dynamic.py) found
# that the analysis missed, each reached through a callable the program
# hands on:
#  - map(lambda t: t(x), self.parts) and sorted(xs, key=fn): builtins
#    that call the function they get on the elements (points-to calls it,
#    the lowering calls it where the builtin is called);
#  - functools.partial(fn, 0.1), called later (role `bind`);
#  - a callable object kept as a class attribute (`blur = Blur()` in the
#    class body, read as `self.blur`): it shadows the library base's
#    methods (Dataset's);
#  - a static method called through its class (`Data.wiggle(x)`);
#  - the loop over `pbar = tqdm(loader)` (role `iterate`): a loop over the
#    loader's batches.
# RUN: detc analyze %s 2>&1 | FileCheck %s
import functools
import random

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset
from tqdm import tqdm


def scale(x):
# CHECK-DAG: callables_through_builtins.py:[[@LINE+1]]:16: warning: generator 'np.random' (global) is used inside the per-example data-parallel region
    return x * np.random.normal()


def rank(v):
# CHECK-DAG: callables_through_builtins.py:[[@LINE+1]]:12: warning: generator 'random' (global) is used inside the per-example data-parallel region
    return random.random() - v


def add_noise(scale, x):
# CHECK-DAG: callables_through_builtins.py:[[@LINE+1]]:24: warning: generator 'torch' (global) is used inside the per-example data-parallel region
    return x + scale * torch.rand(1)


class Blur:
    def __call__(self, x):
# CHECK-DAG: callables_through_builtins.py:[[@LINE+1]]:20: warning: generator 'torch' (global) is used inside the per-example data-parallel region
        return x * torch.randn(1)


class Data(Dataset):
    blur = Blur()

    def __init__(self):
        self.parts = [scale]
        self.noisy = functools.partial(add_noise, 0.1)

    def __len__(self):
        return 16

    def __getitem__(self, i):
        x = torch.full((4,), float(i))
        x = list(map(lambda t: t(x), self.parts))[-1]
        order = sorted([1.0, 2.0], key=rank)
        x = self.noisy(x) + order[0]
        x = self.blur(x)
        return Data.wiggle(x), i % 2

    @staticmethod
    def wiggle(x):
# CHECK-DAG: callables_through_builtins.py:[[@LINE+1]]:20: warning: generator 'random' (global) is used inside the per-example data-parallel region
        return x + random.gauss(0.0, 1.0)


torch.manual_seed(0)
loader = DataLoader(Data(), batch_size=4, num_workers=2)
pbar = tqdm(loader)
for x, y in pbar:
    print(x.sum())
# CHECK-NOT: detc-may-draw
# CHECK: 5 warning(s); unsafe generators (ERR): 'np.random' (global), 'random' (global), 'torch' (global)
