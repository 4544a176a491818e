# A loader handed to a library's training loop may be rebuilt there
# (Lightning re-creates a DataLoader with a DistributedSampler when it
# trains on several devices): the transform keys torch's DataLoader where
# libraries construct it, as for accelerate's prepare
# (rebuilt_loader_accelerate.py). Before, only the script's own
# construction was keyed.
# RUN: detc transform --emit-python --python none %s -o %t.py
# RUN: FileCheck %s < %t.py
# CHECK: {{^}}_detc_rt.key_imported_loaders(
import random

import pytorch_lightning as pl
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class Jittered(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        return torch.full((4,), float(i)) + random.gauss(0.0, 0.1), i % 2


class Classifier(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return F.cross_entropy(self.fc(x), y)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


loader = DataLoader(Jittered(), batch_size=4, shuffle=True, num_workers=2)
pl.Trainer(max_epochs=1, devices=2).fit(Classifier(), loader)
