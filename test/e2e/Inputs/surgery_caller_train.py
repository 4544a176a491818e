"""A training loop at the module's top level that calls a function per
epoch (test/e2e/recovery_shapes.py): in epoch 1 the function reads a
statistics file that is not there. The fix a developer writes adds a
`try` around the read, which changes the cells around the failing
statement: the function's call is made again by the top-level loop's
barrier. --fixed runs the fixed function from the start."""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F

p = argparse.ArgumentParser()
p.add_argument("--fixed", action="store_true")
p.add_argument("--out", default="surgery.pt")
args = p.parse_args()


def train_epoch(model, opt, data, epoch):
    scale = 1.0
    for b in range(4):
        if epoch == 1 and b == 0:
            scale = float(open("stats-%d.txt" % epoch).read())
        x = data[b * 4:(b + 1) * 4] * scale
        opt.zero_grad()
        F.cross_entropy(model(x), torch.zeros(4, dtype=torch.long)).backward()
        opt.step()


def train_epoch_fixed(model, opt, data, epoch):
    scale = 1.0
    for b in range(4):
        try:
            if epoch == 1 and b == 0:
                scale = float(open("stats-%d.txt" % epoch).read())
        except FileNotFoundError:
            scale = 1.0
        x = data[b * 4:(b + 1) * 4] * scale
        opt.zero_grad()
        F.cross_entropy(model(x), torch.zeros(4, dtype=torch.long)).backward()
        opt.step()


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(6, 8), nn.Dropout(0.2), nn.Linear(8, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = torch.randn(16, 6)
for epoch in range(3):
    if args.fixed:
        train_epoch_fixed(model, opt, data, epoch)
    else:
        train_epoch(model, opt, data, epoch)
torch.save(model.state_dict(), args.out)
