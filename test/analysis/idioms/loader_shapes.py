# Idiom 9 (issue 17): other shapes of the same data flow. A logger's
# generator that yields the loader's batches (`for x, y in log_every(loader,
# n)`): the caller's loop body is a batch region. `it = iter(loader)` and
# `x, y = next(it)` driven by hand: next() fetches a batch (the dataset's
# __getitem__ runs in the workers) and the loop around it is a batch
# region. A function taken out of a list (`op, v = random.choice(OPS);
# op(img, v)`): both functions may run, so the draw in shear() is found.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK-DAG: loader_shapes.py:[[@LINE+29]]:17: warning: generator 'random' (global) is used inside the per-example data-parallel region
# CHECK-DAG: loader_shapes.py:[[@LINE+16]]:18: warning: generator 'random' (global) is used inside the per-example data-parallel region
# CHECK-DAG: loader_shapes.py:[[@LINE+43]]:17: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}loader_shapes.py:[[@LINE+42]]:5
# CHECK-DAG: loader_shapes.py:[[@LINE+49]]:17: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}loader_shapes.py:[[@LINE+47]]:5
# CHECK: 4 warning(s); unsafe generators (ERR): 'random' (global), 'torch' (global)
import random

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


def rotate(img, v):
    return torch.rot90(img, int(v), (1, 2))


def shear(img, v):
    return img * random.uniform(0, v)


OPS = [(rotate, 1), (shear, 0.5)]


class Aug(Dataset):
    def __len__(self):
        return 100

    def __getitem__(self, i):
        img = torch.zeros(3, 8, 8)
        op, v = random.choice(OPS)
        return op(img, v), i % 2


def log_every(iterable, n):
    for i, item in enumerate(iterable):
        if i % n == 0:
            print(i)
        yield item


def main():
    loader = DataLoader(Aug(), batch_size=10, shuffle=True, num_workers=2)
    model = torch.nn.Linear(192, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in log_every(loader, 5):
        x = x * torch.rand(1)
        opt.zero_grad()
        torch.nn.functional.cross_entropy(model(x.flatten(1)), y).backward()
        opt.step()
    it = iter(loader)
    for step in range(10):
        x, y = next(it)
        noise = torch.randn_like(x)
        opt.zero_grad()
        torch.nn.functional.cross_entropy(model((x + noise).flatten(1)), y).backward()
        opt.step()


main()
