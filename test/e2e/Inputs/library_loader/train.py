"""A script whose DataLoader is made by an installed library's factory
(`shapedlib.create_loader`, the shape of timm's train.py): detc reads the
library's source, finds that it makes a DataLoader, and keys it at run
time where the library constructs it (key_imported_loaders); the library's
augmentation draws from torch's and random's global generators in the
workers. The library lies in Inputs/library_loader/site-packages (on
PYTHONPATH for the analysis and the runs).

usage: train.py [--workers N] [--epochs N] --out FILE
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import Dataset

from shapedlib import create_loader


class Rows(Dataset):
    def __init__(self, n=64):
        gen = torch.Generator().manual_seed(5)
        self.images = torch.rand(n, 1, 6, 6, generator=gen)
        self.labels = torch.arange(n) % 3
        self.transform = None

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        image = self.images[index]
        if self.transform is not None:
            image = self.transform(image)
        return image, int(self.labels[index])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.manual_seed(0)
    loader = create_loader(Rows(), batch_size=8, num_workers=args.workers)
    model = nn.Sequential(nn.Flatten(), nn.Linear(36, 16), nn.ReLU(),
                          nn.Linear(16, 3))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(args.epochs):
        for images, labels in loader:
            optimizer.zero_grad()
            F.cross_entropy(model(images), labels).backward()
            optimizer.step()
    torch.save({"model": model.state_dict()}, args.out)


if __name__ == "__main__":
    main()
