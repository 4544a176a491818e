"""A training script whose loop is PyTorch Lightning's (test/platform/
torch2.py): `trainer.fit(module, train_dataloaders=loader)`. The dataset
draws from torch's, numpy's and random's global generators in the
loader's workers, the module has a dropout layer and adds noise in its
`training_step`: nothing of it is in a loop of the script, and the
original's weights depend on the worker count."""
import argparse
import random

import numpy as np
import pytorch_lightning as pl
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class Jittered(Dataset):
    def __init__(self, n=64):
        g = torch.Generator().manual_seed(7)
        self.x = torch.randn(n, 8, generator=g)
        self.y = (self.x.sum(1) > 0).long()

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        x = self.x[i] + 0.1 * torch.randn(8) + 0.01 * np.random.rand()
        if random.random() < 0.5:
            x = x.flip(0)
        return x, self.y[i]


class Classifier(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Dropout(0.3),
                                 nn.Linear(32, 2))

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        x = x + 0.05 * torch.randn_like(x)
        return F.cross_entropy(self(x), y)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1, momentum=0.9)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--out", default="lightning.pt")
    args = parser.parse_args()
    pl.seed_everything(0, verbose=False)
    loader = DataLoader(Jittered(), batch_size=8, shuffle=True,
                        num_workers=args.workers,
                        persistent_workers=args.workers > 0)
    trainer = pl.Trainer(max_epochs=2, accelerator="cpu", devices=1,
                         logger=False, enable_checkpointing=False,
                         enable_progress_bar=False,
                         enable_model_summary=False)
    model = Classifier()
    trainer.fit(model, train_dataloaders=loader)
    torch.save({"model": model.state_dict()}, args.out)


if __name__ == "__main__":
    main()
