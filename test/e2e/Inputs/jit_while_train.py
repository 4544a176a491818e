"""A `while True:` training loop taking its batches with next(), shaped
like minGPT's Trainer (issue 41): `data_iter = iter(train_loader)`,
`batch = next(data_iter)` made again in `except StopIteration:`, an
iteration counter, `break` at the last iteration. The minibatch boundary
goes first in the `while` body; a restart enters the `while` without
evaluating its test and restores the counter and the iterator's
position. As jit_next_train.py otherwise.

usage: jit_while_train.py [--iters N] --out FILE
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
    parser.add_argument("--iters", type=int, default=20)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.manual_seed(3)
    train_loader = DataLoader(TensorDataset(torch.randn(40, 6),
                                            torch.arange(40) % 3),
                              batch_size=8, shuffle=True, num_workers=2)
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    data_iter = iter(train_loader)
    iter_num = 0
    while True:
        try:
            x, y = next(data_iter)
        except StopIteration:
            data_iter = iter(train_loader)
            x, y = next(data_iter)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print("done %d" % iter_num, flush=True)
        iter_num += 1
        if iter_num >= args.iters:
            break
    torch.save({"model": model.state_dict(),
                "optimizer": optimizer.state_dict()}, args.out)


if __name__ == "__main__":
    main()
