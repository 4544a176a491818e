# A training loop that runs inside library code (PyTorch Lightning's
# `trainer.fit(module, train_dataloaders=loader)`, ignite's
# `engine.run(loader)`, Hugging Face's `Trainer(train_dataset=ds).train()`):
# a library call no table describes that is given a loader (or a dataset
# it may make one over, or that is itself a library loader) may iterate
# it. Its examples are made in the loader's workers (a per-example
# region), and each batch runs the library's code and any method of the
# program's objects it was given (`training_step`, `forward`, hooks). All
# of this was silent before: the script has no loop of its own.
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# Just-in-time checkpoints need the loop in the script: refused, at the
# call that runs it, and nothing is written.
# RUN: rm -f %t.py
# RUN: not detc transform --jit-checkpoint --emit-python --python none %s -o %t.py 2>&1 | FileCheck %s --check-prefix=JIT
# RUN: not test -e %t.py
# JIT: .py:{{[0-9]+}}:5: error: --jit-checkpoint: the training loop runs inside code this statement calls
# JIT-NEXT: {{^ +}}trainer.fit(Lit(), train_dataloaders=loader)
import random

import hydra
import numpy as np
import pytorch_lightning as pl
import torch
import torch.nn as nn
import torch.nn.functional as F
# CHECK-DAG: .py:[[@LINE+1]]:27: warning: cannot resolve import 'ignite.engine'
from ignite.engine import Engine
from torch.utils.data import DataLoader, Dataset
from transformers import Trainer


CONFIG = {"data": {"_target_": "data.Module"}}


class Noisy(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        # CHECK-DAG: .py:[[@LINE+2]]:13: warning: generator 'torch' (global) is used inside the per-example data-parallel region that starts at {{.*}}.py:[[FIT:[0-9]+]]:5
        # CHECK-DAG: .py:[[@LINE+1]]:30: warning: generator 'np.random' (global) is used inside the per-example data-parallel region that starts at {{.*}}.py:[[FIT]]:5
        x = torch.randn(8) + np.random.rand()
        # CHECK-DAG: .py:[[@LINE+1]]:12: warning: generator 'random' (global) is used inside the per-example data-parallel region that starts at {{.*}}.py:[[FIT]]:5
        if random.random() < 0.5:
            x = -x
        return x, i % 2


class Lit(pl.LightningModule):
    def __init__(self):
        super().__init__()
        # CHECK-DAG: .py:[[@LINE+1]]:52: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}.py:[[FIT]]:5
        self.net = nn.Sequential(nn.Linear(8, 16), nn.Dropout(0.2),
                                 nn.Linear(16, 2))

    def training_step(self, batch, batch_idx):
        x, y = batch
        # CHECK-DAG: .py:[[@LINE+1]]:23: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}.py:[[FIT]]:5
        x = x + 0.1 * torch.randn_like(x)
        return F.cross_entropy(self.net(x), y)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


class Jitter(Dataset):
    def __len__(self):
        return 16

    def __getitem__(self, i):
        # CHECK-DAG: .py:[[@LINE+1]]:16: warning: generator 'random' (global) is used inside the per-example data-parallel region that starts at {{.*}}.py:[[ENGINE:[0-9]+]]:5
        return random.gauss(0.0, 1.0)


class Tokens(Dataset):
    def __len__(self):
        return 16

    def __getitem__(self, i):
        # CHECK-DAG: .py:[[@LINE+1]]:16: warning: generator 'np.random' (global) is used inside the per-example data-parallel region that starts at {{.*}}.py:[[TRAIN:[0-9]+]]:5
        return np.random.randint(0, 100, size=8)


class Cropped(Dataset):
    def __len__(self):
        return 16

    def __getitem__(self, i):
        # CHECK-DAG: .py:[[@LINE+1]]:16: warning: generator 'torch' (global) is used inside the per-example data-parallel region that starts at {{.*}}.py:[[MODULE:[0-9]+]]:5
        return torch.rand(4) * i


class Data(pl.LightningDataModule):
    """A LightningDataModule: the library calls train_dataloader() and
    iterates the loader it returns."""

    def setup(self, stage=None):
        self.train_set = Cropped()

    def train_dataloader(self):
        return DataLoader(self.train_set, batch_size=4, num_workers=2)


def ignite_step(engine, batch):
    # CHECK-DAG: .py:[[@LINE+1]]:12: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}.py:[[ENGINE]]:5
    return torch.rand(1) * batch


def main():
    pl.seed_everything(0)
    loader = DataLoader(Noisy(), batch_size=8, num_workers=2, shuffle=True)
    trainer = pl.Trainer(max_epochs=2)
    # CHECK-DAG: .py:[[FIT]]:5: warning: may draw: 'trainer.fit' calls code detc could not read, inside the per-batch data-parallel region
    trainer.fit(Lit(), train_dataloaders=loader)

    engine = Engine(ignite_step)
    # CHECK-DAG: .py:[[ENGINE]]:5: warning: may draw: 'engine.run' calls code detc could not read, inside the per-batch data-parallel region
    engine.run(DataLoader(Jitter(), batch_size=4, num_workers=2), max_epochs=1)

    hf = Trainer(train_dataset=Tokens())
    # CHECK-DAG: .py:[[@LINE-1]]:10: warning: may draw: 'Trainer' calls code detc could not read, inside the per-example data-parallel region
    # CHECK-DAG: .py:[[TRAIN]]:5: warning: may draw: 'hf.train' calls code detc could not read, inside the per-batch data-parallel region
    hf.train()

    # CHECK-DAG: .py:[[MODULE]]:5: warning: may draw: 'trainer.fit' calls code detc could not read, inside the per-batch data-parallel region
    trainer.fit(Lit(), datamodule=Data())

    # Data made where detc cannot see (lightning-hydra-template's
    # `hydra.utils.instantiate(cfg.data)`), given by a keyword the tables
    # name as data (`data-keyword datamodule`): its examples may draw.
    unseen = hydra.utils.instantiate(CONFIG["data"])
    # CHECK-DAG: .py:[[@LINE+3]]:5: warning: may draw: 'trainer.fit' calls code detc could not read, inside the per-batch data-parallel region
    # CHECK-DAG: .py:[[@LINE+2]]:35: warning: may draw: 'unseen' calls code detc could not read, inside the per-example data-parallel region
    # CHECK-DAG: .py:[[@LINE+1]]:35: note: 'unseen' is data that is library 'hydra'{{.*}}: its examples may draw
    trainer.fit(Lit(), datamodule=unseen)


if __name__ == "__main__":
    main()
