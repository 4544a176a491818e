# torchvision's CIFAR10/MNIST-style datasets keep the target transform as
# well as the transform (VisionDataset's constructor stores both) and
# their __getitem__ runs it per example: a target transform that draws is
# an unsafe per-example draw (before: the table kept only `transform`, the
# draw was silent). A subclass of the program's that reads
# `self.target_transform` after passing None on (MixMatch's
# CIFAR10_labeled) reads None, not an attribute of code detc does not
# model (before: a false may-draw).
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK-DAG: dataset_target_transform.py:[[@LINE+31]]:12: warning: generator 'random' (global) is used inside the per-example data-parallel region that starts at {{.*}}dataset_target_transform.py:[[@LINE+42]]:5
# CHECK-DAG: dataset_target_transform.py:[[@LINE+10]]:20: warning: generator 'torch' (global) is used inside the per-example data-parallel region that starts at {{.*}}dataset_target_transform.py:[[@LINE+41]]:5
# CHECK: 2 warning(s)
import random

import torch
import torchvision
from torch.utils.data import DataLoader


def jitter(image):
    return image + torch.randn(1).item()


class Labeled(torchvision.datasets.CIFAR10):
    def __init__(self, root, indexs=None, train=True, transform=None,
                 target_transform=None):
        super().__init__(root, train=train, transform=transform,
                         target_transform=target_transform)

    def __getitem__(self, index):
        img, target = self.data[index], self.targets[index]
        if self.transform is not None:
            img = self.transform(img)
        if self.target_transform is not None:
            target = self.target_transform(target)
        return img, target


class NoisyLabel:
    def __call__(self, target):
        if random.random() < 0.1:
            return 0
        return target


# The library's own __getitem__ runs both.
noisy = torchvision.datasets.MNIST(".", transform=torchvision.transforms.ToTensor(),
                                   target_transform=NoisyLabel())
labeled = Labeled(".", transform=jitter)
for data in (noisy, labeled):
    loader = DataLoader(data, batch_size=2, num_workers=2)
    for x, y in loader:
        pass
