"""Training in the shape of facebookresearch/deit's main.py: both
checkpoints go through a helper (`utils.save_on_master(*args, **kwargs)`),
the regular one each epoch and the best one behind `if max_accuracy <
test_stats["acc1"]:`, after `test_stats = evaluate(...)`; `evaluate` is
also called before the loop (`--eval`). --out is the best checkpoint (and
the final state, written there at the end): a killed run resumes from the
best one.

Whether the best save runs depends on the accuracy, which only the
training decides. Through the helper, the session-64 first binary did not
log that test: fast-forward evaluated it on its untrained model and
announced the best checkpoint every epoch, so a resume from it restored
at another epoch than the run's (exit 3 at the next pass over the
training loader).

usage: best_helper_train.py [--workers N] [--epochs N] [--eval] --out FILE"""
import argparse
import time

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
        time.sleep(0.01)  # so that a kill lands inside the loop


@torch.no_grad()
def evaluate(loader, model):
    model.eval()
    correct = 0
    for x, y in loader:
        correct += (model(x).argmax(1) == y).sum().item()
    return {"acc1": 100.0 * correct / len(loader.dataset)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--eval", action="store_true")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.manual_seed(0)
    x = torch.randn(96, 6)
    y = (x[:, :2].sum(1) > 0).long()
    train_loader = DataLoader(TensorDataset(x[:64], y[:64]), batch_size=8,
                              shuffle=True, num_workers=args.workers)
    val_loader = DataLoader(TensorDataset(x[64:], y[64:]), batch_size=8,
                            shuffle=True, num_workers=args.workers)
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Dropout(0.3),
                          nn.Linear(16, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    if args.eval:
        print(evaluate(val_loader, model))
        return
    max_accuracy = 0.0
    for epoch in range(args.epochs):
        train_one_epoch(model, train_loader, optimizer)
        save_on_master({"model": model.state_dict(),
                        "optimizer": optimizer.state_dict(),
                        "epoch": epoch}, args.out + ".last")
        test_stats = evaluate(val_loader, model)
        print("epoch %d: %s" % (epoch, test_stats))
        if max_accuracy < test_stats["acc1"]:
            max_accuracy = test_stats["acc1"]
            save_on_master({"model": model.state_dict(),
                            "optimizer": optimizer.state_dict(),
                            "epoch": epoch}, args.out)
    torch.save({"model": model.state_dict(), "max_accuracy": max_accuracy},
               args.out)


if __name__ == "__main__":
    main()
