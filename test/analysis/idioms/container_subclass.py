# A transform container subclassed only to add methods, in the shape of
# 3D-ResNets' spatial transforms: `class Compose(transforms.Compose)` with
# `randomize_parameters()` (called once per example before the clip's
# frames are transformed) and no `__init__`, `__call__` or `forward` of
# its own, holding program transforms that subclass torchvision's (a
# RandomResizedCrop whose `__call__` draws through the inherited
# `get_params`). Constructing it constructs the container: calling it runs
# its parts. Before, the subclass was a plain class with no `__call__`:
# calling it ran nothing, and the crop's draw was missed.
# RUN: detc analyze %s --python none 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK-DAG: container_subclass.py:[[@LINE+23]]:24: warning: generator 'torch' (global) is used inside the per-example data-parallel region
# CHECK-DAG: container_subclass.py:[[@LINE+36]]:18: warning: generator 'random' (global) is used inside the per-example data-parallel region
# CHECK: 2 warning(s)
import random

import torch
from torch.utils.data import DataLoader, Dataset
from torchvision import transforms


class Compose(transforms.Compose):
    def randomize_parameters(self):
        for t in self.transforms:
            t.randomize_parameters()


class Crop(transforms.RandomResizedCrop):
    def __init__(self, size):
        super().__init__(size)
        self.randomize = True

    def __call__(self, img):
        if self.randomize:
            self.box = self.get_params(img, self.scale, self.ratio)
            self.randomize = False
        i, j, h, w = self.box
        return img[..., i:i + h, j:j + w]

    def randomize_parameters(self):
        self.randomize = True


class Flip:
    def __call__(self, img):
        return img.flip(-1) if self.p < 0.5 else img

    def randomize_parameters(self):
        self.p = random.random()


class Clips(Dataset):
    def __init__(self, transform, clips):
        self.transform, self.clips = transform, clips

    def __len__(self):
        return self.clips

    def __getitem__(self, i):
        self.transform.randomize_parameters()
        return self.transform(torch.ones(3, 8, 8) * i)


loader = DataLoader(Clips(Compose([Crop(4), Flip()]), 16), batch_size=4,
                    num_workers=2)
torch.manual_seed(0)
random.seed(0)
for x in loader:
    print(x.shape)
