"""A collate_fn that draws once per batch (a random scale for the whole
batch, from torch's and numpy's global generators), in the DataLoader's
workers: which values a batch gets depends on which worker collates it.
detc's keyed loader runs the collate after the batch's last example scope,
so the draw is keyed by the batch's examples.

usage: collate_train.py [--workers N] [--epochs N] --out FILE
"""
import argparse

import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.dataloader import default_collate


def scaled_collate(batch):
    x, y = default_collate(batch)
    scale = float(torch.rand(1)) + np.random.uniform(0.0, 0.1)
    return x * scale, y


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.manual_seed(0)
    np.random.seed(0)
    data = TensorDataset(torch.linspace(0, 1, 64 * 4).reshape(64, 4),
                         torch.arange(64) % 2)
    loader = DataLoader(data, batch_size=8, shuffle=True,
                        num_workers=args.workers, collate_fn=scaled_collate)
    model = torch.nn.Linear(4, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(args.epochs):
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.cross_entropy(model(x), y).backward()
            optimizer.step()
    torch.save({"model": model.state_dict()}, args.out)


if __name__ == "__main__":
    main()
