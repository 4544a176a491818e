# A module that defines a class twice (DeepLabV3Plus's ext_transforms.py
# has two `ExtRandomHorizontalFlip`s; the second is the one that runs).
# The lowering names the second `RandomFlip.2`; the points-to labels both
# classes' objects `RandomFlip`, and an instance reached through a list (a
# Compose of the program's) was taken for the first class only: the draw
# of the second, the one that runs, was missed. Each definition is
# analysed now (the first never runs once the second is made: a report
# more, never one less).
# RUN: detc analyze %s --python none 2>&1 | FileCheck %s
# CHECK-DAG: redefined_class.py:[[@LINE+21]]:12: warning: generator 'random' (global) is used inside the per-example data-parallel region
# CHECK-DAG: redefined_class.py:[[@LINE+30]]:12: warning: generator 'random' (global) is used inside the per-example data-parallel region
# CHECK: 2 warning(s)
import random

import torch
from torch.utils.data import DataLoader, Dataset


class Compose:
    def __init__(self, ts):
        self.ts = ts

    def __call__(self, x):
        for t in self.ts:
            x = t(x)
        return x


class RandomFlip:
    def __call__(self, x):
        if random.random() < 0.5:
            return x[::-1]
        return x


class RandomFlip:
    def __init__(self, p=0.5):
        self.p = p

    def __call__(self, x):
        if random.random() < self.p:
            return x[::-1]
        return x


class Pairs(Dataset):
    def __init__(self, transform):
        self.transform = transform

    def __len__(self):
        return 8

    def __getitem__(self, i):
        return torch.tensor(self.transform([float(i), 1.0]))


model = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(Pairs(Compose([RandomFlip()])), batch_size=2, num_workers=2)
for x in loader:
    loss = model(x).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
