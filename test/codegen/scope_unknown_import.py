# The keyed loader's example scopes reseed numpy's and random's global
# generators too when the program imports a module detc does not see
# (albumentations draws from both), although no draw detc sees uses them.
# (pgd_transform.test: torch's only; imported_modules.test: numpy's where a
# transform in a local module draws from it.)
# albumentations is a library detc knows of but does not read
# (api/python.api): no unresolved-import warning, and the call of its
# transform inside the per-example region may draw (detc-may-draw).
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=WARN
# RUN: FileCheck %s < %t.py
# RUN: detc analyze %s 2>&1 | FileCheck %s --check-prefix=ANALYZE
# WARN-NOT: cannot resolve import
# ANALYZE: scope_unknown_import.py:[[@LINE+18]]:13: warning: may draw: 'self.aug' calls code detc could not read, inside the per-example data-parallel region that starts at {{.*}}scope_unknown_import.py:[[@LINE+24]]:1 [detc-may-draw]
# ANALYZE: note: 'self.aug' is library 'albumentations', whose code detc does not read (augmentations draw from random and numpy's global generators)
# ANALYZE: note: detc transform reseeds torch's, numpy's and random's global generators for every example
# ANALYZE: 1 warning(s)
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
