"""Training in the shape of facebookresearch/mixup-cifar10's train.py:
module-level globals; `train(epoch)` mixes each batch (numpy's Beta draw,
a permutation) and reports through a utils module's `progress_bar(i, n,
'Loss: %.3f' % (train_loss / (i + 1)))`; `test(epoch)` computes `acc`
and calls `checkpoint(acc, epoch)` at the last epoch or when the accuracy
improves, then reads `acc` again; `checkpoint` saves the whole model, the
accuracy, the epoch and torch's generator state in one dict.

Resuming it failed three ways (the session-73 first binary): the progress
bar's message read values fast-forward does not compute
(UnboundLocalError); `acc` was restored as the helper's parameter only,
and test() read its own unbound `acc` after the call (UnboundLocalError);
and the whole-model entry was rebound to the unpickled copy while the
optimizer stepped the script's own model: the resumed run exited 0 with
other weights.

usage: mixup_best_train.py [--epochs N] --out FILE"""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from progress_util import progress_bar

parser = argparse.ArgumentParser()
parser.add_argument('--epochs', type=int, default=4)
parser.add_argument('--alpha', type=float, default=1.0)
parser.add_argument('--out', required=True)
args = parser.parse_args()

best_acc = 0
torch.manual_seed(2)
np.random.seed(2)
train_set = TensorDataset(torch.randn(64, 6), torch.arange(64) % 3)
test_set = TensorDataset(torch.randn(48, 6), torch.arange(48) % 3)
trainloader = DataLoader(train_set, batch_size=8, shuffle=True)
testloader = DataLoader(test_set, batch_size=16, shuffle=False)
net = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Dropout(0.3),
                    nn.Linear(16, 3))
optimizer = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)


def mixup_data(x, y, alpha=1.0):
    lam = np.random.beta(alpha, alpha) if alpha > 0 else 1
    index = torch.randperm(x.size(0))
    return lam * x + (1 - lam) * x[index, :], y, y[index], lam


def train(epoch):
    net.train()
    train_loss = 0
    for batch_idx, (inputs, targets) in enumerate(trainloader):
        inputs, targets_a, targets_b, lam = mixup_data(inputs, targets,
                                                       args.alpha)
        outputs = net(inputs)
        loss = (lam * F.cross_entropy(outputs, targets_a) +
                (1 - lam) * F.cross_entropy(outputs, targets_b))
        train_loss += loss.item()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        progress_bar(batch_idx, len(trainloader),
                     'Loss: %.3f' % (train_loss / (batch_idx + 1)))
    return train_loss / (batch_idx + 1)


def test(epoch):
    global best_acc
    net.eval()
    correct = 0
    total = 0
    for batch_idx, (inputs, targets) in enumerate(testloader):
        outputs = net(inputs)
        _, predicted = torch.max(outputs.data, 1)
        total += targets.size(0)
        correct += predicted.eq(targets).sum().item()
        progress_bar(batch_idx, len(testloader),
                     'Acc: %.3f%% (%d/%d)' % (100. * correct / total,
                                              correct, total))
    acc = 100. * correct / total
    if epoch == args.epochs - 1 or acc > best_acc:
        checkpoint(acc, epoch)
    if acc > best_acc:
        best_acc = acc
    return acc


def checkpoint(acc, epoch):
    print('Saving..')
    state = {
        'net': net,
        'acc': acc,
        'epoch': epoch,
        'rng_state': torch.get_rng_state()
    }
    torch.save(state, args.out)


for epoch in range(args.epochs):
    train_loss = train(epoch)
    test_acc = test(epoch)
    print('epoch %d loss %.4f acc %.2f' % (epoch, train_loss, test_acc))
