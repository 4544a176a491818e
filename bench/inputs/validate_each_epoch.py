"""A training script that validates after every epoch, with a validation
function also called before the loop (`--eval`): the shape of
pytorch/examples' ImageNet and facebookresearch/deit. The regular
checkpoint is written after each epoch's training, the best one (through a
helper) after its validation when the accuracy improved.

Fast-forward skips the validation passes the training loop makes; it ran
them in full before session 64 (a resume at epoch N re-ran N passes).

usage: validate_each_epoch.py [--epochs N] [--examples N] [--val N]
                              [--features N] [--hidden N] [--eval] --out FILE
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def save_on_master(*args, **kwargs):
    torch.save(*args, **kwargs)


def train_one_epoch(model, loader, optimizer):
    model.train()
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


@torch.no_grad()
def evaluate(loader, model):
    model.eval()
    correct = 0
    for x, y in loader:
        correct += (model(x).argmax(1) == y).sum().item()
    return {"acc1": 100.0 * correct / len(loader.dataset)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--examples", type=int, default=2048)
    parser.add_argument("--val", type=int, default=2048)
    parser.add_argument("--features", type=int, default=64)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--eval", action="store_true")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.manual_seed(0)
    n = args.examples + args.val
    x = torch.randn(n, args.features)
    y = (x[:, :2].sum(1) > 0).long()
    train_loader = DataLoader(TensorDataset(x[:args.examples],
                                            y[:args.examples]),
                              batch_size=32, shuffle=True)
    val_loader = DataLoader(TensorDataset(x[args.examples:],
                                          y[args.examples:]), batch_size=32)
    model = nn.Sequential(nn.Linear(args.features, args.hidden), nn.ReLU(),
                          nn.Dropout(0.2), nn.Linear(args.hidden, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    if args.eval:
        print(evaluate(val_loader, model))
        return
    max_accuracy = 0.0
    for epoch in range(args.epochs):
        train_one_epoch(model, train_loader, optimizer)
        save_on_master({"model": model.state_dict(),
                        "optimizer": optimizer.state_dict(),
                        "epoch": epoch}, args.out)
        test_stats = evaluate(val_loader, model)
        if max_accuracy < test_stats["acc1"]:
            max_accuracy = test_stats["acc1"]
            save_on_master({"model": model.state_dict(),
                            "optimizer": optimizer.state_dict(),
                            "epoch": epoch}, args.out + ".best")


if __name__ == "__main__":
    main()
