# Library functions that run the program's code now (role `apply`:
# torch.utils.checkpoint.checkpoint(self.inner, x), checkpoint_sequential
# of a Sequential), and `super().__call__(x)` in a subclass of the
# program's transform class: the draws they reach are findings (the
# differential test found both missed).
# RUN: detc analyze %s 2>&1 | FileCheck %s
import random

import torch
import torch.nn as nn
import torch.utils.checkpoint as cp
from torch.utils.data import DataLoader, Dataset


class BaseAug:
    def __call__(self, x):
# CHECK-DAG: library_calls_program_code.py:[[@LINE+1]]:20: warning: generator 'random' (global) is used inside the per-example data-parallel region
        return x + random.random()


class MoreAug(BaseAug):
    def __call__(self, x):
        return super().__call__(x) * 2


class Data(Dataset):
    def __init__(self):
        self.more = MoreAug()

    def __len__(self):
        return 16

    def __getitem__(self, i):
        return self.more(torch.zeros(2))


class Inner(nn.Module):
    def __init__(self):
        super().__init__()
# CHECK-DAG: library_calls_program_code.py:[[@LINE+1]]:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        return self.drop(x)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = Inner()
# CHECK-DAG: library_calls_program_code.py:[[@LINE+1]]:54: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
        self.blocks = nn.Sequential(nn.Linear(2, 2), nn.Dropout(0.5))

    def forward(self, x):
        x = cp.checkpoint(self.inner, x, use_reentrant=False)
        return cp.checkpoint_sequential(self.blocks, 1, x)


torch.manual_seed(0)
model = Net()
for x in DataLoader(Data(), batch_size=4, num_workers=2):
    model(x).sum().backward()
# CHECK: 3 warning(s); unsafe generators (ERR): 'random' (global), 'torch' (global)
