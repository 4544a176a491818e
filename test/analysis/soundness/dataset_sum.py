# Datasets combined with `+` (torch's Dataset.__add__ makes a
# ConcatDataset) or with `sum(datasets, start)`, as deep-person-reid
# combines its training sets: each example comes from one of them, so the
# loader's dataset may be any, and each one's draws are per-example draws
# (before: the sum was a dataset detc could not see, a may-draw naming
# none of them).
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK-DAG: dataset_sum.py:[[@LINE+16]]:16: warning: generator 'torch' (global) is used inside the per-example data-parallel region that starts at {{.*}}dataset_sum.py:[[@LINE+29]]:1
# CHECK-DAG: dataset_sum.py:[[@LINE+20]]:16: warning: generator 'random' (global) is used inside the per-example data-parallel region that starts at {{.*}}dataset_sum.py:[[@LINE+28]]:1
# CHECK-DAG: dataset_sum.py:[[@LINE+24]]:16: warning: generator 'np.random' (global) is used inside the per-example data-parallel region that starts at {{.*}}dataset_sum.py:[[@LINE+30]]:1
# CHECK: 3 warning(s)
import random

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Jitter(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return torch.rand(2)


class Coin(Jitter):
    def __getitem__(self, i):
        return random.random()


class Noise(Jitter):
    def __getitem__(self, i):
        return np.random.rand()


for x in DataLoader(Jitter() + Coin(), batch_size=2, num_workers=2):
    pass
combined = sum([Noise(), Noise()], Noise())
for x in DataLoader(combined, batch_size=2, num_workers=2):
    pass
