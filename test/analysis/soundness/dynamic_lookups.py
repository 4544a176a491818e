# Dynamic lookups resolve to the union of their candidates (issue 42):
# `getattr(self, name)` with a computed name may be any method or field of
# the object: each method among the candidates is called on the object (the
# draw in `noise` is found), and the fields — here the Flip transform it
# holds — may draw. An instance of the program's class whose behaviour a
# library base decides (an albumentations transform subclass, called
# through the library's `__call__`, which runs the class's `apply`) may
# draw: detc-may-draw.
# RUN: detc analyze %s 2>&1 | FileCheck %s
import random

import albumentations as A
import torch
from torch.utils.data import DataLoader, Dataset


class Flip(A.DualTransform):
    def apply(self, img, **params):
        return img[:, ::-1] if random.random() < 0.5 else img


class Augmented(Dataset):
    def __init__(self, kind):
        self.kind = kind
        self.flip = Flip(p=1.0)

    def __len__(self):
        return 8

    def noise(self, x):
# CHECK: dynamic_lookups.py:[[@LINE+1]]:20: warning: generator 'torch' (global) is used inside the per-example data-parallel region {{.*}}[detc-unsafe-rng]
        return x + torch.randn(3)

    def scale(self, x):
        return x * 2

    def __getitem__(self, i):
# CHECK: dynamic_lookups.py:[[@LINE+2]]:13: warning: may draw: 'getattr(self, self.kind)' calls code detc could not read
# CHECK: note: 'getattr(self, self.kind)' is an instance of 'Flip'
        x = getattr(self, self.kind)(torch.zeros(3))
# CHECK: dynamic_lookups.py:[[@LINE+2]]:16: warning: may draw: 'self.flip' calls code detc could not read, inside the per-example data-parallel region
# CHECK: note: 'self.flip' is an instance of 'Flip', whose base 'albumentations.DualTransform' is library 'albumentations', whose code detc does not read
        return self.flip(image=x)["image"]


torch.manual_seed(0)
loader = DataLoader(Augmented(input()), batch_size=4, num_workers=2)
for x in loader:
    print(x.sum())
# CHECK: 3 warning(s)
