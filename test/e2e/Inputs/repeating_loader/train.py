"""A training script shaped like yolov5's: a DataLoader subclass that keeps
one iterator for all epochs (its batch sampler repeats forever), the loader
class picked into a variable by a factory that returns the loader and its
dataset, a loop over `pbar = enumerate(loader)`, per-example augmentation
from Python's and numpy's global generators, and dropout. With
`--loader plain` the factory picks torch's DataLoader (the kill/resume
test); with `--loader repeating` (the default) the subclass.

With `--sampler reversed`, the loader takes the script's own sampler (a
resume over the repeating loader then cannot start it at the checkpoint's
batch, and is refused).

usage: train.py [--workers N] [--epochs E] [--loader plain|repeating]
                [--sampler reversed] [--ckpt-every K] --out PATH
"""
import argparse
import random

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, Sampler, dataloader


class InfiniteDataLoader(dataloader.DataLoader):
    """Reuses its workers: one iterator over a batch sampler that repeats."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        object.__setattr__(self, "batch_sampler",
                           _RepeatSampler(self.batch_sampler))
        self.iterator = super().__iter__()

    def __len__(self):
        return len(self.batch_sampler.sampler)

    def __iter__(self):
        for _ in range(len(self)):
            yield next(self.iterator)


class _RepeatSampler:
    def __init__(self, sampler):
        self.sampler = sampler

    def __iter__(self):
        while True:
            yield from iter(self.sampler)


class Reversed(Sampler):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter(range(self.n - 1, -1, -1))

    def __len__(self):
        return self.n


class Augmented(Dataset):
    def __init__(self, n):
        gen = torch.Generator().manual_seed(3)
        self.x = torch.randn(n, 6, generator=gen)
        self.y = (self.x.sum(1, keepdim=True) > 0).float()

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        x = self.x[i].clone()
        if random.random() < 0.5:
            x = x.flip(0)
        x = x + float(np.random.normal(0, 0.05))
        return x, self.y[i]


def create_dataloader(dataset, batch_size, workers, plain, sampler=None):
    loader = DataLoader if plain else InfiniteDataLoader
    generator = torch.Generator()
    generator.manual_seed(11)
    return loader(dataset, batch_size=batch_size, shuffle=sampler is None,
                  sampler=sampler, num_workers=workers,
                  generator=generator), dataset


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--loader", default="repeating")
    parser.add_argument("--ckpt-every", type=int, default=0)
    parser.add_argument("--sampler", default="")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.manual_seed(0)
    data = Augmented(48)
    train_loader, dataset = create_dataloader(
        data, 8, args.workers, args.loader == "plain",
        Reversed(len(data)) if args.sampler == "reversed" else None)
    model = torch.nn.Sequential(torch.nn.Linear(6, 16), torch.nn.ReLU(),
                                torch.nn.Dropout(0.2), torch.nn.Linear(16, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    step = 0
    for epoch in range(args.epochs):
        pbar = enumerate(train_loader)
        for i, (imgs, targets) in pbar:
            loss = torch.nn.functional.binary_cross_entropy_with_logits(
                model(imgs), targets)
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            if args.ckpt_every and step % args.ckpt_every == 0:
                torch.save({"model": model.state_dict(),
                            "opt": opt.state_dict(), "epoch": epoch,
                            "step": step}, args.out)
    torch.save({"model": model.state_dict(), "opt": opt.state_dict(),
                "epoch": args.epochs, "step": step}, args.out)


if __name__ == "__main__":
    main()
