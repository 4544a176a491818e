# A static method takes no receiver and a classmethod takes the class:
# `Data.wiggle(x)` or `self.wiggle(x)` binds the method's `x` to the
# argument. The points-to bound every method's first parameter to the
# instance, so `x` held the dataset, what `wiggle` returned held it, and
# the library call given `x` next was taken for a factory making a loader
# of that dataset: its draw in the per-example region was not reported
# (the differential generator, seed 70: 2 of 300 programs).
# RUN: detc %s --emit=points-to | FileCheck %s
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --check-prefix=DRAW
# CHECK-LABEL: scope Data.__getitem__
# CHECK-NEXT: self -> {Data@[[@LINE+17]]:16}
# CHECK-NEXT: x -> {opaquelib.apply@[[@LINE+25]]:13, torch.full@[[@LINE+22]]:13}
# CHECK-LABEL: scope Data.make
# CHECK-NEXT: cls -> {class Data}
# CHECK-LABEL: scope Data.wiggle
# CHECK-NEXT: x -> {opaquelib.apply@[[@LINE+21]]:13, torch.full@[[@LINE+18]]:13}
# DRAW: static_method_receiver.py:[[@LINE+26]]:21: warning: generator 'torch' (global) is used inside the per-example
# DRAW: static_method_receiver.py:[[@LINE+19]]:13: warning: may draw: 'opaquelib.apply' calls code detc could not read, inside the per-example data-parallel region
import torch
from torch.utils.data import DataLoader, Dataset

import opaquelib


class Data(Dataset):
    @classmethod
    def make(cls):
        return cls()

    def __len__(self):
        return 16

    def __getitem__(self, i):
        x = torch.full((4,), float(i))
        x = self.wiggle(x)
        x = Data.wiggle(x)
        x = opaquelib.apply("jitter", x)
        return x, i % 2

    @staticmethod
    def wiggle(x):
        if float(x.sum()) > 100:
            x = x + torch.rand(1)
        return x


for x, y in DataLoader(Data.make(), batch_size=4, num_workers=2):
    pass
