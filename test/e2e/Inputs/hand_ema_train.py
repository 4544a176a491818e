"""A weight average written by hand, as mean-teacher, MoCo and many
training scripts keep one: `for e, p in zip(ema.parameters(),
model.parameters()): e.mul_(d).add_(p, ...)`. The per-epoch checkpoint
does not hold the average; the final one does. The session-61 first
binary saw no change of `ema` in that loop: a resume re-derived it from
the initial model (`copy.deepcopy(model)`) and finished with exit 0 and
another average (2 of 4 kill/resume trials). A loop variable over an
object's parameters stands for that object now: `ema` derives from the
training and the sidecar saves it.

usage: hand_ema_train.py --out FILE [--epochs N]
"""
import argparse
import copy

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def ema_update(ema, model, decay=0.9):
    with torch.no_grad():
        for e, p in zip(ema.parameters(), model.parameters()):
            e.mul_(decay).add_(p, alpha=1 - decay)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--epochs", type=int, default=4)
    args = parser.parse_args()
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(48, 6), torch.randint(0, 3, (48,)))
    loader = DataLoader(data, batch_size=8, shuffle=True)
    model = torch.nn.Sequential(torch.nn.Linear(6, 16), torch.nn.Dropout(0.2),
                                torch.nn.Linear(16, 3))
    ema = copy.deepcopy(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(args.epochs):
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema_update(ema, model)
        torch.save({"model": model.state_dict(), "opt": opt.state_dict(),
                    "epoch": epoch}, args.out)
    torch.save({"model": model.state_dict(), "ema": ema.state_dict()},
               args.out)


if __name__ == "__main__":
    main()
