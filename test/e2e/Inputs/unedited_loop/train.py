"""A script whose training loop lives in `engine.py`, a module that is not
beside the script when detc transforms it (only when it runs): detc
cannot edit that loop, so resuming from the script's checkpoint stops
with exit 3 naming the loop (test/e2e/unedited_loop.py). The session-59
first binary wrote sidecars, and the resume crashed in the module with
`TypeError: cannot unpack non-iterable Skipped object`; the session-60
first one skipped the call in fast-forward, and resumes gave other
weights with exit 0. A module detc reads is edited instead
(Inputs/module_loop).

usage: train.py --out FILE [--epochs N]"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from engine import train_one_epoch

parser = argparse.ArgumentParser()
parser.add_argument("--out", required=True)
parser.add_argument("--epochs", type=int, default=3)
args = parser.parse_args()
torch.manual_seed(0)
data = TensorDataset(torch.randn(64, 6), torch.randint(0, 3, (64,)))
loader = DataLoader(data, batch_size=8, shuffle=True, num_workers=2)
model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Dropout(0.3),
                      nn.Linear(16, 3))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
for epoch in range(args.epochs):
    loss = train_one_epoch(model, loader, optimizer, epoch)
    print("epoch %d loss %.4f" % (epoch, loss))
    torch.save({"model": model.state_dict(),
                "optimizer": optimizer.state_dict(), "epoch": epoch},
               args.out)
