#!/usr/bin/env python3
"""Data-loading throughput of the keyed loader vs the plain DataLoader on an
ImageNet-style pipeline, in the same run (issue 18: transformed >= 0.95x).

usage: PYTHONPATH=build/python /usr/bin/python3 bench/loader_throughput.py
       [--images N] [--size PX] [--workers 0,2] [--epochs E] [--repeat R]

The pipeline is the canonical ImageNet example's: `ImageFolder` over PNG
images (generated once into a temporary directory), `RandomResizedCrop`,
`RandomHorizontalFlip`, `ToTensor`, `Normalize`, a shuffling DataLoader. The
keyed loader is built the way a transformed script builds it
(`keyed_loader(site, gens=..., scope_site=..., loader_class=DataLoader)`):
every example is fetched in an example scope that reseeds torch's global
generator — what `detc transform` emits for this pipeline, where nothing
draws from numpy's or random's (`--gens all`: all three, as for a script
that imports a library detc does not see). Loaders alternate, each epoch timed from
the first batch requested to the last received (worker start-up included);
prints examples/s per configuration, the best of R rounds, and the ratio.
"""
import argparse
import os
import tempfile
import time

import torch
import torchvision.datasets as datasets
import torchvision.transforms as transforms
from PIL import Image
from torch.utils.data import DataLoader

import detc_runtime as rt


def make_images(root, n, size, classes=4):
    gen = torch.Generator().manual_seed(0)
    for i in range(n):
        directory = os.path.join(root, "class%d" % (i % classes))
        os.makedirs(directory, exist_ok=True)
        pixels = (torch.rand(size, size, 3, generator=gen) * 255).to(
            torch.uint8)
        Image.fromarray(pixels.numpy()).save(
            os.path.join(directory, "%05d.png" % i))


def epoch_seconds(loader):
    start = time.perf_counter()
    count = 0
    for images, _ in loader:
        count += len(images)
    return time.perf_counter() - start, count


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=512)
    parser.add_argument("--size", type=int, default=128)
    parser.add_argument("--crop", type=int, default=96)
    parser.add_argument("--workers", default="0,2")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--gens", choices=("torch", "all"), default="torch")
    opts = parser.parse_args()
    torch.set_num_threads(1)
    with tempfile.TemporaryDirectory() as root:
        make_images(root, opts.images, opts.size)
        dataset = datasets.ImageFolder(root, transforms.Compose([
            transforms.RandomResizedCrop(opts.crop),
            transforms.RandomHorizontalFlip(),
            transforms.ToTensor(),
            transforms.Normalize([0.485, 0.456, 0.406],
                                 [0.229, 0.224, 0.225]),
        ]))
        print("%d images %dx%d, crop %d, batch 32, %d epochs per round, "
              "best of %d rounds, example scopes reseed %s" % (
                  opts.images, opts.size, opts.size, opts.crop, opts.epochs,
                  opts.repeat, "torch" if opts.gens == "torch"
                  else "torch, numpy, random"))
        print("%8s %14s %14s %7s" % ("workers", "plain ex/s", "keyed ex/s",
                                     "ratio"))
        for workers in [int(w) for w in opts.workers.split(",")]:
            plain = DataLoader(dataset, batch_size=32, shuffle=True,
                               num_workers=workers)
            gens = ((1, "torch"),) if opts.gens == "torch" else (
                (1, "torch"), (0, "numpy"), (0, "random"))
            keyed = rt.keyed_loader(
                1, gens=gens, scope_site=2, loader_class=DataLoader)(
                    dataset, batch_size=32, shuffle=True, num_workers=workers)
            best = {"plain": 0.0, "keyed": 0.0}
            for _ in range(opts.repeat):
                for name, loader in (("plain", plain), ("keyed", keyed)):
                    seconds = examples = 0
                    for _ in range(opts.epochs):
                        s, n = epoch_seconds(loader)
                        seconds += s
                        examples += n
                    best[name] = max(best[name], examples / seconds)
            print("%8d %14.0f %14.0f %6.3fx" % (
                workers, best["plain"], best["keyed"],
                best["keyed"] / best["plain"]))


if __name__ == "__main__":
    main()
