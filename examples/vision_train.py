"""ImageNet-style training on a torchvision folder dataset (tiny, CPU).

The shape of the canonical ImageNet example: a torchvision folder dataset
whose transform pipeline crops and flips at random (`RandomResizedCrop`,
`RandomHorizontalFlip`), a shuffling DataLoader whose worker count comes
from `-j`, and a model with dropout. The random crops are drawn inside
torchvision, from torch's global generator, in whichever worker process
loads the image: which crop an image gets depends on the worker count.
Nothing random is written in this script's own dataset code (it has none),
so detc makes the library's draws deterministic at the loader.

The images are 3x12x12 tensors stored as .pt files (generated on first use
in --data, next to --out by default), read with DatasetFolder.
"""
import argparse
import os

import torch
import torch.nn as nn
import torchvision.transforms as transforms
from torch.utils.data import DataLoader
from torchvision import datasets


def make_folder(root, per_class=32, classes=3):
    """Synthetic images, one directory per class; safe to run in parallel."""
    gen = torch.Generator().manual_seed(7)
    for c in range(classes):
        directory = os.path.join(root, "class%d" % c)
        os.makedirs(directory, exist_ok=True)
        for i in range(per_class):
            image = torch.rand(3, 12, 12, generator=gen) + 0.2 * c
            path = os.path.join(directory, "%03d.pt" % i)
            if not os.path.exists(path):
                partial = "%s.%d.tmp" % (path, os.getpid())
                torch.save(image, partial)
                os.replace(partial, path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default=None)
    parser.add_argument("-j", "--workers", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("-b", "--batch-size", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="vision.pt")
    args = parser.parse_args()
    data = args.data or os.path.join(
        os.path.dirname(os.path.abspath(args.out)), "vision_data")
    make_folder(data)
    torch.manual_seed(args.seed)

    normalize = transforms.Normalize(mean=[0.5, 0.5, 0.5],
                                     std=[0.25, 0.25, 0.25])
    train_dataset = datasets.DatasetFolder(
        data, torch.load, extensions=(".pt",),
        transform=transforms.Compose([
            transforms.RandomResizedCrop(8),
            transforms.RandomHorizontalFlip(),
            normalize,
        ]))
    train_loader = DataLoader(train_dataset, batch_size=args.batch_size,
                              shuffle=True, num_workers=args.workers)

    model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 32), nn.ReLU(),
                          nn.Dropout(0.2), nn.Linear(32, 3))
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(args.epochs):
        model.train()
        for images, target in train_loader:
            loss = criterion(model(images), target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print("epoch %d loss %.4f" % (epoch, loss.item()))
    torch.save({"model": model.state_dict(), "epoch": args.epochs}, args.out)


if __name__ == "__main__":
    main()
