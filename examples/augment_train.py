"""Image-style training whose Dataset augments in __getitem__ (tiny, CPU).

The augmentation draws from numpy's and Python's global generators inside
`__getitem__`; the DataLoader's `num_workers` arrives through a kwargs dict
built from the command line. With worker processes each worker holds a copy
of those generators, so which random values an image gets depends on which
worker loads it: the per-example nondeterminism detc finds and removes.
"""
import argparse
import random

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class NoisyImages(Dataset):
    """8x8 one-channel images of four classes, augmented on the fly."""

    def __init__(self, n=128, size=8, transform=None):
        gen = np.random.default_rng(42)
        self.images = gen.standard_normal((n, 1, size, size)).astype(np.float32)
        self.labels = gen.integers(0, 4, n)
        self.transform = transform

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        image = self.images[index].copy()
        if random.random() < 0.5:
            image = image[:, :, ::-1].copy()
        shift = np.random.randint(-1, 2)
        image = np.roll(image, shift, axis=2)
        if self.transform is not None:
            image = self.transform(image)
        return torch.from_numpy(image), int(self.labels[index])


class AddJitter:
    """A callable transform with its own randomness."""

    def __init__(self, scale):
        self.scale = scale

    def __call__(self, image):
        noise = np.random.normal(0.0, self.scale, image.shape)
        return (image + noise).astype(np.float32)


def build_model():
    return nn.Sequential(nn.Flatten(), nn.Linear(64, 32), nn.ReLU(),
                         nn.Dropout(0.1), nn.Linear(32, 4))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--out", default="augment_model.pt")
    parser.add_argument("--ckpt-every", type=int, default=0,
                        help="also checkpoint every N steps (0: never)")
    args = parser.parse_args()

    torch.manual_seed(0)
    np.random.seed(0)
    random.seed(0)

    loader_kwargs = {"batch_size": args.batch_size, "shuffle": True}
    loader_kwargs["num_workers"] = args.workers
    dataset = NoisyImages(transform=AddJitter(0.05))
    loader = DataLoader(dataset, **loader_kwargs)

    model = build_model()
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    step = 0
    for epoch in range(args.epochs):
        model.train()
        for images, labels in loader:
            optimizer.zero_grad()
            loss = criterion(model(images), labels)
            loss.backward()
            optimizer.step()
            step += 1
            if args.ckpt_every and step % args.ckpt_every == 0:
                torch.save({"model": model.state_dict(), "epoch": epoch},
                           args.out)
        torch.save({"model": model.state_dict(), "epoch": epoch}, args.out)
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
