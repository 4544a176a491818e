# A Compose of the program's own transforms, as DETR and many detection
# repositories write it: the list is iterated and each entry called
# (`for t in self.transforms: image, target = t(image, target)`). The
# loop variable may be an instance of any class in the list; each one's
# __call__ runs, as an alternative. Before, the call of `t` ran nothing
# and the draws of every transform were missed.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# RUN: detc transform %s --emit-python -o %t.py
# RUN: FileCheck %s --check-prefix=KEYED < %t.py
import random

import torch
from torch.utils.data import DataLoader, Dataset


class Flip(object):
    def __call__(self, image, target):
        # CHECK-DAG: own_compose.py:[[@LINE+1]]:12: warning: generator 'random' (global) is used inside the per-example data-parallel region
        if random.random() < 0.5:
            image = image.flip(0)
        return image, target


class Jitter(object):
    def __init__(self, scales):
        self.scales = scales

    def __call__(self, image, target):
        # CHECK-DAG: own_compose.py:[[@LINE+1]]:17: warning: generator 'random' (global) is used inside the per-example data-parallel region
        scale = random.choice(self.scales)
        return image * scale, target


class Compose(object):
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, image, target):
        for t in self.transforms:
            image, target = t(image, target)
        return image, target


class Boxes(Dataset):
    def __init__(self, transforms):
        self._transforms = transforms

    def __len__(self):
        return 8

    def __getitem__(self, i):
        img, target = torch.zeros(3), i
        if self._transforms is not None:
            img, target = self._transforms(img, target)
        return img, target


def make_transforms():
    return Compose([Flip(), Jitter([0.5, 1.0, 2.0])])


# KEYED: keyed_loader(
loader = DataLoader(Boxes(make_transforms()), batch_size=2, num_workers=2)
for x, y in loader:
    print(x)
# CHECK: 2 warning(s)
