"""timm's train.py shape around its checkpoints: a saver object from a
module (timm_saver.py) held by `main`, passed to `train_one_epoch`, which
saves a recovery checkpoint every --recovery-every steps, while `main`
saves one after each epoch with a metric; both write under a temporary
name and rename it to --out, which the kill/resume test resumes from.

usage: timm_saver_train.py [--epochs N] [--recovery-every N] --out FILE
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from timm_saver import CheckpointSaver


def train_one_epoch(epoch, model, loader, optimizer, args, saver=None):
    for batch_idx, (x, y) in enumerate(loader):
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if saver is not None and (batch_idx + 1) % args.recovery_every == 0:
            saver.save_recovery(epoch, batch_idx=batch_idx)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--recovery-every", type=int, default=3)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.manual_seed(3)
    data = TensorDataset(torch.randn(96, 6), torch.arange(96) % 3)
    loader_train = DataLoader(data, batch_size=8, shuffle=True)
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Dropout(0.3),
                          nn.Linear(16, 3))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    saver = CheckpointSaver(model, optimizer, args.out)
    for epoch in range(args.epochs):
        train_one_epoch(epoch, model, loader_train, optimizer, args,
                        saver=saver)
        saver.save_checkpoint(epoch, metric=float(epoch % 2))


if __name__ == "__main__":
    main()
