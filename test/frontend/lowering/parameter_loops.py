# A loop over an object's parameters changes that object through its loop
# variables: a hand-written EMA (`for e, p in zip(ema.parameters(),
# model.parameters()): e.mul_(d).add_(p)`), MoCo's momentum encoder
# (`param_k.data = param_k.data * m + ...`), a learning rate set by hand
# (`for g in optimizer.param_groups: g["lr"] = lr`). The session-61 first
# binary saw no change of `ema`: a resume from a checkpoint that does not
# hold it re-derived it from the initial model, exit 0 with other weights.
# Now `ema` derives from the training and its sidecar saves it.
# RUN: detc %s --python none | FileCheck %s
# RUN: detc analyze %s --python none | FileCheck %s --check-prefix=REPLAY
import argparse
import copy

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--out", required=True)
parser.add_argument("--epochs", type=int, default=4)
args = parser.parse_args()
loader = DataLoader(TensorDataset(torch.randn(48, 6), torch.arange(48) % 3),
                    batch_size=8, shuffle=True)
model = torch.nn.Sequential(torch.nn.Linear(6, 16), torch.nn.Dropout(0.2),
                            torch.nn.Linear(16, 3))
ema = copy.deepcopy(model)
momentum = copy.deepcopy(model)
opt = torch.optim.SGD(model.parameters(), lr=0.1)


def ema_update(ema, model, decay=0.9):
    with torch.no_grad():
        for e, p in zip(ema.parameters(), model.parameters()):
            # CHECK: detc.stmt "expr" updates ["e", "ema", "model"]
            e.mul_(decay).add_(p, alpha=1 - decay)


def momentum_update(key, query, m=0.99):
    for param_q, param_k in zip(query.parameters(), key.parameters()):
        # CHECK: detc.stmt "assign" defs ["param_k.data"] updates ["query", "key"]
        param_k.data = param_k.data * m + param_q.data * (1. - m)


def set_lr(optimizer, lr):
    for group in optimizer.param_groups:
        # CHECK: updates ["group", "optimizer"]
        group["lr"] = lr


for epoch in range(args.epochs):
    set_lr(opt, 0.1 / (1 + epoch))
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema_update(ema, model)
        momentum_update(momentum, model)
    torch.save({"model": model.state_dict(), "opt": opt.state_dict(),
                "epoch": epoch}, args.out)
    # REPLAY: saved by the checkpoint: model, opt, epoch
    # REPLAY: saved by detc (needed, not re-derivable): {{.*}}ema [derived from
    # REPLAY-SAME: momentum [derived from
torch.save({"model": model.state_dict(), "ema": ema.state_dict(),
            "momentum": momentum.state_dict()}, args.out)
