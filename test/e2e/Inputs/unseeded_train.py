"""A script that never seeds anything, as many public ones are
(kuangliu/pytorch-cifar, pytorch-cifar100): the model's initial weights
come from torch's global generator, the loader shuffles, a transform flips
at random in two workers, the model has dropout, and numpy and random
draw too. Run as is, every run differs; transformed, every run is the
same, and --seed / DETC_SEED choose which.

usage: unseeded_train.py [--epochs N] [--workers N] --out FILE
"""
import argparse
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class Flips(Dataset):
    def __init__(self):
        self.x = torch.linspace(-1, 1, 64 * 8).reshape(64, 8)
        self.y = torch.arange(64) % 2

    def __len__(self):
        return 64

    def __getitem__(self, i):
        x = self.x[i]
        if torch.rand(1).item() < 0.5:
            x = x.flip(0)
        return x, int(self.y[i])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    loader = DataLoader(Flips(), batch_size=8, shuffle=True,
                        num_workers=args.workers)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Dropout(0.3),
                          nn.Linear(16, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(args.epochs):
        for x, y in loader:
            scale = 1.0 + 0.1 * np.random.rand() + 0.1 * random.random()
            loss = F.cross_entropy(model(x * scale), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    torch.save({"model": model.state_dict()}, args.out)


if __name__ == "__main__":
    main()
