"""A script with its own auto-resume (Swin Transformer's
`TRAIN.AUTO_RESUME`, on by default): with --auto-resume it loads the
newest checkpoint in its output folder and starts at the epoch after it.
Under `--detc-resume`, fast-forward then counts its way to the
checkpoint's instance epochs late: the session-65 first runtime resumed
there and ended with exit 0, those epochs never trained.

usage: auto_resume_train.py --out DIR [--epochs N] [--auto-resume]"""
import argparse
import os

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def newest_checkpoint(folder):
    names = [n for n in os.listdir(folder) if n.endswith(".pt")]
    if not names:
        return None
    return max((os.path.join(folder, n) for n in names),
               key=os.path.getmtime)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--auto-resume", action="store_true")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    torch.manual_seed(0)
    x = torch.randn(48, 5)
    y = (x.sum(1) > 0).long()
    loader = DataLoader(TensorDataset(x, y), batch_size=8, shuffle=True)
    model = nn.Sequential(nn.Linear(5, 12), nn.ReLU(), nn.Dropout(0.3),
                          nn.Linear(12, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    start_epoch = 0
    if args.auto_resume:
        found = newest_checkpoint(args.out)
        if found:
            ck = torch.load(found)
            model.load_state_dict(ck["model"])
            opt.load_state_dict(ck["opt"])
            start_epoch = ck["epoch"] + 1
    for epoch in range(start_epoch, args.epochs):
        for xb, yb in loader:
            loss = nn.functional.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        torch.save({"model": model.state_dict(), "opt": opt.state_dict(),
                    "epoch": epoch},
                   os.path.join(args.out, "ckpt_%d.pt" % epoch))


if __name__ == "__main__":
    main()
