"""A script whose training and validation loops live in a package it
imports (RepDistiller's train_teacher.py with `helper/loops.py` and
`dataset/cifar100.py`; DeiT's, MAE's and DETR's `engine.py`): the loops
return tuples the script unpacks, the loaders are built by the package,
and the regular checkpoint saves a dict built just before it that reads
the validation accuracy. Resuming stopped with exit 3 at the package's
loop with the session-60 first binary (test/e2e/kill_resume.py).

usage: train.py --out FILE [--epochs N] [--workers N]"""
import argparse

import torch
import torch.nn as nn

from helpers.data import make_loaders
from helpers.loops import train, validate

parser = argparse.ArgumentParser()
parser.add_argument("--out", required=True)
parser.add_argument("--epochs", type=int, default=4)
parser.add_argument("--workers", type=int, default=2)
opt = parser.parse_args()


def main():
    best_acc = 0.0
    torch.manual_seed(0)
    train_loader, val_loader = make_loaders(8, opt.workers)
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Dropout(0.3),
                          nn.Linear(16, 3))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(1, opt.epochs + 1):
        train_acc, train_loss = train(epoch, train_loader, model, optimizer)
        test_acc, _ = validate(val_loader, model)
        print("epoch %d loss %.4f acc %.3f" % (epoch, train_loss, test_acc))
        if test_acc > best_acc:
            best_acc = test_acc
        state = {
            'epoch': epoch,
            'model': model.state_dict(),
            'accuracy': test_acc,
            'optimizer': optimizer.state_dict(),
        }
        torch.save(state, opt.out)
    state = {'opt': opt, 'model': model.state_dict(), 'best': best_acc}
    torch.save(state, opt.out)


if __name__ == '__main__':
    main()
