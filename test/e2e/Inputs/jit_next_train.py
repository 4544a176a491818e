"""Batches taken with next() from iterators kept across the loops, shaped
like MixMatch's, FixMatch's and SSD's (issue 41): `labeled_iter =
iter(labeled_loader)` before the loops, `next(labeled_iter)` per step,
made again in `except StopIteration:` when the loader's epoch ends (the
two loaders' epochs end at other steps, and neither at the loops' own
epochs). A labeled loader with workers, an unlabeled one without,
both shuffled, dropout and momentum: a restart that loses an iterator's
position, its epoch or its loader's generator shows in the weights.
DETC_TEST_FAIL=PHASE:STEP (forward, backward, hang) fails the minibatch
with global number STEP, for the just-in-time tests.

usage: jit_next_train.py [--epochs N] [--steps N] --out FILE
"""
import argparse
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

PHASE, _, AT = os.environ.get("DETC_TEST_FAIL", "").partition(":")
AT = int(AT) if AT else -1


def fail_backward(grad):
    raise RuntimeError("injected failure in the backward")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Dropout(0.3))
        self.head = nn.Linear(16, 3)
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
                h.register_hook(fail_backward)
        return self.head(h)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--steps", type=int, default=11)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.manual_seed(3)
    labeled = DataLoader(TensorDataset(torch.randn(40, 6),
                                       torch.arange(40) % 3),
                         batch_size=8, shuffle=True, num_workers=2)
    unlabeled = DataLoader(TensorDataset(torch.randn(72, 6)), batch_size=8,
                           shuffle=True)
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    labeled_iter = iter(labeled)
    unlabeled_iter = iter(unlabeled)
    for epoch in range(args.epochs):
        for step in range(args.steps):
            try:
                x, y = next(labeled_iter)
            except StopIteration:
                labeled_iter = iter(labeled)
                x, y = next(labeled_iter)
            try:
                (u,) = next(unlabeled_iter)
            except StopIteration:
                unlabeled_iter = iter(unlabeled)
                (u,) = next(unlabeled_iter)
            logits = model(torch.cat([x, u]))
            loss = F.cross_entropy(logits[:len(x)], y) + \
                logits[len(x):].pow(2).mean() * 0.1
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print("done %d:%d" % (epoch, step), flush=True)
    torch.save({"model": model.state_dict(),
                "optimizer": optimizer.state_dict()}, args.out)


if __name__ == "__main__":
    main()
