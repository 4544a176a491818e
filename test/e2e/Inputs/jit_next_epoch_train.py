"""Batches taken with next() from iterators that a function called once
per epoch makes before its loop, shaped like MixMatch's `train()`
(issue 41): `labeled_train_iter = iter(labeled_trainloader)` at the
function's start, `next()` per step, made again in `except
StopIteration:`. A restart skips the function's statements before its
loop on the way in, so the iterators are made again over the loaders
made last at their sites. As jit_next_train.py otherwise.

usage: jit_next_epoch_train.py [--epochs N] [--steps N] --out FILE
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


def train(labeled, unlabeled, model, optimizer, epoch, steps):
    labeled_iter = iter(labeled)
    unlabeled_iter = iter(unlabeled)
    for step in range(steps):
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
    for epoch in range(args.epochs):
        train(labeled, unlabeled, model, optimizer, epoch, args.steps)
    torch.save({"model": model.state_dict(),
                "optimizer": optimizer.state_dict()}, args.out)


if __name__ == "__main__":
    main()
