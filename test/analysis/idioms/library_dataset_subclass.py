# A dataset class of the program that derives from a torchvision dataset
# and defines no `__getitem__` (PyTorch-VAE's `class MyCelebA(CelebA)`
# overriding only `_check_integrity`; a subclass with its own `__init__`
# passing the transforms to `super().__init__`; a subclass of that): the
# library's `__getitem__` runs the transform and the target transform the
# instance keeps, on every example. Each loader's dataset is its own (the
# flip of one instance is no draw of another's loop). All of this was
# silent: the library base's `__getitem__` was not run.
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
import random

import albumentations as A
import torch
from torch.utils.data import DataLoader
from torchvision import transforms
from torchvision.datasets import CIFAR10, CelebA


class MyCelebA(CelebA):
    def _check_integrity(self) -> bool:
        return True


class Labeled(CIFAR10):
    def __init__(self, root, transform=None, target_transform=None):
        super().__init__(root, train=True, transform=transform,
                         target_transform=target_transform)


class Relabeled(Labeled):
    pass


def noisy_label(y):
    # CHECK-DAG: .py:[[@LINE+2]]:17: warning: generator 'random' (global) is used inside the per-example data-parallel region that starts at {{.*}}.py:[[CIFAR:[0-9]+]]:1
    # CHECK-DAG: .py:[[@LINE+1]]:44: warning: generator 'random' (global) is used inside the per-example data-parallel region that starts at {{.*}}.py:[[CIFAR]]:1
    return y if random.random() < 0.9 else random.randrange(10)


torch.manual_seed(0)
random.seed(0)
faces = MyCelebA("data", split="train",
                 # CHECK-DAG: .py:[[@LINE+1]]:28: warning: generator 'torch' (global) is used inside the per-example data-parallel region that starts at {{.*}}.py:[[@LINE+2]]:1
                 transform=transforms.RandomHorizontalFlip())
for x, y in DataLoader(faces, batch_size=4, num_workers=2):
    pass
# CHECK-DAG: .py:[[@LINE+1]]:37: warning: generator 'torch' (global) is used inside the per-example data-parallel region that starts at {{.*}}.py:[[CIFAR]]:1
cifar = Relabeled("data", transform=transforms.RandomCrop(32, padding=4),
                  target_transform=noisy_label)
for x, y in DataLoader(cifar, batch_size=4, num_workers=2):
    pass
# CHECK-DAG: .py:[[@LINE+1]]:36: warning: may draw: 'A.HorizontalFlip()' calls code detc could not read, inside the per-example data-parallel region that starts at {{.*}}.py:[[@LINE+2]]:1
other = MyCelebA("data", transform=A.HorizontalFlip())
for x, y in DataLoader(other, batch_size=4, num_workers=2):
    pass
plain = MyCelebA("data")
for x, y in DataLoader(plain, batch_size=4, num_workers=2):
    pass
