# A variable rebound to a partial of itself (`norm_layer =
# partial(norm_layer, **cfg.norm_kwargs)`, as open_clip's model factory
# writes it): the partial holds itself in its `arg0`. Calling it nested
# forever in the points-to and in the lowering (a stack overflow, exit 139,
# on every open_clip module); now each partial is followed once and the
# function it binds is still called.
# RUN: detc %s --emit=points-to | FileCheck %s
# RUN: detc analyze %s | FileCheck %s --check-prefix=LINT
# CHECK: augment -> {def noisy, functools.partial@[[@LINE+16]]:14}
# CHECK: object functools.partial@[[@LINE+15]]:14
# CHECK-NEXT: .arg0 -> {def noisy, functools.partial@[[@LINE+14]]:14}
from functools import partial

import torch
from torch.utils.data import DataLoader, Dataset


def noisy(x, scale=1.0):
    # LINT: partial_of_itself.py:[[@LINE+1]]:24: warning: generator 'torch' (global) is used inside the per-example data-parallel region
    return x + scale * torch.randn_like(x)


def configured(fn, kwargs):
    if kwargs:
        fn = partial(fn, **kwargs)
    return fn


augment = configured(noisy, {"scale": 0.1})
augment = configured(augment, {})


class Data(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        return augment(torch.full((2,), float(i)))


loader = DataLoader(Data(), batch_size=2, num_workers=2)
for x in loader:
    print(x.sum())
# LINT: 1 warning(s)
