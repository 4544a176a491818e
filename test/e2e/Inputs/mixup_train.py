"""Mixup training, in the shape public CIFAR repositories write it: a
torchvision transform pipeline per example, and per batch a mixing weight
drawn with `np.random.beta(alpha, alpha)`, a partner permutation from
`torch.randperm(batch_size)` and a coin flip from `random.random()`.
detc keys the per-batch draws by the batch (batch_keyed) and the
per-example ones by the example (the keyed loader's example scope).

usage: mixup_train.py [--workers N] [--epochs N] [--ckpt-every N] --out FILE
"""
import argparse
import random

import numpy as np
import torch
import torch.nn as nn
import torchvision.transforms as transforms
from torch.utils.data import DataLoader, Dataset


class Images(Dataset):
    def __init__(self, n=96, transform=None):
        gen = torch.Generator().manual_seed(11)
        self.images = torch.rand(n, 3, 8, 8, generator=gen)
        self.labels = torch.arange(n) % 4
        self.transform = transform

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        return self.transform(self.images[index]), int(self.labels[index])


def mixup_data(x, y, alpha):
    lam = np.random.beta(alpha, alpha) if alpha > 0 else 1.0
    index = torch.randperm(x.size(0))
    return lam * x + (1 - lam) * x[index], y, y[index], lam


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--alpha", type=float, default=0.4)
    parser.add_argument("--ckpt-every", type=int, default=0)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.manual_seed(1)
    np.random.seed(2)
    random.seed(3)
    transform = transforms.Compose([transforms.RandomHorizontalFlip(),
                                    transforms.RandomCrop(8, padding=1)])
    loader = DataLoader(Images(transform=transform), batch_size=16,
                        shuffle=True, num_workers=args.workers)
    model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 4))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    criterion = nn.CrossEntropyLoss()
    step = 0
    for epoch in range(args.epochs):
        for x, y in loader:
            if random.random() < 0.5:
                x = x.flip(2)
            x, y_a, y_b, lam = mixup_data(x, y, args.alpha)
            out = model(x)
            loss = lam * criterion(out, y_a) + (1 - lam) * criterion(out, y_b)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            step += 1
            if args.ckpt_every and step % args.ckpt_every == 0:
                torch.save({"model": model.state_dict(),
                            "optimizer": optimizer.state_dict(),
                            "epoch": epoch, "step": step}, args.out)
    torch.save({"model": model.state_dict()}, args.out)


if __name__ == "__main__":
    main()
