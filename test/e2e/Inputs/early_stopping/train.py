"""Training with an early-stopping object (early-stopping-pytorch's usage:
`early_stopping(valid_loss, model)` after each epoch's validation, `if
early_stopping.early_stop: break`), the best model saved by the object's
own method into --out, keyed dropout and a loader with workers.

The session-74 first binary wrote no sidecar for that save ("it saves
what a module the script imports holds"): no resume at all.

usage: train.py [--epochs N] [--workers W] --out FILE"""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from stop_rule import StopWhenStale

parser = argparse.ArgumentParser()
parser.add_argument('--epochs', type=int, default=10)
parser.add_argument('--patience', type=int, default=3)
parser.add_argument('--workers', type=int, default=2)
parser.add_argument('--out', required=True)
args = parser.parse_args()

torch.manual_seed(0)
x = torch.randn(160, 10)
y = (x[:, :3].sum(1) > 0).long()
train_loader = DataLoader(TensorDataset(x[:128], y[:128]), batch_size=16,
                          shuffle=True, num_workers=args.workers)
valid_loader = DataLoader(TensorDataset(x[128:], y[128:]), batch_size=32)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Dropout(0.5),
                      nn.Linear(32, 2))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)

train_losses = []
valid_losses = []
early_stopping = StopWhenStale(patience=args.patience, path=args.out)
for epoch in range(1, args.epochs + 1):
    model.train()
    for batch, (data, target) in enumerate(train_loader, 1):
        optimizer.zero_grad()
        loss = criterion(model(data), target)
        loss.backward()
        optimizer.step()
        train_losses.append(loss.item())
    model.eval()
    with torch.no_grad():
        for data, target in valid_loader:
            valid_losses.append(criterion(model(data), target).item())
    valid_loss = np.average(valid_losses)
    print('[%d] train %.5f valid %.5f' % (epoch, np.average(train_losses),
                                         valid_loss))
    train_losses = []
    valid_losses = []
    early_stopping(valid_loss, model)
    if early_stopping.should_stop:
        print('early stop')
        break
model.load_state_dict(torch.load(args.out))
