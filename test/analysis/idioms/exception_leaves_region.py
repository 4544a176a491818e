# An exception raised inside a data-parallel region leaves the region, as
# a `break` or `return` does: the generators are as safe after it as they
# were before the region began. SRGAN-PyTorch's CUDAPrefetcher fetches its
# first batch in its constructor with `try: next(it) except
# StopIteration:`; the handler's edge from inside the fetch's per-example
# region carried "every generator unsafe" out of it, and the model's
# `nn.init` after the loaders were made was reported as "used after the
# per-example data-parallel region ... its state depends on how that
# region ran" (a false alarm: the region's own draws are keyed, and the
# global generator is set back when the region ends). A handler inside
# the region stays inside it: its draw is still reported there.
# RUN: detc analyze %s 2>&1 | FileCheck %s
import random

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class Pairs(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        try:
            x = torch.load("example%d.pt" % i)
        except FileNotFoundError:
            # CHECK: exception_leaves_region.py:[[@LINE+1]]:21: warning: generator 'random' (global) is used inside the per-example data-parallel region
            scale = random.random()
            x = torch.full((3,), scale)
        return x, x.sum(0, keepdim=True)


class Prefetcher:
    def __init__(self, loader):
        self.loader = loader
        self.data = iter(loader)
        self.preload()

    def preload(self):
        try:
            self.batch = next(self.data)
        except StopIteration:
            self.batch = None

    def next(self):
        batch = self.batch
        self.preload()
        return batch


def build_model():
    model = nn.Linear(3, 1)
    # CHECK-NOT: exception_leaves_region.py:[[@LINE+1]]:{{.*}}used after
    nn.init.normal_(model.weight)
    return model


torch.manual_seed(0)
random.seed(0)
prefetcher = Prefetcher(DataLoader(Pairs(), batch_size=8, num_workers=2))
model = build_model()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
batch = prefetcher.next()
while batch is not None:
    x, y = batch
    loss = ((model(x) - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    batch = prefetcher.next()
# CHECK: 1 warning(s)
