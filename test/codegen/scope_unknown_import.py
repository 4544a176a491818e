# The keyed loader's example scopes reseed numpy's and random's global
# generators too when the program imports a module detc does not see
# (albumentations draws from both), although no draw detc sees uses them.
# (pgd_transform.test: torch's only; imported_modules.test: numpy's where a
# transform in a local module draws from it.)
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=WARN
# RUN: FileCheck %s < %t.py
# WARN: scope_unknown_import.py:[[@LINE+1]]:8: warning: cannot resolve import 'albumentations'
import albumentations as A
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Images(Dataset):
    def __init__(self):
        self.aug = A.HorizontalFlip(p=0.5)

    def __len__(self):
        return 8

    def __getitem__(self, i):
        x = self.aug(image=np.zeros((4, 4), dtype="float32"))["image"]
        return torch.from_numpy(x)


# CHECK: keyed_loader({{[0-9]+}}, gens=(({{[0-9]+}}, "torch"), ({{[0-9]+}}, "numpy"), ({{[0-9]+}}, "random")), scope_site
loader = DataLoader(Images(), batch_size=4, num_workers=2)
for x in loader:
    print(x.sum())
