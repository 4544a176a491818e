# A training loop over a prefetcher object, as NVIDIA's data_prefetcher
# and SRGAN-PyTorch's CUDAPrefetcher write it: `batch = prefetcher.next()`
# at the end of `while batch is not None:`, the method returning what its
# `preload()` took with `next()` from the loader's iterator. Each
# iteration is one batch: its body is a per-batch data-parallel region
# (before, the loop was not one, and its random crops were either missed
# or reported as "used after" the loader's region and left unkeyed by the
# transform). A function that loops over batches itself (`run_epoch`) is
# not one batch per call, nor is one that peeks at a first batch with
# `next(iter(loader))` (pytorch/examples' DDP tutorial, for the batch
# size): the loops calling them are no batch loops.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# RUN: detc transform %s --emit-python -o %t.py
# RUN: FileCheck %s --check-prefix=KEYED < %t.py
import random

import torch
from torch.utils.data import DataLoader, TensorDataset


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

    def reset(self):
        self.data = iter(self.loader)
        self.preload()


def random_crop(x):
    # CHECK: prefetcher_loop.py:[[@LINE+2]]:11: warning: generator 'random' (global) is used inside the per-batch data-parallel region that starts at {{.*}}prefetcher_loop.py:[[#LOOP:]]:5
    # KEYED: top = _detc_rt.batch_keyed({{[0-9]+}}, {{[0-9]+}}, random.randint)
    top = random.randint(0, 2)
    return x[:, top:top + 2]


def train(prefetcher, model, opt):
    prefetcher.reset()
    batch = prefetcher.next()
    while batch is not None:
        (x,) = batch
        x = random_crop(x)
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        batch = prefetcher.next()


def run_epoch(loader, model):
    it = iter(loader)
    while True:
        try:
            (x,) = next(it)
        except StopIteration:
            return
        model(x[:, :2]).sum().backward()


random.seed(0)
torch.manual_seed(0)
loader = DataLoader(TensorDataset(torch.randn(64, 4)), batch_size=8,
                    num_workers=2)
model = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)


def epochs_loop(loader, model):
    epochs = 0
    # CHECK-NOT: prefetcher_loop.py:[[@LINE+2]]:{{.*}} per-batch
    # CHECK-NOT: prefetcher_loop.py:[[@LINE+2]]:{{.*}} per-batch
    while epochs < 2:
        epochs += 1 + int(torch.randint(0, 1, ()))
        run_epoch(loader, model)


def run_peeking_epoch(loader, model, scale):
    size = len(next(iter(loader))[0])
    for (x,) in loader:
        (model(x[:, :2]) * scale / size).sum().backward()


def peeking_loop(loader, model):
    # CHECK-NOT: prefetcher_loop.py:[[@LINE+2]]:{{.*}} per-batch
    # CHECK-NOT: prefetcher_loop.py:[[@LINE+2]]:{{.*}} per-batch
    for epoch in range(2):
        run_peeking_epoch(loader, model, float(torch.rand(1)))


epochs_loop(loader, model)
peeking_loop(loader, model)
prefetcher = Prefetcher(loader)
for epoch in range(2):
    train(prefetcher, model, opt)
# CHECK: 1 warning(s)
