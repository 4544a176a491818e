# `getattr(obj, name)` of a method of obj's class is that method bound to
# obj, as `obj.name` is: called, it runs the method. A dataset that picks
# its augmentation by a computed name (`getattr(self, 'aug_' +
# self.kind)(x)`, one of the idioms the differential generator composes)
# had nothing come out of getattr with the session-69 first binary: the
# call was only a detc-may-draw finding at the getattr, and the draw in
# the method was never reported (5 of 60 generated programs, seed 69).
# RUN: detc %s --emit=points-to | FileCheck %s
# RUN: detc analyze %s 2>&1 | FileCheck %s --check-prefix=DRAW
# CHECK-LABEL: scope Data.__getitem__
# CHECK: picked -> {functools.partial@[[@LINE+18]]:18}
# DRAW-NOT: may draw
# DRAW: getattr_bound_method.py:[[@LINE+22]]:26: warning: generator 'torch' (global) is used inside the per-example data-parallel region
# DRAW: getattr_bound_method.py:[[@LINE+27]]:26: warning: generator 'torch' (global) is used inside the per-example data-parallel region
# DRAW-NOT: may draw
import torch
from torch.utils.data import DataLoader, Dataset


class Data(Dataset):
    def __init__(self, kind):
        self.kind = kind

    def __len__(self):
        return 16

    def __getitem__(self, i):
        x = torch.full((4,), float(i))
        picked = getattr(self, 'aug_' + self.kind)
        x = picked(x)
        x = getattr(self, 'shift')(x)
        return x, i % 2

    def aug_noise(self, x):
        return x + float(torch.rand(1))

    def aug_none(self, x):
        return x

    def shift(self, x):
        return x + float(torch.rand(1))


torch.manual_seed(0)
for x, y in DataLoader(Data('noise'), batch_size=4, num_workers=2):
    pass
