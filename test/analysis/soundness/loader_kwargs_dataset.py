# A dataset handed to `DataLoader(**args)` is looked at (BasicSR's shape:
# datasets built through a registry that modules imported by name at run
# time fill, then `DataLoader(**dataloader_args)`): one detc cannot see is
# "may draw" in the per-example region, the program's own has its draws
# found. Before, neither loader below reported anything (Noisy's draw was
# silent). Also through the program's own loader class (BasicSR's
# PrefetchDataLoader, `super().__init__(**kwargs)`), which keeps no
# `dataset` of its own: the mapping's entry is its dataset (before, a
# may-draw of a dataset "made where detc cannot see", and Flipped's draw
# missed).
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
import random
import sys

import torch
from torch.utils.data import DataLoader, Dataset

REGISTRY = {}


def build_loader(dataset, workers):
    args = dict(dataset=dataset, batch_size=4, num_workers=workers)
    # CHECK-DAG: .py:[[@LINE+2]]:25: warning: may draw: 'args' calls code detc could not read, inside the per-example data-parallel region
    # CHECK-DAG: .py:[[@LINE+1]]:25: note: 'args' is a dataset made where detc cannot see (a dynamic lookup, or a value of code detc does not read): its __getitem__ may draw
    return DataLoader(**args)


class PrefetchLoader(DataLoader):
    def __init__(self, depth, **kwargs):
        super().__init__(**kwargs)
        self.depth = depth


class Flipped(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        # CHECK-DAG: .py:[[@LINE+1]]:12: warning: generator 'random' (global) is used inside the per-example data-parallel region
        if random.random() < 0.5:
            return -torch.ones(3)
        return torch.ones(3)


class Noisy(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        # CHECK-DAG: .py:[[@LINE+1]]:32: warning: generator 'random' (global) is used inside the per-example data-parallel region
        return torch.ones(3) * random.random()


random.seed(0)
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x in build_loader(REGISTRY[sys.argv[2]]({}), 2):
    opt.zero_grad()
    model(x).sum().backward()
    opt.step()
settings = dict(dataset=Noisy(), batch_size=4, num_workers=2)
for x in DataLoader(**settings):
    opt.zero_grad()
    model(x).sum().backward()
    opt.step()
kwargs = dict(dataset=Flipped(), batch_size=4, num_workers=2)
for x in PrefetchLoader(depth=2, **kwargs):
    opt.zero_grad()
    model(x).sum().backward()
    opt.step()
# CHECK: 3 warning(s)
