# A class picked from a registry at run time (`AUGS[name]()`, the way
# configuration-driven pipelines build their augmentations) may be any of
# the registry's classes: each is constructed, as an alternative, and a
# method called on the result runs every candidate's method of that name.
# The draw in Noise.apply is found although Blur, sorted first, draws
# nothing (detc used to construct and call only the first candidate);
# Shift is reached through a class held in a variable first.
# RUN: detc analyze %s 2>&1 | FileCheck %s
import torch
from torch.utils.data import DataLoader, Dataset


class Blur:
    def apply(self, x):
        return x * 0.5


class Noise:
    def apply(self, x):
# CHECK: class_registries.py:[[@LINE+2]]:20: warning: generator 'torch' (global) is used inside the per-example data-parallel region {{.*}}[detc-unsafe-rng]
# CHECK: note: reached through the call to 'Noise.apply' here
        return x + torch.randn(3)


class Keep:
    def shift(self, x):
        return x


class Shift:
    def shift(self, x):
# CHECK: class_registries.py:[[@LINE+2]]:20: warning: generator 'torch' (global) is used inside the per-example data-parallel region {{.*}}[detc-unsafe-rng]
# CHECK: note: reached through the call to 'Shift.shift' here
        return x + torch.rand(1)


AUGS = {"blur": Blur, "noise": Noise}
SHIFTS = [Keep, Shift]


class Augmented(Dataset):
    def __init__(self, name, which):
        self.aug = AUGS[name]()
        cls = SHIFTS[which]
        self.shifter = cls()

    def __len__(self):
        return 8

    def __getitem__(self, i):
        x = self.aug.apply(torch.zeros(3))
        return self.shifter.shift(x)


def main(name, which):
    torch.manual_seed(0)
    loader = DataLoader(Augmented(name, which), batch_size=2, num_workers=2)
    for x in loader:
        print(x.sum())


if __name__ == "__main__":
    main("blur", 0)
# CHECK: 2 warning(s)
