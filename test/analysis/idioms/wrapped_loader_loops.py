# Loops over a loader wrapped in zip and itertools (issue 42, item 3): the
# loader's batches reach the loop through `zip(range(n), loader)` (a step
# budget), `enumerate(zip(...))`, `zip(labelled, unlabelled)`,
# `itertools.islice(loader, n)` and `itertools.cycle(loader)` (the
# infinite loader of GAN and semi-supervised training). Each is a loop over
# the batches: the dataset's __getitem__ runs per example in the workers,
# and the body is a per-batch region. Before, none was: the draws below
# were not found, and the transformed script left them unkeyed.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# RUN: detc transform %s --emit-python -o %t.py
# RUN: FileCheck %s --check-prefix=KEYED < %t.py
import itertools
import random

import torch
from torch.utils.data import DataLoader, Dataset


class Noisy(Dataset):
    def __len__(self):
        return 16

    def __getitem__(self, i):
# CHECK-DAG: wrapped_loader_loops.py:[[@LINE+1]]:41: warning: generator 'random' (global) is used inside the per-example data-parallel region that starts at {{.*}}wrapped_loader_loops.py:[[@LINE+22]]:5
        return torch.tensor([float(i) + random.random()])


def train(model, opt, loader, steps):
# CHECK-DAG: wrapped_loader_loops.py:[[@LINE+2]]:27: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}wrapped_loader_loops.py:[[@LINE+4]]:5
    # KEYED: noise = lambda x: x + _detc_rt.keyed({{[0-9]+}}, {{[0-9]+}}, torch.randn_like)(x)
    noise = lambda x: x + torch.randn_like(x)
    unlabelled = DataLoader(Noisy(), batch_size=4, num_workers=2)
    for i, (u, x) in enumerate(zip(unlabelled, itertools.cycle(loader))):
        opt.zero_grad()
        model(noise(x) + u).sum().backward()
        opt.step()
        if i == steps:
            break


def main():
    torch.manual_seed(0)
    model = torch.nn.Linear(1, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(Noisy(), batch_size=4, num_workers=2)
    for step, x in zip(range(3), loader):
# CHECK-DAG: wrapped_loader_loops.py:[[@LINE+2]]:19: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}wrapped_loader_loops.py:[[@LINE-1]]:5
        # KEYED: model(x + _detc_rt.keyed({{[0-9]+}}, {{[0-9]+}}, torch.rand_like)(x))
        model(x + torch.rand_like(x)).sum().backward()
    for x in itertools.islice(loader, 2):
# CHECK-DAG: wrapped_loader_loops.py:[[@LINE+2]]:19: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}wrapped_loader_loops.py:[[@LINE-1]]:5
        # KEYED: model(x * _detc_rt.keyed({{[0-9]+}}, {{[0-9]+}}, torch.rand_like)(x))
        model(x * torch.rand_like(x)).sum().backward()
    train(model, opt, loader, 2)


# CHECK: 4 warning(s)
if __name__ == "__main__":
    main()
