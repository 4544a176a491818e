# A library dataset (ImageFolder) given a transform of the program — an
# object with `__call__` (DINO's multi-crop augmentation objects) or a
# function, alone or among the parts of a Compose — runs it on every
# example: its draws are in the per-example region, also when the loader
# is iterated through a generator method that yields its batches (a
# MetricLogger.log_every-style wrapper).
# RUN: detc analyze %s 2>&1 | FileCheck %s
import random

import numpy as np
import torch
from torchvision import datasets, transforms


class Blur:
    def __call__(self, img):
# CHECK: library_dataset_user_transform.py:[[@LINE+1]]:23: warning: generator 'random' (global) is used inside the per-example data-parallel region that starts at {{.*}}library_dataset_user_transform.py:[[@LINE+11]]:9 [detc-unsafe-rng]
        return img if random.random() < 0.5 else img


def jitter(img):
# CHECK: library_dataset_user_transform.py:[[@LINE+1]]:18: warning: generator 'torch' (global) is used inside the per-example data-parallel region
    return img + torch.rand(1)


class Logger:
    def log_every(self, iterable):
        for obj in iterable:
            yield obj


def train(loader):
    logger = Logger()
    for x, y in logger.log_every(loader):
        print(x)


class Solarize:
    def __call__(self, img):
# CHECK: library_dataset_user_transform.py:[[@LINE+1]]:24: warning: generator 'np.random' (global) is used inside the per-example data-parallel region
        return -img if np.random.rand() < 0.2 else img


def invert(img):
# CHECK: library_dataset_user_transform.py:[[@LINE+1]]:20: warning: generator 'random' (global) is used inside the per-example data-parallel region
    return -img if random.randint(0, 1) else img


def main():
    blurred = datasets.ImageFolder("data", transform=Blur())
    jittered = datasets.ImageFolder("data", transform=jitter)
    composed = datasets.ImageFolder("data", transform=transforms.Compose(
        [transforms.ToTensor(), Solarize(), invert]))
    train(torch.utils.data.DataLoader(blurred, batch_size=4, num_workers=2))
    train(torch.utils.data.DataLoader(jittered, batch_size=4, num_workers=2))
    train(torch.utils.data.DataLoader(composed, batch_size=4, num_workers=2))


main()
# CHECK: 4 warning(s)
