"""Training in the shape of kuangliu/pytorch-cifar's main.py: everything
at module level, `train(epoch)` and `test(epoch)` functions over module
globals, a CosineAnnealingLR stepped after both, and the only checkpoint
inside `test(epoch)` behind `if acc > best_acc:` (a global), after a
validation pass under `torch.no_grad()` over `enumerate(testloader)`.

Whether the save runs depends on the accuracy, which only the training
decides: resuming from it crashed before (the session-58 binary: fast-
forward ran the training loop on placeholder batches, "TypeError: cannot
unpack non-iterable Skipped object"). The run now logs the test's
decisions in its sidecars and fast-forward takes them from there.

usage: best_checkpoint_train.py [--workers N] [--epochs N] --out FILE"""
import argparse
import time

import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader

from points_data import Points

parser = argparse.ArgumentParser()
parser.add_argument('--workers', type=int, default=2)
parser.add_argument('--epochs', type=int, default=5)
parser.add_argument('--out', required=True)
args = parser.parse_args()

best_acc = 0  # best test accuracy
start_epoch = 0


torch.manual_seed(0)
trainloader = DataLoader(Points(64, True), batch_size=8, shuffle=True,
                         num_workers=args.workers)
testloader = DataLoader(Points(24, False), batch_size=8, shuffle=False,
                        num_workers=args.workers)

net = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Dropout(0.3),
                    nn.Linear(16, 3))
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.05, momentum=0.9,
                      weight_decay=5e-4)
scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=8)


def train(epoch):
    print('\nEpoch: %d' % epoch)
    net.train()
    train_loss = 0
    for batch_idx, (inputs, targets) in enumerate(trainloader):
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, targets)
        loss.backward()
        optimizer.step()
        time.sleep(0.01)  # so that a kill lands inside the loop
        train_loss += loss.item()
    print('train loss %.3f' % (train_loss / (batch_idx + 1)))


def test(epoch):
    global best_acc
    net.eval()
    correct = 0
    total = 0
    with torch.no_grad():
        for batch_idx, (inputs, targets) in enumerate(testloader):
            outputs = net(inputs)
            _, predicted = outputs.max(1)
            total += targets.size(0)
            correct += predicted.eq(targets).sum().item()

    # Save checkpoint.
    acc = 100. * correct / total
    if acc > best_acc:
        print('Saving..')
        state = {
            'net': net.state_dict(),
            'acc': acc,
            'epoch': epoch,
        }
        torch.save(state, args.out)
        best_acc = acc


for epoch in range(start_epoch, start_epoch + args.epochs):
    train(epoch)
    test(epoch)
    scheduler.step()
