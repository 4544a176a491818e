"""A script that resumes itself (VICReg's and ConvNeXt's shape): when its
checkpoint exists it loads it — model, optimizer, LR scheduler, best
accuracy, loss history — and goes on from the epoch after it, rerun
after a crash with the same command. It evaluates again after each
checkpoint (drawing from the global generator: a noisy metric), and its
loader does not call set_epoch. Killed at random moments and rerun, the transformed
script must end with the uninterrupted run's weights, bit for bit, or say
that it does not continue the run that wrote the checkpoint
(kill_resume.py --own).

usage: own_resume_train.py --out PATH [--epochs N]"""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def evaluate(model, loader):
    model.eval()
    correct = 0
    with torch.no_grad():
        for x, y in loader:
            correct += (model(x).argmax(1) == y).sum().item()
    model.train()
    return correct / len(loader.dataset) + torch.rand(()).item() * 1e-6


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--epochs", type=int, default=12)
    args = parser.parse_args()
    torch.manual_seed(0)
    x = torch.randn(512, 6)
    y = (x[:, 0] + x[:, 1] > 0).long()
    data = TensorDataset(x, y)
    loader = DataLoader(data, batch_size=16, shuffle=True)
    val_loader = DataLoader(data, batch_size=64)
    model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Dropout(0.25),
                          nn.Linear(32, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 3, gamma=0.5)
    start_epoch, best_acc, history = 0, 0.0, []
    if os.path.isfile(args.out):
        ckpt = torch.load(args.out)
        model.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])
        scheduler.load_state_dict(ckpt["scheduler"])
        start_epoch = ckpt["epoch"] + 1
        best_acc, history = ckpt["best_acc"], ckpt["history"]
    for epoch in range(start_epoch, args.epochs):
        total = 0.0
        for xb, yb in loader:
            loss = F.cross_entropy(model(xb), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        scheduler.step()
        history.append(total)
        best_acc = max(best_acc, evaluate(model, val_loader))
        torch.save({"model": model.state_dict(),
                    "optimizer": optimizer.state_dict(),
                    "scheduler": scheduler.state_dict(), "epoch": epoch,
                    "best_acc": best_acc, "history": history}, args.out)
        print("epoch %d: accuracy %.4f" % (epoch, evaluate(model,
                                                            val_loader)))


if __name__ == "__main__":
    main()
