"""Per-example probe for detc's determinism test (not a bundled example).

A small training script with every kind of per-example randomness detc
rewrites: numpy/`random`/torch augmentation in __getitem__, Gaussian noise
added to the batch, a dropout layer; optionally DistributedDataParallel on
gloo (RANK/WORLD_SIZE in the environment). It records, for each (epoch,
example), the augmented input, the noise row and the dropout mask, and
writes them to --dump (one file per rank). The example index travels as
the label, so the recording needs no help from detc.
"""
import argparse
import os
import pickle
import random

import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset, DistributedSampler


class Augmented(Dataset):
    def __init__(self, n=64):
        self.base = np.arange(n * 6, dtype=np.float32).reshape(n, 6) / 100.0

    def __len__(self):
        return len(self.base)

    def __getitem__(self, index):
        x = self.base[index] + np.random.uniform(-0.1, 0.1, 6).astype(np.float32)
        if random.random() < 0.5:
            x = x[::-1].copy()
        x = torch.from_numpy(x) * (1.0 + 0.1 * torch.rand(1))
        return x, index


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 8)
        self.drop = nn.Dropout(0.5)
        self.fc2 = nn.Linear(8, 2)

    def forward(self, x):
        return self.fc2(torch.relu(self.drop(self.fc1(x))))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--dump", required=True)
    args = parser.parse_args()

    world = int(os.environ.get("WORLD_SIZE", "1"))
    rank = int(os.environ.get("RANK", "0"))
    torch.manual_seed(5)
    np.random.seed(6)
    random.seed(7)
    dataset = Augmented()
    model = Net()
    if world > 1:
        dist.init_process_group("gloo", rank=rank, world_size=world)
        sampler = DistributedSampler(dataset, num_replicas=world, rank=rank,
                                     shuffle=True, seed=11)
        loader = DataLoader(dataset, batch_size=args.batch_size,
                            sampler=sampler, num_workers=args.workers)
        model = nn.parallel.DistributedDataParallel(model)
        net = model.module
    else:
        loader = DataLoader(dataset, batch_size=args.batch_size, shuffle=True,
                            num_workers=args.workers)
        net = model
    masks = []
    net.drop.register_forward_hook(
        lambda module, inputs, output: masks.append(output != 0))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    record = {}
    for epoch in range(args.epochs):
        if world > 1:
            sampler.set_epoch(epoch)
        for x, index in loader:
            noise = torch.randn_like(x)
            masks.clear()
            out = model(x + 0.01 * noise)
            loss = out.pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            for row, i in enumerate(index.tolist()):
                record[(epoch, i)] = (x[row].numpy().copy(),
                                      noise[row].numpy().copy(),
                                      masks[0][row].numpy().copy())
    with open(args.dump, "wb") as f:
        pickle.dump(record, f)
    if world > 1:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
