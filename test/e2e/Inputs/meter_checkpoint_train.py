"""Training in the shape of xternalz/WideResNet-pytorch's train.py: each
epoch `train()`, then `prec1 = validate()` whose accuracy is kept in an
AverageMeter (`top1.update(prec1.item(), n)`, an expression argument),
`is_best = prec1 > best_prec1`, and a `save_checkpoint(state, is_best)`
helper that copies the best checkpoint after saving it.

The meter's expression argument did not reach its parameter in the
statement graph, so `is_best` (read by the helper after the save) seemed
re-derivable without the forward: fast-forward re-ran `top1.update`
without computing `prec1`, and the resume crashed (the session-58
binary: "cannot access local variable 'prec1'"). `is_best` is now
derived from the validation's forward, and saved in the sidecar.

usage: meter_checkpoint_train.py [--workers N] [--epochs N] --out FILE"""
import argparse
import shutil
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class AverageMeter:
    def __init__(self):
        self.reset()

    def reset(self):
        self.val, self.avg, self.sum, self.count = 0, 0, 0, 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count


def accuracy(output, target):
    return (output.argmax(1) == target).float().mean() * 100


def train(train_loader, model, criterion, optimizer):
    model.train()
    for inputs, target in train_loader:
        output = model(inputs)
        loss = criterion(output, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        time.sleep(0.01)  # so that a kill lands inside the loop


def validate(val_loader, model, criterion):
    top1 = AverageMeter()
    model.eval()
    for i, (inputs, target) in enumerate(val_loader):
        with torch.no_grad():
            output = model(inputs)
        prec1 = accuracy(output.data, target)
        top1.update(prec1.item(), inputs.size(0))
    return top1.avg


def save_checkpoint(state, is_best, filename='checkpoint.pth.tar'):
    """Saves checkpoint to disk"""
    torch.save(state, filename)
    if is_best:
        best = filename + '.best'
        shutil.copyfile(filename, best)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--workers', type=int, default=2)
    parser.add_argument('--epochs', type=int, default=4)
    parser.add_argument('--out', required=True)
    args = parser.parse_args()
    torch.manual_seed(3)
    points = torch.randn(90, 5)
    classes = (points[:, 0] > points[:, 1]).long()
    train_set = TensorDataset(points[:60], classes[:60])
    val_set = TensorDataset(points[60:], classes[60:])
    train_loader = DataLoader(train_set, batch_size=10, shuffle=True,
                              num_workers=args.workers)
    val_loader = DataLoader(val_set, batch_size=10, num_workers=args.workers)
    model = nn.Sequential(nn.Linear(5, 12), nn.Tanh(), nn.Dropout(0.25),
                          nn.Linear(12, 2))
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    best_prec1 = 0
    for epoch in range(args.epochs):
        train(train_loader, model, criterion, optimizer)
        prec1 = validate(val_loader, model, criterion)
        is_best = prec1 > best_prec1
        best_prec1 = max(prec1, best_prec1)
        save_checkpoint({
            'epoch': epoch + 1,
            'state_dict': model.state_dict(),
            'best_prec1': best_prec1,
        }, is_best, filename=args.out)


if __name__ == '__main__':
    main()
