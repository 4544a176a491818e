import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from saver import Saver


def train_one_epoch(epoch, model, loader, optimizer, saver):
    for step, (x, y) in enumerate(loader):
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 4 == 3:
            saver.save_recovery(epoch, step)
    return {'loss': loss.item()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.manual_seed(0)
    loader = DataLoader(TensorDataset(torch.randn(64, 4),
                                      torch.arange(64) % 2),
                        batch_size=8, shuffle=True)
    model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.2), nn.Linear(8, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    saver = Saver(model, optimizer, args.out)
    best_metric = None
    best_epoch = None
    for epoch in range(3):
        train_metrics = train_one_epoch(epoch, model, loader, optimizer, saver)
        header = best_metric is None
        print(epoch, train_metrics, header)
        best_metric, best_epoch = saver.save_checkpoint(
            epoch, metric=train_metrics['loss'])
        if os.environ.get("TRAIN_DIES_AT") == str(epoch):
            os._exit(9)  # killed between two epochs
    print(best_metric, best_epoch)


if __name__ == "__main__":
    main()
