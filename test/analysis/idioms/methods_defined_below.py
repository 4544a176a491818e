# A method that calls one its class defines further down (`self.augment`
# in `__getitem__`, defined below it) reaches that method's draws: the
# lowering knows every method of a class body before it lowers the first.
# `self` of `__getitem__` (called by the DataLoader, not the program) is
# the dataset the program makes (the points-to binds `self` of every
# method of a class to its instances).
# RUN: detc analyze %s 2>&1 | FileCheck %s
import torch
from torch.utils.data import DataLoader, Dataset


class Noisy(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        return self.augment(torch.zeros(3))

    def augment(self, x):
# CHECK: methods_defined_below.py:[[@LINE+1]]:20: warning: generator 'torch' (global) is used inside the per-example data-parallel region that starts at {{.*}}methods_defined_below.py:[[@LINE+6]]:1 [detc-unsafe-rng]
        return x + torch.randn(3)


torch.manual_seed(0)
loader = DataLoader(Noisy(), batch_size=4, num_workers=2)
for x in loader:
    print(x.sum())
# CHECK: 1 warning(s); unsafe generators (ERR): 'torch' (global)
