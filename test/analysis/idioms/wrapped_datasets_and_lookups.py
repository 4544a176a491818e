# More idioms the differential test found missed (docs/audit.md):
#  - a Subset (or ConcatDataset) of the program's dataset: each example is
#    the wrapped dataset's (API key `wraps`), so its __getitem__ runs in
#    the per-example region;
#  - a lambda kept in a dict in __init__ and called from __getitem__ (a
#    function nested in a method: the points-to's `Data.__init__.<lambda>`
#    is the lowering's `Data::__init__.<lambda>`);
#  - globals()['shift_' + name]: the module's names whose key starts so;
#  - a trainer's `self.model` given a model that a function defined above
#    the model's class builds: the forward is found through the points-to
#    (and, precise thanks to the key prefix, it is not the closure `AUG`).
# RUN: detc analyze %s 2>&1 | FileCheck %s
import random

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import ConcatDataset, DataLoader, Dataset, Subset


def shift_a(x):
# CHECK-DAG: wrapped_datasets_and_lookups.py:[[@LINE+1]]:16: warning: generator 'random' (global) is used inside the per-example data-parallel region
    return x + random.random()


def make_aug():
    def aug(x):
        return x
    return aug


AUG = make_aug()


def build_model():
    return Net()


class Data(Dataset):
    def __init__(self):
# CHECK-DAG: wrapped_datasets_and_lookups.py:[[@LINE+1]]:40: warning: generator 'np.random' (global) is used inside the per-example data-parallel region
        self.ops = {'n': lambda v: v + np.random.rand()}
        self.which = 'a'

    def __len__(self):
        return 16

    def __getitem__(self, i):
        x = torch.full((2,), float(i))
        x = self.ops['n'](x)
        return AUG(globals()['shift_' + self.which](x))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
# CHECK-DAG: wrapped_datasets_and_lookups.py:[[@LINE+1]]:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        return self.drop(x)


class Trainer:
    def __init__(self, model, loader):
        self.model = model
        self.loader = loader

    def fit(self):
        for x in self.loader:
            self.model(x).sum()


torch.manual_seed(0)
data = ConcatDataset([Subset(Data(), list(range(8))), Data()])
Trainer(build_model(), DataLoader(data, batch_size=4, num_workers=2)).fit()
# CHECK-NOT: detc-may-draw
# CHECK: 3 warning(s); unsafe generators (ERR): 'np.random' (global), 'random' (global), 'torch' (global)
