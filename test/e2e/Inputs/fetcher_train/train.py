"""A training script shaped like stargan-v2's and stylegan2-pytorch's: the
loaders kept in a namespace object, a fetcher class whose `__next__`
re-iterates its loader and draws the step's latent codes, a step loop over
a progress bar fetching `next(fetcher)`, per-example augmentation through
a `transforms.Lambda` whose function draws, and a collate_fn that is an
object of the script's class (a mixup drawing from numpy and torch).

usage: train.py [--workers N] [--steps S] --out PATH
"""
import argparse
import random
from types import SimpleNamespace

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.dataloader import default_collate
from torchvision import transforms
from tqdm import tqdm


class Points(Dataset):
    def __init__(self, n, transform):
        gen = torch.Generator().manual_seed(3)
        self.x = torch.randn(n, 1, 2, 4, generator=gen)
        self.transform = transform

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.transform(self.x[i]), float(i % 2)


class Mixup:
    def __init__(self, alpha):
        self.alpha = alpha

    def __call__(self, batch):
        x, y = default_collate(batch)
        lam = float(np.random.beta(self.alpha, self.alpha))
        perm = torch.randperm(x.size(0))
        return lam * x + (1 - lam) * x[perm], y


class InputFetcher:
    def __init__(self, loader, latent_dim=4):
        self.loader = loader
        self.latent_dim = latent_dim

    def _fetch(self):
        try:
            x, y = next(self.iter)
        except (AttributeError, StopIteration):
            self.iter = iter(self.loader)
            x, y = next(self.iter)
        return x, y

    def __next__(self):
        x, y = self._fetch()
        z = torch.randn(x.size(0), self.latent_dim)
        return SimpleNamespace(x=x.flatten(1), y=y, z=z)


def make_loader(workers, prob=0.5):
    flip = transforms.RandomHorizontalFlip()
    maybe_flip = transforms.Lambda(
        lambda x: flip(x) if random.random() < prob else x)
    return DataLoader(Points(24, transforms.Compose([maybe_flip])),
                      batch_size=6, shuffle=True, num_workers=workers,
                      collate_fn=Mixup(0.4),
                      generator=torch.Generator().manual_seed(11))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.manual_seed(0)
    random.seed(0)
    np.random.seed(0)
    loaders = SimpleNamespace(src=make_loader(args.workers))
    fetcher = InputFetcher(loaders.src)
    model = torch.nn.Sequential(torch.nn.Linear(12, 16), torch.nn.ReLU(),
                                torch.nn.Dropout(0.2), torch.nn.Linear(16, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    pbar = tqdm(range(args.steps), disable=True)
    for step in pbar:
        inputs = next(fetcher)
        out = model(torch.cat([inputs.x, inputs.z], 1)).squeeze(1)
        loss = torch.nn.functional.binary_cross_entropy_with_logits(
            out, inputs.y.float())
        opt.zero_grad()
        loss.backward()
        opt.step()
    torch.save({"model": model.state_dict(), "opt": opt.state_dict()},
               args.out)


if __name__ == "__main__":
    main()
