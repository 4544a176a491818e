"""A dataset that keeps its own generators (the pattern of many public
repositories that seed an augmentation generator once in `__init__`):
`self.rng = np.random.RandomState(seed)` and `self.gen =
torch.Generator()`, drawn from in `__getitem__`. Every DataLoader worker
holds a copy, so what an example gets depends on which worker loads it;
detc's keyed loader reseeds them per example.

usage: held_generators_train.py [--workers N] [--epochs N] --out FILE
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class Noisy(Dataset):
    def __init__(self, n=96, seed=3):
        self.base = torch.linspace(-1, 1, n * 6).reshape(n, 6)
        self.rng = np.random.RandomState(seed)
        self.gen = torch.Generator().manual_seed(seed)

    def __len__(self):
        return len(self.base)

    def __getitem__(self, i):
        shift = float(self.rng.uniform(-0.1, 0.1))
        noise = torch.randn(6, generator=self.gen) * 0.05
        return self.base[i] + shift + noise, i % 2


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.manual_seed(0)
    loader = DataLoader(Noisy(), batch_size=8, shuffle=True,
                        num_workers=args.workers)
    model = nn.Linear(6, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(args.epochs):
        for x, y in loader:
            optimizer.zero_grad()
            nn.functional.cross_entropy(model(x), y).backward()
            optimizer.step()
    torch.save({"model": model.state_dict()}, args.out)


if __name__ == "__main__":
    main()
