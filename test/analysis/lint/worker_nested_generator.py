# A generator the script makes and hands down (fastMRI's mask functions:
# `mask = create_mask_for_mask_type(...)` makes a MaskFunc whose __init__
# keeps `self.rng = np.random.RandomState(seed)`; the mask goes into a
# transform, the transform into the dataset): drawn from in __getitem__ as
# `loader.dataset.transform.mask_func.rng`, the generator the mask's
# __init__ made. Every worker has a copy of it (identical masks across
# workers). Before, the path was linked one attribute deep only: the
# generator was "(not created by the program)", and the transform left it
# unkeyed ("cannot make draws ... deterministic"); now the transform
# reseeds it per example at `transform.mask_func.rng` of the dataset.
# RUN: detc analyze %s | FileCheck %s
# RUN: env OMP_NUM_THREADS=1 %python %s | FileCheck %s --check-prefix=ORIG
# RUN: detc transform %s --emit-python -o %t.py
# RUN: FileCheck %s --check-prefix=EMIT < %t.py
# RUN: env OMP_NUM_THREADS=1 PYTHONPATH=%detc_runtime DETC_QUIET=1 %python %t.py | FileCheck %s --check-prefix=KEYED
# A data module whose `train_dataloader()` a library calls (Lightning's
# LightningDataModule; pytorch_lightning need not be installed): the loader
# it returns is the one the library iterates, so its dataset's generators
# are the same. (The loader was a fresh name the method's result was never
# put in; a private helper returning the loader, called with no arguments,
# added a second, unlinked finding.)
# RUN: sed -e 's/^    loader = DataLoader(Masked(transform), batch_size=1, num_workers=2)$/    dm = Data(transform); import pytorch_lightning as pl; pl.Trainer().fit(None, datamodule=dm)/' -e 's/^    for i, x in loader:$/    for i, x in []:/' -e 's/^    # class Data/class Data/' -e 's/^    #   /    /' %s > %t.module.py
# RUN: detc analyze %t.module.py | FileCheck %s --check-prefix=MODULE
# RUN: detc transform %t.module.py --emit-python -o %t.module.out.py
# RUN: FileCheck %s --check-prefix=EMIT < %t.module.out.py
# MODULE: warning: generator 'dm.train_dataloader.dataset.transform.mask_func.rng' is used inside the per-example data-parallel region
# MODULE-NOT: not created by the program
# MODULE: note: generator 'dm.train_dataloader.dataset.transform.mask_func.rng' created here
# MODULE: 2 warning(s)
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class MaskFunc:
    def __init__(self, seed=None):
        self.rng = np.random.RandomState(seed)

    def __call__(self, n):
        # CHECK: worker_nested_generator.py:[[@LINE+2]]:16: warning: generator 'loader.dataset.transform.mask_func.rng' is used inside the per-example data-parallel region
        # CHECK: worker_nested_generator.py:[[#@LINE-4]]:20: note: generator 'loader.dataset.transform.mask_func.rng' created here
        return self.rng.uniform(size=n)


def create_mask(kind):
    # Two constructions on two branches: two generators, made by one line,
    # reported once.
    if kind == "random":
        return MaskFunc()
    return MaskFunc(1)


class MaskTransform:
    def __init__(self, mask_func=None):
        self.mask_func = mask_func

    def __call__(self, x):
        if self.mask_func is not None:
            x = x * torch.from_numpy(self.mask_func(len(x)))
        return x


class Masked(Dataset):
    def __init__(self, transform):
        self.transform = transform

    def __len__(self):
        return 8

    def __getitem__(self, i):
        return i, self.transform(torch.ones(2, dtype=torch.float64))


    # class Data:
    #   def __init__(self, transform):
    #       self.transform = transform
    #
    #   def _create_data_loader(self, transform):
    #       return DataLoader(Masked(transform), batch_size=1, num_workers=2)
    #
    #   def train_dataloader(self):
    #       return self._create_data_loader(self.transform)


def main():
    transform = MaskTransform(mask_func=create_mask("random"))
    # Two workers, one example per batch: worker 0 loads examples 0, 2, 4,
    # 6 and worker 1 examples 1, 3, 5, 7, each with its copy of the rng.
    loader = DataLoader(Masked(transform), batch_size=1, num_workers=2)
    masks = {}
    for i, x in loader:
        masks[int(i)] = x[0].tolist()
    pairs = sum(masks[i] == masks[i + 1] for i in (0, 2, 4, 6))
    # ORIG: workers drawing the same mask: 4 of 4 pairs
    # KEYED: workers drawing the same mask: 0 of 4 pairs
    print("workers drawing the same mask: %d of 4 pairs" % pairs)


if __name__ == "__main__":
    main()
# CHECK: 1 warning(s)
# EMIT: scope_attrs=(("transform.mask_func.rng", {{[0-9]+}})
