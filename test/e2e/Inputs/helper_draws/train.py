"""Per-batch draws in helpers of an imported module (issue 18): the
training loop calls `trades_loss` (torch.randn) and `random_scale`
(np.random.uniform) from trades.py once per batch; the dataset jitters its
examples with torch.rand. detc leaves trades.py as it is: the keyed
loader's batch scope reseeds the global generators from each batch's
stream, and its example scope serves the jitter.

usage: train.py [--workers N] [--epochs N] --out FILE
"""
import argparse

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

from trades import random_scale, trades_loss


class Points(Dataset):
    def __init__(self, n=96):
        g = torch.Generator().manual_seed(3)
        self.x = torch.randn(n, 6, generator=g)
        self.y = (self.x.sum(1) > 0).long()

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i] + 0.05 * torch.rand(6), self.y[i]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.manual_seed(0)
    np.random.seed(0)
    loader = DataLoader(Points(), batch_size=16, shuffle=True,
                        num_workers=args.workers)
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(args.epochs):
        for x, y in loader:
            optimizer.zero_grad()
            loss = trades_loss(model, random_scale(x), y)
            loss.backward()
            optimizer.step()
    torch.save({"model": model.state_dict()}, args.out)


if __name__ == "__main__":
    main()
