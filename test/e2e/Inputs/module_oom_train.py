"""A script whose setup runs at the module's top level, outside any
function or loop (test/e2e/module_recovery.py): the configuration asks
for a hidden layer too large to allocate, so `model = ...` fails at module
level. A policy's action makes it smaller and the statement runs again in
the same process. --fixed has the smaller size from the start."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

p = argparse.ArgumentParser()
p.add_argument("--fixed", action="store_true")
p.add_argument("--out", default="module.pt")
args = p.parse_args()
torch.manual_seed(0)
data = torch.randn(16, 6)
hidden = 16 if args.fixed else 1 << 42
model = nn.Sequential(nn.Linear(6, hidden), nn.Dropout(0.2),
                      nn.Linear(hidden, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    for b in range(4):
        opt.zero_grad()
        out = model(data[b * 4:(b + 1) * 4])
        F.cross_entropy(out, torch.zeros(4, dtype=torch.long)).backward()
        opt.step()
torch.save(model.state_dict(), args.out)
