# A comprehension over a loader's batches (`[model(x) for x, _ in loader]`,
# as prediction and evaluation code writes it) fetches every batch, and so
# does `list(loader)`: the dataset's __getitem__ runs per example in the
# workers, as in a loop. Before, both were expressions like any other and
# the draws below were not found.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# RUN: detc transform %s --emit-python -o %t.py
import random

import torch
from torch.utils.data import DataLoader, Dataset


class Jittered(Dataset):
    def __len__(self):
        return 16

    def __getitem__(self, i):
# CHECK: loader_comprehension.py:[[@LINE+1]]:41: warning: generator 'random' (global) is used inside the per-example data-parallel region that starts at {{.*}}loader_comprehension.py:[[@LINE+20]]:26
        return torch.tensor([float(i) + random.random()]), i % 2


class Shifted(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
# CHECK: loader_comprehension.py:[[@LINE+1]]:20: warning: generator 'torch' (global) is used inside the per-example data-parallel region that starts at {{.*}}loader_comprehension.py:[[@LINE+5]]:12
        return i + torch.rand(1)


def cached():
    return list(DataLoader(Shifted(), batch_size=4, num_workers=2))


def predict(model, loader):
    model.eval()
    with torch.no_grad():
        return [model(x) for x, _ in loader]


# CHECK: 2 warning(s)
if __name__ == "__main__":
    torch.manual_seed(0)
    net = torch.nn.Linear(1, 2)
    print(len(predict(net, DataLoader(Jittered(), batch_size=4,
                                      num_workers=2))), len(cached()))
