"""Just-in-time restarts over a loader that keeps one iterator for all
epochs, in timm's shape: a DataLoader subclass that swaps in a batch
sampler repeating forever while DataLoader's attribute guard is lifted,
makes its iterator (and workers) in __init__, and hands out len(self)
batches per epoch from it. Per-example noise from numpy's global
generator, dropout in the model. DETC_TEST_FAIL=PHASE:STEP (forward,
backward, hang) fails the minibatch with global number STEP; a line
"done EPOCH STEP" on stdout follows each minibatch.

usage: jit_train.py [--epochs N] [--workers N] --out FILE
"""
import argparse
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

FAIL = os.environ.get("DETC_TEST_FAIL", "")
PHASE, _, AT = FAIL.partition(":")
AT = int(AT) if AT else -1


class EndlessBatches:
    def __init__(self, batches):
        self.batches = batches

    def __iter__(self):
        while True:
            for batch in self.batches:
                yield batch


class ReusedWorkersLoader(DataLoader):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._DataLoader__initialized = False
        self.batch_sampler = EndlessBatches(self.batch_sampler)
        self._DataLoader__initialized = True
        self.iterator = super().__iter__()

    def __len__(self):
        return len(self.batch_sampler.batches)

    def __iter__(self):
        for _ in range(len(self)):
            yield next(self.iterator)


class Noisy(Dataset):
    def __init__(self):
        gen = torch.Generator().manual_seed(5)
        self.x = torch.randn(40, 5, generator=gen)
        self.y = torch.arange(40) % 2

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i] + float(np.random.uniform(-0.1, 0.1)), self.y[i]


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(5, 16), nn.ReLU(),
                                  nn.Dropout(0.25))
        self.head = nn.Linear(16, 2)
        self.calls = 0

    def forward(self, x):
        h = self.body(x)
        if self.training:
            self.calls += 1
            if self.calls == AT and PHASE == "forward":
                raise RuntimeError("injected failure in the forward")
            if self.calls == AT and PHASE == "hang":
                time.sleep(10 ** 6)
            if self.calls == AT and PHASE == "backward":
                h.register_hook(_fail_backward)
        return self.head(h)


def _fail_backward(grad):
    raise RuntimeError("injected failure in the backward")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.manual_seed(4)
    loader = ReusedWorkersLoader(Noisy(), batch_size=6, shuffle=True,
                                 num_workers=args.workers)
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(args.epochs):
        for i, (x, y) in enumerate(loader):
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print("done %d %d" % (epoch, i), flush=True)
    torch.save({"model": model.state_dict(),
                "optimizer": optimizer.state_dict()}, args.out)


if __name__ == "__main__":
    main()
